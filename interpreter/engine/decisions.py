"""Decisions: who decides, the menu of legal actions (ids, labels), finding an action by id or by a
partial description (with why it is not legal), and applying one (value semantics: a new state, unless
the fast path owns it). A mixin of `game.Game`."""

from __future__ import annotations

from . import simultaneous
from .errors import MAX_ACTION_ID, IllegalAction
from .flow import BLANK, SIMUL, advance, checkpoint, fire_events, mark_acted, new_decision
from .state import State
from ..definition.problems import did_you_mean
from ..language.compiler import RuleError, fault_words
from ..table.words import say


def _action_where(game, act) -> str | None:
    """The file:line:col of an action's effect (a rule failed there and its statement is not known)."""
    definition = getattr(game, "definition", None)
    loc = definition.where(tuple(act.path) + ("effect",)) if definition is not None and act.path else None
    return str(loc) if loc is not None else act.loc


def person(seat) -> str:
    return say("player", "en", n=seat + 1)


class Decisions:
    """Part of `Game` (see the module doc)."""

    def is_over(self, s: State) -> bool:
        return not s.flow

    def current_player(self, s: State):
        """The seat that decides now, or None when the game is over (in a simultaneous decision: the first
        seat that has not chosen yet; `pending_players` lists them all)."""
        if not s.flow:
            return None
        fr = s.flow[-1]
        if fr[4] is not None and self.nodes[fr[0]].kind == SIMUL:
            return next(iter(simultaneous.pending(fr)), None)
        return fr[1]

    def pending_players(self, s: State) -> list:
        """The seats that may decide now: several in a simultaneous decision, else the current player."""
        if s.flow and self.nodes[s.flow[-1][0]].kind == SIMUL and s.flow[-1][4] is not None:
            return simultaneous.pending(s.flow[-1])
        p = self.current_player(s)
        return [] if p is None else [p]

    def is_simultaneous(self, s: State) -> bool:
        """Is the decision now one of a simultaneous step (choices hidden until all are in)?"""
        return bool(s.flow) and self.nodes[s.flow[-1][0]].kind == SIMUL

    def conceal(self, s: State, seat: int) -> State:
        """A copy of `s` without the pending simultaneous choices of seats other than `seat`."""
        return simultaneous.conceal(self, s, seat)

    def _frame_for(self, s, player):
        """The top frame as seen by the deciding `player` (its player slot is the seat that decides)."""
        fr = s.flow[-1]
        if self.nodes[fr[0]].kind != SIMUL:
            if player is not None and player != fr[1]:
                raise IllegalAction(f"player {player + 1} has no decision now "
                                    f"(player {fr[1] + 1 if fr[1] is not None else '-'} decides)")
            return fr
        seats = simultaneous.pending(fr)
        p = seats[0] if player is None and seats else player
        if p not in seats:
            raise IllegalAction(f"player {p + 1 if p is not None else '-'} has no choice to make now "
                                f"(still to choose: {', '.join(str(x + 1) for x in seats) or 'nobody'})")
        return [fr[0], p, fr[2]] + fr[3:]

    def _menu(self, s, player=None):
        if player is not None and s.flow and player != self.current_player(s):
            fr = self._frame_for(s, player)
            return self.nodes[fr[0]].step.menu(s, fr[1], fr[2])
        if s.menu is None:
            if not s.flow:
                return []
            fr = self._frame_for(s, None)
            node = self.nodes[fr[0]]
            s.menu = node.step.menu(s, fr[1], fr[2]) if node.step is not None else []
        return s.menu

    @staticmethod
    def action_id(act, vals) -> str:
        return act.idfmt % vals if vals else act.idfmt

    def legal_actions(self, s: State, labels: bool = True, player: int | None = None) -> list[dict]:
        """Every legal decision now, as JSON objects {id, step, action, args[, label]}: the current
        player's, or (in a simultaneous decision) those of `player`, a seat still to choose."""
        out = []
        if player is not None and s.flow and player != self.current_player(s):
            menu = self._menu(s, player)
            fr = self._frame_for(s, player)
            return [dict({"id": self.action_id(a, v), "step": a.step, "action": a.name,
                          "args": dict(zip(a.pnames, v))}, **({"label": self.render(s, a, v, fr)} if labels else {}))
                    for a, v in menu]
        menu = self._menu(s)
        fr = self._frame_for(s, None) if s.flow else None
        ids = {}
        for entry in menu:
            act, vals = entry
            aid = act.idfmt % vals if vals else act.idfmt
            ids[aid] = entry
            a = {"id": aid, "step": act.step, "action": act.name, "args": dict(zip(act.pnames, vals))}
            if labels:
                a["label"] = self.render(s, act, vals, fr)
            out.append(a)
        s.ids = ids
        return out

    def _find(self, s, action, player=None):
        if player is not None and s.flow and player != self.current_player(s):
            menu = self._menu(s, player)
            aid = action.get("id") if isinstance(action, dict) else action
            for act, vals in menu:
                if self.action_id(act, vals) == aid or (isinstance(action, dict) and aid is None and act.name ==
                        action.get("action") and dict(zip(act.pnames, vals)) == (action.get("args") or {})):
                    return act, vals
            raise IllegalAction(f"illegal action '{aid}' for player {player + 1}: not among its "
                                f"{len(menu)} legal choices")
        menu = self._menu(s)
        if isinstance(action, dict):
            aid = action.get("id")
            if aid is None:
                name = action.get("action")
                args = action.get("args") or {}
                if type(name) is not str or type(args) is not dict or not all(type(k) is str for k in args):
                    raise IllegalAction("an action object has an 'id' string, or an 'action' name with "
                                        "'args' mapping parameter names to values")
                for act, vals in menu:
                    if act.name == name and {p[0]: v for p, v in zip(act.params, vals)} == args:
                        return act, vals
                aid = name + ("(" + ",".join(f"{k}={v}" for k, v in args.items()) + ")" if args else "")
        elif isinstance(action, str):
            aid = action
        else:
            raise IllegalAction(f"an action is a dict from legal_actions or its id, not {type(action).__name__}")
        if type(aid) is not str or len(aid) > MAX_ACTION_ID:
            raise IllegalAction(f"an action id is a string of at most {MAX_ACTION_ID} characters, "
                                f"not {type(aid).__name__}" + (f" of {len(aid)}" if isinstance(aid, str) else ""))
        if s.ids is not None:
            entry = s.ids.get(aid)
            if entry is not None:
                return entry
        else:
            for act, vals in menu:
                if self.action_id(act, vals) == aid:
                    return act, vals
        raise IllegalAction(self._why(s, aid, menu))

    def _why(self, s, aid, menu) -> str:
        if not s.flow:
            return f"illegal action '{aid}': the game is over"
        fr = self._frame_for(s, None)
        step = self.nodes[fr[0]].step
        who = f"player {fr[1] + 1}" if fr[1] is not None else "nobody"
        name = aid.split("(", 1)[0]
        names = [a.name for a in step.actions] + (["pass"] if step.optional else [])
        if name not in names:
            hint = did_you_mean(name, names)
            return (f"illegal action '{aid}': step '{step.id}' ({who} to decide) offers "
                    f"{', '.join(sorted(set(names)))}" + (f"; {hint}" if hint else ""))
        act = next(a for a in step.actions if a.name == name) if name != "pass" else None
        same = [self.action_id(a, v) for a, v in menu if a.name == name]
        legal = (f"; legal {name} choices: {', '.join(same[:12])}" + (" ..." if len(same) > 12 else "")
                 if same else f"; no {name} is legal now")
        why = (f"; its condition is `{' '.join(str(act.cond_text).split())}`"
               if act is not None and act.cond_text else "")
        return (f"illegal action '{aid}': not among the {len(menu)} legal choices of step '{step.id}' "
                f"for {who}{why}{legal}")

    def apply(self, s: State, action, log: list | None = None, player: int | None = None) -> State:
        """The state after `action` (a dict from legal_actions or its id); `s` is left untouched.
        In a simultaneous decision `player` names the seat that chooses (default: the current player).

        Raises IllegalAction, with the reason, for anything that is not a legal decision now."""
        act, vals = self._find(s, action, player)
        return self._play(s, s.copy(self.layout), act, vals, log, player)

    def _play(self, s: State, t: State, act, vals, log, player: int | None = None, probe: bool = False) -> State:
        """Play the menu entry (act, vals) of `s` on `t`: a copy of `s`, or `s` itself when its owner
        gives it up (the fast path); return `t`. In a simultaneous decision the entry is `player`'s
        (default: the current player's) sealed choice. `probe`: see flow.advance."""
        new_decision()
        if self.nodes[t.flow[-1][0]].kind == SIMUL:
            seat = self.current_player(s) if player is None else player
            simultaneous.choose(self, t, t.flow[-1], act, vals, seat, log)
            t.decisions += 1
            advance(self, t, log, probe)
            return t
        fr = t.flow.pop()
        player, event = fr[1], fr[2]
        told = None
        if log is not None:
            e = [player, event] + [None] * (act.nslots - 2)
            for p, v in zip(act.params, vals):
                e[p[1]] = v
            if player is not None:
                told = (e, len(log))  # told once the effect ran: a piece is named where it went
            else:
                lab = self.render(s, act, vals, fr)
                log.append({"player": player, **{lang: say("game_acts", lang, what=text) for lang, text in lab.items()}})
        fired = self.fired
        key = act.fired_key  # ("action", step, name)
        fired[key] = fired.get(key, 0) + 1
        if act.piece_params:
            keys = self.component_keys
            for i in act.piece_params:  # a piece chosen by a player: its component is in play
                key = keys[s.types[vals[i]]]
                fired[key] = fired.get(key, 0) + 1
        if act.effect is not None:
            if act.direct:
                e = [player, event, *vals, *BLANK[act.nslots - 2 - len(vals)]]
            else:
                e = [player, event, *BLANK[act.nslots - 2]]
                for p, v in zip(act.params, vals):
                    e[p[1]] = v
            t.ev = []
            t.budget = 0
            during = f"step {act.step}, action {act.name}" + (f", {person(player)}" if player is not None else "")
            try:
                act.effect(t, e)
                if t.ev or t.ends:  # events, or an end trigger that ends the game now
                    fire_events(self, t)
            except RuleError as ex:
                raise ex.ran_by(during) from None
            except (TypeError, KeyError, IndexError, AttributeError, ValueError, ZeroDivisionError) as ex:
                raise RuleError(fault_words(ex), _action_where(self, act), during) from None
        if told is not None:
            from ..language.labels import entry
            log.insert(told[1], entry(self, s, act.label, told[0], who=player, after=t))
        if not act.is_pass:
            mark_acted(self, t)
        t.decisions += 1
        if log is not None:
            checkpoint(self, t, log)  # the decision's own changes, told under its line
        advance(self, t, log, probe)
        return t
