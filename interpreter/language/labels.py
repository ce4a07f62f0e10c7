"""Labels with `{expr}` holes, checked when the game loads and rendered per seat.

Every label of a phase, step, repeat, effect, hook, event or action may hold `{expression}` holes. A hole
is compiled like any expression (names and types are checked at load, with the file:line:col of the
label); it must give something a person can read: a number, a yes/no, a text, a player, a piece, a kind
value (also typed by its kind, as an event argument `colour: colour` is: shown by the value's label) or a list
of those.

A label is rendered for one seat at a time, so what the rules hide stays hidden:
- a piece is named only to a seat that may see the zone it is in; others read its class ("a card");
- a hole that reads a private var (`visible: owner`) is shown to the acting player only, a hole that reads
  a var nobody sees (`visible: none`) to nobody: the others read "?". (A number computed from the pieces of
  a hidden zone is not traced: name the pieces, or keep the count in a private var.)

A narration entry is `{"en", "zh", ...}` (every language of the label) as the table sees it (a seat-less
spectator), plus `"seen": {seat: {"en", "zh", ...}}` for each seat that sees more; `for_seat` reads a
language the entry lacks in English.
"""

from __future__ import annotations

import re

from ..table.words import Texts, say
from .entries import label_of

EVERYONE = object()  # render for nobody in particular: every value shown (tools, the acting seat's menu)
TRACE: list | None = None  # when a list: every render appends (label, viewer, text) to it (textleaks.py)
READABLE = ("int", "bool", "str", "player", "piece", "none", "any")


def compile_label(w, raw, default, unit, sc, path):
    """A label as Texts (en, zh and every other language it gives) of lists of parts: (text, None, None,
    None) or (None, fn, type, privacy), privacy being None (public), "owner" (the acting player only),
    "others" (all but the acting player) or "none" (nobody)."""
    lab = label_of(raw, default)
    parts = Texts()
    for lang in lab:
        text = lab[lang]
        out = []
        i = 0
        while i < len(text):
            j = text.find("{", i)
            k = text.find("}", j) if j >= 0 else -1
            if j < 0 or k < 0:
                out.append((text[i:], None, None, None))
                break
            if j > i:
                out.append((text[i:j], None, None, None))
            hole = text[j + 1:k]
            outer, w.reads = w.reads, set()  # what this hole reads, alone
            try:
                x = w.compile_expr(hole, path + ("label",), unit, sc)
            finally:
                mine, w.reads = w.reads, outer
                w.reads |= mine
            if x is not None and not (x.t in READABLE or x.t.startswith("list:") or x.t in w.kinds):
                w.error(f"a label hole shows a number, text, player, piece or kind value, not a {x.t} "
                        f"({{{hole.strip()}}})", path + ("label",))
            out.append((None, x.f if x else (lambda s, e: "?"), x.t if x else "str",
                        _privacy(w, mine, hole)))
            i = k + 1
        parts[lang] = out
    return parts


def _privacy(w, reads, hole):
    level = None
    for what, name in reads:
        mode = _visibility(w, "player", name) if what == "pvar" else None
        if mode in ("owner", "others"):
            # the acting player's own (`player.secret`) is told to them only (owner) or to all but them
            # (others); anyone else's, to nobody here
            own = len(re.findall(rf"(?<![\w.])player\s*\.\s*{name}\b", hole))
            if own < len(re.findall(rf"\.\s*{name}\b", hole)) or (level is not None and level != mode):
                return "none"
            level = mode
        elif mode == "none" or (what == "var" and _visibility(w, "global", name) == "none"):
            return "none"
    return level


def _visibility(w, scope, name):
    for n, v, t in w.var_defs[scope]:
        if n == name:
            return v.get("visible")
    return None


def render(game, s, label, e, viewer=EVERYONE, after=None):
    """The label as Texts (every language it has) for `viewer` (a seat, None for a spectator, EVERYONE for
    all values); its holes are evaluated in state s, a piece is named if the viewer may see it in state
    `after` (where an action put it: a card played face up is named), by default s."""
    out = Texts()
    for lang in label:
        text = []
        for part in label[lang]:
            lit, f, t = part[0], part[1], part[2]
            if f is None:
                text.append(lit)
                continue
            priv = part[3] if len(part) > 3 else None
            if viewer is not EVERYONE and (priv == "none" or (priv == "owner" and viewer != e[0])
                                           or (priv == "others" and viewer == e[0])):
                text.append("?")
                continue
            try:
                v = f(s, e)
                text.append(_text(game, s, v, t, lang, viewer, after or s))
            except Exception:
                text.append("?")
        out[lang] = "".join(text)
    if TRACE is not None:
        TRACE.append((label, viewer, out))
    return out


def _text(game, s, v, t, lang, viewer, seen_in):
    if isinstance(v, (list, tuple)) and t.startswith("list:"):
        return ", ".join(_text(game, s, x, t[5:], lang, viewer, seen_in) for x in v)
    if t == "piece" and viewer is not EVERYONE and isinstance(v, int) and 0 <= v < len(s.types):
        from ..engine.facing import piece_seen  # its zone's visibility and its own
        if viewer is None or not piece_seen(game, seen_in, v, viewer):
            if not all(piece_seen(game, seen_in, v, q) for q in range(s.n)):
                cls = game.world.class_of.get(s.types[v], "piece")
                return ("a " if lang == "en" else "一个") + cls.replace("_", " ")
    return game.value_text(v, t, lang, s)


def entry(game, s, label, e, who=None, after=None):
    """A narration entry: the label rendered for the table, and for each seat that sees more. `who` (a
    seat) prefixes "Player N: "; `after` is the state in which pieces are seen (see render)."""
    def prefixed(r):
        if who is None:
            return r
        return Texts((lang, say("acts", lang, who=game.value_text(who, "player", lang, s), what=text))
                     for lang, text in r.items())
    public = prefixed(render(game, s, label, e, None, after))
    out = dict(public)
    if who is not None:
        out["player"] = who
    if any(len(p) > 3 and (p[3] or p[2] == "piece") for parts in label.values() for p in parts):
        seen = {}
        for seat in range(s.n):
            r = prefixed(render(game, s, label, e, seat, after))
            if r != public:
                seen[seat] = r
        if seen:
            out["seen"] = seen
    return out


def for_seat(message, seat, lang):
    """The text of a narration entry as `seat` sees it."""
    seen = message.get("seen") if isinstance(message, dict) else None
    if seen and seat in seen:
        message = seen[seat]
    return (message.get(lang) or message.get("en", "")) if isinstance(message, dict) else str(message)
