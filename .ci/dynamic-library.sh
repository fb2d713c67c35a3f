#!/usr/bin/env bash
# Links the library dynamically into a client of another module and runs it, in debug and in
# release. Reads are inlined into the client's code, and what they inline must find its symbols
# in the shared library: a symbol the library leaves hidden (an internal Swift function that C
# code calls, say) links statically and fails here. The package declares no dynamic product, so
# a copy of it with one is made in a temporary folder. Only the release build inlines the reads
# across the module boundary, so it is the build that tests the exported symbols; the debug build
# checks that the dynamic product links and runs at all.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The copy's folder must be named Injection: a package's identity is its folder's name, and the
# client depends on the package `Injection`.
mkdir -p "$work/Injection"
cp -R "$root/Package.swift" "$root/Sources" "$root/Tests" "$work/Injection/"
python3 - "$work/Injection/Package.swift" <<'PY'
import sys
path = sys.argv[1]
text = open(path).read()
line = '    .library(name: "Injection", targets: ["Injection"]),\n'
if line not in text:
    sys.exit(f"error: {path}: the Injection product line was not found")
text = text.replace(line, line + '    .library(name: "InjectionDynamic", type: .dynamic, targets: ["Injection"]),\n', 1)
open(path, "w").write(text)
PY

cp -R "$root/.ci/dynamic-library" "$work/client"
sed -i.orig "s|__INJECTION_PATH__|$work/Injection|" "$work/client/Package.swift"
cd "$work/client"
for configuration in debug release; do
  swift build -c "$configuration" -Xswiftc -warnings-as-errors
  bin="$(swift build -c "$configuration" --show-bin-path)/DynamicClient"
  # The linker's list is captured before it is matched: `grep -q` stops at the first match, and
  # under pipefail a pipe into it could fail when the writer is cut off mid-way.
  libraries="$(ldd "$bin" 2>/dev/null || otool -L "$bin" 2>/dev/null || true)"
  if [[ "$libraries" != *libInjectionDynamic* ]]; then
    echo "error: $bin does not link libInjectionDynamic" >&2
    exit 1
  fi
  output="$("$bin")"
  expected="$(printf 'Hello Hello\nHi Hi')"
  if [ "$output" != "$expected" ]; then
    echo "error: the $configuration client printed:" >&2
    echo "$output" >&2
    exit 1
  fi
  echo "dynamic library, $configuration: the client links it and reads through it"
done
