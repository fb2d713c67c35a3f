#!/usr/bin/env bash
# Prints instructions per operation for the main benchmark cases, counted by callgrind.
#
# Usage: Docs/Benchmarks/instruction-counts.sh [CASE_ID ...]
#
# Each case runs twice under `valgrind --tool=callgrind`, with `--iterations N1` and
# `--iterations N2`; the benchmark tool runs exactly that many operations, without warm-up or
# calibration. Start-up and one-time work are the same in both runs, so
#
#     instructions per operation = (Collected(N2) - Collected(N1)) / (N2 - N1)
#
# where Collected is callgrind's total for the whole process. The counts include the
# benchmark loop itself (about 40–60 instructions: the loop, the call of the dependency's
# method, the black hole). Instruction counts do not depend on machine load, unlike times.
#
# Environment: BIN overrides the benchmark binary (by default it is built in release mode
# under .build; either way a copy stripped of debug information runs); N1, N2 and REQUEST_N1, REQUEST_N2 override the operation counts.
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! command -v valgrind >/dev/null; then
  echo "valgrind is not installed" >&2
  exit 1
fi

if [[ -z "${BIN:-}" ]]; then
  swift build -c release --product InjectionBenchmarks >&2
  BIN="$(swift build -c release --show-bin-path)/InjectionBenchmarks"
fi

# valgrind 3.19 gives up on the DWARF 5 debug information of the library's C target: run a
# copy stripped of debug information (symbols stay, so callgrind still names functions).
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if command -v strip >/dev/null && strip -g "$BIN" -o "$work/InjectionBenchmarks"; then
  BIN="$work/InjectionBenchmarks"
fi

N1="${N1:-20000}"
N2="${N2:-120000}"
# A simulated request is a task with a scope and ten reads: fewer of them are enough.
REQUEST_N1="${REQUEST_N1:-1000}"
REQUEST_N2="${REQUEST_N2:-6000}"

cases=("$@")
if [[ ${#cases[@]} -eq 0 ]]; then
  cases=(
    baseline.static-let
    baseline.task-local
    baseline.task-local.bound
    baseline.with-value
    read.default
    read.default.injected
    read.overridden
    read.overridden.injected
    read.overridden.64-overrides
    read.overridden.10-scopes
    read.default.other-key-global
    scope.enter.1-override
    scope.enter.8-overrides
    scope.snapshot
    request.task-local
    request.scope
    request.scope.injected
  )
fi

# Prints callgrind's instruction total for one run of a case.
collected() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null \
    "$BIN" --filter "$1" --iterations "$2" 2>&1 >/dev/null |
    awk '/Collected/ { print $NF }'
}

printf '| case | instructions/op |\n|---|---:|\n'
for case in "${cases[@]}"; do
  if [[ "$case" == request.* ]]; then
    small="$REQUEST_N1" large="$REQUEST_N2"
  else
    small="$N1" large="$N2"
  fi
  first="$(collected "$case" "$small")"
  second="$(collected "$case" "$large")"
  if [[ -z "$first" || -z "$second" ]]; then
    echo "callgrind failed for $case" >&2
    exit 1
  fi
  awk -v id="$case" -v a="$first" -v b="$second" -v n="$((large - small))" \
    'BEGIN { printf "| `%s` | %d |\n", id, (b - a) / n + 0.5 }'
done
