#!/usr/bin/env bash
# Runs the model-based test (Tests/InjectionTests/ModelTests.swift) in a release build for at
# least 100,000 scopes (or INJECTION_MODEL_SCOPES of them): random programs of scopes, update
# closures, values built on first use, snapshots, GCD blocks and global writes, each read checked
# against a reference model. The unit-test run keeps a few thousand scopes.
set -euo pipefail
cd "$(dirname "$0")/.."
export INJECTION_MODEL_SCOPES="${INJECTION_MODEL_SCOPES:-100000}"
# The two other suites hold update closures that assign `$0` or read it back after seed-style
# writes, many times over.
suites='ModelTests|CurrentInUpdateClosureTests|ReadingBackInUpdateClosureTests'
swift test -c release --scratch-path .build/release-tests --filter "$suites" 2>&1 \
  | grep -E "Model:|✘|Test run|error" 
