"""What a person at one seat sees: a presentation model built from that seat's view, never from the state.

    model = present(game, game.view(state, seat), lang="zh")

The model is plain JSON data, every text already in the asked language: the seat's own area first, then
what lies on the table, then every other player's public area, then each scripted seat's (titled by its
label). Counters carry their labels and values as text; pieces are named by their labels and grouped; a
zone laid out as a graph is a board of cells with row and column; a player var marked as a track in
`display:` is a track with every seat's marker. The terminal (`textview`) and the web table (`webtable`)
draw this model and nothing else, so neither can show what the view hides. At the end, `outcome` (the
scores, public once the game is over) adds the final scores, the winners and why the game ended.

    {"title", "lang", "viewer", "viewer_name", "players",
     "status": {"over", "path": [labels], "to_move", "to_move_name", "decisions", "line"},
     "areas": [{"id", "kind": own|shared|other, "seat", "title",
                "counters": [{"id", "label", "value", "text"}],
                "tracks": [{"id", "label", "length", "marks": [{"seat", "name", "value", "player"}]}],
                "zones": [{"id", "label", "as", "count", "items": [{"name", "count", "details"}],
                           "board": {"stagger", "width", "rows": [[cell]], "legend": [[symbol, label]],
                                     "colors": {symbol: "#rrggbb"}}}]}],
     "outcome": {"rows": [{"seat", "name", "score", "parts": [[label, n]]}], "winners", "line", "ends"}}
"""
from __future__ import annotations

import math
from typing import Any

from ..definition.display import display_spec
from ..engine.scripted import seat_label
from .words import person, say, yes_no


def _label(entry: Any, lang: str, default: str) -> str:
    lab = entry.get("label") if isinstance(entry, dict) else None
    if isinstance(lab, dict):
        return str(lab.get(lang) or lab.get("en") or default)
    if isinstance(lab, str):
        return lab
    return default


class Labels:
    """The definition's labels of one game in one language (vars, zones, fields, kinds, pieces)."""

    def __init__(self, game, lang: str):
        d, w = game.definition, game.world
        self.game, self.lang = game, lang
        self.vars = {scope: {n: _label(v, lang, n) for n, v, _ in w.var_defs[scope]} for scope in ("global", "player")}
        self.var_types = {scope: {n: ("map" if v.get("of") else t) for n, v, t in w.var_defs[scope]}
                          for scope in ("global", "player")}
        self.zones = {scope: {n: _label(z, lang, n) for (sc, n), z in w.zone_defs.items() if sc == scope}
                      for scope in ("global", "player")}  # families and piece zones: each of their zones
        self.fields: dict[str, str] = {}
        self.field_types: dict[str, str] = {}
        for cls in (d["components"] or {}).values():
            for fname, fdef in ((cls or {}).get("fields") or {}).items():
                fdef = fdef or {}
                self.fields.setdefault(fname, _label(fdef, lang, fname))
                self.field_types.setdefault(fname, "map" if fdef.get("of") else str(fdef.get("type", "int")))
        self.types = {t: lab.get(lang, t) for t, lab in w.type_labels.items()}
        self.kinds = {v: lab.get(lang, v) for v, lab in w.kind_labels.items()}
        self.ends = {k: _label(v, lang, k) for k, v in w.end_triggers.items()}
        self.scores = {iid: (lab.get(lang, iid) if isinstance(lab, dict) else str(lab))
                       for iid, lab, *_ in getattr(game, "score_items", [])}

    def value(self, v, t: str, view: dict) -> str:
        """A value as text: pieces and kind values by label, players as seats, maps as their parts."""
        lang = self.lang
        if v == "hidden":
            return say("hidden", lang)
        if v is None:
            return say("none", lang)
        if t == "map" or isinstance(v, dict):
            parts = [f"{self.kinds.get(k, k)} {n}" for k, n in v.items() if n]
            return ", ".join(parts) if parts else say("none", lang)
        if t == "player" and isinstance(v, int):
            return _seat_name(self.game, view, v, lang)
        if t == "piece" and isinstance(v, int):
            types = view["pieces"]["types"]
            return self.types.get(types[v], types[v]) if 0 <= v < len(types) else str(v)
        if isinstance(v, list):  # a list var: its items, each as its type says
            return "[" + ", ".join(self.value(x, t[5:] if t.startswith("list:") else "any", view) for x in v) + "]"
        if isinstance(v, bool):
            return yes_no(v, lang)
        if isinstance(v, str):
            return self.kinds.get(v) or self.types.get(v) or v
        return str(v)


def labels_for(game, lang: str) -> Labels:
    cache = game.__dict__.setdefault("_presentation_labels", {})
    if lang not in cache:
        cache[lang] = Labels(game, lang)
    return cache[lang]


# ------------------------------------------------------------------------------------------ pieces

def piece_details(L: Labels, view: dict, x: int) -> list[list[str]]:
    """[label, text] of each field of piece x that holds something (0, false and none hold nothing; but a
    player or piece field's 0 is seat 1 or piece 0)."""
    out = []
    for fname, column in view["pieces"]["fields"].items():
        v = column[x] if x < len(column) else None
        t = L.field_types.get(fname, "int")
        if v is None or (t not in ("player", "piece") and v in (0, False)) \
                or (isinstance(v, dict) and not any(v.values())):
            continue
        out.append([L.fields.get(fname, fname), L.value(v, t, view)])
    return out


def piece_name(L: Labels, view: dict, x: int | None) -> str:
    if x is None:  # a piece this seat may not see where it lies (face down: `facing`)
        return say("face_down", L.lang)
    t = view["pieces"]["types"][x]
    return L.types.get(t, t)


def group_pieces(L: Labels, view: dict, pieces: list[int], skip_fields=()) -> list[dict]:
    """Pieces with the same name and details as one item with a count, in the order they first appear."""
    items: dict[tuple, dict] = {}
    for x in pieces:
        details = [] if x is None else [d for d in piece_details(L, view, x) if d[0] not in skip_fields]
        name = piece_name(L, view, x)
        key = (name, tuple(map(tuple, details)))
        if key in items:
            items[key]["count"] += 1
        else:
            items[key] = {"name": name, "count": 1, "details": details}
    return list(items.values())


# ------------------------------------------------------------------------------------------ boards

def _prop(game, ptype: str, prop: str | None):
    if not prop:
        return None
    return game.world.props.get(prop, {}).get(ptype)


def _symbols(L: Labels, values: list[str]) -> dict[str, str]:
    """A short symbol per kind value: the first letter of its label, longer where two would clash."""
    out: dict[str, str] = {}
    for v in values:
        label = L.kinds.get(v, v)
        for n in range(1, len(label) + 1):
            sym = label[:n].strip().upper() if label[:1].isascii() else label[:n]
            if sym and sym not in out.values():
                out[v] = sym
                break
        else:
            out[v] = v
    return out


def _cell_props(game, zone: str) -> dict:
    """type -> (order, kind, number) of a board's cells, computed once per game."""
    cache = game.__dict__.setdefault("_board_props", {})
    if zone not in cache:
        spec = display_spec(game).boards[zone]
        cache[zone] = {t: (_prop(game, t, spec.order), _prop(game, t, spec.symbol), _prop(game, t, spec.number))
                       for t in game.world.types}
    return cache[zone]


def board(game, L: Labels, view: dict, zone: str, pieces: list[int]) -> dict:
    """The cells of a board zone in rows: the display's `rows` (cells per row, by its `order`
    property), or rows of a near-square default."""
    spec = display_spec(game).boards[zone]
    types = view["pieces"]["types"]
    props = _cell_props(game, zone)
    ordered = sorted(pieces, key=lambda x: (props[types[x]][0] or 0, x))
    kinds = [v for v in (props[types[x]][1] for x in ordered) if isinstance(v, str)]
    symbols = _symbols(L, list(dict.fromkeys(kinds)))
    widths = list(spec.rows or [])
    if sum(widths) != len(ordered):
        side = max(1, math.ceil(math.sqrt(len(ordered))))
        widths = [side] * (len(ordered) // side) + ([len(ordered) % side] if len(ordered) % side else [])
    rows, i = [], 0
    fields = view["pieces"]["fields"]
    content_col = fields.get(spec.content) if spec.content else None
    content_label = L.fields.get(spec.content) if spec.content else None
    for r, width in enumerate(widths):
        row = []
        for c in range(width):
            x = ordered[i]
            i += 1
            order, kind, number = props[types[x]]
            on = content_col[x] if content_col is not None else None
            details = [d for d in piece_details(L, view, x) if d[0] != content_label]
            row.append({"id": order if order is not None else x, "name": piece_name(L, view, x),
                        "row": r, "col": c, "kind": kind, "symbol": symbols.get(kind, ""),
                        "number": "" if number is None else str(number),
                        "content": piece_name(L, view, on) if isinstance(on, int) else None, "details": details})
        rows.append(row)
    legend = [[sym, L.kinds.get(k, k)] for k, sym in symbols.items()]
    colors = {sym: display_spec(game).colors[k] for k, sym in symbols.items() if k in display_spec(game).colors}
    return {"stagger": spec.stagger, "width": max(widths or [0]), "rows": rows, "legend": legend,
            "colors": colors}


# ------------------------------------------------------------------------------------------- areas

def _zone(game, L: Labels, view: dict, scope: str, name: str, content) -> dict:
    spec = display_spec(game)
    z = {"id": name, "label": L.zones[scope].get(name, name), "as": spec.shapes.get(name, "row")}
    if isinstance(content, dict) and "hidden" in content:
        z.update({"as": "hidden", "count": content["hidden"], "items": [],  # how many, never which
                  "text": say("hidden_n", L.lang, n=content["hidden"])})
        if content.get("seen"):  # pieces revealed to this seat (`facing`)
            z["items"] = group_pieces(L, view, content["seen"])
        return z
    z["count"] = len(content)
    capacity, sizes = _capacity(game, scope, name)
    if capacity is not None:  # a fixed capacity: how much of it is used (pieces may take several spaces)
        types = view["pieces"]["types"]
        z["capacity"] = capacity
        z["used"] = sum((sizes or {}).get(types[x], 1) or 0 if x is not None else 1 for x in content) if sizes \
            else len(content)
    if z["as"] == "board":
        z["board"] = board(game, L, view, name, content)
        z["items"] = []
    else:
        z["items"] = group_pieces(L, view, content)
    return z


def _capacity(game, scope: str, name: str):
    """The zone's capacity when it is one number for every game, and its size table (type -> spaces)."""
    w = game.world
    i = (w.layout.gzones if scope == "global" else w.layout.pzones)[name]
    cap = (w.gcap if scope == "global" else w.pcap)[i]
    size = (w.gsize if scope == "global" else w.psize)[i]
    return (cap if type(cap) is int else None), size


def _counter(L: Labels, view: dict, scope: str, name: str, value) -> dict:
    t = L.var_types[scope].get(name, "int")
    c = {"id": name, "label": L.vars[scope].get(name, name), "value": value, "text": L.value(value, t, view),
         "number": t == "int" and type(value) is int}
    if isinstance(value, dict):  # a map: each kind value's label and count
        c["parts"] = [[L.kinds.get(k, k), n] for k, n in value.items()]
    return c


def _area(game, L, view, kind, seat, title, names, scope, values, zones) -> dict:
    area = {"id": "shared" if seat is None else f"seat-{seat + 1}", "kind": kind, "seat": seat,
            "title": title, "counters": [], "zones": [], "tracks": []}
    tracks = display_spec(game).tracks
    for name in names:
        if name in values and name not in tracks:
            area["counters"].append(_counter(L, view, scope, name, values[name]))
        elif name in zones:
            held = holder_in_view(game.world, view, name) if scope == "global" else None
            if held is not None:  # a zone a piece holds: shown when it holds something, named by its holder
                if not zones[name]:
                    continue
                z = _zone(game, L, view, scope, name, zones[name])
                z["label"] = f"{z['label']} ({piece_name(L, view, held)})" if held >= 0 else z["label"]
                area["zones"].append(z)
                continue
            area["zones"].append(_zone(game, L, view, scope, name, zones[name]))
    return area


def _tracks(game, L: Labels, view: dict) -> list[dict]:
    out = []
    for name, t in display_spec(game).tracks.items():
        marks = [{"seat": pl, "name": _seat_name(game, view, pl, L.lang), "value": row.get(name),
                  "player": pl < view["players"]}  # false: a scripted seat's marker
                 for pl, row in enumerate(view["player_vars"]) if isinstance(row.get(name), int)]
        length = t.get("length") or max([m["value"] for m in marks] + [1])
        out.append({"id": name, "label": _label(t, L.lang, L.vars["player"].get(name, name)),
                    "length": length, "marks": marks})
    return out


def _seat_name(game, view, seat, lang):
    """A seat's name: "Player N", or a scripted seat's label."""
    return seat_label(game, view["players"], view["options"], seat, lang) or person(seat, lang)


def status(game, L: Labels, view: dict) -> dict:
    lang = L.lang
    # the phases and the step, their {holes} filled as the viewing seat may read them (Game.view)
    path = [t.get(lang) or t.get("en", "") for t in view.get("flow_labels") or []]
    who = view.get("to_move")
    over = not view.get("flow")
    line = say("game_over", lang) if over else " / ".join(path)
    if not over and who is not None:
        line += " — " + say("to_move", lang, who=person(who, lang))
    return {"over": over, "path": path, "to_move": who,
            "to_move_name": person(who, lang) if who is not None else None,
            "decisions": view.get("decisions", 0), "line": line}


def holder_in_view(w, view: dict, name: str):
    """For a zone held by a piece (zonevalues): the holder's id (-1 when no piece holds it in this game);
    None for any other zone."""
    rt = w.piece_zone_rt
    z = w.layout.gzones.get(name)
    if rt.lo is None or z is None or not rt.lo <= z < rt.hi:
        return None
    held = rt.holder(_Types(view["pieces"]["types"], view["players"]), z)
    return -1 if held is None else held


class _Types:
    """What `PieceZones.holder` reads of a state (the piece types), from a view."""
    __slots__ = ("types", "n")

    def __init__(self, types, n):
        self.types, self.n = types, n


def outcome_model(L: Labels, outcome: dict) -> dict:
    """The outcome for people (exact fractional scores as "n/d": the model is JSON)."""
    from ..engine.exact import plain, text as exact_text
    lang = L.lang
    rows = []
    for seat, score in enumerate(outcome.get("scores", [])):
        parts = [[L.scores.get(k, k), plain(v)] for k, v in ((outcome.get("breakdown") or [{}] * (seat + 1))[seat] or {}).items() if v]
        rows.append({"seat": seat, "name": person(seat, lang), "score": plain(score), "parts": parts})
    winners = list(outcome.get("winners", []))
    names = "、".join if lang == "zh" else ", ".join
    line = (say("winner", lang, who=person(winners[0], lang)) if len(winners) == 1 else
            say("winners", lang, who=names(person(s, lang) for s in winners)) if winners else "")
    if outcome.get("shared") in ("win", "loss"):  # a cooperative game: one result for the whole table
        line = say("all_win" if outcome["shared"] == "win" else "all_lose", lang)
    tiebreak = outcome.get("tiebreak") or []
    scores = outcome.get("scores", [])
    tie = None
    if scores and tiebreak and winners:
        best = scores[winners[0]]  # the winners' score, whichever way the game counts
        tied = [seat for seat, score in enumerate(scores) if score == best]
        if len(tied) > 1:
            keys = "; ".join(f"{person(seat, lang)} {tiebreak[seat]}" for seat in tied if seat < len(tiebreak))
            tie = say("tie_broken", lang, score=exact_text(best), keys=keys)
    ratings = [say("rating", lang, who=person(seat, lang), rating=r.get(lang) or r.get("en"))
               for seat, r in enumerate(outcome.get("ratings") or []) if r]
    return {"rows": rows, "winners": winners, "line": line, "tie": tie, "ratings": ratings,
            "ends": [L.ends.get(e, e) for e in outcome.get("ends") or []]}


def present(game, view: dict, lang: str = "en", outcome: dict | None = None, title: str | None = None) -> dict:
    """The presentation model of `view` (game.view(state, seat)) in `lang`; see the module's docstring."""
    L = labels_for(game, lang)
    spec = display_spec(game)
    seat = view["viewer"]
    n = view["players"]
    own = _area(game, L, view, "own", seat, say("your_area", lang, who=person(seat, lang)), spec.player,
                "player", view["player_vars"][seat], view["player_zones"][seat])
    shared = _area(game, L, view, "shared", None, say("shared", lang), spec.shared, "global",
                   view["vars"], view["zones"])
    shared["tracks"] = _tracks(game, L, view)
    others = [_area(game, L, view, "other", pl, person(pl, lang), spec.player, "player",
                    view["player_vars"][pl], view["player_zones"][pl])
              for pl in list(range(seat + 1, n)) + list(range(0, seat))]
    for pl, name in game.world.scripted.seats(n, view["options"]):  # seats that make no decisions
        others.append(_area(game, L, view, "other", pl, _seat_name(game, view, pl, lang),
                            spec.scripted.get(name, spec.player), "player",
                            view["player_vars"][pl], view["player_zones"][pl]))
    name = game.name.get(lang, game.id) if isinstance(game.name, dict) else str(game.name)
    model = {"title": title or name, "lang": lang, "viewer": seat, "viewer_name": person(seat, lang),
             "players": n, "status": status(game, L, view), "areas": [own, shared, *others]}
    if outcome is not None:
        model["outcome"] = outcome_model(L, outcome)
    return model
