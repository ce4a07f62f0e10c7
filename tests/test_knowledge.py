"""Knowledge without sight (interpreter/engine/knowledge.py): a seat told a field of a piece it may not see, by
`tell(p, x, name)` and `tell(p, x, name, v)` ("v" or "not v"); its view shows what it knows by place, the
picture draws it, the bots' samples respect it, moving or shuffling forgets it, and the leak checks follow it."""

import random

import pytest

from interpreter.engine.invariants import hidden_leaks
from interpreter.engine.knowledge import tell
from interpreter.game import load_game
from interpreter.language.compiler import RuleError
from interpreter.players.determinize import Determinizer
from interpreter.table.presentation import present
from interpreter.table.textview import picture

from conftest import ROOT
from games import make_game, problem_about, problems_of

HINTS = ROOT / "examples" / "mechanisms" / "hint_cards"


def _hand(game, s, seat):
    return s.zones[game.layout.zone_index("hand", seat)]


def _hinted(seed=3):
    """Hint Cards, 2 players: player 1 tells player 2 which cards are blue; player 2 tells player 1 of 2s."""
    game = load_game(HINTS)
    s = game.new_game(2, seed=seed)
    s = game.apply(s, "hint_colour(q=1,k=blue)")
    s = game.apply(s, "hint_number(q=0,n=2)")
    return game, s


def test_a_hint_tells_the_holder_which_cards_are_and_which_are_not_of_the_value():
    game, s = _hinted()
    known = game.view(s, 0)["known"]
    hand = _hand(game, s, 0)
    assert [e["at"] for e in known] == [0, 1, 2]
    for e in known:
        number = game.world.props["number"][s.types[hand[e["at"]]]]
        assert e["facts"] == {"number": {"is": 2}} if number == 2 else {"number": {"not": [2]}}
        assert e["player"] == 0 and e["zone"] == "hand"


def test_what_a_seat_was_told_is_shown_to_it_alone():
    game, s = _hinted()
    assert all(e["player"] == 1 for e in game.view(s, 1)["known"])  # its own hand, not the other's
    assert "told" not in game.view(s, 0) and "told" in game.to_json(s)


def test_negative_facts_add_up_and_a_positive_one_replaces_them():
    game = load_game(HINTS)
    s = game.new_game(2, seed=3)
    x = _hand(game, s, 0)[0]
    colour = game.world.props["colour"][s.types[x]]
    others = [k for k in ("red", "blue", "green") if k != colour]
    for k in others:
        tell(game.world, s, 0, x, "colour", k, compare=True)
    assert s.told[x][0] == {"colour": {"not": others}}
    tell(game.world, s, 0, x, "colour", colour, compare=True)
    assert s.told[x][0] == {"colour": {"is": colour}}


def test_the_picture_shows_what_the_seat_knows_by_place():
    game, s = _hinted()
    text = picture(present(game, game.view(s, 0)))
    assert "Hand: 3 hidden — you know: #1: " in text and "not 2 ?" in text
    zh = picture(present(game, game.view(s, 0), "zh"))
    assert "你知道: 第1张:" in zh


def test_moving_a_piece_forgets_what_was_told_of_it():
    game, s = _hinted()
    played = _hand(game, s, 0)[0]
    t = game.apply(s, "play(i=0)")
    assert played in s.told and played not in t.told
    assert [e["at"] for e in game.view(t, 0)["known"]] == [0, 1]  # the two cards still in the hand


SHUFFLED = """
game: {id: t, name: T, players: [2]}
zones: {global: {deck: {visibility: hidden}}}
components:
  card: {zone: deck, properties: {colour: red}, types: {a: {count: 3}}}
steps:
  go:
    actions:
      mix: {effect: "shuffle(deck)"}
      keep: {effect: "pass"}
setup: "tell(players[0], top(deck), 'colour')"
flow: {step: go}
"""


def test_shuffling_a_zone_forgets_what_was_told_of_its_pieces(tmp_path):
    game = make_game(tmp_path, SHUFFLED)
    s = game.new_game(2, seed=1)
    assert game.view(s, 0)["known"] == [{"player": None, "zone": "deck", "at": 0,
                                         "facts": {"colour": {"is": "red"}}}]
    assert "known" in game.view(game.apply(s, "keep"), 0)
    assert "known" not in game.view(game.apply(s, "mix"), 0)


def test_a_state_with_knowledge_survives_json_and_bad_knowledge_is_refused():
    game, s = _hinted()
    d = game.to_json(s)
    assert game.from_json(d) == s
    bad = dict(d, told={"0": {"9": {"colour": {"is": "red"}}}})
    with pytest.raises(ValueError):
        game.from_json(bad)
    bad = dict(d, told={"0": {"0": {"colour": {"maybe": "red"}}}})
    with pytest.raises(ValueError):
        game.from_json(bad)
    bad = dict(d, told={"0": {"0": {"colour_of_sky": {"is": "red"}}}})
    with pytest.raises(ValueError):
        game.from_json(bad)


def test_the_bots_samples_deal_to_each_told_place_a_piece_that_fits_and_look_the_same():
    game, s = _hinted()
    view = game.view(s, 0)
    sampler = Determinizer.of(game, view)
    for seed in range(20):
        t = sampler.sample(random.Random(seed))
        assert game.view(t, 0) == view
        for e in view["known"]:
            x = _hand(game, t, 0)[e["at"]]
            number = game.world.props["number"][t.types[x]]
            assert (number == 2) == ("is" in e["facts"]["number"])


def test_the_leak_check_catches_a_view_that_shows_facts_it_was_not_told(monkeypatch):
    game, s = _hinted()
    assert hidden_leaks(game, s, 0) == []
    real = game.view

    def telling(state, seat):
        v = real(state, seat)
        v["known"] = [dict(e, facts={"type": {"is": state.types[_hand(game, state, seat)[e["at"]]]}})
                      for e in v["known"]]
        return v
    monkeypatch.setattr(game, "view", telling)
    assert any("not told" in p for p in hidden_leaks(game, s, 0))


def test_a_card_is_chosen_by_its_place_and_a_place_that_is_not_there_is_a_rule_error():
    game, s = _hinted()
    assert game.evaluate(s, "player.hand[2]", player=0) == _hand(game, s, 0)[2]
    with pytest.raises(RuleError):
        game.evaluate(s, "player.hand[3]", player=0)


def test_tell_takes_a_field_or_property_name_and_says_which(tmp_path):
    problems = problems_of(tmp_path, """
game: {id: t, name: T, players: [2]}
zones: {global: {deck: {visibility: hidden}}}
components:
  card: {zone: deck, properties: {colour: red}, types: {a: {count: 2}}}
setup: "tell(players[0], top(deck), 'color')"
flow: {effect: "pass"}
""")
    assert problem_about(problems, "tell() takes the name of a field or property").hint == "did you mean 'colour'?"
