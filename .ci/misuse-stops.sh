#!/usr/bin/env bash
# Builds .ci/misuse-stops in release and runs each misuse case in a process of its own: every one
# must stop (non-zero exit) with the library's message on standard error. `preconditionFailure`
# would stop silently in such a build; the library uses `fatalError` for misuse.
set -euo pipefail
cd "$(dirname "$0")/misuse-stops"

swift build -c release -Xswiftc -warnings-as-errors
bin="$(swift build -c release --show-bin-path)/MisuseStops"

# case name, then a fragment the message must contain.
expectations=(
  "lazy-reads-no-key|needs an accessor whose getter reads one key"
  "lazy-reads-other-type|whose getter reads PortKey, a key of Int"
  "sync-scope-async-teardown|has an asynchronous teardown, which a synchronous withInjectedValues cannot wait for"
  "getter-writes-while-probed|run to find the keys it reads, wrote PortKey"
  "lazy-read-before-scope|was read before its scope started"
  "lazy-read-after-scope|was read after its scope ended"
  "lazy-factory-reads-itself|dependency cycle detected: ConnectionKey → ConnectionKey"
  "defaults-read-each-other|dependency cycle detected: PrimaryKey → SecondaryKey → PrimaryKey"
  "lazy-in-global-write|declares ConnectionKey with lazy(_:_:), but it was called to set a global value"
  "injected-assigned-through-view|its accessor on InjectedValues is get-only"
  "injected-main-actor-accessor-off-main|isolated to the main actor was read or written off the main actor"
)

listed="$("$bin" | sort)"
expected="$(for e in "${expectations[@]}"; do echo "${e%%|*}"; done | sort)"
if [ "$listed" != "$expected" ]; then
  echo "error: the executable's cases and this script's expectations differ" >&2
  diff <(echo "$listed") <(echo "$expected") >&2 || true
  exit 1
fi

failures=0
for expectation in "${expectations[@]}"; do
  name="${expectation%%|*}"
  fragment="${expectation#*|}"
  set +e
  # A misuse that hangs instead of stopping is a failure too: `timeout` ends it (exit 124).
  stderr="$(timeout 30 "$bin" "$name" 2>&1 >/dev/null)"
  status=$?
  set -e
  if [ "$status" -eq 124 ]; then
    echo "FAIL $name: hung for 30 seconds instead of stopping"
    failures=$((failures + 1))
  elif [ "$status" -eq 0 ] || [ "$status" -eq 3 ]; then
    echo "FAIL $name: did not stop (exit $status)"
    failures=$((failures + 1))
  elif [[ "$stderr" != *"Injection: "*"$fragment"* ]]; then
    echo "FAIL $name: stopped (exit $status) without the library's message; stderr was:"
    echo "$stderr" | head -5
    failures=$((failures + 1))
  else
    echo "ok   $name: $(echo "$stderr" | grep -m1 -o 'Injection: .*' | cut -c1-110)"
  fi
done
total=${#expectations[@]}
echo "misuse stops: $((total - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
