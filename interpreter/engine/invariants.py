"""Checks that hold in every state of every game: conservation, views, round trips.

Finite things are conserved: every var and field declared with `resource: R` holds some of R, and the sum
over all of them (per kind, for maps) never changes after setup. Pieces are conserved by construction (a
piece is always in exactly one zone) and checked here too.
"""

from __future__ import annotations

from .facing import piece_seen
from .knowledge import place_leaks
from .unseen import leaks as unseen_leaks
from .visibility import secret, sees, var_modes


def resource_holders(game):
    """[(resource, where, getter)] for every place that holds a resource."""
    w = game.world
    out = []
    for name, v, t in w.var_defs["global"]:
        r = v.get("resource")
        if r is not None:
            slot = w.gvars[name][0]
            out.append((r, name, lambda s, slot=slot: [s.g[slot]]))
    for name, v, t in w.var_defs["player"]:
        r = v.get("resource")
        if r is not None:
            slot = w.pvars[name][0]
            out.append((r, "player." + name, lambda s, slot=slot: [row[slot] for row in s.p]))
    for fname, classes, fdef, is_map in w.field_defs:
        r = fdef.get("resource")
        if r is not None:
            col = w.fields[fname][0]
            out.append((r, "piece." + fname, lambda s, col=col: [v for v in s.fields[col] if v is not None]))
    return out


def _holders_of(game):
    h = getattr(game, "_holders", None)
    if h is None:
        h = game._holders = resource_holders(game)
    return h


def resource_totals(game, s, only=None) -> dict:
    """{resource: total} with totals per kind ({kind: n}) for map-valued holders (of the resources in
    `only`, when given)."""
    totals: dict = {}
    for r, where, get in _holders_of(game):
        if only is not None and r not in only:
            continue
        for v in get(s):
            if isinstance(v, dict):
                t = totals.setdefault(r, {})
                if not isinstance(t, dict):
                    t = totals[r] = {"": t}
                for k, n in v.items():
                    t[k] = t.get(k, 0) + n
            else:
                t = totals.get(r, 0)
                if isinstance(t, dict):
                    t[""] = t.get("", 0) + v
                else:
                    totals[r] = t + v
    return totals


def pieces_consistent(s) -> str | None:
    """None if every piece is in exactly one zone and `loc` agrees; else what is wrong."""
    seen = [0] * len(s.types)
    for zi, z in enumerate(s.zones):
        for x in z:
            seen[x] += 1
            if s.loc[x] != zi:
                return f"piece {x} is in zone {zi} but its location says {s.loc[x]}"
    for x, c in enumerate(seen):
        if c != 1:
            return f"piece {x} ({s.types[x]}) is in {c} zones"
    return None


def check_state(game, s, totals0) -> list[str]:
    """Problems with state `s`, given the resource totals right after setup."""
    problems = []
    t = resource_totals(game, s)
    if t != totals0:
        for r in sorted(set(t) | set(totals0)):
            if t.get(r) != totals0.get(r):
                problems.append(f"resource {r} is not conserved: {totals0.get(r)} at setup, now {t.get(r)}")
    msg = pieces_consistent(s)
    if msg:
        problems.append(msg)
    return problems


def hidden_leaks(game, s, viewer) -> list[str]:
    """What the view of `viewer` would reveal that the rules hide."""
    v = game.view(s, viewer)
    problems = []
    if "rng" in v:
        problems.append("the view shows the random generator's state")
    w = game.world
    for (scope, name), vis in w.zone_visibility.items():
        if not secret(vis):
            continue
        rows = [(None, v["zones"])] if scope == "global" else list(enumerate(v["player_zones"]))
        for pl, row in rows:
            where = f"zone {name}" if pl is None else f"player {pl + 1}'s {name}"
            if vis == "contents" and isinstance(row[name], list) and len(row[name]) > 1:
                problems.append(f"{where} keeps its order secret, but its pieces are listed in order")
            elif vis not in ("contents", "top") and not sees(vis, pl, viewer) and isinstance(row[name], list) \
                    and row[name]:
                problems.append(f"{where} is shown to player {viewer + 1}, who may not see it")
    for x in _listed(v):  # the zones' own rules are checked above; a pile's top and faces here
        if not piece_seen(game, s, x, viewer):
            problems.append(f"piece {x} ({s.types[x]}) is listed to player {viewer + 1}, who may not see it")
    problems += unseen_leaks(game, s, viewer, v)
    problems += place_leaks(game, s, viewer, v)
    for pl, row in enumerate(v["player_vars"]):
        for name, mode in var_modes(w, "player").items():
            if not sees(mode, pl, viewer) and row.get(name) != "hidden":
                problems.append(f"player {pl + 1}'s {name} is shown to player {viewer + 1}")
    for name, mode in var_modes(w, "global").items():
        if not sees(mode, None, viewer) and v["vars"].get(name) != "hidden":
            problems.append(f"the hidden {name} is shown to player {viewer + 1}")
    return problems


def _listed(view) -> set:
    """The pieces a view names: in the zones it lists, and those revealed in zones it does not."""
    out = set()
    for row in [view["zones"]] + view["player_zones"]:
        for content in row.values():
            out.update(x for x in (content if isinstance(content, list) else content.get("seen", ()))
                       if x is not None)
    return out


def action_leaks(game, s) -> list[str]:
    """Legal actions that name a piece the deciding player may not see (in a hidden zone, or in another
    player's owner-only zone): choosing by id would tell what the rules hide."""
    player = game.current_player(s)
    if player is None:
        return []
    out = []
    for act, vals in game._menu(s):
        for i in act.piece_params:
            x = vals[i]
            z = s.loc[x]
            if not piece_seen(game, s, x, player):
                out.append(f"action {act.name} offers piece {x} from {game.world.zone_label(z)}, which player "
                           f"{player + 1} may not see")
    return out
