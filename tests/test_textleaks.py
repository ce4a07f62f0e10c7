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


def test_a_label_only_the_second_seat_reads_is_compared_for_that_seat():
    """Every seat's texts are compared, not only the first seat's: the blind draw's label is in the
    menu of the seat to move, here player 2."""
    game = load_game(LEAKY)
    s = game.apply(game.new_game(2, seed=1), "bet")
    assert game.current_player(s) == 1
    seen: set = set()
    problems = [p for k in range(8) for p in text_leaks(game, s, None, random.Random(k), seen)]
    assert any("shows player 2" in p and "draw the top card blind" in p for p in problems)


# A face-down deck whose top card the narration of two decisions names to the whole table: one that rolls a
# die the table sees, one that rolls nothing. Only the narration leaks (no label of the position does).
NARRATED = """
    game: {id: narrated_leak, players: [2]}
    vars:
      global: {last: {}}
    zones:
      global:
        deck: {visibility: hidden}
    components:
      card:
        zone: deck
        properties: {value: 0}
        types: {low: {value: 1, count: 4}, high: {value: 9, count: 4}}
    events:
      told: {worth: int, label: {en: "the deck's top card is worth {event.worth}", zh: "牌堆顶的牌值{event.worth}"}}
    setup: "shuffle(deck)"
    steps:
      turn:
        actions:
          roll:
            effect: |
              last = random(6) + 1
              emit told(first(x.value for x in deck))
          look:
            effect: "emit told(first(x.value for x in deck))"
    flow:
      each_player: {step: turn}
    scoring:
      items: {last: {expr: "last"}}
"""


def narration_leaks(tmp_path, aid):
    from games import make_game
    game = make_game(tmp_path, NARRATED)
    s = game.new_game(2, seed=1)
    seen: set = set()
    return [p for k in range(12) for p in text_leaks(game, s, aid, random.Random(k), seen)]


def test_the_narration_the_whole_table_reads_is_compared(tmp_path):
    problems = narration_leaks(tmp_path, "look")
    assert problems and all("the deck's top card is worth" in p for p in problems)


def test_a_decision_that_rolls_a_die_rolls_the_same_in_both_states_so_its_narration_is_compared(tmp_path):
    """The second state keeps the first one's random generator: the die rolls the same in both, so the
    decision looks the same to the seat and its narration is compared, on every sample whose hidden top
    card differs."""
    from games import make_game
    from interpreter.players.determinize import Determinizer
    game = make_game(tmp_path, NARRATED)
    s = game.new_game(2, seed=1)
    deck = game.layout.gzones["deck"]
    top = s.types[s.zones[deck][0]]
    differs = 0
    for k in range(12):
        t = Determinizer.of(game, game.view(s, 0)).sample(random.Random(k))  # the first seat's sample
        if t.types[t.zones[deck][0]] != top:
            differs += 1
            problems = text_leaks(game, s, "roll", random.Random(k), set())
            assert any("shows player 1" in p and "the deck's top card is worth" in p for p in problems), k
    assert differs >= 3

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


BROKE_BIDDER = """
    game: {id: broke, players: [2]}
    zones:
      global: {deck: {visibility: hidden}}
      player: {hand: {visibility: owner}}
    components:
      card:
        zone: deck
        properties: {value: 0}
        types:
          one: {count: 6, value: 1}
          five: {count: 6, value: 5}
    vars:
      global: {bid: {}, round: {}}
    setup: |
      shuffle(deck)
      for p in players:
          draw(deck, p.hand)
    steps:
      open:
        actions:
          open: {effect: "bid = 2"}
      bid:
        optional: MODE
        actions:
          raise:
            if: "top(player.hand).value > bid"
            effect: "bid += 1"
    flow:
      - repeat:
          - effect: "round += 1"
          - each_player: {step: open}
          - each_player: {step: bid}
        until: "round == 8"
        max: 9
    scoring:
      items:
        bid: {expr: "bid"}
"""


@pytest.mark.parametrize("mode, leaks", [("true", True), ("always", False)])
def test_a_seat_passed_over_because_it_can_only_pass_tells_what_it_holds(tmp_path, mode, leaks):
    """Skipping a bidder whose hidden card cannot pay tells the others what it holds; asking him with
    pass alone (`optional: always`) does not."""
    from games import write_game
    root = write_game(tmp_path, BROKE_BIDDER.replace("MODE", mode))
    rep = verify(root, games=10, players=[2], jobs=1)
    found = [v for v in rep.violations if "whether a player is asked" in v]
    assert bool(found) == leaks, rep.violations
