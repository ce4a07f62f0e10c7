"""The turn-and-phase machine.

A game's flow is a tree of nodes (sequence, effect, step, call, if, repeat, each_player), compiled once into
a node table. A running game keeps a stack of frames `[node, player, event, a, b, c, d]` in its state: the
stack is the position in the flow, so it is saved, loaded and copied with the rest of the state.

`advance` runs the flow until a step offers a non-empty menu (a decision) or the stack is empty (the end).
Effects may `emit` events; after each effect, the hooks listening to those events push their own flows.
"""

from __future__ import annotations

from ..language.codegen import UNTRUSTED
from ..language.compiler import RuleError, fault_words
from ..definition.limits import MAX_EVENTS, MAX_FLOW_DEPTH
from .outcomes import ends_now

SEQ, EFFECT, STEP, CALL, IF, REPEAT, EACH = range(7)
SIMUL = 7  # a simultaneous decision (simultaneous.py)
END = 8  # where a game whose end trigger says `at: turn` or `at: round` ends (outcomes.place_end)
DEFAULT_MAX = 1000
ADVANCE_GUARD = 200_000
# The flow machine's loop runs over this range: a flow that enters ADVANCE_GUARD nodes without coming to a
# decision is stopped. The depth of the stack is checked (push()) where it can grow without bound: a call
# (a phase that calls itself) and a hook's flow. Every other node pushes a child written inside it, so
# their frames are at most as deep as the definition's nesting (the loader's depth cap).
_GUARD = range(ADVANCE_GUARD)
_events = 0  # events emitted since the decision began (one process plays one decision at a time)


class _Blanks(dict):
    """BLANK[k]: a tuple of k Nones, made once per size: an environment is `[player, event, *BLANK[n - 2]]`
    (one list built, instead of two and a repetition)."""

    def __missing__(self, k):
        v = self[k] = (None,) * k if k > 0 else ()
        return v


BLANK = _Blanks()


class Node:
    __slots__ = ("id", "kind", "children", "fn", "nslots", "cond", "cond_n", "extra", "step", "label",
                 "path", "phase", "tmpl")

    def __init__(self, kind, path):
        self.kind = kind
        self.path = path
        self.children = ()
        self.fn = None
        self.nslots = 2
        self.cond = None
        self.cond_n = 2
        self.extra = None
        self.step = None
        self.label = None
        self.phase = None
        self.tmpl = None  # a label with {expr} holes, narrated (narration.py)


class Action:
    """One action of a step: parameters with their domains, a condition, an effect and a label."""

    __slots__ = ("name", "step", "params", "cond", "effect", "nslots", "label", "is_pass", "cond_text",
                 "path", "sig_cols", "sig_maps", "sig_col", "sig_slow", "piece_params", "idfmt", "pnames", "ptypes", "loc", "plan", "loop",
                 "fired_key", "direct")


class Step:
    __slots__ = ("id", "label", "actions", "cond", "cond_n", "optional", "ask", "pass_action", "path", "tmpl", "tmpl_n",
                 "loc", "gen")

    def menu(self, s, player, event, out=None):
        """Every legal (action, values) for `player` now (appended to `out`, a fresh list by default)."""
        s.budget = 0
        s.pcache = {}  # a menu only reads the state: parameters are computed once per player
        cur = [None]  # the action being asked (stepmenu), for where a failure is reported
        try:
            if self.cond is not None:
                e = [player, event, *BLANK[self.cond_n - 2]]
                if not self.cond(s, e):
                    return []
            out = [] if out is None else out
            self.gen(s, player, event, out, cur)
        except RuleError as ex:
            if ex.where is None:
                raise RuleError(ex.message, _where(self, cur[0])) from None
            raise
        except (TypeError, KeyError, IndexError, AttributeError, ValueError) as ex:
            raise RuleError(f"a condition failed ({type(ex).__name__}: {ex})", _where(self, cur[0])) from None
        finally:
            s.pcache = None
        if self.optional and (out or self.ask) and self.pass_action is not None:
            out.append((self.pass_action, ()))  # `optional: always`: asked even with pass alone
        return out

    def offers(self, s, player, event) -> bool:
        """Does `menu` offer `player` anything now: the walk of `menu`, stopped at its first entry (for
        `advance(..., probe=True)`: a bot that judges the position after each of its actions never reads
        the next seat's menu; without making all of it the learned bot does 1.15 times fewer instructions
        per decision in one shipped game, README)."""
        try:
            self.menu(s, player, event, _Probe())
        except _Found:
            return True
        return False


class _Found(BaseException):
    """A menu's first entry (`Step.offers`). Not an Exception: no handler of a rule's failures catches it."""


class _Probe(list):
    """A menu list that stops the walk at its first entry (`Step.offers`)."""
    __slots__ = ()

    def append(self, entry):
        raise _Found


def _where(step, act):
    where = step.loc if act is None else act.loc
    what = f"step {step.id} (its if)" if act is None else f"step {step.id}, action {act.name}"
    return f"{where}: {what}" if where else what


NO_FIELDS, SLOW_SIG = -1, -2  # sig_col values: a type without fields; one with a map or several fields


def sig_col(sig_cols, sig_maps) -> dict:
    """Per piece type, how its `distinct` signature is made: the column of its one scalar field (the
    signature is (type, value)), NO_FIELDS (the type alone) or SLOW_SIG (sig_slow)."""
    return {t: (NO_FIELDS if not cs else cs[0] if len(cs) == 1 and t not in sig_maps else SLOW_SIG)
            for t, cs in sig_cols.items()}


def sig_slow(sig_cols, sig_maps, fields) -> dict:
    """Per piece type whose signature is SLOW_SIG, a function (s, x) -> that signature: for fields that
    all hold plain values (numbers, names, pieces, players) the tuple is built directly; a type with a
    map (or any other value to freeze) goes through _signature. `fields`: column -> its declared type."""
    out = {}
    for t, cs in sig_cols.items():
        if len(cs) < 2 and t not in sig_maps:
            continue  # sig_col's fast shapes
        if t in sig_maps or any(fields.get(c) not in _PLAIN for c in cs):
            out[t] = lambda s, x, cols={t: cs}: _signature(s, x, cols)
        elif len(cs) == 2:
            out[t] = lambda s, x, t=t, a=cs[0], b=cs[1]: (t, s.fields[a][x], s.fields[b][x])
        else:
            out[t] = lambda s, x, t=t, cs=tuple(cs): (t, *[s.fields[c][x] for c in cs])
    return out


_PLAIN = ("int", "bool", "str", "piece", "player")  # field types whose values are their own signature


def _signature(s, x, cols):
    """What tells piece x apart from others of its type for a `distinct` choice: its type and fields."""
    t = s.types[x]
    cs = cols[t]
    if not cs:
        return t
    fields = s.fields
    if len(cs) == 1:
        return (t, _frozen(fields[cs[0]][x]))
    # a scalar is its own value; only maps (and lists) are frozen
    return (t, *[v if (v := fields[c][x]).__class__ not in _NESTED else _frozen(v) for c in cs])


_NESTED = (dict, list)


def _frozen(v):
    """A field's value as a set member: a map by its items (two boats with different cargo differ)."""
    if type(v) is dict:
        return tuple(sorted((k, _frozen(w)) for k, w in v.items()))
    if type(v) is list:
        return tuple(_frozen(w) for w in v)
    return v


def _enumerate(s, e, act, params, i, vals, out, cond, levels=None):
    """Every combination of the choices from the i-th on that passes `cond`; `levels[i]` (menuplan), when
    given, is checked as soon as choice i is bound."""
    name, slot, dom, distinct = params[i]
    items = dom(s, e)
    if distinct:
        seen = set()
        slow, one, types, fields = act.sig_slow, act.sig_col, s.types, s.fields
    last = i == len(params) - 1
    check = levels[i] if levels and not last else None
    for v in items:  # (a menu changes nothing: the domain is walked as it is, not copied)
        if distinct:
            t = types[v]  # _signature, inline for the common shapes (see menuplan.single_loop)
            c = one[t]
            sig = (t, fields[c][v]) if c >= 0 else t if c == NO_FIELDS else slow[t](s, v)
            if sig in seen:
                continue
        e[slot] = v
        if last:
            if cond is None or cond(s, e):
                out.append((act, vals + (v,)))
                if distinct:
                    seen.add(sig)
        else:
            sub_cond, sub_levels = cond, levels
            if check is not None:
                try:
                    if not check(s, e):
                        continue
                except UNTRUSTED:  # not trusted: the whole condition decides below, in its own order
                    sub_cond, sub_levels = act.plan.whole, None
            n0 = len(out)
            _enumerate(s, e, act, params, i + 1, vals + (v,), out, sub_cond, sub_levels)
            if distinct and len(out) > n0:
                seen.add(sig)


def push(s, node_id, player, event):
    if len(s.flow) >= MAX_FLOW_DEPTH:  # a hook or call that re-enters itself: the stack would grow forever
        raise RuleError(f"the flow is nested more than {MAX_FLOW_DEPTH} deep (a hook or call that re-enters "
                        "itself?): the flow-depth limit")
    s.flow.append([node_id, player, event, 0, None, 0, 0])


def new_decision():
    """A decision (or the setup) begins: the events it causes are counted from 0 against MAX_EVENTS."""
    global _events
    _events = 0


def fire_events(game, s):
    """Push the flows of the hooks that listen to the events emitted by the effect that just ran (none once
    an end trigger with `now` has ended the game)."""
    global _events
    if s.ends and ends_now(game, s):  # (no end trigger set: nothing can end the game now)
        return
    notes = getattr(game, "event_notes", {})
    hooks = game.hooks
    while s.ev:
        events, s.ev = s.ev, []
        _events += len(events)
        if _events > MAX_EVENTS:
            raise RuleError(f"more than {MAX_EVENTS} events while taking one decision (a hook that emits its "
                            "own event?): the event limit")
        frames = []
        for name, args in events:
            if name in notes:
                frames.append((notes[name], s.flow[-1][1] if s.flow else None, args))
            for hid, (cf, cn), (pf, pn), body in hooks.get(name, ()):
                fallback = s.flow[-1][1] if s.flow else None
                player = pf(s, [fallback, args, *BLANK[pn - 2]]) if pf is not None else fallback
                if cf is not None and not cf(s, [player, args, *BLANK[cn - 2]]):
                    continue
                if body is not None:
                    frames.append((body, player, args))
                    game.fired[("hook", hid)] = game.fired.get(("hook", hid), 0) + 1
        for body, player, args in reversed(frames):
            push(s, body, player, args)


def run_effect(game, s, fn, nslots, player, event):
    if fn is None:
        return
    s.ev = []
    s.budget = 0
    fn(s, [player, event, *BLANK[nslots - 2]])
    if s.ev or s.ends:  # events, or an end trigger that ends the game now
        fire_events(game, s)


def advance(game, s, log=None, probe: bool = False):
    """Run the flow until a decision (s.menu is set) or the end (empty stack). With `probe`, the flow
    stops at a step once it knows the step offers something (`Step.offers`) and leaves the menu to be
    made when read (`Game._menu`): for a caller that judges the position and rarely reads its menu (a
    bot's look ahead, whose coverage counters are put back: the first entry is counted twice)."""
    try:
        _advance(game, s, log, probe)
    except RuleError as ex:
        if ex.where is None and s.flow:  # a limit (flow depth, events, loop steps): where the flow was
            raise RuleError(ex.message, _located(game, s), _during(game, s)) from None
        raise ex.ran_by(_during(game, s)) from None
    except (TypeError, KeyError, IndexError, AttributeError, ValueError, ZeroDivisionError) as ex:
        raise RuleError(f"a flow condition failed: {fault_words(ex)}", _located(game, s),
                        _during(game, s)) from None


def where_now(game, s) -> str:
    """Where the flow is, for a message about the game as a whole (it went on too long): "; the flow is at
    FILE:LINE:COL (what was running)", or "" for a game or state that has no flow stack (a caller's own)."""
    if not getattr(s, "flow", None) or not hasattr(game, "nodes"):
        return ""
    return f"; the flow is at {_located(game, s)} ({_during(game, s)})"


def _during(game, s) -> str | None:
    """What the flow was running: the innermost phase or hook on the stack (and its player), else the game's
    own flow."""
    for fr in reversed(s.flow):
        path = game.nodes[fr[0]].path or ()
        if len(path) > 1 and path[0] in ("phases", "hooks"):
            who = f", Player {fr[1] + 1}" if isinstance(fr[1], int) else ""
            return f"{'phase' if path[0] == 'phases' else 'hook'} {path[1]}{who}"
    return "the game's flow" if s.flow else None


def _shown(order) -> str:
    return "[" + ", ".join("none" if p is None else f"Player {p + 1}" if type(p) is int else repr(p)
                           for p in order[:8]) + (", ...]" if len(order) > 8 else "]")


def _located(game, s) -> str | None:
    """The file:line:col of the flow node on top of the stack (its path when the file is unknown)."""
    node = game.nodes[s.flow[-1][0]] if s.flow else None
    if node is None:
        return None
    definition = getattr(game, "definition", None)
    loc = definition.where(tuple(node.path)) if definition is not None else None
    return str(loc) if loc is not None else ".".join(map(str, node.path))


def _advance(game, s, log, probe=False):
    nodes = game.nodes
    flow = s.flow  # the same list all along (effects push and pop frames, never replace it)
    for _ in _GUARD:  # at most ADVANCE_GUARD nodes entered without a decision
        if not flow:
            return
        fr = flow[-1]
        node = nodes[fr[0]]
        k = node.kind
        if k == SEQ:
            pc = fr[3]
            if log is not None and pc == 0 and (node.phase is not None or node.tmpl is not None):
                checkpoint(game, s, log)
                log.append(_told(game, s, node, fr))
            if pc < len(node.children):
                fr[3] = pc + 1
                flow.append([node.children[pc], fr[1], fr[2], 0, None, 0, 0])  # push(), inline
            else:
                flow.pop()
        elif k == STEP:
            if fr[1] is not None and fr[1] >= s.n:  # interpreter/engine/scripted.py: such a seat never decides
                raise RuleError(f"step {node.step.id}: a scripted seat makes no decisions (script its move as "
                                "an effect)", _at(game, node))
            if probe:
                if node.step.offers(s, fr[1], fr[2]):
                    s.menu = None  # a decision: its menu is made when read (Game._menu)
                    return
            else:
                menu = node.step.menu(s, fr[1], fr[2])
                if menu:
                    s.menu = menu
                    return
            flow.pop()
        elif k == REPEAT:
            (uf, un), (wf, wn), limit = node.extra
            if fr[3] > 0 and uf is not None and uf(s, [fr[1], fr[2], *BLANK[un - 2]]):
                flow.pop()
                continue
            if wf is not None and not wf(s, [fr[1], fr[2], *BLANK[wn - 2]]):
                flow.pop()
                continue
            if fr[3] >= limit:
                raise RuleError(f"a repeat ran {limit} times (its max): raise max or check its until",
                                _at(game, node))
            fr[3] += 1
            if node.label is not None and log is not None:
                from ..language.labels import entry
                checkpoint(game, s, log)
                log.append(dict(entry(game, s, node.label, [fr[1], fr[2]] + [None] * (node.nslots - 2)),
                                heading=True))
            flow.append([node.children[0], fr[1], fr[2], 0, None, 0, 0])
        elif k == EACH:
            (ff, fn_), direction, mode, limit, (of, on) = node.extra
            if fr[4] is None:
                # The seats in turn order, fixed when the loop starts: a list the rules give (a turn-order
                # track), or every seat clockwise (or counterclockwise) from the first player.
                env = [fr[1], fr[2], *BLANK[max(fn_, on) - 2]]
                if of is not None:
                    fr[4] = list(of(s, env))
                    if not all(type(p) is int for p in fr[4]):  # none (or a non-player) in the order
                        raise RuleError(f"each_player: its order lists {_shown(fr[4])}: every item must be a "
                                        "player", _at(game, node))
                else:
                    first = ff(s, env) if ff is not None else (fr[1] if fr[1] is not None else 0)
                    if first is None:
                        raise RuleError("each_player: 'from' gave none", _at(game, node))
                    fr[4] = [(first + direction * k) % s.n for k in range(s.n)]
            order = fr[4]
            i = fr[3]
            if mode == "one_left":
                # An auction: around and around; a player who passes is out; the last one left ends it.
                # fr[3] is the seat's place in the (shrinking) order, fr[6] says a turn is under way.
                if fr[6]:
                    if fr[5]:
                        i += 1
                    else:
                        order = fr[4] = order[:i] + order[i + 1:]
                    fr[5] = fr[6] = 0
                if len(order) <= 1:
                    flow.pop()
                    continue
                # the turns taken so far ride in an eighth field, added on the first turn: `max` bounds them
                turns = fr[7] if len(fr) > 7 else 0
                if turns >= limit * s.n:
                    raise RuleError(f"each_player went around {limit} times (its max)", _at(game, node))
                if len(fr) > 7:
                    fr[7] = turns + 1
                else:
                    fr.append(1)
                i %= len(order)
                fr[3], fr[6] = i, 1
                flow.append([node.children[0], order[i], fr[2], 0, None, 0, 0])
                continue
            if not order or (mode == "once" and i >= len(order)):
                flow.pop()
                continue
            if mode != "once":
                if i > 0:  # all_pass: a full round in which nobody acted ends the loop
                    fr[6] = 0 if fr[5] else fr[6] + 1
                    fr[5] = 0
                    if fr[6] >= len(order):
                        flow.pop()
                        continue
                if i >= limit * len(order):
                    raise RuleError(f"each_player went around {limit} times (its max)", _at(game, node))
            fr[3] = i + 1
            flow.append([node.children[0], order[i % len(order)], fr[2], 0, None, 0, 0])
        elif k == END:  # the turn or round in which an end trigger was set is over: so is the game
            flow.clear()
        elif k == EFFECT:
            flow.pop()
            if node.tmpl is not None and log is not None and node.fn is not None:
                e = [fr[1], fr[2], *BLANK[node.nslots - 2]]
                checkpoint(game, s, log)  # what came before; this effect's changes are told under its line
                s.ev = []
                s.budget = 0
                node.fn(s, e)
                log.append(_told(game, s, node, fr, e))
                if s.ev or s.ends:
                    fire_events(game, s)
            else:
                run_effect(game, s, node.fn, node.nslots, fr[1], fr[2])
        elif k == IF:
            flow.pop()
            ok = node.cond(s, [fr[1], fr[2], *BLANK[node.cond_n - 2]])
            nxt = node.children[0] if ok else node.children[1]
            if nxt is not None:
                flow.append([nxt, fr[1], fr[2], 0, None, 0, 0])
        elif k == CALL:
            flow.pop()
            if node.extra is not None:
                target = node.extra
            else:
                name = node.cond(s, [fr[1], fr[2], *BLANK[node.cond_n - 2]])
                target = game.phase_root.get(name)
                if target is None:
                    raise RuleError(f"call: no phase named {name!r}", _at(game, node))
            game.fired[("phase", nodes[target].phase)] = game.fired.get(("phase", nodes[target].phase), 0) + 1
            push(s, target, fr[1], fr[2])  # (checks the depth: a phase may call itself, see _GUARD)
        else:  # SIMUL
            from . import simultaneous
            if fr[4] is None and not simultaneous.start(game, s, fr, node):
                flow.pop()
            elif None in fr[5]:
                s.menu = None  # a decision: the menu is the deciding seat's (Game._menu)
                return
            else:
                simultaneous.reveal(game, s, fr, node, log)
    if flow:
        raise RuleError(f"the flow entered {ADVANCE_GUARD} nodes without a decision (a loop with no end?)")


def _at(game, node):
    """Where a flow node is written: file:line:col, or its path in the definition."""
    try:
        loc = game.definition.where(node.path)
    except Exception:  # a definition without positions (built in memory)
        loc = None
    return str(loc) if loc is not None else ".".join(map(str, node.path))


class Checkpoint:
    """An entry of a `CheckpointLog`: the state at that point of the narrative (a copy)."""

    __slots__ = ("state",)

    def __init__(self, state):
        self.state = state


class CheckpointLog(list):
    """A log that also keeps the state at each point where a line or heading is told (`Checkpoint` entries):
    after a decision's effect, before a phase's or a round's heading, before a told effect runs. A table
    then tells what changed under each line, before the next heading, instead of everything at the end."""


def checkpoint(game, s, log, copy=None) -> None:
    """Keep the state in `log` when it is a `CheckpointLog` (what any other log gets: nothing); `copy`: a
    copy of `s` the caller already made and will not change."""
    if type(log) is CheckpointLog:
        log.append(Checkpoint(copy if copy is not None else s.copy(game.layout)))


def _told(game, s, node, fr, e=None):
    """The narration entry of a node with a label: a phase's header, a hook, an event, an effect."""
    if node.tmpl is None:
        return dict(node.label, phase=node.phase)
    from ..language.labels import entry
    m = entry(game, s, node.tmpl, e if e is not None else [fr[1], fr[2]] + [None] * (node.nslots - 2))
    if node.phase is not None:
        m["phase"] = node.phase
    else:
        m["note"] = True
    return m


def mark_acted(game, s):
    """Tell the nearest each_player that its current player acted (did not pass)."""
    each = game.each_nodes  # (per node: is it an each_player loop)
    for fr in reversed(s.flow):
        if each[fr[0]]:
            fr[5] = 1
            return
