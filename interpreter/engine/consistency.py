"""Is a loaded state one the rules could have reached? Checks of meaning, beyond the shape `state.from_json`
checks and the types `state_types.type_problem` checks, for a saved state that was edited or corrupted:

- the random generator's state is a 64-bit value; the decision count a whole number >= 0;
- the options are exactly the game's, each with one of its values (typed: `1` is not `true`);
- every var and field with a minimum (a resource) is at least that, every integer within ±2**53;
- the piece types are those the setup makes for this player count, in order (pieces are never created,
  destroyed or swapped);
- the resource totals are those of the setup (conservation);
- the flow stack is a chain the compiled flow can build: it starts at the game's flow, each frame is a
  child, a called phase or a hook of the frame below, for the seat whose turn it is (above an
  each_player, the seat its turn order is at; else the player of the frame below), its counters are in
  range, and the top is a step that offers a decision (or the stack is empty and the game is over).

`state_problem(game, s)` returns what is wrong, or None.
"""

from __future__ import annotations

from ..language.compiler import LIMIT
from .flow import CALL, EACH, IF, REPEAT, SEQ, SIMUL, STEP
from .invariants import resource_totals
from ..definition.static_checks import same_value

RNG_STATES = 2 ** 64


def _setup_facts(game, n: int, opts: dict):
    """(piece types, resource totals) of a new game with `n` players and these options (cached)."""
    key = (n, tuple(sorted((k, repr(v)) for k, v in opts.items())))
    cache = game.__dict__.setdefault("_setup_facts", {})
    if key not in cache:
        fresh = game.new_game(n, seed=0, options=opts)
        cache[key] = (list(fresh.types), resource_totals(game, fresh))
    return cache[key]


def _int_problem(v, what, lo=None) -> str | None:
    if type(v) is int:
        if not -LIMIT <= v <= LIMIT:
            return f"{what} is {v}, beyond ±2**53"
        if lo is not None and v < lo:
            return f"{what} is {v}, below its minimum {lo}"
    return None


def _values_problem(game, s) -> str | None:
    w = game.world
    for scope, rows, slots, mins in (("global", [s.g], w.gvars, w.gvar_min), ("player", s.p, w.pvars, w.pvar_min)):
        for pl, row in enumerate(rows):
            for name, (slot, _t) in slots.items():
                v = row[slot]
                what = name if scope == "global" else f"player {pl + 1}'s {name}"
                for k, x in (v.items() if isinstance(v, dict) else [(None, v)]):
                    msg = _int_problem(x, what + (f"[{k}]" if k is not None else ""), mins.get(name))
                    if msg:
                        return msg
    for fname, (col, *_rest) in w.fields.items():
        lo = w.field_min.get(fname)
        for x, v in enumerate(s.fields[col]):
            for k, n in (v.items() if isinstance(v, dict) else [(None, v)]):
                msg = _int_problem(n, f"field {fname} of piece {x}" + (f"[{k}]" if k is not None else ""), lo)
                if msg:
                    return msg
    return None


def _stacked_children(game, node_id) -> set:
    """The nodes whose frame may sit right above a frame of `node_id`: its children, where an `if` or a
    `call` (which leave the stack before their branch or phase is pushed) stands for what it pushes."""
    return _pushed(game, [c for c in game.nodes[node_id].children if c is not None])


def _pushed(game, node_ids) -> set:
    """The nodes whose frames stand on the stack for `node_ids`: a node itself, or, for an `if` or a
    `call` (which leave no frame of their own), the branches or phases they push, followed down."""
    nodes = game.nodes
    out, todo = set(), list(node_ids)
    while todo:
        c = todo.pop()
        kind = nodes[c].kind
        if kind == IF:
            todo.extend(x for x in nodes[c].children if x is not None)
        elif kind == CALL:
            if nodes[c].extra is not None:
                todo.append(nodes[c].extra)
            else:
                todo.extend(game.phase_root.values())
        else:
            out.add(c)
    return out


def _turn_of(node, fr):
    """The seat whose turn an each_player frame is at (what `flow._advance` pushed above it), or None for
    a frame that cannot have one: an auction (`one_left`) keeps the place of the seat in its turn, the
    other modes the count of turns begun."""
    order, i = fr[4], fr[3]
    if not isinstance(order, list) or not order or type(i) is not int:
        return None
    if node.extra[2] == "one_left":
        return order[i] if 0 <= i < len(order) else None
    return order[(i - 1) % len(order)] if i >= 1 else None


def _flow_problem(game, s) -> str | None:
    nodes = game.nodes
    cache = game.__dict__.setdefault("_stacked", {})
    hooks = cache.get("hooks")
    if hooks is None:  # hook bodies are pushed above whatever frame emitted the event
        hooks = cache["hooks"] = set()
        for lst in game.hooks.values():
            for *_h, body in lst:
                if body is not None:
                    hooks.update(_pushed(game, [body]))
    if not s.flow:
        return None
    # Where a game ends at the end of a turn or round (outcomes.place_end): a frame that names a trigger set
    # with that `at`, never the top; the chain is checked without it.
    ends = [fr for fr in s.flow if fr[0] == game.end_node and game.end_node is not None]
    for fr in ends:
        at = game.outcomes.at
        if not (isinstance(fr[2], tuple) and len(fr[2]) == 1 and fr[2][0] in at and fr[2][0] in s.ends
                and fr[3:] == [0, None, 0, 0]):
            return f"flow frame {fr!r} ends the game for no end trigger set with at: turn or round"
    if ends:
        if s.flow[-1] in ends:
            return "the flow stack ends where the game ends, not at a decision"
        flow = [fr for fr in s.flow if fr[0] != game.end_node]
    else:
        flow = s.flow
    if "root" not in cache:  # a flow that is an `if` or a `call` starts at what it pushes
        cache["root"] = _pushed(game, [game.root])
    if flow[0][0] not in cache["root"]:
        return "the flow stack does not start at the game's flow"
    for below, fr in zip(flow, flow[1:]):
        if below[0] not in cache:
            cache[below[0]] = _stacked_children(game, below[0])
        if fr[0] not in cache[below[0]] and fr[0] not in hooks:
            return f"flow frame {fr[:3]!r} cannot follow frame {below[:3]!r}"
        # The player of a frame is a hook's choice, the seat whose turn the frame below (an each_player)
        # is at, or else the player of the frame below.
        if fr[0] not in hooks:
            if nodes[below[0]].kind == EACH:
                if fr[1] != _turn_of(nodes[below[0]], below):
                    return f"flow frame {fr[:3]!r} is not for the seat whose turn it is in the frame below it"
            elif fr[1] != below[1]:
                return f"flow frame {fr[:3]!r} is for another player than the frame below it"
    for fr in flow:
        node = nodes[fr[0]]
        a, order, b, c = fr[3], fr[4], fr[5], fr[6]
        if node.kind == SIMUL:  # its seats and sealed choices: simultaneous.frame_problem (state_types.type_problem)
            continue
        if any(type(x) is not int or x < 0 for x in (a, b, c)):
            return f"flow frame {fr!r} has counters that are not whole numbers >= 0"
        if fr[2] is not None and not isinstance(fr[2], tuple):
            return f"flow frame {fr!r} has event arguments that are not a list"
        if node.kind == SEQ and a > len(node.children):
            return f"flow frame {fr!r} is past the end of its sequence"
        if node.kind == EACH and order is not None and (
                not isinstance(order, list) or any(type(p) is not int or not 0 <= p < len(s.p) for p in order)):
            return f"flow frame {fr!r} has a turn order that is not a list of seats"
        if node.kind not in (EACH,) and order is not None:
            return f"flow frame {fr!r} has a turn order where its node keeps none"
        if node.kind in (REPEAT,) and node.extra is not None and a > node.extra[2]:
            return f"flow frame {fr!r} repeated more than its max"
        if node.kind in (STEP, IF) and (a, b, c) != (0, 0, 0):
            return f"flow frame {fr!r} has counters its node never sets"
    if nodes[s.flow[-1][0]].kind not in (STEP, SIMUL):
        return "the flow stack does not end at a step (a decision)"
    return None


def state_problem(game, s) -> str | None:
    """What makes `s` a state the game cannot reach, or None (see the module's docstring)."""
    from ..language.compiler import RuleError
    try:
        return _problem(game, s)
    except RuleError as ex:  # the rules cannot even offer the decision this state is at
        return f"the rules fail in this state ({ex})"


def _problem(game, s) -> str | None:
    if type(s.rng) is not int or not 0 <= s.rng < RNG_STATES:
        return f"the random generator's state {s.rng!r} is not a 64-bit value"
    if type(s.decisions) is not int or s.decisions < 0:
        return f"the decision count {s.decisions!r} is not a whole number >= 0"
    if set(s.opts) != set(game.options):
        return f"the options {sorted(s.opts)} are not the game's {sorted(game.options)}"
    for k, v in s.opts.items():
        allowed = game.options[k].get("values")
        if allowed is not None and not any(same_value(v, a) for a in allowed):
            return f"option {k} is {v!r}, not one of {allowed}"
        if allowed is None and not same_value(v, game.options[k].get("default")) and type(v) is not type(
                game.options[k].get("default")):
            return f"option {k} is {v!r}, not of the type of its default"
    msg = _values_problem(game, s)
    if msg:
        return msg
    try:
        types, totals = _setup_facts(game, s.n, s.opts)
    except Exception as ex:  # options no game can be set up with
        return f"no game of {s.n} players with these options can be set up ({ex})"
    if list(s.types) != types:
        from ..language.promotion import types_problem
        msg = types_problem(game.world, s.types, types)
        if msg:
            return msg
    now = resource_totals(game, s)
    if now != totals:
        bad = sorted(r for r in set(now) | set(totals) if now.get(r) != totals.get(r))
        return f"resource {bad[0]} totals {now.get(bad[0])}, but the game holds {totals.get(bad[0])}"
    msg = _flow_problem(game, s)
    if msg:
        return msg
    w = game.world
    for x, by_seat in (s.told or {}).items():  # what seats were told names what a piece has
        for facts in by_seat.values():
            for name in facts:
                if name != "type" and name not in w.fields and name not in w.props:
                    return f"told: piece {x}: '{name}' is no field or property of the game"
    if s.flow and not game._menu(s):
        return "the flow stops at a step that offers no decision"
    return None
