"""What a seat is shown as text follows from its view: `meeple verify` renders the labels and the narration
for every seat in two states that seat cannot tell apart, and a label that differs is a leak, reported at
its file:line. The shipped games show no seat more than its view."""
import random

import pytest

from interpreter.engine import fastpath
from interpreter.game import load_game
from interpreter.analysis.textleaks import text_leaks
from interpreter.analysis.verify import report_text, verify

from conftest import ROOT

LEAKY = ROOT / "tests" / "fixtures" / "leaky_labels"
SHIPPED = ["puerto_rico", "castles_of_burgundy", "phoenicia", "la_granja_no_siesta"]


def test_verify_finds_each_label_that_tells_a_hidden_value_at_its_line():
    rep = verify(LEAKY, games=3, players=[2], jobs=1)
    assert not rep.ok
    text = report_text(rep)
    lines = (LEAKY / "game.yaml").read_text().splitlines()
    step_line = next(i for i, l in enumerate(lines, 1) if "Your turn (the deck" in l)
    blind_line = next(i for i, l in enumerate(lines, 1) if "draw the top card blind (a" in l)
    assert f"game.yaml:{step_line}:" in text and f"game.yaml:{blind_line}:" in text
    assert "worth" in text and "what their view does not tell" in text
    # a player's own secret number, shown to that player only, is not a leak
    assert "of your" not in text and not any("coins" in v for v in rep.violations)
    assert text.count(f"game.yaml:{step_line}:") <= 3  # once per game, not once per decision


def test_the_check_names_the_label_and_leaves_the_state_and_counters_alone():
    game = load_game(LEAKY)
    s = game.new_game(2, seed=1)
    before, fired = game.to_json(s), dict(game.fired)
    seen: set = set()  # a resampled deck may hold a card of the same value on top: try a few samples
    problems = [p for k in range(8) for p in text_leaks(game, s, "blind", random.Random(k), seen)]
    assert len(problems) == 2 and all("leaky_labels/game.yaml:" in p for p in problems)
    assert game.to_json(s) == before and game.fired == fired


@pytest.mark.parametrize("name", SHIPPED)
def test_no_shipped_game_shows_a_seat_more_than_its_view(name):
    game = load_game(name)
    players = 2 if 2 in game.player_counts else min(game.player_counts)
    for seed in (1,):
        r = random.Random(seed)
        s = game.new_game(players, seed=seed)
        seen: set = set()
        decision = 0
        while not game.is_over(s) and decision < 400:
            i = r.randrange(fastpath.legal_count(game, s))
            if decision % 7 == 0:
                assert text_leaks(game, s, fastpath.action_id(game, s, i), random.Random(decision), seen) == []
            s = fastpath.apply_index(game, s, i, owned=True)
            decision += 1


ASK_HOLDERS = ROOT / "tests" / "fixtures" / "ask_holders"
PUBLIC_GUESS = ROOT / "tests" / "fixtures" / "public_guess"


def _without(tmp_path, root, *lines):
    """A copy of a fixture game with the given lines taken out of its game.yaml."""
    import shutil
    shutil.copytree(root, tmp_path / root.name)
    path = tmp_path / root.name / "game.yaml"
    text = path.read_text(encoding="utf-8")
    for line in lines:
        assert line in text
        text = text.replace(line, "")
    path.write_text(text, encoding="utf-8")
    return tmp_path / root.name


def test_verify_catches_a_reaction_asked_only_of_the_players_who_hold_a_card():
    rep = verify(ASK_HOLDERS, games=3, players=[2, 3], jobs=1)
    assert not rep.ok
    lines = (ASK_HOLDERS / "game.yaml").read_text().splitlines()
    react_line = next(i for i, l in enumerate(lines, 1) if l.strip() == "react:") + 1  # the step's entry
    found = [v for v in rep.violations if "whether a player is asked" in v]
    assert found and all(f"game.yaml:{react_line}:" in v for v in found)


def test_asking_every_target_of_the_reaction_is_no_leak(tmp_path):
    fixed = _without(tmp_path, ASK_HOLDERS, '    if: "any(c.type == shield for c in event.target.hand)"\n')
    rep = verify(fixed, games=3, players=[2, 3], jobs=1)
    assert rep.ok, rep.violations


def test_a_hit_or_miss_told_to_every_seat_is_a_public_fact_and_not_flagged(tmp_path):
    rep = verify(PUBLIC_GUESS, games=3, players=[2, 3], jobs=1)
    assert rep.ok, rep.violations
    untold = _without(tmp_path, PUBLIC_GUESS, "          for p in players:\n"
                                              "              tell(p, top(q.hand), 'number', k)\n")
    rep = verify(untold, games=3, players=[2, 3], jobs=1)
    assert any("answers: a" in v for v in rep.violations)  # the label is then the only place it is said


def test_a_menu_that_depends_on_what_its_seat_cannot_see_is_caught(tmp_path):
    from games import make_game
    game = make_game(tmp_path, """
game: {id: t, name: T, players: [2]}
vars: {global: {turns: {}}}
zones: {global: {deck: {visibility: hidden}}}
components:
  card: {zone: deck, properties: {number: 0}, types: {c: {numbered: {from: 1, to: 6, property: number}}}}
setup: "shuffle(deck)"
steps:
  go:
    actions:
      safe: {if: "top(deck).number > 3", effect: "turns += 1"}
      draw: {effect: "turns += 1"}
flow: {repeat: {each_player: {step: go}}, until: "turns >= 3", max: 3}
""")
    seen: set = set()
    problems = [p for seed in range(6) for p in
                text_leaks(game, game.new_game(2, seed=seed), None, random.Random(seed), seen)]
    assert any("player 1's menu depends on what their view does not tell" in p for p in problems)
