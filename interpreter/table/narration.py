"""Narrated events: what changed that one seat may see, from two presentation models of that seat.

    lines = narrate(before, after, level="full")

Both models are `presentation.present` of the same seat and language, so the narration can tell only
what the seat's view shows: a counter that another seat hides stays "hidden" on both sides and is never
narrated. Levels: `brief` tells the counters and tracks that changed and the pieces that came into or
left a player's area; `full` adds the pieces that moved on the table, changed pieces and hidden piles
that grew or shrank. The end of the game (with its reasons) is told at every level.
"""
from __future__ import annotations

from collections import Counter

from .words import say

LEVELS = ("brief", "full")


def _number(value):
    return value if type(value) is int else None


def _items(zone: dict) -> Counter:
    """Pieces of a zone by name (a board's cells by what lies on them)."""
    c: Counter = Counter()
    if zone.get("board"):
        for row in zone["board"]["rows"]:
            for cell in row:
                if cell.get("content"):
                    c[f"{cell['content']} ({cell['id']})"] += 1
        return c
    for item in zone.get("items") or []:
        c[item["name"]] += item["count"]
    return c


def _detail_text(details) -> str:
    return ", ".join(f"{k} {v}" for k, v in details) or "-"


def _detail_changes(who: str, old: dict, new: dict, lang: str) -> list[str]:
    """Pieces that stayed but changed (a worker placed on a piece, a count on a piece)."""
    def versions(zone):
        c: Counter = Counter()
        for item in zone.get("items") or []:
            c[(item["name"], _detail_text(item.get("details") or []))] += item["count"]
        return c
    a, b = versions(old), versions(new)
    gone, came = a - b, b - a
    lines = []
    for (name, text), n in came.items():
        was = next((t for (nm, t), k in gone.items() if nm == name and k > 0), None)
        if was is not None:
            gone[(name, was)] -= 1
            lines.append(say("changes", lang, who=who, what=f"{old['label']}: {name}", old=was, new=text))
    return lines


def _join(counter: Counter) -> str:
    return ", ".join(f"{name} ×{n}" if n > 1 else name for name, n in counter.items())


def _counter_lines(who: str, label: str, old: dict, new: dict, lang: str, values: bool = False) -> list[str]:
    """One line per count that changed (a map's kinds one by one), else the old and new text."""
    if old.get("parts") is not None and new.get("parts") is not None:
        was = dict(map(tuple, old["parts"]))
        return [_counter_line(who, f"{label} {k}", {"value": was[k], "number": True}, {"value": n, "number": True}, lang,
                              values)
                for k, n in new["parts"] if k in was and was[k] != n]
    return [_counter_line(who, label, old, new, lang, values)]


def _counter_line(who: str, label: str, old: dict, new: dict, lang: str, values: bool = False) -> str:
    """A counter that changed: "9 → 8 (−1)", or with `values` its value now and the change ("now 8 (−1)")."""
    a, b = _number(old["value"]), _number(new["value"])
    if a is not None and b is not None and old.get("number", True) and new.get("number", True):
        key = ("now_gains" if b > a else "now_loses") if values else ("gains" if b > a else "loses")
        return say(key, lang, who=who, what=label, old=a, new=b, d=abs(b - a))
    return say("changes", lang, who=who, what=label, old=old["text"], new=new["text"])


def area_changes(old: dict, new: dict, lang: str, level: str, values: bool = False) -> list[str]:
    who = new["title"] if new["seat"] is None else new.get("who") or _who(new, lang)
    lines = []
    before = {c["id"]: c for c in old["counters"]}
    for c in new["counters"]:
        o = before.get(c["id"])
        if o is not None and o["text"] != c["text"]:
            lines.extend(_counter_lines(who, c["label"], o, c, lang, values))
    tracks = {t["id"]: t for t in old.get("tracks") or []}
    for t in new.get("tracks") or []:
        was = {m["seat"]: m["value"] for m in (tracks.get(t["id"]) or {}).get("marks", [])}
        for m in t["marks"]:
            if m["seat"] in was and was[m["seat"]] != m["value"]:
                lines.append(_counter_line(m["name"], t["label"], {"value": was[m["seat"]], "text": str(was[m["seat"]])},
                                           {"value": m["value"], "text": str(m["value"])}, lang, values))
    zones = {z["id"]: z for z in old["zones"]}
    tell_moves = level == "full" or new["seat"] is not None
    for z in new["zones"]:
        o = zones.get(z["id"])
        if o is None:
            continue
        if z["as"] == "hidden" or o["as"] == "hidden":
            if level == "full" and o["count"] != z["count"]:
                lines.append(_counter_line(who, z["label"], {"value": o["count"], "text": str(o["count"])},
                                           {"value": z["count"], "text": str(z["count"])}, lang, values))
            continue
        if not tell_moves:
            continue
        a, b = _items(o), _items(z)
        if b - a:
            lines.append(say("arrives", lang, who=who, what=z["label"], items=_join(b - a)))
        if a - b:
            lines.append(say("leaves", lang, who=who, what=z["label"], items=_join(a - b)))
        if level == "full" or new["seat"] is not None:
            lines.extend(_detail_changes(who, o, z, lang))
    return lines


def _who(area: dict, lang: str) -> str:
    return area["title"] if area["kind"] == "other" else say("player", lang, n=area["seat"] + 1)


def narrate(before: dict, after: dict, level: str = "brief", values: bool = False) -> list[str]:
    """The lines that tell what changed from `before` to `after` (two models of one seat); with `values`
    a counter is told by its value now and the change ("Doubloons now 3 (+1)", the web table's log)."""
    lang = after["lang"]
    lines: list[str] = []
    old_areas = {a["id"]: a for a in before["areas"]}
    for area in after["areas"]:
        old = old_areas.get(area["id"])
        if old is not None:
            lines.extend(area_changes(old, area, lang, level, values))
    if after["status"]["over"] and not before["status"]["over"]:
        outcome = after.get("outcome") or {}
        lines.append(say("game_over", lang) + (": " + ", ".join(outcome["ends"]) if outcome.get("ends") else ""))
    return lines
