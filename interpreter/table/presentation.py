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
                           "known": [{"at", "text"}],
                           "board": {"stagger", "width", "grid", "legend": [[symbol, label]],
                                     "rows": [[{"id", "name", "row", "col", "kind", "symbol", "number", "owner",
                                                "content", "details"}]], "colors": {symbol: "#rrggbb"}}}]}],
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


def _read(game, view: dict, x: int | None, name: str | None):
    """Piece x's field or property `name` as the view shows it (None: no such value, or no piece)."""
    if x is None or name is None:
        return None
    col = view["pieces"]["fields"].get(name)
    if col is not None:
        return col[x]
    return _prop(game, view["pieces"]["types"][x], name)


def _on_cell(game, view: dict, spec, x: int):
    """What lies on cell x: the piece its `content` field names, or the top piece of the zone it holds
    (None: nothing, or a piece the seat may not see); and how many pieces lie there."""
    if not spec.content:
        return None, 0
    if not spec.content_zone:
        on = view["pieces"]["fields"].get(spec.content, [None] * (x + 1))[x]
        return (on if isinstance(on, int) else None), (1 if isinstance(on, int) else 0)
    rt = game.world.piece_zone_rt
    z = rt.zone(_Types(view["pieces"]["types"], view["players"]), x, spec.content)
    held = view["zones"].get(game.layout.zone_name(z))
    if isinstance(held, dict):
        return None, held.get("hidden", 0)
    return (held[0] if held else None), len(held or [])


def _grid_place(game, view: dict, spec, x: int):
    """(row, col) from 0 of a generated board's space, from its coordinates."""
    t = view["pieces"]["types"][x]
    col, row = _prop(game, t, "col") or 1, _prop(game, t, "row") or 1
    if spec.grid["layout"] == "hexagon":  # axial coordinates of a hexagon: rows centred by `stagger: hex`
        size = (spec.grid["rows"] + 1) // 2
        return row - 1, col - 1 - max(0, size - row)
    return row - 1, col - 1


def board(game, L: Labels, view: dict, zone: str, pieces: list[int]) -> dict:
    """The cells of a board zone in rows: a generated board's spaces at their coordinates, else the
    display's `rows` (cells per row, by its `order` property) or rows of a near-square default. Each cell
    draws what lies on it (`content`) and its letter, number and owner, read from what lies on it where
    that piece has them, else from the cell."""
    spec = display_spec(game).boards[zone]
    types = view["pieces"]["types"]
    props = _cell_props(game, zone)
    fields = view["pieces"]["fields"]
    cells = []
    for x in pieces:
        on, n_on = _on_cell(game, view, spec, x)

        def read(name, x=x, on=on):
            v = _read(game, view, on, name)
            return v if v is not None else _read(game, view, x, name)
        cells.append((x, on, n_on, read(spec.symbol), read(spec.number), read(spec.owner)))
    kinds = [k for *_, k, _, _ in cells if isinstance(k, str)]
    symbols = _symbols(L, list(dict.fromkeys(kinds)))
    content_label = L.fields.get(spec.content) if spec.content and not spec.content_zone else None
    owner_label = L.fields.get(spec.owner) if spec.owner else None

    def cell(x, on, n_on, kind, number, owner, r, c):
        order = props[types[x]][0]
        details = [d for d in piece_details(L, view, x) if d[0] not in (content_label, owner_label)]
        if on is None and n_on:
            content = say("face_down", L.lang)
        else:
            content = piece_name(L, view, on) if on is not None else None
        return {"id": (f"{c + 1},{r + 1}" if spec.grid else order if order is not None else x),
                "name": piece_name(L, view, x), "row": r, "col": c, "kind": kind,
                "symbol": symbols.get(kind, "") if isinstance(kind, str) else "",
                "number": "" if number is None or number is False or (number == 0 and on is not None) else str(number),
                "owner": owner if isinstance(owner, int) and not isinstance(owner, bool) else None,
                "content": content, "details": details}

    if spec.grid:
        placed = {}
        for x, on, n_on, kind, number, owner in cells:
            r, c = _grid_place(game, view, spec, x)
            placed[(r, c)] = cell(x, on, n_on, kind, number, owner, r, c)
        nrows = max([r for r, _ in placed] + [-1]) + 1
        rows = [[placed[k] for k in sorted(k for k in placed if k[0] == r)] for r in range(nrows)]
        width = max([c for _, c in placed] + [-1]) + 1
    else:
        ordered = sorted(cells, key=lambda e: (props[types[e[0]]][0] or 0, e[0]))
        widths = list(spec.rows or [])
        if sum(widths) != len(ordered):
            side = max(1, math.ceil(math.sqrt(len(ordered))))
            widths = [side] * (len(ordered) // side) + ([len(ordered) % side] if len(ordered) % side else [])
        rows, i = [], 0
        for r, w_ in enumerate(widths):
            rows.append([cell(*ordered[i + c], r, c) for c in range(w_)])
            i += w_
        width = max(widths or [0])
    legend = [[sym, L.kinds.get(k, k)] for k, sym in symbols.items()]
    colors = {sym: display_spec(game).colors[k] for k, sym in symbols.items() if k in display_spec(game).colors}
    return {"stagger": spec.stagger, "width": width, "rows": rows, "legend": legend, "colors": colors,
            "grid": bool(spec.grid)}


# ------------------------------------------------------------------------------------------- areas

def known_text(L: Labels, facts: dict) -> str:
    """What a seat was told of a piece it may not see, as text: "Red ?", "not Red, not Blue 2 ?"."""
    parts = []
    for name, fact in facts.items():
        t = "str" if name == "type" else L.field_types.get(name, "str")
        if "is" in fact:
            parts.append(L.value(fact["is"], t, {"pieces": {"types": []}}) if name != "type"
                         else L.types.get(fact["is"], fact["is"]))
        else:
            parts.append(", ".join(say("not_value", L.lang, value=L.value(v, t, {"pieces": {"types": []}}))
                                   for v in fact["not"]))
    whole = any(name == "type" and "is" in fact for name, fact in facts.items())
    return " ".join(parts) + ("" if whole else " " + say("unknown", L.lang))


def _known(L: Labels, view: dict, owner, name: str) -> list[dict]:
    """The places of a zone whose piece this seat may not see but was told something of (`knowledge`)."""
    return [{"at": e["at"] + 1, "text": known_text(L, e["facts"])} for e in view.get("known") or ()
            if e["player"] == owner and e["zone"] == name]


def _zone(game, L: Labels, view: dict, scope: str, name: str, content, owner=None) -> dict:
    spec = display_spec(game)
    z = {"id": name, "label": L.zones[scope].get(name, name), "as": spec.shapes.get(name, "row")}
    known = _known(L, view, owner, name) if view.get("known") else []
    if known:
        z["known"] = known
    mode = game.world.zone_visibility.get((scope, name))
    if isinstance(content, dict) and "hidden" in content:
        z.update({"as": "hidden", "count": content["hidden"], "items": [],  # how many, never which
                  "text": say("hidden_n", L.lang, n=content["hidden"])})
        if mode == "contents":  # which pieces, in a secret order (a deck of known cards)
            z.update({"contents": True, "text": say("secret_order_n", L.lang, n=content["hidden"])})
        if content.get("seen"):  # pieces revealed to this seat (`facing`), or a pile's known contents
            z["items"] = group_pieces(L, view, content["seen"])
        return z
    if mode == "top" and None in content:  # a pile that shows its top: what shows, then how many lie below
        shown = [x for x in content if x is not None]
        z.update({"as": z["as"] if z["as"] != "board" else "stack", "count": len(content),
                  "items": group_pieces(L, view, shown)
                  + [{"name": say("below_n", L.lang, n=len(content) - len(shown)), "count": 1, "details": []}]})
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
            area["zones"].append(_zone(game, L, view, scope, name, zones[name], seat))
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
