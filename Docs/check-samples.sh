#!/usr/bin/env bash
# Compiles every Swift code block in README.md, Docs/*.md and the DocC catalogs' articles, so a
# sample that stops compiling fails CI. Usage: bash Docs/check-samples.sh
#
# - The blocks of one Markdown file are joined, in order, into one `main.swift` and compiled
#   (type-checked and checked for data races, warnings as errors) against the package's
#   modules, in the Swift 6 language mode. Write each page's samples so that they build on one
#   another.
# - The articles of one DocC catalog (Sources/*/*.docc) are one module: their blocks are joined,
#   the landing page first, so the pages of a catalog cannot contradict each other.
# - A block that contains `import PackageDescription` is a package manifest: it is compiled
#   against the manifest API on its own.
# - A block right after a line `<!-- untested -->` is skipped. Only the Vapor and Hummingbird
#   snippets, whose packages cannot be fetched here, are marked so.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --target Injection --target InjectionTesting >/dev/null
bin="$(swift build --show-bin-path)"
modules="$bin/Modules"
# The C module that Injection's inlinable code uses (see Docs/Design.md).
cmodule=(-Xcc -fmodule-map-file="$bin/CInjectionSupport.build/module.modulemap"
  -Xcc -I -Xcc Sources/CInjectionSupport/include)
toolchain="$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 - "$work" README.md Docs/*.md Sources/*/*.docc <<'PY'
import glob, os, re, sys
work, paths = sys.argv[1], sys.argv[2:]

def pages(path):
    """The Markdown files that make one module: a page, or a catalog's articles."""
    if not os.path.isdir(path):
        return [path]
    landing = os.path.join(path, os.path.basename(path).replace(".docc", ".md"))
    rest = sorted(p for p in glob.glob(os.path.join(path, "**", "*.md"), recursive=True) if p != landing)
    return ([landing] if os.path.exists(landing) else []) + rest

for path in paths:
    lines, origins = [], []
    for page in pages(path):
        page_lines = open(page, encoding="utf-8").read().split("\n")
        lines += page_lines
        origins += [(page, n + 1) for n in range(len(page_lines))]
    blocks, skipped, i = [], 0, 0
    while i < len(lines):
        if lines[i].strip() == "```swift":
            untested = i > 0 and lines[i - 1].strip() == "<!-- untested -->"
            start = i + 1
            i += 1
            while lines[i].strip() != "```":
                i += 1
            body = "\n".join(lines[start:i])
            if untested:
                skipped += 1
            else:
                blocks.append((origins[start], body))
        i += 1
    name = re.sub(r"[^A-Za-z0-9]", "_", path)
    sources = [b for b in blocks if "import PackageDescription" not in b[1]]
    manifests = [b for b in blocks if "import PackageDescription" in b[1]]
    if sources:
        os.makedirs(os.path.join(work, name), exist_ok=True)
        with open(os.path.join(work, name, "main.swift"), "w") as out:
            for (page, line), body in sources:
                out.write(f'#sourceLocation(file: "{page}", line: {line})\n{body}\n#sourceLocation()\n')
    for index, ((page, line), body) in enumerate(manifests):
        directory = os.path.join(work, f"{name}_manifest{index}")
        os.makedirs(directory, exist_ok=True)
        with open(os.path.join(directory, "Package.swift"), "w") as out:
            out.write(f'#sourceLocation(file: "{page}", line: {line})\n{body}\n')
    print(f"{path}: {len(sources)} Swift blocks, {len(manifests)} manifests, {skipped} untested")
PY

status=0
for directory in "$work"/*/; do
  if [ -f "$directory/main.swift" ]; then
    swiftc -swift-version 6 -warnings-as-errors -emit-sil -o /dev/null -I "$modules" "${cmodule[@]}" -module-name DocSample \
      "$directory/main.swift" || status=1
  else
    swiftc -swift-version 6 -emit-sil -o /dev/null -I "$toolchain/lib/swift/pm/ManifestAPI" \
      -package-description-version 6.0 -module-name Manifest "$directory/Package.swift" || status=1
  fi
done
if [ "$status" -ne 0 ]; then
  echo "check-samples: a Swift code block in the docs does not compile" >&2
  exit 1
fi
echo "check-samples: every Swift code block compiles"
