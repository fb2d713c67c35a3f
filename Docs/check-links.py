#!/usr/bin/env python3
"""Checks the links of the DocC site that Docs/build-docs.sh builds, as a reader clicking
through it would meet them. Usage: python3 Docs/check-links.py [SITE]   (default .build/docs-site)

Each page of the site is a render JSON file under data/ (what the page shows) and an index.html
under documentation/ (what a static host serves for its address). The script fails, naming the
page, on:

- a reference to a page that does not exist: a topic, a breadcrumb, a symbol link or a link
  written in a guide whose address has no render JSON or no index.html, or an image or file
  whose asset is missing;
- a link without text: an inline reference that names nothing in the page's references (DocC
  drops the text of a web link written in the abstract, the first paragraph), a reference with
  no title, or a link whose text is empty;
- an in-page anchor (`#Name`, or `page#Name`) that the page it points into does not have. Each
  abstract shown in a topic list on a page is checked as shown there, so an abstract's `#Name`
  must exist on every page that lists it;
- a site root that does not lead to the documentation;
- two entries of one list in the sidebar that look alike: at 1280 px the sidebar shows about 32
  characters of a title and cuts the rest, so entries under one parent must differ in their
  first 28 characters, a margin for wide letters (overloads get a `@DisplayName` in the
  catalogs to tell them apart).
"""
import json
import os
import sys
from urllib.parse import unquote

site = sys.argv[1] if len(sys.argv) > 1 else ".build/docs-site"
data = os.path.join(site, "data")
if not os.path.isdir(data):
    sys.exit(f"check-links: no site at {site}; run bash Docs/build-docs.sh first")

problems = []


def page_path(url):
    """The address of a page without its fragment, lowercased as DocC writes its files."""
    return unquote(url.split("#", 1)[0]).rstrip("/").lower()


# Every page: its address, its render JSON, and the anchors it has.
pages = {}
for root, _, files in os.walk(data):
    for name in files:
        if name.endswith(".json"):
            path = os.path.join(root, name)
            address = "/" + os.path.relpath(path, data)[: -len(".json")]
            with open(path, encoding="utf-8") as file:
                pages[address.lower()] = json.load(file)


def anchors_of(page):
    """The anchors a page has: its headings, and its sections (Topics, See Also, …)."""
    found = set()

    def walk(node):
        if isinstance(node, dict):
            if isinstance(node.get("anchor"), str):
                found.add(node["anchor"])
            for key, value in node.items():
                if key != "references":
                    walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(page)
    return found


anchors = {address: anchors_of(page) for address, page in pages.items()}


def exists(url):
    """Whether a site address has a page: a render JSON and a file a static host serves."""
    address = page_path(url)
    html = os.path.join(site, address.lstrip("/"), "index.html")
    return address in pages and os.path.isfile(html)


def inline_references(node, out):
    """Collects the identifiers of inline references, and reports links without text."""
    if isinstance(node, dict):
        kind = node.get("type")
        if kind == "reference" and "identifier" in node:
            out.append(node["identifier"])
        if kind == "link":
            text = node.get("title") or node.get("inlineContent")
            if not text:
                problems.append(f"a link to {node.get('destination')} has no text")
        for value in node.values():
            inline_references(value, out)
    elif isinstance(node, list):
        for value in node:
            inline_references(value, out)


def check_fragment(address, url, where):
    """An in-page anchor must exist on the page it points into."""
    if "#" not in url:
        return
    fragment = unquote(url.split("#", 1)[1])
    target = address if url.startswith("#") else page_path(url)
    if target in pages and fragment not in anchors[target]:
        problems.append(f"{address}: {where} links to #{fragment}, which {target} does not have")


for address, page in sorted(pages.items()):
    references = page.get("references", {})

    # Every reference the page carries is something it shows or links: a topic, a breadcrumb,
    # an inline link, a picture.
    for identifier, reference in references.items():
        url = reference.get("url")
        kind = reference.get("type")
        if kind in ("topic", "section") and url:
            if not exists(url):
                problems.append(f"{address}: the page {page_path(url)} it refers to does not exist")
            elif "#" in url:
                check_fragment(address, url, f"the reference {identifier}")
            if not (reference.get("title") or reference.get("titleInlineContent")):
                problems.append(f"{address}: the reference {identifier} has no title")
        elif kind == "link":
            if not (reference.get("title") or reference.get("titleInlineContent")):
                problems.append(f"{address}: the link to {url} has no text")
            if url and not url.startswith(("/", "#", "http://", "https://", "mailto:")):
                problems.append(f"{address}: the link to {url} is relative, and leads nowhere on the site")
            if url and url.startswith("/"):
                if not exists(url):
                    problems.append(f"{address}: the link to {url} leads to no page")
                else:
                    check_fragment(address, url, "a link")
        elif kind in ("image", "video", "download"):
            for variant in reference.get("variants", []):
                asset = variant.get("url", "")
                if asset.startswith("/") and not os.path.isfile(os.path.join(site, asset.lstrip("/"))):
                    problems.append(f"{address}: the asset {asset} is missing")

    # What the page shows of its own: every inline reference names a reference with a title.
    shown = []
    for key in ("abstract", "primaryContentSections", "topicSections", "seeAlsoSections",
                "sections", "discussionSections"):
        inline_references(page.get(key), shown)
    for breadcrumb in page.get("hierarchy", {}).get("paths", []):
        shown += breadcrumb
    # The abstracts of the topics listed on the page are shown on it too.
    listed = [identifier for section in page.get("topicSections", []) + page.get("seeAlsoSections", [])
              for identifier in section.get("identifiers", [])]
    for identifier in listed:
        abstract_refs = []
        inline_references(references.get(identifier, {}).get("abstract"), abstract_refs)
        for inner in abstract_refs:
            if inner.startswith("#"):
                check_fragment(address, inner, f"the abstract of {identifier} shown here")
            elif inner not in references:
                problems.append(f"{address}: the abstract of {identifier} shows a link without text ({inner})")
    for identifier in shown:
        reference = references.get(identifier)
        if reference is None:
            problems.append(f"{address}: a link to {identifier} is shown without text (DocC drops "
                            "the text of a web link in an abstract: move it out of the first paragraph)")
            continue
        url = reference.get("url", "")
        if url.startswith("#"):
            check_fragment(address, url, "a link")

# The site root leads to the documentation.
root = os.path.join(site, "index.html")
if not os.path.isfile(root) or "documentation/" not in open(root, encoding="utf-8").read():
    problems.append("the site root / does not lead to /documentation/")
if not exists("/documentation"):
    problems.append("the site has no /documentation/ landing page")

# Entries of one list in the sidebar differ where the sidebar shows them.
SHOWN = 28


def sidebar(children, parent):
    shown = {}
    for child in children:
        if child.get("type") == "groupMarker":
            continue
        title, path = child.get("title", ""), child.get("path")
        other = shown.setdefault(title[:SHOWN], (title, path))
        if other[1] != path:
            problems.append(f"sidebar, under {parent}: '{other[0]}' and '{title}' look alike (it "
                            "shows about 32 characters); give them display names that differ sooner")
        sidebar(child.get("children", []), title)


index_path = os.path.join(site, "index", "index.json")
if os.path.isfile(index_path):
    with open(index_path, encoding="utf-8") as file:
        for roots in json.load(file).get("interfaceLanguages", {}).values():
            sidebar(roots, "the top")

for problem in problems:
    print(f"check-links: {problem}", file=sys.stderr)
if problems:
    sys.exit(f"check-links: {len(problems)} broken links or look-alike sidebar entries in {site}")
print(f"check-links: {len(pages)} pages, every link resolves")
