"""The fast playout path: decisions as indices, for bots and simulations that play many games.

    n = legal_count(game, s)                      # how many legal decisions (0 when the game is over)
    s = apply_index(game, s, i, owned=True)       # the i-th of them; `s` may be reused in place
    action_id(game, s, i)                         # its id, only when the caller wants one

The i-th decision is the i-th entry of `game.legal_actions(s)`: the same menu, in the same order, so a
game played by index is the same game as one played with the action dicts (tests check it on every
shipped game). What this path leaves out is the cost of the public API's comfort: no action dicts, ids or
labels are built, and `apply_index(..., owned=True)` plays the decision on `s` itself instead of a copy.

`owned=True` is a promise by the caller that nobody else holds `s`: after the call, `s` is the new state
(and if the rule fails with a RuleError half way, `s` is left half changed; the caller owns that too).
With `owned=False` (the default) `s` is copied first and left untouched, as `game.apply` does.
"""
from __future__ import annotations


def legal_count(game, s) -> int:
    """The number of legal decisions in `s` (0 when the game is over)."""
    return len(game._menu(s))


def apply_index(game, s, i: int, owned: bool = False, log: list | None = None, probe: bool = False):
    """The state after the i-th legal decision of `s` (0 <= i < legal_count); see the module doc. With
    `probe`, the flow stops at the next decision knowing only that it offers something; its menu is made
    if read (`flow.advance`: for a look ahead inside `determinize.unrecorded`)."""
    menu = game._menu(s)
    if not 0 <= i < len(menu):
        from ..game import IllegalAction
        raise IllegalAction(f"no legal decision number {i} (there are {len(menu)})")
    act, vals = menu[i]
    if owned:
        t = s
        t.menu = None
        t.ids = None
    else:
        t = s.copy(game.layout)
    return game._play(s, t, act, vals, log, probe=probe)


def action_id(game, s, i: int) -> str:
    """The id of the i-th legal decision of `s` (what `legal_actions(s)[i]["id"]` says)."""
    act, vals = game._menu(s)[i]
    return act.idfmt % vals if vals else act.idfmt


def action_name(game, s, i: int) -> str:
    """The action name of the i-th legal decision of `s` (what `legal_actions(s)[i]["action"]` says)."""
    return game._menu(s)[i][0].name


def action_dict(game, s, i: int, labels: bool = False) -> dict:
    """The i-th legal decision of `s` as `legal_actions` gives it, built for that one entry only."""
    act, vals = game._menu(s)[i]
    a = {"id": action_id(game, s, i), "step": act.step, "action": act.name, "args": dict(zip(act.pnames, vals))}
    if labels:
        a["label"] = game.render(s, act, vals, s.flow[-1])
    return a


def supports(game) -> bool:
    """Whether `game` offers the index path (a Game of this engine, not some other object with the API)."""
    return hasattr(game, "_menu") and hasattr(game, "_play") and hasattr(game, "layout")
