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

[[ -n "${COUNTS_ONLY:-}" ]] && exit 0

# CPU time per read, on 1 thread and on 2 (user + system time of the whole process, over two
# runs of CPU_N1 and CPU_N2 reads). On a loaded machine two threads may not get two cores, and
# wall-clock throughput then says nothing; CPU time per read still shows what the threads cost
# each other (shared cache lines, locks). "Implied" is 2 × (1-thread CPU time per read) /
# (2-thread CPU time per read): the 2-thread throughput when both threads have a core.
CPU_N1="${CPU_N1:-500000}"
CPU_N2="${CPU_N2:-2500000}"
cpu_seconds() {
  local TIMEFORMAT='%U %S'
  { time "$BIN" --filter "$1" --iterations "$2" >/dev/null 2>&1; } 2>&1 | awk '{ print $1 + $2 }'
}
printf '| case (debug build) | CPU ns/read, 1 thread | CPU ns/read, 2 threads | implied 2-thread throughput |\n'
printf '|---|---:|---:|---:|\n'
for case in scaling.value.default scaling.value.by-key scaling.value.key-path scaling.default; do
  one_a="$(cpu_seconds "$case.1-thread" "$CPU_N1")"
  one_b="$(cpu_seconds "$case.1-thread" "$CPU_N2")"
  two_a="$(cpu_seconds "$case.2-threads" "$CPU_N1")"
  two_b="$(cpu_seconds "$case.2-threads" "$CPU_N2")"
  awk -v id="$case" -v a="$one_a" -v b="$one_b" -v c="$two_a" -v d="$two_b" \
    -v n="$((CPU_N2 - CPU_N1))" 'BEGIN {
    one = (b - a) / n * 1e9; two = (d - c) / n * 1e9
    printf "| `%s` | %.0f | %.0f | %.2f× |\n", id, one, two, 2 * one / two
  }'
done
echo

# Wall-clock throughput, with raw task-local reads first: what the machine gives two threads
# at the time of the run.
"$BIN" --filter scaling.value.task-local.2-threads,scaling.value.key-path.2-threads,scaling.default.2-threads,scaling.value.default.2-threads,scaling.value.by-key.2-threads \
  --repetitions "${REPETITIONS:-9}"
