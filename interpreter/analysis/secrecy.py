"""Checks that secret choices stay secret: the verifier's hidden-information checks of decisions.

Two ways a secret choice leaks that a view of one state cannot show:

- **Sealed choices** (a `simultaneous` step): what a seat sees — its view, its menu with labels, and the
  narration of its own choice — must not depend on the choices other seats have already made but not yet
  revealed. `sealed_leaks` compares what each seat still to choose sees in states that differ only in
  another seat's pending choice.
- **Elimination**: a player chooses one of their pieces and the rules put it where the others may not look
  (an owner-only or hidden zone) — yet the zone it came from is public, so the others see which piece is
  missing. `elimination_leaks` compares another seat's view after the choice with its view after another
  choice of the same action: if what it sees differs, the "hidden" choice is known. A sealed choice is
  written as a `simultaneous` step instead.
"""

from __future__ import annotations

from ..game import IllegalAction
from ..language.compiler import RuleError

ALTERNATIVES = 3  # other choices tried per seat


def _seen_by(game, s, seat, narrate):
    """What `seat` perceives now: its view, its menu with labels and (if asked) the narration of its
    first choice."""
    acts = game.legal_actions(s, player=seat)
    log = []
    if narrate and acts:
        game.apply(s, acts[0], log=log, player=seat)
    view = game.view(s, seat)
    view.pop("decisions", None)
    from ..language.labels import for_seat
    return view, [(a["id"], a["label"]) for a in acts], [(for_seat(x, seat, "en"), for_seat(x, seat, "zh"))
                                                          for x in log]


def sealed_leaks(game, s) -> list[str]:
    """Seats still to choose in a simultaneous decision whose view, menu or narration depends on another
    seat's pending choice."""
    if not game.is_simultaneous(s) or not s.flow or s.flow[-1][4] is None:
        return []
    fr = s.flow[-1]
    chosen = [(i, p) for i, (p, c) in enumerate(zip(fr[4], fr[5])) if c is not None]
    waiting = [p for p, c in zip(fr[4], fr[5]) if c is None]
    if not chosen or not waiting:
        return []
    out = []
    step = game.nodes[fr[0]].step
    for q in waiting:
        narrate = len(waiting) > 1  # the last choice reveals everything, as it should
        base = _seen_by(game, s, q, narrate)
        for i, p in chosen:
            others = [game.action_id(a, v) for a, v in step.menu(s, p, fr[2])]
            for alt in [x for x in others if x != fr[5][i]][:ALTERNATIVES]:
                t = s.copy(game.layout)
                t.flow[-1][5] = list(t.flow[-1][5])
                t.flow[-1][5][i] = alt
                seen = _seen_by(game, t, q, narrate)
                for what, a, b in zip(("view", "menu", "narration"), base, seen):
                    if a != b:
                        out.append(f"step {step.id}: player {q + 1}'s {what} depends on player {p + 1}'s "
                                   f"pending choice ({fr[5][i]} or {alt})")
                        break
                else:
                    continue
                break
    return out


def _visible(game, z, seat):
    """May `seat` see the pieces of zone z?"""
    from ..engine.visibility import zone_seen
    return zone_seen(game, z, seat)


def _public_zones(game, view):
    """The types of the pieces of every zone listed in a view (hidden ones show only a count)."""
    types = view["pieces"]["types"]
    out = {}
    for name, z in view["zones"].items():
        out[name] = [types[x] if x is not None else None for x in z] if isinstance(z, list) else z
    for pl, row in enumerate(view["player_zones"]):
        for name, z in row.items():
            out[f"{name} of player {pl + 1}"] = ([types[x] if x is not None else None for x in z]
                                                 if isinstance(z, list) else z)
    return out


def hides_choices(game) -> bool:
    """Does the game have any zone some player may not see (else no choice can be hidden)?"""
    return any(v in ("hidden", "owner", "others", "top") for v in game.world.zone_visibility.values())


def elimination_leaks(game, s, action) -> list[str]:
    """If `action` (a legal action dict of the current player) puts a chosen piece where another seat may
    not see it, but that seat can still tell which piece it was from what it sees."""
    if game.is_simultaneous(s):
        return []
    me = game.current_player(s)
    act, vals = game._find(s, action)
    hidden_param = None
    after = game.apply(s, action)
    for i in act.piece_params:
        x = vals[i]
        if after.loc[x] != s.loc[x] and any(_visible(game, s.loc[x], q) and not _visible(game, after.loc[x], q)
                                            for q in range(s.n) if q != me):
            hidden_param = i
            break
    if hidden_param is None:
        return []
    x = vals[hidden_param]
    alts = [(a, v) for a, v in game._menu(s) if a is act and s.types[v[hidden_param]] != s.types[x]]
    out = []
    for q in range(s.n):
        if q == me or not _visible(game, s.loc[x], q) or _visible(game, after.loc[x], q):
            continue
        seen = _public_zones(game, game.view(after, q))
        for a, v in alts[:ALTERNATIVES]:
            try:
                other = game.apply(s, game.action_id(a, v))
            except (IllegalAction, RuleError):
                continue
            if _public_zones(game, game.view(other, q)) != seen:
                out.append(f"step {act.step}, action {act.name}: player {me + 1} puts the chosen "
                           f"{s.types[x]} where player {q + 1} may not look "
                           f"({game.world.zone_label(after.loc[x])}), but player {q + 1} can tell which piece "
                           f"it was from what is left in {game.world.zone_label(s.loc[x])} (choosing "
                           f"{s.types[v[hidden_param]]} instead looks different): a secret choice is a "
                           f"`simultaneous` step")
                return out
    return out
