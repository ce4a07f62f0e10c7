"""What a variant changes, in rule terms: `overlay.diff()` of two definitions, grouped and labelled.

    base = load_game("some_game")
    variant = load_game("some_game", ["house_rule.yaml"])
    report = rules_diff(base.definition, variant.definition)
    print(diff_text(report))

`rules_diff` returns plain data (for `--json`): the overlays applied and one entry per change,

    {"category": "components", "change": "changed", "path": "components.building.types.tavern.cost",
     "subject": "building Tavern", "text": "building Tavern: cost 3 → 2", "old": 3, "new": 2, "lines": []}

with `change` one of added, removed, changed; `lines` holds the changed lines of a rule text (an effect,
the setup) or the outline of a flow before and after. Changes to comments, labels and sources only are not
rule changes and are left out. Nothing here prints.
"""

from __future__ import annotations

import difflib
import json

from ..definition.overlay import diff as raw_diff
from ..definition.naming import text_in

CATEGORIES = {
    "game": "Game",
    "setup": "Setup values",
    "components": "Components",
    "rules": "Rules and effects",
    "scoring": "Scoring and the end",
}
SECTION_CATEGORY = {
    "game": "game", "tables": "setup", "options": "setup", "vars": "setup", "resources": "setup",
    "kinds": "setup", "setup": "setup", "zones": "components", "components": "components",
    "parameters": "components", "flow": "rules", "phases": "rules", "steps": "rules", "hooks": "rules",
    "defs": "rules", "events": "rules", "scoring": "scoring", "end": "scoring",
}
META = ("label", "labels", "source", "provisional", "description", "note")
NOT_RULES = {("game", "name")}  # the game's name is a label
WIDTH = 100


# ------------------------------------------------------------------------------------------ helpers

def _text(label, lang, default):
    if isinstance(label, str):
        return label
    if isinstance(label, dict):
        for key in (lang, "en", "zh"):
            if isinstance(label.get(key), str):
                return label[key]
    return str(default).replace("_", " ")


def _get(data, path):
    """The value at `path` in nested dicts/lists, or None when it is not there."""
    node = data
    for key in path:
        if isinstance(node, dict):
            if key in node:
                node = node[key]
            elif isinstance(key, str) and key.isascii() and key.isdigit() and int(key) in node:
                node = node[int(key)]
            else:
                return None
        elif isinstance(node, list) and isinstance(key, int) and 0 <= key < len(node):
            node = node[key]
        else:
            return None
    return node


def _strip_comment(line: str) -> str:
    """A rule line without its `#` comment (a `#` inside quotes is kept)."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#":
            return line[:i].rstrip()
    return line.rstrip()


def rule_lines(text) -> list[str]:
    """The lines of a rule text that say something: no comments, no blank lines."""
    return [s for s in (_strip_comment(x) for x in str(text).splitlines()) if s.strip()]


def normalized(value):
    """A value with comments, labels and sources taken out: equal when the rules are the same."""
    if isinstance(value, str):
        return "\n".join(rule_lines(value)) if "\n" in value or "#" in value else value.strip()
    if isinstance(value, dict):
        return {k: normalized(v) for k, v in value.items() if k not in META}
    if isinstance(value, list):
        return [normalized(v) for v in value]
    return value


def fmt(value, limit: int = 80) -> str:
    """A value in a few words: lists and mappings compact, long texts shortened."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        lines = rule_lines(value)
        if len(lines) > 1:
            return f"({len(lines)} lines)"
        text = lines[0].strip() if lines else value.strip()
        return text if len(text) <= limit else text[:limit - 1] + "…"
    if isinstance(value, (list, tuple)):
        text = "[" + ", ".join(fmt(v, limit) for v in value) + "]"
    elif isinstance(value, dict):
        if set(value) == {"by_players"}:
            return "by players " + fmt(value["by_players"], limit)
        if "value" in value and set(value) <= {"value", *META}:
            return fmt(value["value"], limit)
        text = "{" + ", ".join(f"{k}: {fmt(v, limit)}" for k, v in value.items() if k not in META) + "}"
    else:
        text = str(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _what(parts, words: str) -> str:
    """`count 2 → 1` for one key, `init apple: a → b` for a deeper one."""
    parts = [str(x) for x in parts]
    if len(parts) <= 1:
        return f"{''.join(parts)} {words}".strip()
    return f"{' '.join(parts)}: {words}"


def change_words(old, new) -> str:
    if old is None:
        return f"{fmt(new)} (new)"
    if new is None:
        return f"{fmt(old)} (removed)"
    return f"{fmt(old)} → {fmt(new)}"


def outline(node) -> str:
    """A flow on one line: its sequences, steps, calls, conditions and loops (effects by their size)."""
    if node is None:
        return "nothing"
    if isinstance(node, list):
        return "[" + "; ".join(outline(n) for n in node) + "]"
    if not isinstance(node, dict):
        return str(node)
    if "step" in node:
        return f"step {node['step']}"
    if "simultaneous" in node:
        return f"simultaneous step {node['simultaneous']}" + (f" for {fmt(node['players'])}" if "players" in node else "")
    if "call" in node:
        return f"call {node['call']}"
    if "effect" in node:
        n = len(rule_lines(node["effect"]))
        return "effect" if n <= 1 else f"effect ({n} lines)"
    if "if" in node:
        text = f"if {fmt(node['if'])}: {outline(node.get('then'))}"
        return text + (f" else {outline(node['else'])}" if node.get("else") is not None else "")
    if "repeat" in node:
        text = f"repeat {outline(node['repeat'])}"
        if "until" in node:
            text += f" until {fmt(node['until'])}"
        if "while" in node:
            text += f" while {fmt(node['while'])}"
        return text + (f" (max {node['max']})" if "max" in node else "")
    if "each_player" in node:
        extra = [f"from {fmt(node['from'])}"] if "from" in node else []
        if node.get("direction", "clockwise") != "clockwise":
            extra.append(str(node["direction"]))
        if node.get("until", "once") != "once":
            extra.append(f"until {node['until']}")
        return f"each player{(' ' + ' '.join(extra)) if extra else ''}: {outline(node['each_player'])}"
    return fmt(node)


def _wrap(prefix: str, text: str) -> list[str]:
    import textwrap
    return textwrap.wrap(text, WIDTH, initial_indent=prefix, subsequent_indent=" " * len(prefix),
                         break_long_words=False, break_on_hyphens=False) or [prefix]


def line_diff(old, new) -> list[str]:
    """The rule lines removed (-) and added (+) between two rule texts."""
    a, b = rule_lines(old or ""), rule_lines(new or "")
    out = []
    for line in difflib.unified_diff(a, b, lineterm="", n=0):
        if line.startswith(("---", "+++", "@@")):
            continue
        out.append(f"{line[0]} {line[1:]}")
    return out


# ----------------------------------------------------------------------------------------- grouping

def _collapse(path: tuple) -> tuple:
    """The place a change is told at: a flow, a rule text or a map of values counts as one change."""
    p = path
    section = p[0]
    if section in ("flow", "setup"):
        return p[:1]
    if section == "phases" and len(p) > 3 and p[2] == "flow":
        return p[:3]
    if section == "hooks" and len(p) > 3 and p[2] == "do":
        return p[:3]
    if section == "steps" and len(p) > 5 and p[2] == "actions":
        return p[:5]
    if section == "scoring" and len(p) > 2 and p[1] == "tiebreak":
        return p[:2]
    if section == "scoring" and len(p) > 4 and p[1] == "items":
        return p[:4]
    if section == "components" and len(p) > 5 and p[2] == "types" and p[4] != "modifies":
        return p[:5]
    if section == "components" and len(p) > 6 and p[4] == "modifies":
        return p[:6]
    if section == "defs":
        return p[:2]
    return p


class _Namer:
    """Labels of the things a change is about, read from the definitions (the variant's first)."""

    def __init__(self, base, variant, lang):
        self.defs = (variant, base)
        self.lang = lang

    def entry(self, *path):
        for d in self.defs:
            e = _get(d, path)
            if e is not None:
                return e
        return None

    def label(self, *path):
        e = self.entry(*path)
        return _text(e.get("label") if isinstance(e, dict) else None, self.lang, path[-1])

    def piece(self, cls, typ):
        klass = self.label("components", cls).lower()
        return f"{klass} {self.label('components', cls, 'types', typ)}"


def _describe(path: tuple, old, new, names: _Namer) -> tuple[str, str, list[str]]:
    """(subject, text, extra lines) of one change."""
    s = path[0]
    rest = path[1:]
    how = "added" if old is None else "removed" if new is None else "changed"
    words = change_words(old, new)
    lines: list[str] = []

    def whole(subject, summary=None):
        if how == "added":
            return subject, f"{subject} added" + (f": {summary}" if summary else ""), lines
        if how == "removed":
            return subject, f"{subject} removed", lines
        return subject, f"{subject}: {words}", lines

    if s == "game":
        if rest == ("players",):
            fmt_counts = lambda v: ", ".join(map(str, v)) if isinstance(v, list) else fmt(v)  # noqa: E731
            return "player counts", f"player counts: {fmt_counts(old)} → {fmt_counts(new)}", lines
        return "game", f"game {'.'.join(map(str, rest))}: {words}", lines

    if s == "tables":
        name = rest[0]
        subject = f"table {name}"
        if len(rest) == 1:
            return whole(subject, fmt(new))
        inner = [k for k in rest[1:] if k != "value"]
        if inner and inner[0] == "by_players":
            if len(inner) == 1:
                return subject, f"{subject}: {words}", lines
            return subject, f"{subject}: {inner[1]} players: {words}", lines
        where = ".".join(map(str, inner))
        return subject, f"{subject}: {(where + ': ') if where else ''}{words}", lines

    if s == "components":
        cls = rest[0]
        klass = names.label("components", cls).lower()
        if len(rest) == 1:
            return whole(f"component class {cls}")
        if rest[1] == "types":
            if len(rest) == 2:
                return f"component class {cls}", f"component class {cls}: types {words}", lines
            typ = rest[2]
            subject = names.piece(cls, typ)
            if len(rest) == 3:
                if how == "added":
                    props = {k: v for k, v in (new or {}).items() if k not in META}
                    return subject, f"component type {typ} added ({subject}): {fmt(props)}", lines
                if how == "removed":
                    return subject, f"component type {typ} removed ({subject})", lines
                return subject, f"{subject}: {words}", lines
            if rest[3] == "modifies":
                if len(rest) == 4:
                    return subject, f"{subject}: modifiers {words}", lines
                return subject, f"{subject}: {rest[4]} modifier {words}", lines
            return subject, f"{subject}: {_what(rest[3:], words)}", lines
        if rest[1] in ("properties", "fields"):
            what = "default " if rest[1] == "properties" else "field "
            detail = ".".join(map(str, rest[2:]))
            return klass, f"{klass} (every type): {what}{detail} {words}".replace("  ", " "), lines
        return klass, f"{klass}: {_what(rest[1:], words)}", lines

    if s in ("vars", "zones"):
        scope = rest[0]
        kind = "var" if s == "vars" else "zone"
        if len(rest) == 1:
            return f"{scope} {kind}s", f"{scope} {kind}s: {words}", lines
        subject = f"{scope} {kind} {rest[1]}"
        if len(rest) == 2:
            return whole(subject, fmt(new))
        return subject, f"{subject}: {_what(rest[2:], words)}", lines

    if s in ("options", "kinds", "resources", "parameters", "events"):
        noun = {"options": "option", "kinds": "kind", "resources": "resource", "parameters": "parameter",
                "events": "event"}[s]
        subject = f"{noun} {rest[0]}" if rest else noun + "s"
        if len(rest) <= 1:
            return whole(subject)
        return subject, f"{subject}: {_what(rest[1:], words)}", lines

    if s == "setup":
        lines = line_diff(old, new)
        return "setup", "setup " + ("changed" if old and new else "added" if new else "removed"), lines

    if s == "flow":
        lines = _wrap("before: ", outline(old)) + _wrap("after:  ", outline(new))
        return "flow", "flow " + ("changed" if old and new else "added" if new else "removed"), lines

    if s == "phases":
        subject = f"phase {names.label('phases', rest[0])}"
        if len(rest) == 1:
            return whole(subject, outline((new or {}).get("flow")) if how == "added" else None)
        if rest[1] == "flow":
            lines = _wrap("before: ", outline(old)) + _wrap("after:  ", outline(new))
            return subject, f"{subject}: flow {how}", lines
        return subject, f"{subject}: {_what(rest[1:], words)}", lines

    if s == "steps":
        subject = f"step {names.label('steps', rest[0])}"
        if len(rest) == 1:
            return whole(subject)
        if rest[1] == "actions" and len(rest) >= 3:
            subject = f"{subject}, action {rest[2]}"
            if len(rest) == 3:
                return whole(subject)
            field = rest[3]
            if field == "effect":
                lines = line_diff(old, new)
                return subject, f"{subject}: effect {how}", lines
            if field == "if":
                return subject, f"{subject}: condition {words}", lines
            return subject, f"{subject}: {_what(rest[3:], words)}", lines
        return subject, f"{subject}: {_what(rest[1:], words)}", lines

    if s == "hooks":
        subject = f"hook {rest[0]}"
        if len(rest) == 1:
            on = (new or {}).get("on") if isinstance(new, dict) else None
            return whole(subject, f"on {on}" if on else None)
        if rest[1] == "do":
            lines = _wrap("before: ", outline(old)) + _wrap("after:  ", outline(new))
            return subject, f"{subject}: what it does {how}", lines
        if rest[1] == "if":
            return subject, f"{subject}: condition {words}", lines
        return subject, f"{subject}: {_what(rest[1:], words)}", lines

    if s == "defs":
        subject = f"definition {rest[0]}"
        if isinstance(old, str) and isinstance(new, str) and (len(rule_lines(old)) > 1 or len(rule_lines(new)) > 1):
            return subject, f"{subject} changed", line_diff(old, new)
        return whole(subject, fmt(new))

    if s == "scoring":
        if len(rest) >= 2 and rest[0] == "items":
            subject = f"scoring item {names.label('scoring', 'items', rest[1])}"
            if len(rest) == 2:
                return whole(subject, fmt(new.get("expr") if isinstance(new, dict) else new))
            return subject, f"{subject}: {_what(rest[2:], words)}", lines
        if rest and rest[0] == "tiebreak":
            return "tiebreak", f"tiebreak: {words}", lines
        return "scoring", f"scoring {'.'.join(map(str, rest))}: {words}", lines

    if s == "end":
        if len(rest) >= 2 and rest[0] == "triggers":
            subject = f"end trigger {rest[1]}"
            if len(rest) == 2:
                return whole(subject)
            return subject, f"{subject}: {_what(rest[2:], words)}", lines
        return "end", f"end {'.'.join(map(str, rest))}: {words}", lines

    where = ".".join(map(str, path))
    return where, f"{where}: {words}", lines


# -------------------------------------------------------------------------------------------- public

def overlay_info(definition, lang: str = "en") -> list[dict]:
    """The overlays a definition was built with: file, label, description, source."""
    out = []
    for doc in getattr(definition, "overlays", []):
        head = (doc.data or {}).get("overlay") or {}
        out.append({"file": str(doc.file), "label": _text(head.get("label"), lang, doc.file.stem
                                                           if hasattr(doc.file, "stem") else doc.file),
                    "description": head.get("description"), "source": head.get("source"),
                    "base": head.get("base")})
    return out


def rules_diff(base, variant, lang: str = "en") -> dict:
    """The rule changes from definition `base` to definition `variant` (both model.Definition)."""
    b, v = base.sections, variant.sections
    places: dict[tuple, None] = {}
    for path, _, _ in raw_diff(b, v):
        if path and tuple(path[:2]) not in NOT_RULES and path[0] != "labels":  # the words of names, no rule
            places.setdefault(_collapse(tuple(path)), None)
    names = _Namer(b, v, lang)
    order = list(CATEGORIES)
    changes = []
    for path in places:
        old, new = _get(b, path), _get(v, path)
        if normalized(old) == normalized(new):
            continue  # comments, labels or sources only
        subject, text, lines = _describe(path, old, new, names)
        note = _provisional(b, v, path)
        if note:
            lines = lines + _wrap("provisional: ", " ".join(text_in(note, lang).split()))
        changes.append({
            "category": SECTION_CATEGORY.get(path[0], "rules"),
            "change": "added" if old is None else "removed" if new is None else "changed",
            "path": ".".join(map(str, path)), "subject": subject, "text": text,
            "old": _plain(old), "new": _plain(new), "lines": lines,
        })
    sections = list(SECTION_CATEGORY)
    changes.sort(key=lambda c: (order.index(c["category"]), sections.index(c["path"].split(".")[0])
                                if c["path"].split(".")[0] in sections else len(sections)))
    game = b.get("game") or {}
    return {
        "game": game.get("id"), "name": _text(game.get("name"), lang, game.get("id")),
        "overlays": overlay_info(variant, lang), "changes": changes,
        "counts": {cat: sum(1 for c in changes if c["category"] == cat) for cat in order},
    }


def _provisional(b, v, path):
    """The `provisional` note the variant gives the changed entry (or an entry around it), if new."""
    for n in range(len(path), 1, -1):
        entry = _get(v, path[:n])
        if isinstance(entry, dict) and entry.get("provisional"):
            before = _get(b, path[:n])
            if not (isinstance(before, dict) and before.get("provisional") == entry["provisional"]):
                return entry["provisional"]
            return None
    return None


def _plain(value):
    """JSON-safe data (YAML may have int keys, which JSON writes as strings anyway)."""
    return json.loads(json.dumps(value, default=str)) if value is not None else None


def diff_text(report: dict) -> str:
    """The report of rules_diff for people."""
    labels = " + ".join(o["label"] for o in report["overlays"])
    out = [f"{report['name']}{' + ' + labels if labels else ''}"]
    for o in report["overlays"]:
        out.append(f"  {o['file']}")
        if o.get("description"):
            out.extend(_wrap("    ", " ".join(str(o["description"]).split())))
        if o.get("source"):
            out.extend(_wrap("    source: ", str(o["source"])))
    if not report["changes"]:
        out.append("")
        out.append("No rule changes.")
        return "\n".join(out)
    for cat, title in CATEGORIES.items():
        rows = [c for c in report["changes"] if c["category"] == cat]
        if not rows:
            continue
        out.append("")
        out.append(f"{title} ({len(rows)})")
        for c in rows:
            out.append(f"  {c['text']}")
            out.extend(f"      {line}" for line in c["lines"])
    n = len(report["changes"])
    out.append("")
    out.append(f"{n} change{'' if n == 1 else 's'}.")
    return "\n".join(out)
