#!/usr/bin/env bash
# Builds the DocC site (the API reference of Injection and InjectionTesting, plus the guides in
# Docs/) into .build/docs-site.
# Usage: bash Docs/build-docs.sh        Needs no plugin: symbol graphs come from the compiler.
#
# The guides are kept once, in Docs/, as Markdown that reads well on a code-hosting site. This
# script copies them into a temporary copy of the catalog as DocC articles, then converts it
# with --warnings-as-errors, so a broken symbol link fails the build.
#
# Diagrams: a code-hosting site renders a ```mermaid block, DocC shows it as text. So each
# mermaid block in a guide has, on the line above it, a marker naming its picture and that
# picture's alt text:
#   <!-- image: resolution-order "Text that describes the diagram" -->
# The picture is drawn by hand as Docs/Images/NAME.svg, with an optional NAME~dark.svg for the
# dark appearance. In the catalog copy, the marker and the block become `![ALT](NAME)` and the
# pictures go to the catalog's Resources. A mermaid block without a marker, a marker without a
# block, or a marker naming a missing picture fails the build.
#
# In-page links: a guide links to its own headings the way a code-hosting site names them,
# lowercased (`[text](#entering-a-scope)`), while DocC keeps a heading's case
# (`#Entering-a-scope`). The catalog copy gets DocC's form; a link to no heading of the guide
# fails the build. A link to another guide, `[text](Rules.md)`, becomes a link to its article.
#
# The site's root (/) redirects to /documentation/, where the site starts. Check the links of
# the built site with: python3 Docs/check-links.py
set -euo pipefail
cd "$(dirname "$0")/.."

out=".build/docs-site"
graphs=".build/symbol-graphs"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# guide FILE OUT: writes FILE to OUT with each marked mermaid block replaced by its picture, and
# prints the name of each picture it uses to standard error as "image: NAME".
guide() {
  awk '
    function fail(msg) { printf "%s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"; failed = 1 }
    # A pending marker must be followed by its mermaid block, blank lines aside.
    pending != "" && !/^[[:space:]]*$/ && !/^[[:space:]]*```[[:space:]]*mermaid[[:space:]]*$/ {
      fail("the image marker above is not followed by a ```mermaid block"); pending = ""
    }
    fence == "" && /^[[:space:]]*<!--[[:space:]]*image:/ {
      if ($0 ~ /^[[:space:]]*<!-- image: [A-Za-z0-9_-]+ "[^"]+" -->[[:space:]]*$/ &&
          index($0, "[") == 0 && index($0, "]") == 0) {
        line = $0
        sub(/^[[:space:]]*<!-- image: /, "", line)
        name = line; sub(/ .*/, "", name)
        alt = line; sub(/^[^"]*"/, "", alt); sub(/".*/, "", alt)
        pending = name
      } else {
        fail("malformed image marker; write <!-- image: NAME \"ALT TEXT\" -->, with no brackets in ALT TEXT")
      }
      next
    }
    fence == "" && /^[[:space:]]*```/ {
      if (/^[[:space:]]*```[[:space:]]*mermaid[[:space:]]*$/) {
        fence = "mermaid"
        if (pending == "") {
          fail("a ```mermaid block has no picture; add <!-- image: NAME \"ALT TEXT\" --> on the line above, and draw Docs/Images/NAME.svg")
        } else {
          indent = $0; sub(/```.*/, "", indent)
          print indent "![" alt "](" pending ")"
          print "image: " pending > "/dev/stderr"
          pending = ""
        }
        next
      }
      fence = "code"; print; next
    }
    fence != "" && /^[[:space:]]*```[[:space:]]*$/ {
      if (fence == "mermaid") { fence = ""; next }
      fence = ""; print; next
    }
    fence == "mermaid" { next }
    { print }
    END {
      if (pending != "") fail("the image marker above is not followed by a ```mermaid block")
      if (fence != "") fail("unterminated code block")
      exit failed
    }
  ' "$1" >"$2"
}

# The guides are articles of the Injection catalog, copied in from Docs/, with their diagrams
# as pictures. Done first, so a guide whose diagram has no picture fails before the build.
# anchors GUIDE COPY: rewrites COPY's links to GUIDE's own headings from the lowercase form to
# DocC's (which drops punctuation, as the lowercase form does, but keeps the case).
anchors() {
  python3 - "$1" "$2" <<'PY'
import os, re, sys
source, path = sys.argv[1], sys.argv[2]
text = open(path, encoding="utf-8").read()
headings, fence = {}, False
for line in text.split("\n"):
    if line.lstrip().startswith("```"):
        fence = not fence
    elif not fence and re.match(r"#{1,6} ", line):
        title = re.sub(r"^#+ ", "", line).strip()
        plain = title.replace("`", "")
        slug = re.sub(r"[^\w\- ]", "", plain.lower()).replace(" ", "-")
        headings[slug] = re.sub(r"\s+", "-", re.sub(r"[^\w\s-]", "", plain).strip())
failed = False
def rewrite(match):
    global failed
    slug = match.group(1)
    if slug not in headings:
        print(f"{source}: the link to #{slug} names no heading of this guide", file=sys.stderr)
        failed = True
        return match.group(0)
    return f"](#{headings[slug]})"
text = re.sub(r"\]\(#([^)\s]+)\)", rewrite, text)
# Links to other guides, `[text](Rules.md)`, become links to their articles.
def guide_link(match):
    global failed
    name = match.group(1)
    if not os.path.isfile(os.path.join(os.path.dirname(source), name + ".md")):
        print(f"{source}: the link to {name}.md names no guide in Docs/", file=sys.stderr)
        failed = True
        return match.group(0)
    return f"](doc:{name})"
text = re.sub(r"\]\(([A-Za-z0-9_-]+)\.md\)", guide_link, text)
open(path, "w", encoding="utf-8").write(text)
sys.exit(1 if failed else 0)
PY
}

cp -R Sources/Injection/Injection.docc "$work/Injection.docc"
status=0
for md in Docs/*.md; do
  guide "$md" "$work/Injection.docc/$(basename "$md")" 2>"$work/guide.err" || status=1
  anchors "$md" "$work/Injection.docc/$(basename "$md")" || status=1
  grep -v '^image: ' "$work/guide.err" >&2 || true
  for name in $(sed -n 's/^image: //p' "$work/guide.err"); do
    if [[ ! -f "Docs/Images/$name.svg" ]]; then
      echo "$md: the image marker names $name, but Docs/Images/$name.svg does not exist" >&2
      status=1
    fi
  done
done
if ((status != 0)); then
  echo "error: a diagram or an in-page link in Docs/*.md does not fit the DocC site (see above)" >&2
  exit 1
fi
if compgen -G "Docs/Images/*" >/dev/null; then
  mkdir -p "$work/Injection.docc/Resources"
  cp Docs/Images/* "$work/Injection.docc/Resources/"
fi

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

convert Injection "$work/Injection.docc"
convert InjectionTesting Sources/InjectionTesting/InjectionTesting.docc

rm -rf "$out"
docc merge "$work/Injection.doccarchive" "$work/InjectionTesting.doccarchive" \
  --synthesized-landing-page-name Injection --output-path "$work/Combined.doccarchive"
docc process-archive transform-for-static-hosting "$work/Combined.doccarchive" --output-path "$out"
# The root page of the static site is DocC's page for unknown addresses: send readers on to the
# documentation instead. The relative address works under any hosting path.
cat >"$out/index.html" <<'HTML'
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Injection documentation</title>
<meta http-equiv="refresh" content="0; url=documentation/">
</head>
<body><p>The documentation starts at <a href="documentation/">documentation/</a>.</p></body>
</html>
HTML
echo "Documentation site: $out, starting at /documentation/ (serve it with any static file server)"
