"""Rendered text that tells a seat more than its view: the check `meeple verify` runs on labels.

    problems = text_leaks(game, s, aid, random.Random(7))

What a seat is shown as text (the labels of its menu, the phase and step labels of the position, the
narrated lines of a decision) must follow from what that seat may see. The check is by experiment, so it
needs no analysis of what a label's holes read: for each seat, a second state is sampled that looks the
same to that seat (`determinize`: what it cannot see dealt again; the random generator kept, so a die
rolled in the narration rolls the same) and the seat's texts are rendered in both. A label that renders
differently in two states the seat cannot tell apart tells it something its view does not: that label
leaks, and is reported with its file:line. The decision's narration is compared only when the decision
leaves the two states looking the same to the seat (a card it reveals may differ between them).

Labels are compared render by render (`labels.TRACE`), so the problem names the label that differs, not
a line of text somewhere.

Who is asked is observed too: every seat sees who decides next and at which step, and a seat sees its own
menu. So in the same two states the check also compares
- the seat's own menu when it decides (its entries, not only their texts): a choice offered or not by
  what the seat cannot see tells it that;
- which step is asked after the decision, and of whom, when the decision leaves everything else looking
  the same to the seat: a reaction step asked only of the players who hold a certain card tells everyone
  who holds one (ask everyone, and let the menu differ), and a seat passed over because its menu is
  empty tells that it could do nothing (a player who cannot pay the next bid: `optional: always` asks him
  with pass alone, as a table would). A decision that shows the seat something (a card turned up, a
  public count changed, what it is told by `tell`) may ask whom it shows: the rest of the view then
  differs, and nothing is compared.
"""
from __future__ import annotations

import random

from ..language import labels
from ..players.determinize import Determinizer, unrecorded

LANGS = ("en", "zh")


def text_leaks(game, s, aid: str | None, rng: random.Random, seen: set | None = None) -> list[str]:
    """The labels that render, for some seat, differently in `s` and in a state that seat cannot tell
    from `s` (see the module doc); `aid`, the decision about to be taken at `s`, is narrated in both.
    `s` is left as it is; coverage counters are not touched. `seen` (ids of labels already reported, kept
    by the caller across decisions) reports each label once."""
    problems: list[str] = []
    seen = set() if seen is None else seen
    with unrecorded(game):
        for seat in range(s.n):
            view = game.view(s, seat)
            try:
                t = Determinizer.of(game, view).sample(rng)
            except Exception:  # a view the sampler cannot fill: nothing to compare with
                continue
            t.rng = s.rng  # the same future: only what the seat cannot see differs
            if _bare(game.view(t, seat)) != _bare(view):  # (the labels in a view are what is checked here)
                continue
            mine, other = shown(game, s, seat, aid), shown(game, t, seat, aid)
            problems += _asked_leaks(game, s, seat, aid, mine, other, seen)
            if mine[2] != other[2]:  # the decision showed them different things: its narration may differ
                mine, other = (mine[0], None, None), (other[0], None, None)
            for part in (0, 1):
                if mine[part] is None or other[part] is None:
                    continue
                for (lab, who, a), (lab2, who2, b) in zip(mine[part], other[part]):
                    if lab is not lab2 or who is not who2:
                        break  # the two runs took different paths from here on
                    if a != b and id(lab) not in seen:
                        seen.add(id(lab))
                        problems.append(f"{where(game, lab)}: a label shows player {seat + 1} what their view "
                                        f"does not tell: {a['en']!r} here, {b['en']!r} in a state that looks "
                                        f"the same to them (render a hidden value as hidden)")
    return problems


def _bare(view: dict) -> dict:
    """A view without its rendered labels (`flow_labels`), which are texts this check compares itself."""
    return {k: v for k, v in view.items() if k != "flow_labels"}


class Shown(tuple):
    """What a seat is shown at a state: (renders before, narration of the decision, view after), with
    `menu` (its own menu's ids when it decides) and `asked` (who decides after the decision, and where)."""
    menu: list | None = None
    asked: tuple | None = None


def shown(game, s, seat: int, aid: str | None) -> tuple[list, list | None, dict | None]:
    """What `seat` is shown at `s`, as traced renders (label, viewer, text): the position (phase and step
    labels, its menu when it decides), the narration of decision `aid` and the seat's view after it (both
    None when `aid` is not legal at `s`); `.menu` and `.asked` as `Shown` says."""
    before = _traced(lambda: _position(game, s, seat), seat)
    menu = ([a["id"] for a in game.legal_actions(s, labels=False,
                                                 player=seat if game.is_simultaneous(s) else None)]
            if not game.is_over(s) and seat in game.pending_players(s) else None)
    if aid is None:
        return _shown((before, None, None), menu, None)
    done: list = []
    try:
        after = _traced(lambda: done.append(game.apply(s, aid, log=[])), seat)
    except Exception:  # not legal here, or a rule that fails on this sample: no narration to compare
        return _shown((before, None, None), menu, None)
    return _shown((before, after, _bare(game.view(done[0], seat))), menu, asked(game, done[0]))


def _shown(parts, menu, who) -> Shown:
    out = Shown(parts)
    out.menu, out.asked = menu, who
    return out


def asked(game, s) -> tuple | None:
    """Who decides at `s`, and at which step (None when the game is over)."""
    if game.is_over(s):
        return None
    step = game.nodes[s.flow[-1][0]].step
    return tuple(game.pending_players(s)), (step.id if step is not None else None)


PUBLIC_FLOW = ("flow", "to_move", "decisions")  # what of a view says where the game is and who decides


def _asked_leaks(game, s, seat, aid, mine, other, seen) -> list[str]:
    """The seat's own menu, and who is asked after decision `aid`, differing between two states the seat
    cannot tell apart (see the module doc)."""
    out = []
    if mine.menu is not None and other.menu is not None and mine.menu != other.menu:
        step = game.nodes[s.flow[-1][0]].step
        key = ("menu", step.id if step is not None else None)
        if key not in seen:
            seen.add(key)
            extra = sorted(set(mine.menu) ^ set(other.menu))[:1] or mine.menu[:1]
            out.append(f"{_step_where(game, key[1])}: player {seat + 1}'s menu depends on what their view does not "
                       f"tell ({extra[0] if extra else 'its entries'} is offered in one of two states that look the "
                       f"same to them)")
    if mine.asked is None or other.asked is None or mine.asked == other.asked:
        return out
    rest = [{k: v for k, v in view.items() if k not in PUBLIC_FLOW} for view in (mine[2], other[2])]
    if rest[0] != rest[1]:
        return out  # the decision showed the seat something: it may ask whom it shows
    (who, step), (who2, step2) = mine.asked, other.asked
    key = ("asked", step, step2)
    if key in seen:
        return out
    seen.add(key)
    names = ", ".join(f"player {p + 1}" for p in who) or "no one"
    names2 = ", ".join(f"player {p + 1}" for p in who2) or "no one"
    here = asked(game, s)  # name the step asked in one state only: not the one the decision was taken at
    where = step2 if step == (here[1] if here else None) or step is None else step
    out.append(f"{_step_where(game, where)}: after {aid}, whether a player is asked "
               f"tells player {seat + 1} what their view does not: {names} at step {step} here, {names2} at step "
               f"{step2} in a state that looks the same to them (ask every player who could be asked, and let "
               f"each menu say what that player may do)")
    return out


def _step_where(game, step_id) -> str:
    """The file:line of a step, by its id."""
    if step_id is not None:
        try:
            loc = game.definition.where(("steps", step_id))
        except Exception:
            loc = None
        if loc is not None:
            return str(loc)
    return f"step {step_id}"


def _position(game, s, seat):
    for lang in LANGS:
        game.describe(s, lang, viewer=seat)
    if not game.is_over(s) and game.current_player(s) == seat:
        game.legal_actions(s)


def _traced(run, seat) -> list:
    """The renders `run()` makes that `seat` is shown: its own, the spectators' and those for everyone."""
    outer, labels.TRACE = labels.TRACE, []
    try:
        run()
        trace = labels.TRACE
    finally:
        labels.TRACE = outer
    return [r for r in trace if r[1] is seat or r[1] == seat or r[1] is None or r[1] is labels.EVERYONE]


def where(game, label) -> str:
    """The file:line of a compiled label (the step, action, phase, event or hook that carries it)."""
    for path in _label_paths(game, label):
        for p in (tuple(path) + ("label",), tuple(path)):
            try:
                loc = game.definition.where(p)
            except Exception:
                loc = None
            if loc is not None:
                return str(loc)
        return ".".join(map(str, path))
    return "a label"


def _label_paths(game, label):
    for node in game.nodes:
        if node.tmpl is label and node.path:
            yield node.path
    for st in game.steps.values():
        if st.tmpl is label:
            yield st.path
        for act in st.actions:
            if act.label is label:
                yield act.path
