#!/usr/bin/env bash
# Builds .ci/misuse-stops in release and runs each misuse case in a process of its own: every one
# must stop (non-zero exit) with the library's message on standard error. `preconditionFailure`
# would stop silently in such a build; the library uses `fatalError` for misuse.
set -euo pipefail
cd "$(dirname "$0")/misuse-stops"

swift build -c release --product MisuseStops -Xswiftc -warnings-as-errors
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
  "lazy-factories-read-each-other|dependency cycle detected: ConnectionKey → PortKey → ConnectionKey"
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

# Top-level code with `await` (Sources/TopLevelAwait): Swift 6.3 picks the synchronous scope
# function there for an operation that does not suspend, and warns. The asynchronous teardown
# must then stop the program with the message that explains it; if a later compiler picks the
# asynchronous form (no warning), the scope must run and tear the value down instead. Built
# apart: its warning is the point, and the other executable is built with warnings as errors.
log="$(mktemp)"
swift build -c release --product TopLevelAwait 2>&1 | tee "$log"
toplevel="$(swift build -c release --show-bin-path)/TopLevelAwait"
total=$((total + 2))
set +e
stderr="$(timeout 30 "$toplevel" 2>&1 >/dev/null)"
status=$?
stdout="$(timeout 30 "$toplevel" async-operation 2>/dev/null)"
async_status=$?
set -e
if grep -q "no 'async' operations occur within 'await' expression" "$log"; then
  if [ "$status" -ne 0 ] && [[ "$stderr" == *"Injection: "*"In top-level code, such as main.swift"* ]]; then
    echo "ok   top-level-await: the synchronous form was picked, and the stop explains it"
  else
    echo "FAIL top-level-await: exit $status without the message about top-level code; stderr was:"
    echo "$stderr" | head -5
    failures=$((failures + 1))
  fi
elif [ "$status" -eq 0 ] && [[ "$(timeout 30 "$toplevel")" == *"closed scoped"* ]]; then
  echo "ok   top-level-await: this compiler picks the asynchronous form (no warning)"
else
  echo "FAIL top-level-await: no warning, yet the scope did not run and tear down (exit $status)"
  failures=$((failures + 1))
fi
if [ "$async_status" -eq 0 ] && [[ "$stdout" == *"read scoped"*"closed scoped"* ]]; then
  echo "ok   top-level-await async-operation: { () async in … } runs the asynchronous form"
else
  echo "FAIL top-level-await async-operation: exit $async_status, output: $stdout"
  failures=$((failures + 1))
fi
rm -f "$log"

echo "misuse stops: $((total - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
