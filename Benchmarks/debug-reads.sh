#!/usr/bin/env bash
# Debug-build default reads, where cycle detection runs: per read, the allocations and the
# pthread lock calls, then the throughput of default reads on 1 and on 2 threads.
#
# Usage: Benchmarks/debug-reads.sh   (from any folder; Linux with glibc, for the counts)
#
# The benchmark tool is built in debug mode (`-Onone`, `DEBUG` defined, as tests are built).
# The counts come from counting-shim.c, loaded with LD_PRELOAD, over two runs of a case with
# `--iterations N1` and `--iterations N2`:
#
#     calls per read = (calls(N2) - calls(N1)) / (N2 - N1)
#
# The throughput comes from the tool's scaling cases, run as usual (warm-up, calibration,
# repetitions), each 2-thread case beside its 1-thread baseline. Debug figures say how tests
# and debug runs scale; release figures are in Docs/Performance.md.
#
# Environment: BIN overrides the benchmark binary (built in debug mode); N1, N2 override the
# operation counts, REPETITIONS the measurements per case; COUNTS_ONLY=1 skips the throughput.
set -euo pipefail
cd "$(dirname "$0")"

if [[ -z "${BIN:-}" ]]; then
  swift build -c debug --product InjectionBenchmarks >&2
  BIN="$(swift build -c debug --show-bin-path)/InjectionBenchmarks"
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cc -O2 -shared -fPIC -o "$work/counting-shim.so" counting-shim.c -ldl

N1="${N1:-20000}"
N2="${N2:-120000}"

# Prints "allocations mutex-locks rwlock-locks" for one run of a case.
calls() {
  LD_PRELOAD="$work/counting-shim.so" "$BIN" --filter "$1" --iterations "$2" 2>&1 >/dev/null |
    awk '/^counting-shim:/ { print $3, $5, $7 }'
}

printf '| case (debug build) | allocations/read | pthread_mutex_lock/read | rwlock locks/read |\n'
printf '|---|---:|---:|---:|\n'
for case in read.default read.default.injected read.default.other-key-global; do
  first="$(calls "$case" "$N1")"
  second="$(calls "$case" "$N2")"
  awk -v id="$case" -v a="$first" -v b="$second" -v n="$((N2 - N1))" 'BEGIN {
    split(a, x, " "); split(b, y, " ")
    printf "| `%s` | %.2f | %.2f | %.2f |\n", id, (y[1] - x[1]) / n, (y[2] - x[2]) / n,
      (y[3] - x[3]) / n
  }'
done
echo

# Raw task-local reads first: what the machine gives two threads at the time of the run.
[[ -n "${COUNTS_ONLY:-}" ]] && exit 0
"$BIN" --filter scaling.value.task-local.2-threads,scaling.default.2-threads,scaling.value.default.2-threads \
  --repetitions "${REPETITIONS:-9}"
