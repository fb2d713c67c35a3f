#!/usr/bin/env python3
"""Writes Docs/Benchmarks/chart.svg: instructions per operation of Injection, a raw @TaskLocal and
the peers, on a log scale. Usage: python3 Docs/Benchmarks/chart.py

The figures are those of the side-by-side measurement that Docs/Performance.md cites (2026-12-03,
Injection at main c4ad8f0; swift-dependencies f84167a, Factory 440dfd8, Swinject b685b54). Change
them here and in Performance.md together, then run this script again.
"""
import math
import os

LIBRARIES = [
    ("raw @TaskLocal", "#8c8c8c"),
    ("Injection", "#2f6fb3"),
    ("swift-dependencies", "#d9822b"),
    ("Factory", "#9b59b6"),
    ("Swinject", "#3a9a5b"),
]
# Operation, then one figure per library (None where the library has no such operation).
OPERATIONS = [
    ("read, nothing overridden", [259, 361, 8030, 10915, 6422]),
    ("read, overridden", [274, 359, 4913, 5506, None]),
    ("scope entry, 1 override", [577, 1423, 2776, 11103, None]),
    ("request: 3 overrides, 10 reads", [4301, 6711, 74803, 74317, None]),
]
NOTE = ("Callgrind, one release executable, Swift 6.3.1, Linux x86_64, 2026-12-03. Factory: "
        "singleton; Swinject: container scope; scope entries and requests synchronous.")

LEFT, TOP, BAR, GAP, WIDTH = 230, 76, 13, 14, 960
LOW, HIGH = 100, 100_000  # the axis, instructions per operation
axis_left, axis_right = LEFT, WIDTH - 70


def x(value):
    span = math.log10(HIGH) - math.log10(LOW)
    return axis_left + (math.log10(value) - math.log10(LOW)) / span * (axis_right - axis_left)


rows = sum(1 for _, values in OPERATIONS for v in values if v is not None)
height = TOP + rows * (BAR + 3) + len(OPERATIONS) * GAP + 60
out = [
    f"<svg xmlns='http://www.w3.org/2000/svg' width='{WIDTH}' height='{height}' "
    "font-family='sans-serif' font-size='12'>",
    "<rect width='100%' height='100%' fill='white'/>",
    "<text x='12' y='24' font-size='16' font-weight='bold'>Instructions per operation "
    "(log scale; lower is better)</text>",
]
for index, (name, colour) in enumerate(LIBRARIES):
    left = 12 + index * 170
    out.append(f"<rect x='{left}' y='40' width='12' height='12' fill='{colour}'/>")
    out.append(f"<text x='{left + 18}' y='50'>{name}</text>")
y = TOP
bottom = height - 50
for power in range(int(math.log10(LOW)), int(math.log10(HIGH)) + 1):
    value = 10**power
    out.append(f"<line x1='{x(value):.1f}' y1='{TOP - 8}' x2='{x(value):.1f}' y2='{bottom}' "
               "stroke='#ddd'/>")
    out.append(f"<text x='{x(value):.1f}' y='{bottom + 16}' text-anchor='middle'>{value:,}</text>")
for operation, values in OPERATIONS:
    out.append(f"<text x='{LEFT - 10}' y='{y + BAR}' text-anchor='end' "
               f"font-weight='bold'>{operation}</text>")
    for (name, colour), value in zip(LIBRARIES, values):
        if value is None:
            continue
        width = x(value) - axis_left
        out.append(f"<rect x='{axis_left}' y='{y}' width='{width:.1f}' height='{BAR}' "
                   f"fill='{colour}'><title>{name}: {value:,}</title></rect>")
        out.append(f"<text x='{axis_left + width + 6:.1f}' y='{y + BAR - 2}'>{value:,}</text>")
        y += BAR + 3
    y += GAP
out.append(f"<text x='12' y='{height - 12}' fill='#555'>{NOTE}</text>")
out.append("</svg>")

path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "chart.svg")
with open(path, "w", encoding="utf-8") as file:
    file.write("\n".join(out) + "\n")
print(f"wrote {path}")
