"""Simultaneous decisions: listed seats each choose from their own menu, in secret, then all are revealed.

    - simultaneous: choose_card          # a step: each seat chooses from its own menu
      players: "players"                 # optional: the seats that choose (default every seat)

A running simultaneous node keeps its frame on the flow stack while the choices come in:
`[node, player, event, 0, seats, choices, 0]`, where `seats` is the list of seats that have something to
choose (fixed when the node starts) and `choices[i]` is the action id seat `seats[i]` chose, or None. The
choices live only in the frame, so the rest of the state does not change until every seat has chosen: no
view, menu, label or narration can depend on a pending choice. A view shows another seat's pending choice
as `"chosen"`. When the last choice is in, the actions' effects run in the order of `seats`, each with
`player` bound to its seat, and the flow goes on: an effect after the node sees every choice.

The seat to decide (`current_player`) is the first seat that has not chosen; any pending seat may choose
(`Game.legal_actions(s, player=k)`, `Game.apply(s, action, player=k)`), so the choices may come in any
order.
"""

from __future__ import annotations

from ..language.compiler import RuleError
from .flow import SIMUL

CHOSEN = "chosen"  # what a view shows of another seat's pending choice


def compile_node(fc, raw, path, event, node):
    """Fill `node` (kind SIMUL) from the flow entry `raw`; problems go to the world."""
    w = fc.w
    sid = raw["simultaneous"]
    if not isinstance(sid, str):  # the schema says so
        return None
    if sid not in fc.step_defs:
        from ..definition.problems import did_you_mean
        w.error(f"unknown step '{sid}'", path + ("simultaneous",), did_you_mean(str(sid), fc.step_defs))
        return None
    node.step = fc.step(sid, event, ("steps", sid))
    node.cond, node.cond_n = None, 2
    if "players" in raw:
        from ..language.compiler import Unit
        u = Unit(player=True, event=w.events.get(event) if event else None)
        x = w.compile_expr(raw["players"], path + ("players",), u)
        if x is not None and x.t not in ("list:player", "list:any", "list:int", "any"):
            w.error(f"players is the list of the seats that choose, not a {x.t}", path + ("players",))
        elif x is not None:
            node.cond, node.cond_n = x.f, u.n
    return node


def start(game, s, fr, node):
    """Fix the seats that choose (those whose menu is not empty); False when nobody has a choice."""
    if node.cond is not None:
        seats = list(node.cond(s, [fr[1], fr[2]] + [None] * (node.cond_n - 2)))
    else:
        seats = list(range(s.n))
    for p in seats:
        if type(p) is not int or not 0 <= p < s.n:
            raise RuleError(f"simultaneous: players gave {p!r}, not a seat", ".".join(map(str, node.path)))
    seats = [p for p in seats if node.step.menu(s, p, fr[2])]
    fr[4] = seats
    fr[5] = [None] * len(seats)
    return bool(seats)


def pending(fr) -> list[int]:
    """The seats of a simultaneous frame that have not chosen yet."""
    return [p for p, c in zip(fr[4] or (), fr[5] or ()) if c is None]


def choose(game, t, fr, act, vals, player, log):
    """Record `player`'s choice in the frame (t is already a copy); the state does not change otherwise."""
    i = fr[4].index(player)
    fr[5] = list(fr[5])  # copies of a state share their frames' lists until one changes
    fr[5][i] = game.action_id(act, vals)
    if log is not None:
        # the table learns only that the seat has chosen; the seat itself reads its choice
        e = [player, fr[2]] + [None] * (act.nslots - 2)
        for prm, v in zip(act.params, vals):
            e[prm[1]] = v
        mine = game.render_template(t, act.label, e, viewer=player)
        log.append({"player": player, "sealed": True,
                    "en": f"Player {player + 1}: has chosen", "zh": f"玩家{player + 1}：已选择",
                    "seen": {player: {"en": f"Player {player + 1}: {mine['en']} (sealed)",
                                      "zh": f"玩家{player + 1}：{mine['zh']}（密封）"}}})


def reveal(game, s, fr, node, log):
    """Every seat has chosen: pop the frame, narrate each choice and run its effect, in seat-list order."""
    from .flow import checkpoint, fire_events, mark_acted
    s.flow.pop()
    for p, aid in zip(fr[4], fr[5]):
        menu = node.step.menu(s, p, fr[2])
        entry = next(((a, v) for a, v in menu if game.action_id(a, v) == aid), None)
        if entry is None:
            raise RuleError(f"simultaneous: the choice {aid!r} of player {p + 1} is no longer legal "
                            "(an earlier choice's effect changed it)", f"step {node.step.id}")
        act, vals = entry
        key = ("action", act.step, act.name)
        game.fired[key] = game.fired.get(key, 0) + 1
        for k in act.piece_params:  # a piece chosen by a player: its component is in play
            key = ("component", s.types[vals[k]])
            game.fired[key] = game.fired.get(key, 0) + 1
        e = [p, fr[2]] + [None] * (act.nslots - 2)
        for prm, v in zip(act.params, vals):
            e[prm[1]] = v
        before = s.copy(game.layout) if log is not None else None
        if log is not None:  # what came before; this choice's changes are told under its line
            checkpoint(game, s, log, before)
        if act.effect is not None:
            s.ev = []
            s.budget = 0
            try:
                act.effect(s, e)
            except (TypeError, KeyError, IndexError, AttributeError, ValueError) as ex:
                raise RuleError(f"{type(ex).__name__}: {ex}", f"step {act.step}, action {act.name}") from None
            if s.ev or s.ends:
                fire_events(game, s)
        if log is not None:  # told once the effect ran: a card played face up is named
            from ..language.labels import entry
            lab_env = [p, fr[2]] + [None] * (act.nslots - 2)
            for prm, v in zip(act.params, vals):
                lab_env[prm[1]] = v
            log.append(entry(game, before, act.label, lab_env, who=p, after=s))
        if not act.is_pass:
            mark_acted(game, s)


def conceal(game, s, seat):
    """A copy of `s` as `seat` may know it: other seats' pending choices are forgotten (not yet made).

    A bot that looks ahead from this state cannot learn what the others chose."""
    t = s.copy(game.layout)
    for fr in t.flow:
        if game.nodes[fr[0]].kind == SIMUL and fr[5] is not None:
            fr[5] = [c if p == seat else None for p, c in zip(fr[4], fr[5])]
    return t


def redact(game, flow, viewer):
    """The flow frames of a view: other seats' pending choices show as "chosen"."""
    for fr in flow:
        if game.nodes[fr[0]].kind == SIMUL and fr[5] is not None:
            fr[5] = [c if (p == viewer or c is None) else CHOSEN for p, c in zip(fr[4], fr[5])]
    return flow


def frame_problem(game, s, fr) -> str | None:
    """Why a saved simultaneous frame is inconsistent, or None."""
    seats, choices = fr[4], fr[5]
    if seats is None and choices is None:
        return None
    if (not isinstance(seats, list) or not isinstance(choices, list) or len(seats) != len(choices)
            or any(type(p) is not int or not 0 <= p < s.n for p in seats)
            or any(c is not None and not isinstance(c, str) for c in choices)):
        return f"simultaneous frame {fr!r} needs a list of seats and one choice (an action id or null) each"
    if len(set(seats)) != len(seats):
        return f"simultaneous frame {fr!r} names a seat twice"
    if None not in choices:
        return f"simultaneous frame {fr!r} has every choice in but was not revealed"
    return None

