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


def shown(game, s, seat: int, aid: str | None) -> tuple[list, list | None, dict | None]:
    """What `seat` is shown at `s`, as traced renders (label, viewer, text): the position (phase and step
    labels, its menu when it decides), the narration of decision `aid` and the seat's view after it (both
    None when `aid` is not legal at `s`)."""
    before = _traced(lambda: _position(game, s, seat), seat)
    if aid is None:
        return before, None, None
    done: list = []
    try:
        after = _traced(lambda: done.append(game.apply(s, aid, log=[])), seat)
    except Exception:  # not legal here, or a rule that fails on this sample: no narration to compare
        return before, None, None
    return before, after, _bare(game.view(done[0], seat))


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
