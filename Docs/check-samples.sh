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
# - A block right after a line `<!-- untested -->` is skipped. Only the Vapor snippet, whose
#   package cannot be fetched here, is marked so.
# - A block right after a line `<!-- unit: NAME -->` is compiled only with the page's blocks of
#   the same unit, plus every block that names no unit. A page whose samples show two worlds
#   with clashing names (the plain-Swift server and the Hummingbird one in Docs/Servers.md)
#   gives each its unit.
# - In README.md and the guides, a block is a whole file, which compiles on its own, imports
#   included, or a fragment, whose first line is a comment that says so (`// Fragment: …`). Each
#   whole file is also compiled alone. Pages in `unmarked` below do not mark their fragments
#   yet, so their blocks are compiled with their page only.
# - Docs/GettingStarted.md is left to Docs/check-getting-started.sh, which builds its blocks as
#   the files of a package, as a reader would, and runs its test.
# - Docs/Stubs/*.swift are stand-ins for packages that cannot be fetched here (Hummingbird and
#   the HTTP types it re-exports): each is compiled into a module of its own name, which the
#   samples import as they would the real package. They declare only the shapes the samples
#   use; see Docs/Stubs/README.md.
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
stubs="$(mktemp -d)"
trap 'rm -rf "$work" "$stubs"' EXIT

# The stand-ins, compiled in order: HTTPTypes first, since Hummingbird re-exports it.
for stub in HTTPTypes Hummingbird; do
  swiftc -swift-version 6 -parse-as-library -emit-module -module-name "$stub" -I "$stubs" \
    -emit-module-path "$stubs/$stub.swiftmodule" "Docs/Stubs/$stub.swift"
done

python3 - "$work" README.md Docs/*.md Sources/*/*.docc <<'PY'
import glob, os, re, sys
work, paths = sys.argv[1], sys.argv[2:]
unmarked: set[str] = set()
fragment = re.compile(r"\s*//.*\bfragment\b", re.IGNORECASE)

def pages(path):
    """The Markdown files that make one module: a page, or a catalog's articles."""
    if not os.path.isdir(path):
        return [path]
    landing = os.path.join(path, os.path.basename(path).replace(".docc", ".md"))
    rest = sorted(p for p in glob.glob(os.path.join(path, "**", "*.md"), recursive=True) if p != landing)
    return ([landing] if os.path.exists(landing) else []) + rest

for path in paths:
    if path == "Docs/GettingStarted.md":  # built as a package by Docs/check-getting-started.sh
        continue
    lines, origins = [], []
    for page in pages(path):
        page_lines = open(page, encoding="utf-8").read().split("\n")
        lines += page_lines
        origins += [(page, n + 1) for n in range(len(page_lines))]
    blocks, skipped, i = [], 0, 0
    while i < len(lines):
        if lines[i].strip() == "```swift":
            above = lines[i - 1].strip() if i > 0 else ""
            untested = above == "<!-- untested -->"
            unit = re.fullmatch(r"<!-- unit: ([A-Za-z0-9_-]+) -->", above)
            start = i + 1
            i += 1
            while lines[i].strip() != "```":
                i += 1
            body = "\n".join(lines[start:i])
            if untested:
                skipped += 1
            else:
                blocks.append((origins[start], body, unit.group(1) if unit else None))
        i += 1
    name = re.sub(r"[^A-Za-z0-9]", "_", path)
    sources = [b for b in blocks if "import PackageDescription" not in b[1]]
    manifests = [b for b in blocks if "import PackageDescription" in b[1]]
    units = sorted({b[2] for b in sources if b[2]}) or [None]
    for unit in units if sources else []:
        directory = os.path.join(work, name + (f"_{unit}" if unit else ""))
        os.makedirs(directory, exist_ok=True)
        with open(os.path.join(directory, "main.swift"), "w") as out:
            for (page, line), body, block_unit in sources:
                if block_unit in (None, unit):
                    out.write(f'#sourceLocation(file: "{page}", line: {line})\n{body}\n#sourceLocation()\n')
    # Whole files, each compiled alone; a fragment is compiled with its page only.
    wholes = 0
    if path.endswith(".md") and path not in unmarked:
        for index, ((page, line), body, _) in enumerate(sources):
            if fragment.match(body.lstrip("\n").split("\n")[0]):
                continue
            wholes += 1
            directory = os.path.join(work, f"{name}_whole{index}")
            os.makedirs(directory, exist_ok=True)
            with open(os.path.join(directory, "main.swift"), "w") as out:
                out.write(f'#sourceLocation(file: "{page}", line: {line})\n{body}\n#sourceLocation()\n')
    for index, ((page, line), body, _) in enumerate(manifests):
        directory = os.path.join(work, f"{name}_manifest{index}")
        os.makedirs(directory, exist_ok=True)
        with open(os.path.join(directory, "Package.swift"), "w") as out:
            out.write(f'#sourceLocation(file: "{page}", line: {line})\n{body}\n')
    shown = f", units {', '.join(units)}" if units != [None] else ""
    print(f"{path}: {len(sources)} Swift blocks{shown} ({wholes} whole files), "
          f"{len(manifests)} manifests, {skipped} untested")
PY

status=0
for directory in "$work"/*/; do
  if [ -f "$directory/main.swift" ]; then
    if ! swiftc -swift-version 6 -warnings-as-errors -emit-sil -o /dev/null -I "$modules" \
      -I "$stubs" "${cmodule[@]}" -module-name DocSample "$directory/main.swift"; then
      status=1
      if [[ "$directory" == *_whole*/ ]]; then
        echo "note: the block above was compiled alone: a block that is not a whole file, with" \
          "its imports, starts with a comment that says it is a fragment (// Fragment: …)" >&2
      fi
    fi
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
