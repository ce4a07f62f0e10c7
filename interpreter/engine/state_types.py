"""The types of a loaded state: what `Game.from_json` checks after `state.from_json` has checked the shape.

JSON has no integer keys and no types beyond its own, so a saved state (edited, corrupted or from another
version) is read back here: maps over a number kind get their integer keys again, and every value is checked
against what the definition declares. The meaning (reachable by the rules) is `consistency.state_problem`'s.
"""

from __future__ import annotations

from ..definition.limits import MAX_LIST
from . import simultaneous
from .flow import SIMUL


def restore_number_keys(w, s) -> None:
    """JSON writes every key as text: the maps over a number kind (of world `w`) get their integer keys back,
    in place."""
    if not w.number_kinds:
        return

    def fix(m, kind):
        if kind in w.number_kinds and isinstance(m, dict):
            return {(int(k) if isinstance(k, str) and k.lstrip("-").isdigit() else k): v for k, v in m.items()}
        return m
    for scope, rows in (("global", [s.g]), ("player", s.p)):
        table = w.gvars if scope == "global" else w.pvars
        for row in rows:
            for name, v, t in w.var_defs[scope]:
                if t == "map":
                    i = table[name][0]
                    row[i] = fix(row[i], v.get("of"))
    for fname, classes, fdef, is_map in w.field_defs:
        if is_map and fdef.get("of") in w.number_kinds:
            col = s.fields[w.fields[fname][0]]
            for x, m in enumerate(col):
                col[x] = fix(m, fdef.get("of"))

def type_problem(game, s) -> str | None:
    """What makes loaded state `s` not one of `game`'s in shape and types (every piece in exactly one zone,
    every var and field of its declared type, flow frames at nodes of the flow), or None."""
    w = game.world
    npieces = len(s.types)
    for t in s.types:
        if t not in w.types:
            return f"unknown piece type {t!r}"
    seen = [0] * npieces
    for z in s.zones:
        for x in z:
            if type(x) is not int or not 0 <= x < npieces:
                return f"piece id {x!r} is not a piece"
            seen[x] += 1
    if any(c != 1 for c in seen):
        return "every piece must be in exactly one zone"

    def bad_value(v, t, kinds):
        if t == "map":
            return not (isinstance(v, dict) and set(v) == set(kinds)
                        and all(type(n) is int for n in v.values()))
        if t == "int":
            return type(v) is not int
        if t == "bool":
            return type(v) is not bool
        if t == "player":  # a player's seat or a scripted seat's
            return v is not None and not (type(v) is int and 0 <= v < len(s.p))
        if t == "piece":
            return v is not None and not (type(v) is int and 0 <= v < npieces)
        if t.startswith("list:"):  # a list var (interpreter/language/lists.py)
            return not isinstance(v, list) or len(v) > MAX_LIST
        if t == "zone":
            return v is not None and not (type(v) is int and 0 <= v < len(s.zones))
        return False
    for scope, values in (("global", [s.g]), ("player", s.p)):
        table = w.gvars if scope == "global" else w.pvars
        for row in values:
            for name, v, t in w.var_defs[scope]:
                if bad_value(row[table[name][0]], t, w.kinds.get(v.get("of"), ())):
                    return f"var {name} has a value of the wrong type: {row[table[name][0]]!r}"
    for fname, classes, fdef, is_map in w.field_defs:
        col = s.fields[w.fields[fname][0]]
        if len(col) != npieces:
            return f"field {fname} needs one value per piece"
        kinds = w.kinds.get(fdef.get("of"), ())
        for x, v in enumerate(col):
            has = w.types[s.types[x]] in classes
            if not has and v is not None or has and bad_value(v, "map" if is_map else
                                                               str(fdef.get("type", "int")), kinds):
                return f"field {fname} of piece {x} has a wrong value: {v!r}"
    for fr in s.flow:
        if len(fr) == 7 and type(fr[0]) is int and 0 <= fr[0] < len(game.nodes) and \
                game.nodes[fr[0]].kind == SIMUL:
            problem = simultaneous.frame_problem(game, s, fr)
            if problem:
                return problem
        if (len(fr) not in (7, 8) or type(fr[0]) is not int or not 0 <= fr[0] < len(game.nodes)
                or (fr[1] is not None and not (type(fr[1]) is int and 0 <= fr[1] < len(s.p)))):
            return f"flow frame {fr!r} is not a position of this game's flow"
    for e in s.ends:
        if e not in w.end_triggers:
            return f"unknown end trigger {e!r}"
    return None
