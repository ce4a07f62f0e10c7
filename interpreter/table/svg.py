"""The presentation model drawn as SVG for the web table: boards as maps of cells (hexagons for a hex
board), tracks as rows of spaces with every player's marker, other zones as rows of named tiles.

    markup = zone_svg(zone)        # one zone of an area
    markup = track_svg(track)      # one track

Everything drawn comes from the model (already in the page's language); texts are escaped.
"""
from __future__ import annotations

import math
import re
from html import escape

PALETTE = ["#d9c27a", "#7fb069", "#2e6b3a", "#e8d8a8", "#6fa8dc", "#9e9e9e", "#c27ba0", "#e69138",
           "#8e7cc3", "#76a5af"]
SEATS = ["#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"]


COLOUR = re.compile(r"^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{1,30})$")


def _colour(value, default: str) -> str:
    """A colour a definition gives, if it is one (`#2e6b3a`, `forestgreen`), else `default`: nothing
    else is written into an attribute."""
    return value if isinstance(value, str) and COLOUR.match(value) else default


def _t(x, y, text, size=11, anchor="middle", weight="normal", fill="#222") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" font-weight="{weight}" '
            f'fill="{fill}">{escape(str(text))}</text>')


def _width(ch: str) -> int:
    """A character's width in units of a Latin letter: ideographs and other wide letters take two."""
    return 2 if ord(ch) >= 0x1100 else 1


def _short(text: str, n: int) -> str:
    """`text` cut to `n` units of width (an ideograph takes two), with an ellipsis when cut."""
    if sum(map(_width, text)) <= n:
        return text
    out, used = "", 0
    for ch in text:
        if used + _width(ch) > n - 1:
            break
        out, used = out + ch, used + _width(ch)
    return out + "…"


def _lines(text: str, n: int, most: int) -> list[str]:
    """`text` in at most `most` lines of `n` units, broken at spaces where it can be; the last line is
    cut with an ellipsis when the text does not fit."""
    lines: list[str] = []
    rest = text
    while rest and len(lines) < most - 1:
        if sum(map(_width, rest)) <= n:
            break
        cut, used = 0, 0
        for i, ch in enumerate(rest):
            if used + _width(ch) > n:
                break
            used += _width(ch)
            cut = i + 1
        space = rest.rfind(" ", 0, cut + 1)
        at = space if space > 0 else cut
        lines.append(rest[:at].rstrip())
        rest = rest[at:].lstrip()
    if rest:
        lines.append(_short(rest, n))
    return lines


def board_svg(board: dict) -> str:
    """Cells in rows; a hex board staggers its rows and draws hexagons. Each cell shows its id, symbol
    and number, its colour by symbol, and what lies on it."""
    colours = {sym: _colour((board.get("colors") or {}).get(sym), PALETTE[i % len(PALETTE)])
               for i, (sym, _) in enumerate(board.get("legend") or [])}
    hexes = board.get("stagger") in ("hex", "rhombus")
    rhombus = board.get("stagger") == "rhombus"  # a generated hex board: each row half a cell further right
    r = 34
    w = math.sqrt(3) * r if hexes else 2 * r
    h = 1.5 * r if hexes else 2 * r
    width = board.get("width") or 1
    parts = []
    for row in board["rows"]:
        for cell in row:
            shift = cell["row"] * w / 2 if rhombus else (width - len(row)) * w / 2 if hexes else 0
            cx = r + 4 + shift + cell["col"] * w
            cy = r + 4 + cell["row"] * h
            fill = colours.get(cell.get("symbol"), "#eee")
            title = escape(cell["name"] + (f" — {cell['content']}" if cell.get("content") else ""))
            if hexes:
                pts = " ".join(f"{cx + r * math.cos(math.radians(60 * k - 30)):.1f},"
                               f"{cy + r * math.sin(math.radians(60 * k - 30)):.1f}" for k in range(6))
                shape = f'<polygon points="{pts}" fill="{fill}" stroke="#444" stroke-width="1.5"/>'
            else:
                shape = (f'<rect x="{cx - r:.1f}" y="{cy - r:.1f}" width="{2 * r - 2}" height="{2 * r - 2}" '
                         f'fill="{fill}" stroke="#444"/>')
            label = (f"{cell.get('symbol', '')}{cell.get('number', '')}" if board.get("grid")
                     else f"{cell['id']} {cell.get('symbol', '')}{cell.get('number', '')}")
            parts.append(f'<g class="cell"><title>{title}</title>{shape}'
                         + _t(cx, cy - 14, label, 10)
                         + (f'<rect x="{cx - 26:.1f}" y="{cy - 6:.1f}" width="52" height="22" rx="9" '
                            f'fill="#fff" stroke="#333"/>'
                            + _t(cx, cy + 9, _short(cell["content"], 10), 9, weight="bold")
                            if cell.get("content") else "")
                         + (f'<circle cx="{cx + r * 0.45:.1f}" cy="{cy + r * 0.4:.1f}" r="8" '
                            f'fill="{SEATS[cell["owner"] % len(SEATS)]}" stroke="#fff"/>'
                            + _t(cx + r * 0.45, cy + r * 0.4 + 3.5, cell["owner"] + 1, 9, fill="#fff", weight="bold")
                            if cell.get("owner") is not None else "")
                         + "</g>")
    rows_n = len(board["rows"])
    total_w = 2 * r + 8 + (width - 1) * w + (w / 2 if hexes else 0) + ((rows_n - 1) * w / 2 if rhombus else 0)
    total_h = 2 * r + 8 + (len(board["rows"]) - 1) * h
    legend = board.get("legend") or []
    per_row = max(1, int(total_w // 160))
    items = []
    for i, (sym, label) in enumerate(legend):
        x, y = 4 + (i % per_row) * 160, total_h + 14 + (i // per_row) * 16
        items.append(f'<rect x="{x}" y="{y - 10}" width="12" height="12" fill="{colours[sym]}"/>'
                     + _t(x + 16, y, f"{sym} {_short(label, 22)}", 10, anchor="start"))
    height = total_h + 8 + 16 * math.ceil(len(legend) / per_row)
    return (f'<svg class="board" xmlns="http://www.w3.org/2000/svg" width="{total_w:.0f}" height="{height:.0f}">'
            + "".join(parts) + "".join(items) + "</svg>")


def track_svg(track: dict) -> str:
    """A track: a bar of `length` spaces with each player's marker at its value."""
    length = max(1, int(track["length"]))
    width, left = 720, 10
    step = (width - 2 * left) / length
    marks = []
    for i, m in enumerate(track["marks"]):
        x = left + min(m["value"], length) * step
        player = m.get("player", True)  # a scripted seat's marker is grey, with its name's first letter
        fill = SEATS[m["seat"] % len(SEATS)] if player else "#777"
        marks.append(f'<g><title>{escape(m["name"])}: {escape(str(m["value"]))}</title>'
                     f'<circle cx="{x:.1f}" cy="{18 + 10 * (i % 3)}" r="6" fill="{fill}"/>'
                     + _t(x, 21 + 10 * (i % 3), m["seat"] + 1 if player else m["name"][:1], 8, fill="#fff") + "</g>")
    ticks = "".join(_t(left + v * step, 60, v, 9) for v in range(0, length + 1, max(1, length // 10)))
    return (f'<svg class="track" xmlns="http://www.w3.org/2000/svg" width="{width}" height="66">'
            f'<rect x="{left}" y="10" width="{width - 2 * left}" height="36" fill="#f4efe1" stroke="#888"/>'
            + "".join(marks) + ticks + "</svg>")


def zone_svg(zone: dict) -> str:
    """A zone: its board, or its pieces as a row of named tiles (a count on grouped ones); a hidden
    zone is a face-down pile with its size."""
    if zone.get("board"):
        return board_svg(zone["board"])
    if zone["as"] == "hidden":
        known = zone.get("known") or []  # what the seat was told of pieces of the pile, place by place
        notes = "".join(f'<g class="known"><rect x="{96 + i * 100}" y="6" width="94" height="44" rx="5" '
                        f'fill="#7a5c45" stroke="#333"/>' + _t(143 + i * 100, 22, k["at"], 10, fill="#fff")
                        + _t(143 + i * 100, 40, _short(k["text"], 15), 11, fill="#fff", weight="bold") + "</g>"
                        for i, k in enumerate(known))
        pile = (f'<svg class="pile" xmlns="http://www.w3.org/2000/svg" width="{90 + 100 * len(known)}" height="56">'
                f'<rect x="4" y="4" width="70" height="46" rx="5" fill="#5b4636"/>'
                f'<rect x="10" y="8" width="70" height="46" rx="5" fill="#7a5c45" stroke="#333"/>'
                + _t(45, 36, zone["count"], 14, fill="#fff", weight="bold") + notes + "</svg>")
        if zone.get("items"):  # what the seat knows the pile holds (its known contents, or pieces shown to it)
            return pile + zone_svg(dict(zone, **{"as": "row", "known": None}))
        return pile
    items = zone.get("items") or []
    per_row = 6
    # a tile's details (its fields: "Doubloons on the card 2") take two lines below its name when any has them
    tw, th = 118, 68 if any(item.get("details") for item in items) else 56
    parts = []
    for i, item in enumerate(items):
        x, y = 4 + (i % per_row) * (tw + 6), 4 + (i // per_row) * (th + 6)
        title = escape(item["name"] + "".join(f"; {k} {v}" for k, v in item.get("details") or []))
        detail = "; ".join(f"{k} {v}" for k, v in item.get("details") or [])
        # The name in up to two lines (a tile's name is what tells it apart), its details below.
        name = _lines(item["name"], 18, 2)
        top = y + (16 if len(name) > 1 else 20)
        parts.append(f'<g class="piece"><title>{title}</title>'
                     f'<rect x="{x}" y="{y}" width="{tw}" height="{th}" rx="6" fill="#fffaf0" stroke="#8a7a5a"/>'
                     + "".join(_t(x + tw / 2, top + 13 * k, line, 11, weight="bold") for k, line in enumerate(name))
                     + "".join(_t(x + tw / 2, y + 44 + 11 * k, line, 9) for k, line in enumerate(_lines(detail, 21, 2)))
                     + (_t(x + tw - 6, y + th - 5, f"×{item['count']}", 10, anchor="end") if item["count"] > 1 else "")
                     + "</g>")
    if not items:
        return ""
    rows = max(1, math.ceil(len(items) / per_row))
    width = min(len(items), per_row) * (tw + 6) + 8
    return (f'<svg class="row" xmlns="http://www.w3.org/2000/svg" width="{width}" height="{rows * (th + 6) + 4}">'
            + "".join(parts) + "</svg>")
