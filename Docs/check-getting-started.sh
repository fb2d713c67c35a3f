#!/usr/bin/env bash
# Follows Docs/GettingStarted.md as a reader would, so that the guide cannot drift from what
# builds. Usage: bash Docs/check-getting-started.sh
#
# Each Swift block of the guide goes, as printed, into the one file that the paragraph right
# before it names in backquotes (`Package.swift`, `Sources/…/X.swift`, `Tests/…/Y.swift`), in
# a new package in a temporary folder. The one change: the manifest's
# `.package(url: "…/injection.git", branch: "main")` becomes `.package(path: …)`, to a link named
# `injection` (a path dependency's identity is its folder's name) that points at this checkout.
# Then `swift build --build-tests` (warnings are errors) and `swift test` must pass, and run at
# least one test.
#
# A block whose paragraph names no file, or more than one, fails the check; so does a file named
# twice. Docs/check-samples.sh leaves this guide to this script.
set -euo pipefail
cd "$(dirname "$0")/.."

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
ln -s "$(pwd)" "$work/injection"
mkdir "$work/package"

python3 - Docs/GettingStarted.md "$work/package" "$work/injection" <<'PY'
import os, re, sys
guide, package, checkout = sys.argv[1:]
lines = open(guide, encoding="utf-8").read().split("\n")
errors, written, i = [], {}, 0
while i < len(lines):
    if lines[i].strip().startswith("```swift"):
        fence = i + 1
        # The paragraph right above the block: the lines up to the previous blank line.
        above, j = [], i - 1
        while j >= 0 and not lines[j].strip():
            j -= 1
        while j >= 0 and lines[j].strip():
            above.insert(0, lines[j])
            j -= 1
        names = sorted(set(re.findall(r"`([A-Za-z0-9_./-]+\.swift)`", " ".join(above))))
        i += 1
        start = i
        while i < len(lines) and lines[i].strip() != "```":
            i += 1
        body = "\n".join(lines[start:i]) + "\n"
        if len(names) != 1:
            errors.append(f"{guide}:{fence}: the paragraph above this block names "
                          f"{len(names)} Swift files ({', '.join(names) or 'none'}); it must name one")
        elif names[0].startswith("/") or ".." in names[0].split("/"):
            errors.append(f"{guide}:{fence}: {names[0]} is not a path inside the package")
        elif names[0] in written:
            errors.append(f"{guide}:{fence}: {names[0]} is named again (first at line "
                          f"{written[names[0]]})")
        else:
            name = names[0]
            written[name] = fence
            if name == "Package.swift":
                remote = r'\.package\(\s*url:\s*"[^"]*/injection\.git",\s*branch:\s*"main"\s*\)'
                body, count = re.subn(remote, f'.package(path: "{checkout}")', body)
                if count != 1:
                    errors.append(f"{guide}:{fence}: the manifest should depend on "
                                  f'.package(url: "…/injection.git", branch: "main") once')
            path = os.path.join(package, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            open(path, "w", encoding="utf-8").write(body)
    i += 1
if "Package.swift" not in written:
    errors.append(f"{guide}: no block goes into Package.swift")
if not any(name.startswith("Tests/") for name in written):
    errors.append(f"{guide}: no block goes into Tests/")
for error in errors:
    print(f"error: {error}", file=sys.stderr)
if errors:
    sys.exit(1)
for name, line in written.items():
    print(f"{guide}:{line}: {name}")
PY

cd "$work/package"
swift build --build-tests -Xswiftc -warnings-as-errors
swift test -Xswiftc -warnings-as-errors 2>&1 | tee "$work/test.log"
# Swift Testing prints "Test run with 1 test in 1 suite passed …"; zero tests would pass too.
if ! grep -Eq "Test run with [1-9][0-9]* tests? in [0-9]+ suites? passed" "$work/test.log"; then
  echo "error: the guide's tests did not run, or did not pass" >&2
  exit 1
fi
echo "check-getting-started: Docs/GettingStarted.md builds as printed, and its tests pass"
