"""The presentation model drawn as text for a terminal: areas, counters, rows of pieces, boards as maps,
tracks as tracks, the final scores.

    print(picture(model))

Columns are counted in terminal cells, so Chinese labels (two cells a character) line up too.
"""
from __future__ import annotations

import unicodedata

from .words import say

WIDTH = 100


def cells(text: str) -> int:
    """How many terminal columns `text` takes."""
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def pad(text: str, width: int, right: bool = False) -> str:
    gap = " " * max(0, width - cells(text))
    return gap + text if right else text + gap


def wrap(items: list[str], indent: str, width: int = WIDTH, sep: str = "; ", first: str | None = None) -> list[str]:
    """Items joined by `sep` on as few lines as fit `width`; the first line starts with `first` (default
    `indent`), the others with `indent`."""
    lines, line = [], ""
    for item in items:
        lead = indent if lines else (indent if first is None else first)
        candidate = item if not line else line + sep + item
        if line and cells(lead + candidate) > width:
            lines.append(lead + line + sep.rstrip())
            line = item
        else:
            line = candidate
    if line:
        lines.append((indent if lines or first is None else first) + line)
    return lines


def item_text(item: dict, lang: str) -> str:
    text = item["name"]
    if item.get("details"):
        text += " [" + ", ".join(f"{k} {v}" for k, v in item["details"]) + "]"
    if item.get("count", 1) > 1:
        text += f" ×{item['count']}"
    return text


def _grid_cell(c: dict) -> str:
    """A grid cell: its letter, number and owner's seat (`@2`), or `·` when nothing is there to show."""
    text = f"{c['symbol']}{c['number']}" + (f"@{c['owner'] + 1}" if c.get("owner") is not None else "")
    return text or ("*" if c.get("content") else "·")


def grid_lines(board: dict, lang: str, indent: str) -> list[str]:
    """A generated board as a grid: columns and rows numbered from 1, each space drawn by what lies on it
    (its letter, number and owner); a hex board's rows shifted half a cell each; the key and what lies
    where follow."""
    cell_w = max([cells(_grid_cell(c)) for row in board["rows"] for c in row] + [2]) + 2
    lead = len(str(len(board["rows"]))) + 1
    half = cell_w // 2
    shifts = {r: (r * half if board.get("stagger") == "rhombus"
                  else (board["width"] - len(row)) * half if board.get("stagger") == "hex" else 0)
              for r, row in enumerate(board["rows"])}
    lines = [indent + " " * lead + "".join(pad(str(c + 1), cell_w) for c in range(board["width"])).rstrip()]
    for r, row in enumerate(board["rows"]):
        by_col = {c["col"]: c for c in row}
        text = "".join(pad(_grid_cell(by_col[c]) if c in by_col else "", cell_w) for c in range(board["width"]))
        lines.append(indent + pad(str(r + 1), lead) + " " * shifts[r] + text.rstrip())
    return lines + _board_notes(board, lang, indent, grid=True)


def _board_notes(board: dict, lang: str, indent: str, grid: bool = False) -> list[str]:
    """A board's key, then what lies on each cell (and each cell's other details)."""
    lines = []
    key = [f"{sym} {label}" for sym, label in board.get("legend") or []]
    if key:
        lines.extend(wrap(key, indent + "  ", sep=", ", first=indent + say("legend", lang) + ": "))
    placed = [f"{c['id']} {c['content']}" + (" [" + ", ".join(f"{k} {v}" for k, v in c["details"]) + "]"
                                             if c.get("details") else "")
              for row in board["rows"] for c in row if c.get("content")]
    placed += [f"{c['id']} [" + ", ".join(f"{k} {v}" for k, v in c["details"]) + "]"
               for row in board["rows"] for c in row if not c.get("content") and c.get("details")]
    if placed:
        lines.extend(wrap(placed, indent + "  ", first=indent + "* "))
    return lines


def board_lines(board: dict, lang: str, indent: str) -> list[str]:
    """A board as a map: each cell `<id><symbol><number>`, a `*` when something lies on it; hex rows
    are centred under each other; the key and what lies where follow. A generated board is a grid."""
    if board.get("grid"):
        return grid_lines(board, lang, indent)
    cell_w = max([cells(f"{c['id']}{c['symbol']}{c['number']}*") for row in board["rows"] for c in row] + [3]) + 1
    lines = []
    width = board.get("width") or 1
    for row in board["rows"]:
        shift = (width - len(row)) * cell_w // 2 if board.get("stagger") == "hex" else 0
        text = " " * shift + "".join(
            pad(f"{c['id']}{c['symbol']}{c['number']}" + ("*" if c.get("content") else ""), cell_w) for c in row)
        lines.append(indent + text.rstrip())
    return lines + _board_notes(board, lang, indent)


def known_line(zone: dict, lang: str) -> str:
    """What the seat knows of pieces of the zone it may not see, place by place ("— you know: 1 Red ?")."""
    known = zone.get("known")
    if not known:
        return ""
    return f" — {say('known', lang)}: " + "; ".join(f"{say('place_n', lang, n=k['at'])} {k['text']}" for k in known)


def zone_lines(zone: dict, lang: str, indent: str) -> list[str]:
    lines = _zone_lines(zone, lang, indent)
    if zone.get("known"):
        lines[0] += known_line(zone, lang)
    return lines


def _zone_lines(zone: dict, lang: str, indent: str) -> list[str]:
    size = f"{zone['used']}/{zone['capacity']}" if zone.get("capacity") is not None else str(zone["count"])
    head = f"{indent}{zone['label']} ({size})"
    if zone["as"] == "hidden":  # with the pieces shown to this seat, if any (`facing`), or a pile's contents
        seen = "; ".join(item_text(i, lang) for i in zone.get("items") or [])
        if zone.get("contents"):
            return [f"{indent}{zone['label']}: {zone['text']}" + (f": {seen}" if seen else "")]
        return [f"{indent}{zone['label']}: {zone['text']}" + (f" ({say('seen', lang)}: {seen})" if seen else "")]
    if zone["as"] == "board":
        return [head + ":"] + board_lines(zone["board"], lang, indent + "  ")
    if not zone["items"]:
        return [f"{indent}{zone['label']}" + (f" ({size})" if zone.get("capacity") is not None else "")
                + f": {say('empty', lang)}"]
    items = [item_text(i, lang) for i in zone["items"]]
    one = f"{indent}{zone['label']}" + (f" ({size})" if zone.get("capacity") is not None else "") + ": " + "; ".join(items)
    if cells(one) <= WIDTH:
        return [one]
    return [head + ":"] + wrap(items, indent + "  ")


def track_lines(track: dict, lang: str, indent: str) -> list[str]:
    """A track: its label and length, then each space that holds markers, in order."""
    spaces: dict[int, list[str]] = {}
    for m in track["marks"]:  # a seat by its number; a scripted seat (no "Player N") by its name
        spaces.setdefault(m["value"], []).append(str(m["seat"] + 1) if m.get("player", True) else m["name"])
    marks = "  ".join(f"{v}:[{' '.join(who)}]" for v, who in sorted(spaces.items()))
    return [f"{indent}{track['label']} (0–{track['length']}): {marks}"]


def area_lines(area: dict, lang: str) -> list[str]:
    lines = [f"── {area['title']} " + "─" * max(0, 60 - cells(area["title"]))]
    counters = [f"{c['label']} {c['text']}" for c in area["counters"]]
    lines.extend(wrap(counters, "  "))
    for t in area.get("tracks") or []:
        lines.extend(track_lines(t, lang, "  "))
    for z in area["zones"]:
        lines.extend(zone_lines(z, lang, "  "))
    return lines


def outcome_lines(outcome: dict, lang: str) -> list[str]:
    lines = [say("final_scores", lang) + ":"]
    for row in outcome["rows"]:
        parts = ", ".join(f"{label} {n}" for label, n in row["parts"])
        lines.append(f"  {row['name']}: {row['score']}" + (f"  ({parts})" if parts else ""))
    if outcome.get("ends"):
        lines.append(say("ended_by", lang, why=", ".join(outcome["ends"])))
    if outcome.get("tie"):
        lines.append(outcome["tie"])
    if outcome.get("line"):
        lines.append(outcome["line"])
    lines.extend(outcome.get("ratings") or [])
    return lines


def picture(model: dict) -> str:
    """The whole picture of one seat's view, as lines of text."""
    lang = model["lang"]
    lines = [f"═══ {model['title']} — {model['viewer_name']} — {model['status']['line']}"]
    for area in model["areas"]:
        lines.extend(area_lines(area, lang))
    if model.get("outcome"):
        lines.extend(outcome_lines(model["outcome"], lang))
    return "\n".join(lines)
