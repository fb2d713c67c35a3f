#!/usr/bin/env bash
# Builds the DocC site (API reference plus the guides in Docs/) into .build/docs-site.
# Usage: bash Docs/build-docs.sh        Needs no plugin: symbol graphs come from the compiler.
#
# The guides are kept once, in Docs/, as Markdown that reads well on a code-hosting site. This
# script copies them into a temporary copy of the catalog as DocC articles, then converts it
# with --warnings-as-errors, so a broken symbol link fails the build.
set -euo pipefail
cd "$(dirname "$0")/.."

out=".build/docs-site"
graphs=".build/symbol-graphs"
catalog="$(mktemp -d)/Injection.docc"
trap 'rm -rf "$(dirname "$catalog")"' EXIT

rm -rf "$graphs" && mkdir -p "$graphs"
# The compiler writes symbol graphs only when it compiles the module: build from scratch.
rm -rf .build/docs
swift build --target Injection --scratch-path .build/docs \
  -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs" \
  -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public >/dev/null
# Only the Injection module's own graphs: not those of the standard library.
find "$graphs" -type f ! -name 'Injection*' -delete

cp -R Sources/Injection/Injection.docc "$catalog"
for guide in Docs/*.md; do
  cp "$guide" "$catalog/$(basename "$guide")"
done

rm -rf "$out"
docc convert "$catalog" \
  --additional-symbol-graph-dir "$graphs" \
  --output-path "$out" \
  --fallback-display-name Injection \
  --fallback-bundle-identifier org.injection.Injection \
  --transform-for-static-hosting \
  --warnings-as-errors
echo "Documentation site: $out (serve it with any static file server)"
