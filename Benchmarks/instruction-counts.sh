#!/usr/bin/env bash
# Prints instructions and retain/release calls per operation for the benchmark cases, counted
# by callgrind, each beside its baseline's.
#
# Usage: Benchmarks/instruction-counts.sh [CASE_ID ...]   (from any folder)
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
# Retain/release calls per operation are the same difference over the calls to swift_retain,
# swift_release, swift_bridgeObjectRetain, swift_bridgeObjectRelease,
# swift_unknownObjectRetain, swift_unknownObjectRelease and their `_n` forms, summed from the
# `calls=` lines of callgrind's output file. A call from one of these functions to another
# (the runtime forwarding a bridge-object retain to swift_retain) is not counted again; a
# release made while an object is deallocated is.
#
# The baseline of each case comes from `InjectionBenchmarks --list` (run on demand when it
# is not in the list); "ratio" is the case's instructions per operation over the baseline's.
# Where a case's target is stated in instructions, the last column judges it.
#
# Environment: BIN overrides the benchmark binary (by default it is built in release mode
# in this package's .build; either way a copy stripped of debug information runs); N1, N2 and
# REQUEST_N1, REQUEST_N2 override the operation counts.
set -euo pipefail
cd "$(dirname "$0")"

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
# A request is a scope with two or three overrides and ten reads (in the per-request
# simulation, a task each): fewer of them are enough.
REQUEST_N1="${REQUEST_N1:-1000}"
REQUEST_N2="${REQUEST_N2:-6000}"

# Left out: the cases of a fixed large size (chain.one-million-writes*), the one that runs
# only in child processes (memory.global.distinct-keys), and the shape matrix (shape.*, 74
# cases; Docs/Performance.md, "Where the wrapper lives", gives the command). Name them to count
# them.
cases=("$@")
if [[ ${#cases[@]} -eq 0 ]]; then
  cases=(
    baseline.static-let
    baseline.task-local
    baseline.task-local.bound
    baseline.with-value
    baseline.with-value.async
    read.default
    read.default.injected
    read.overridden
    read.overridden.injected
    read.overridden.64-overrides
    read.overridden.10-scopes
    read.lazy.built
    read.default.other-key-global
    scope.enter.1-override
    scope.enter.async.1-override
    scope.enter.lazy
    scope.enter.8-overrides
    scope.snapshot
    scope.bind.snapshot.4-writes
    scope.bind.snapshot.64-writes
    scope.reenter.snapshot.4-writes
    scope.reenter.snapshot.64-writes
    scope.enter.visible-4.flat
    scope.enter.visible-250.flat
    scope.enter.visible-4.nested
    scope.enter.visible-250.nested
    scope.enter.visible-4.trap
    scope.enter.visible-250.trap
    scope.enter.visible-4.snapshot
    scope.enter.visible-250.snapshot
    scaling.global.1-thread
    scaling.global.2-threads
    request.sync.task-local
    request.sync.scope
    request.sync.scope.injected
    request.async.task-local
    request.async.scope
    request.async.scope.injected
    request.task-local
    request.scope
    request.scope.injected
  )
fi

# Each case's baseline and the bound of its target in instructions, from the tool's list:
# id, title, baseline, bound, tab-separated.
declare -A baseline_of bound_of
while IFS=$'\t' read -r id _ baseline bound; do
  baseline_of["$id"]="$baseline"
  bound_of["$id"]="$bound"
done < <("$BIN" --list)

# Sums the retain and release calls in a callgrind output file. Function names are
# compressed: `fn=(12) name` the first time, `fn=(12)` after; `cfn=` names the callee of the
# `calls=COUNT ...` line that follows; `'2` marks a recursion level.
cat >"$work/retains.awk" <<'AWK'
function function_name(text,   id, rest) {
  if (text !~ /^\(/) return text
  match(text, /^\([0-9]+\)/)
  id = substr(text, 2, RLENGTH - 2)
  rest = substr(text, RLENGTH + 2)
  if (rest != "") names[id] = rest
  return names[id]
}
function base(name) { sub(/'[0-9]+$/, "", name); return name }
BEGIN {
  split("swift_retain swift_release swift_bridgeObjectRetain swift_bridgeObjectRelease " \
        "swift_unknownObjectRetain swift_unknownObjectRelease", kinds, " ")
  for (i in kinds) { counted[kinds[i]] = 1; counted[kinds[i] "_n"] = 1 }
}
/^fn=/ { caller = base(function_name(substr($0, 4))); next }
/^cfn=/ { callee = base(function_name(substr($0, 5))); next }
/^calls=/ {
  split(substr($0, 7), fields, " ")
  if ((callee in counted) && !(caller in counted)) total += fields[1]
}
END { print total + 0 }
AWK

# Prints the instruction total and the retain/release calls of one run of a case.
run() {
  local log="$work/log" out="$work/callgrind.out"
  if ! valgrind --tool=callgrind --callgrind-out-file="$out" \
    "$BIN" --filter "$1" --iterations "$2" >/dev/null 2>"$log"; then
    return 1
  fi
  local collected
  collected="$(awk '/Collected/ { print $NF }' "$log")"
  [[ -n "$collected" ]] || return 1
  echo "$collected $(awk -f "$work/retains.awk" "$out")"
}

# Counts a case (once): sets instructions_of[id] and retains_of[id], per operation.
declare -A instructions_of retains_of
count() {
  local id="$1" small large first second
  [[ -n "${instructions_of[$id]:-}" ]] && return 0
  if [[ "$id" == request.* ]]; then
    small="$REQUEST_N1" large="$REQUEST_N2"
  else
    small="$N1" large="$N2"
  fi
  if ! first="$(run "$id" "$small")" || ! second="$(run "$id" "$large")"; then
    echo "callgrind failed for $id" >&2
    exit 1
  fi
  read -r instructions_of["$id"] retains_of["$id"] < <(
    awk -v a="$first" -v b="$second" -v n="$((large - small))" 'BEGIN {
      split(a, x, " "); split(b, y, " ")
      retains = (y[2] - x[2]) / n
      # Rounded to a tenth here, so that a start-up difference of a call or two prints 0.0.
      retains = int(retains * 10 + (retains < 0 ? -0.5 : 0.5)) / 10
      printf "%.0f %.1f\n", (y[1] - x[1]) / n, retains
    }'
  )
}

printf '| case | instructions/op | retains+releases/op | baseline | baseline instructions/op'
printf ' | ratio | target in instructions |\n'
printf '|---|---:|---:|---|---:|---:|---|\n'
for case in "${cases[@]}"; do
  count "$case"
  baseline="${baseline_of[$case]:-}"
  bound="${bound_of[$case]:-}"
  if [[ -z "$baseline" ]]; then
    printf '| `%s` | %d | %s | | | | |\n' \
      "$case" "${instructions_of[$case]}" "${retains_of[$case]}"
    continue
  fi
  count "$baseline"
  awk -v id="$case" -v ir="${instructions_of[$case]}" -v rr="${retains_of[$case]}" \
    -v base="$baseline" -v base_ir="${instructions_of[$baseline]}" -v bound="$bound" 'BEGIN {
      ratio = base_ir > 0 ? ir / base_ir : 0
      verdict = ""
      if (bound ~ /^<=/) {
        limit = substr(bound, 3) + 0
        verdict = sprintf("≤ %g×: **%s**", limit, ratio <= limit ? "met" : "missed")
      } else if (bound ~ /^>=/) {
        limit = substr(bound, 3) + 0
        verdict = sprintf("≥ %g×: **%s**", limit, ratio >= limit ? "met" : "missed")
      }
      printf "| `%s` | %d | %s | `%s` | %d | %.2f× | %s |\n", id, ir, rr, base, base_ir, ratio, verdict
    }'
done
