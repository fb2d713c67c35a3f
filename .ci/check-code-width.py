#!/usr/bin/env python3
"""Fails when a line of a code listing on the documentation site is wider than its code block.

Usage: python3 .ci/check-code-width.py [SITE]   (default .build/docs-site, built by
Docs/build-docs.sh)

A code block on the site keeps its lines as written and scrolls sideways when one is too long,
which hides the end of the line. The widths below were measured in headless Chromium 156 with
a 1280 px window, classic scroll bars (which take 15 px) and the site's 15 px monospace font,
9.03 px a character:

- a code block in the text of a page shows 74 characters (its box is 703 px, with 14 px of
  padding on each side);
- each level of list around it takes 20 px: 72 characters in a list item, 70 in a nested one;
- an aside (`> Note:`) takes 38 px: 70 characters.

Declarations on symbol pages wrap, so they are not checked. For each line that is too wide,
the script names the source it comes from (a guide in Docs/, an article of a DocC catalog, or a
doc comment in Sources/), found by the line's text, and the page it is shown on.
"""
import glob
import json
import os
import sys
import unicodedata

CHARACTER = 9.031
BOX, PADDING, LIST_INDENT, ASIDE_INDENT = 703, 28, 20, 38

site = sys.argv[1] if len(sys.argv) > 1 else ".build/docs-site"
data = os.path.join(site, "data")
if not os.path.isdir(data):
    sys.exit(f"check-code-width: no site at {site}; run bash Docs/build-docs.sh first")


def columns(line):
    """How many character cells a line takes in a monospace font."""
    line = line.expandtabs(4)
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 0 if unicodedata.combining(c) else 1
               for c in line)


def fits(lists, asides):
    """How many characters a code block shows, inside `lists` lists and `asides` asides."""
    return int((BOX - PADDING - LIST_INDENT * lists - ASIDE_INDENT * asides) / CHARACTER)


def listings(node, lists=0, asides=0):
    """Every code listing under a render node, with the nesting it is shown in."""
    if isinstance(node, dict):
        kind = node.get("type")
        if kind == "codeListing":
            yield node, lists, asides
            return
        lists += kind in ("unorderedList", "orderedList", "termList")
        asides += kind == "aside"
        for key, value in node.items():
            if key not in ("references", "declarations"):
                yield from listings(value, lists, asides)
    elif isinstance(node, list):
        for value in node:
            yield from listings(value, lists, asides)


# The sources that feed the site, by lines: guides, catalog articles, and doc comments.
sources = []
for path in sorted(glob.glob("Docs/*.md") + glob.glob("Sources/**/*.docc/**/*.md", recursive=True)):
    with open(path, encoding="utf-8") as file:
        sources += [(path, n, line) for n, line in enumerate(file.read().split("\n"), 1)]
for path in sorted(glob.glob("Sources/**/*.swift", recursive=True)):
    with open(path, encoding="utf-8") as file:
        for n, line in enumerate(file.read().split("\n"), 1):
            text = line.lstrip()
            if text.startswith("///"):
                sources.append((path, n, text[4:] if text.startswith("/// ") else text[3:]))


def origins(line):
    """The places in the sources where a line of code is written."""
    wanted = line.strip()
    found = [f"{path}:{n}" for path, n, text in sources
             if text.strip().lstrip(">").strip() == wanted]
    return found or ["(no source line has this text)"]


problems = []
for path in sorted(glob.glob(os.path.join(data, "**", "*.json"), recursive=True)):
    with open(path, encoding="utf-8") as file:
        page = json.load(file)
    address = "/" + os.path.relpath(path, data)[: -len(".json")]
    for key in ("primaryContentSections", "sections", "discussionSections"):
        for listing, lists, asides in listings(page.get(key)):
            limit = fits(lists, asides)
            for line in listing.get("code", []):
                width = columns(line)
                if width > limit:
                    for origin in origins(line):
                        problems.append((origin, width, limit, address, line.strip()))

for origin, width, limit, address, line in sorted(set(problems)):
    print(f"{origin}: {width} characters, wider than the {limit} its code block shows on "
          f"{address}: {line}", file=sys.stderr)
if problems:
    count = len({(p[3], p[4]) for p in problems})
    sys.exit(f"check-code-width: {count} lines of code are wider than their code blocks; "
             "break them (swift-format's line length is 100, the site's is smaller)")
print(f"check-code-width: every line of code fits its code block")
