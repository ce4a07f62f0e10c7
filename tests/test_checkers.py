"""The code that checks other code can fail: a negative test for every checker.

Each scenario expectation kind fails when the game disagrees, and a scenario that could never fail (a
misspelt action value, no check at all, `true` for a count of 1) is a scenario mistake. Each leak detector
flags a leaky view or menu (the owner check included), and the runtime tiebreak guard refuses a tiebreak that
is not a number.
"""

import textwrap

import pytest

from interpreter.language.compiler import RuleError
from interpreter.game import load_game
from interpreter.engine.invariants import action_leaks, hidden_leaks
from interpreter.definition.loader import load_yaml_text
from interpreter.analysis.scenario import Runner

from games import make_game

MARKET = "examples/market_day"


@pytest.fixture(scope="module")
def market():
    return load_game(MARKET)


def run(game, body, name="s"):
    """The result of one scenario written as YAML text (the body under its name)."""
    text = "scenarios:\n  " + name + ":\n" + textwrap.indent(textwrap.dedent(body), "    ")
    doc = load_yaml_text(text, "s.yaml")
    return Runner(game).run(name, doc.data["scenarios"][name], doc)


def fails(game, body, words):
    res = run(game, body)
    assert not res.passed and any(words in f for f in res.failures), res.failures


def passes(game, body):
    res = run(game, body)
    assert res.passed, res.failures


# ------------------------------------------------------------------ scenario expectations

def test_a_scenario_that_checks_nothing_is_a_mistake(market):
    fails(market, "players: 2\nthen: {}\n", "checks nothing")
    fails(market, "players: 2\nwhen: [draw]\n", "checks nothing")


@pytest.mark.parametrize("kind", ["illegal", "not_legal", "legal"])
def test_a_misspelt_action_value_is_a_scenario_mistake(market, kind):
    step = f"when:\n  - {{illegal: sell(k=appel)}}\n" if kind == "illegal" else f"then:\n  {kind}: [sell(k=appel)]\n"
    fails(market, "players: 2\n" + step, "appel")


def test_a_value_of_the_wrong_type_is_a_scenario_mistake(market):
    fails(market, "players: 2\nthen:\n  not_legal: [sell(k=p1)]\n", "cannot be argument k")
    fails(market, "players: 2\nthen:\n  not_legal: [sell(x=apple)]\n", "no argument x")


def test_illegal_fails_when_the_action_is_accepted(market):
    fails(market, "players: 2\nwhen:\n  - {illegal: draw}\n", "should be illegal")
    passes(market, "players: 2\nwhen:\n  - {illegal: sell(k=apple)}\n")


def test_legal_and_not_legal_fail_when_the_game_disagrees(market):
    fails(market, "players: 2\nthen:\n  not_legal: [draw]\n", "should not be legal")
    fails(market, "players: 2\nthen:\n  legal: [sell(k=apple)]\n", "should be legal")
    passes(market, "players: 2\nthen:\n  legal: [draw]\n  not_legal: [sell(k=apple)]\n")


def test_over_fails_when_the_game_disagrees_and_takes_only_true_or_false(market):
    fails(market, "players: 2\nthen:\n  over: true\n", "should be over")
    passes(market, "players: 2\nthen:\n  over: false\n")
    fails(market, "players: 2\nthen:\n  over: 0\n", "true or false")


def test_to_move_ends_score_and_winners_fail_when_the_game_disagrees(market):
    fails(market, "players: 2\nthen:\n  to_move: 2\n", "should be to move")
    fails(market, "players: 2\nthen:\n  ends: [deck_empty]\n", "end triggers")
    fails(market, "players: 2\nthen:\n  score: {p1: {coins: 99}}\n", "score of p1")
    fails(market, "players: 2\nthen:\n  winners: [2]\n", "winners")
    passes(market, "players: 2\nthen:\n  score: {p1: {coins: 3}}\n  to_move: 1\n")


def test_true_is_not_one_in_expectations(market):
    fails(market, "players: 2\nthen:\n  p1.sales + 1: true\n", "expected True, got 1")
    fails(market, "players: 2\nthen:\n  to_move: true\n", "should be to move")
    passes(market, "players: 2\nthen:\n  p1.sales + 1: 1\n  p1.sales == 0: true\n")


# ------------------------------------------------------------------ leak detectors

SECRET = """
game: {id: secret, players: [2]}
zones:
  global:
    deck: {visibility: hidden}
  player:
    hand: {visibility: owner}
vars:
  global:
    other: {type: player}
  player:
    gold: {visible: owner}
components:
  card:
    zone: deck
    types:
      a: {count: 3}
setup: |
  other = 1
  for p in players:
      draw(deck, p.hand)
flow:
  each_player: {step: s}
steps:
  s:
    actions:
      peek:
        choose: {c: "other.hand"}
        effect: "pass"
"""


@pytest.fixture(scope="module")
def secret(tmp_path_factory):
    return make_game(tmp_path_factory.mktemp("secret"), SECRET)


def test_hidden_leaks_flags_each_kind_of_leak(secret, monkeypatch):
    s = secret.new_game(2)
    assert hidden_leaks(secret, s, 0) == []
    honest = secret.view

    def leaky(change):
        def view(st, player):
            v = honest(st, player)
            change(v)
            return v
        monkeypatch.setattr(secret, "view", view)
        return hidden_leaks(secret, s, 0)

    assert any("rng" in x or "random" in x for x in leaky(lambda v: v.__setitem__("rng", 1)))
    assert any("deck" in x for x in leaky(lambda v: v["zones"].__setitem__("deck", [1])))
    # the owner check: player 2's hand shown to player 1
    assert any("player 2's hand" in x for x in leaky(lambda v: v["player_zones"][1].__setitem__("hand", [0])))
    assert any("player 2's gold" in x for x in leaky(lambda v: v["player_vars"][1].__setitem__("gold", 0)))


def test_action_leaks_flags_a_piece_in_another_players_owner_zone(secret):
    s = secret.new_game(2)
    leaks = action_leaks(secret, s)
    assert len(leaks) == 1 and "which player 1 may not see" in leaks[0]  # player 2's card, offered to player 1
    t = secret.apply(s, secret.legal_actions(s)[0])
    assert secret.current_player(t) == 1 and action_leaks(secret, t) == []  # player 2's own card is no leak


# ------------------------------------------------------------------ the runtime tiebreak guard

def test_the_tiebreak_guard_refuses_a_value_that_is_not_a_number(tmp_path):
    game = make_game(tmp_path, """
    game: {id: t, players: [2]}
    tables:
      odd: [[1]]
    flow: []
    scoring:
      items:
        zero: {expr: "0"}
      tiebreak:
        - "odd[0]"
    """)
    with pytest.raises(RuleError, match="tiebreak"):
        game.outcome(game.new_game(2))
