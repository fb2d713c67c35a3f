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
# fails the build. A link to another guide, `[text](Rules.md)` or `[text](Rules.md#a-heading)`,
# becomes a link to its article or to that heading of it.
#
# The page at /documentation/, where the site starts, is the Injection catalog's Landing article
# above the list of modules; the root (/) redirects to it. Check the links of the built site
# with `python3 Docs/check-links.py`, and the width of its code with
# `python3 .ci/check-code-width.py`.
#
# Environment: DOCS_BUILD_DIR=DIR writes everything to DIR instead of .build (the site goes to
# DIR/docs-site); DOCS_REUSE_SYMBOL_GRAPHS=1 skips the compile and reuses the last build's symbol
# graphs, which is enough when only the catalogs or the guides changed.
set -euo pipefail
cd "$(dirname "$0")/.."

build="$(mkdir -p "${DOCS_BUILD_DIR:-.build}" && cd "${DOCS_BUILD_DIR:-.build}" && pwd)"
out="$build/docs-site"
graphs="$build/symbol-graphs"
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

def headings_of(markdown):
    """A guide's headings: the lowercase anchor a code-hosting site gives each, mapped to DocC's."""
    headings, fence = {}, False
    for line in markdown.split("\n"):
        if line.lstrip().startswith("```"):
            fence = not fence
        elif not fence and re.match(r"#{1,6} ", line):
            title = re.sub(r"^#+ ", "", line).strip()
            plain = title.replace("`", "")
            slug = re.sub(r"[^\w\- ]", "", plain.lower()).replace(" ", "-")
            headings[slug] = re.sub(r"\s+", "-", re.sub(r"[^\w\s-]", "", plain).strip())
    return headings

headings = headings_of(text)
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
# Links to other guides, `[text](Rules.md)` or `[text](Rules.md#a-heading)`, become links to their
# articles and their headings.
def guide_link(match):
    global failed
    name, slug = match.group(1), match.group(2)
    target = os.path.join(os.path.dirname(source), name + ".md")
    if not os.path.isfile(target):
        print(f"{source}: the link to {name}.md names no guide in Docs/", file=sys.stderr)
        failed = True
        return match.group(0)
    if slug is None:
        return f"](doc:{name})"
    anchors = headings_of(open(target, encoding="utf-8").read())
    if slug not in anchors:
        print(f"{source}: the link to {name}.md#{slug} names no heading of {name}.md", file=sys.stderr)
        failed = True
        return match.group(0)
    return f"](doc:{name}#{anchors[slug]})"
text = re.sub(r"\]\(([A-Za-z0-9_-]+)\.md(?:#([^)\s]+))?\)", guide_link, text)
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

if [[ "${DOCS_REUSE_SYMBOL_GRAPHS:-}" != 1 || ! -f "$graphs/Injection.symbols.json" ]]; then
  rm -rf "$graphs" && mkdir -p "$graphs"
  # The compiler writes symbol graphs only when it compiles a module: build from scratch.
  rm -rf "$build/docs"
  swift build --target InjectionTesting --scratch-path "$build/docs" \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs" \
    -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public \
    -Xswiftc -emit-extension-block-symbols >/dev/null
fi

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
  --synthesized-landing-page-name Injection --synthesized-landing-page-topics-style list \
  --output-path "$work/Combined.doccarchive"
docc process-archive transform-for-static-hosting "$work/Combined.doccarchive" --output-path "$out"

# Finishing touches that this DocC cannot make itself.
# - The landing page. `docc merge` writes /documentation/ as a bare list of the modules. The
#   Injection catalog's Landing article (converted with the catalog, so its links are checked)
#   gives that page its abstract and overview, above the list; the article's own page goes.
# - Display names in the sidebar. A `@DisplayName` sets a symbol's title on its page and in
#   links, and DocC documents that it sets the sidebar's too, but for Swift symbols this DocC
#   still lists the declaration (swiftlang/swift-docc#176), so overloads look alike there once
#   truncated. Each sidebar entry whose page has a display name from the catalogs takes it.
python3 - "$out" Sources/Injection/Injection.docc Sources/InjectionTesting/InjectionTesting.docc <<'PY'
import glob, json, os, re, shutil, sys
site, catalogs = sys.argv[1], sys.argv[2:]
data = os.path.join(site, "data")

def load(path):
    with open(path, encoding="utf-8") as file:
        return json.load(file)

def save(path, value):
    with open(path, "w", encoding="utf-8") as file:
        json.dump(value, file, ensure_ascii=False, separators=(",", ":"))

landing_url = "/documentation/injection/landing"
landing_path = os.path.join(data, landing_url.lstrip("/") + ".json")
landing = load(landing_path)
landing_id = landing["identifier"]["url"]
root_path = os.path.join(data, "documentation.json")
root = load(root_path)
root["abstract"] = landing["abstract"]
root["primaryContentSections"] = landing["primaryContentSections"]
root["references"].update(
    (key, value) for key, value in landing.get("references", {}).items() if key != landing_id)
for section in root.get("topicSections", []):
    section.setdefault("title", "Modules")
save(root_path, root)
os.remove(landing_path)
shutil.rmtree(os.path.join(site, landing_url.lstrip("/")))

# No page lists the landing article any more, and no topic list names a page twice (DocC lists
# the `Trait Implementations` of a type that is both a test and a suite trait once for each).
for path in glob.glob(os.path.join(data, "**", "*.json"), recursive=True):
    page = load(path)
    changed = page.get("references", {}).pop(landing_id, None) is not None
    for key in ("topicSections", "seeAlsoSections"):
        sections = []
        for section in page.get(key, []):
            identifiers = [i for i in dict.fromkeys(section.get("identifiers", [])) if i != landing_id]
            changed |= identifiers != section.get("identifiers", [])
            if identifiers:
                sections.append(dict(section, identifiers=identifiers))
        if key in page:
            page[key] = sections
    if changed:
        save(path, page)

names = set()
for catalog in catalogs:
    for path in glob.glob(os.path.join(catalog, "**", "*.md"), recursive=True):
        names.update(re.findall(r'@DisplayName\("([^"]+)"', open(path, encoding="utf-8").read()))

def tidy(children):
    """Drops the landing article and repeated pages, gives display names, and drops group markers
    left empty."""
    kept, seen = [], set()
    for child in children:
        if child.get("path") == landing_url or child.get("path") in seen:
            continue
        if child.get("path"):
            seen.add(child["path"])
        page = os.path.join(data, child.get("path", "").lstrip("/") + ".json")
        if child.get("type") not in ("article", "groupMarker") and os.path.isfile(page):
            title = load(page).get("metadata", {}).get("title")
            if title in names:
                child["title"] = title
        if "children" in child:
            child["children"] = tidy(child["children"])
        kept.append(child)
    return [child for index, child in enumerate(kept)
            if child.get("type") != "groupMarker"
            or (index + 1 < len(kept) and kept[index + 1].get("type") != "groupMarker")]

index_path = os.path.join(site, "index", "index.json")
index = load(index_path)
for language, roots in index["interfaceLanguages"].items():
    index["interfaceLanguages"][language] = tidy(roots)
save(index_path, index)
PY
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
