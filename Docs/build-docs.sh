#!/usr/bin/env bash
# Builds the DocC site (the API reference of Injection and InjectionTesting, plus the guides in
# Docs/) into .build/docs-site.
# Usage: bash Docs/build-docs.sh        Needs no plugin: symbol graphs come from the compiler.
#
# The guides are kept once, in Docs/, as Markdown that reads well on a code-hosting site. This
# script copies them into a temporary copy of the catalog as DocC articles, then converts it
# with --warnings-as-errors, so a broken symbol link fails the build.
set -euo pipefail
cd "$(dirname "$0")/.."

out=".build/docs-site"
graphs=".build/symbol-graphs"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

rm -rf "$graphs" && mkdir -p "$graphs"
# The compiler writes symbol graphs only when it compiles a module: build from scratch.
rm -rf .build/docs
swift build --target InjectionTesting --scratch-path .build/docs \
  -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs" \
  -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public \
  -Xswiftc -emit-extension-block-symbols >/dev/null

# convert MODULE CATALOG: one archive per module, from that module's own symbol graphs.
convert() {
  local module="$1" catalog="$2"
  mkdir -p "$work/$module-graphs"
  cp "$graphs/$module".symbols.json "$work/$module-graphs/"
  cp "$graphs/$module"@*.symbols.json "$work/$module-graphs/" 2>/dev/null || true
  docc convert "$catalog" \
    --additional-symbol-graph-dir "$work/$module-graphs" \
    --output-path "$work/$module.doccarchive" \
    --fallback-display-name "$module" \
    --fallback-bundle-identifier "org.injection.$module" \
    --warnings-as-errors
}

# The guides are articles of the Injection catalog, copied in from Docs/.
cp -R Sources/Injection/Injection.docc "$work/Injection.docc"
cp Docs/*.md "$work/Injection.docc/"
convert Injection "$work/Injection.docc"
convert InjectionTesting Sources/InjectionTesting/InjectionTesting.docc

rm -rf "$out"
docc merge "$work/Injection.doccarchive" "$work/InjectionTesting.doccarchive" \
  --synthesized-landing-page-name Injection --output-path "$work/Combined.doccarchive"
docc process-archive transform-for-static-hosting "$work/Combined.doccarchive" --output-path "$out"
echo "Documentation site: $out (serve it with any static file server)"
