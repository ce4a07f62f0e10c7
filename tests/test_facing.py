"""Visibility per piece (interpreter/engine/facing.py): a card face down in a public zone, shown to one seat, shown
to everyone; views, narration, leak checks, save/load and the bots' sampled states follow it."""

import random

from interpreter.players.determinize import sample_state
from interpreter.game import load_game
from interpreter.engine.invariants import action_leaks, hidden_leaks

from conftest import ROOT

SHOWDOWN = ROOT / "examples" / "mechanisms" / "showdown"


def _play(game, s, *prefixes, log=None):
    for p in prefixes:
        s = game.apply(s, next(a for a in game.legal_actions(s) if a["id"].startswith(p)), log=log)
    return s


def test_a_card_face_down_is_listed_as_unknown_to_the_others_and_known_to_its_player():
    game = load_game(SHOWDOWN)
    s = game.new_game(3, seed=2)
    s = _play(game, s, "play")
    card = s.zones[game.layout.zone_index("played", 0)][0]
    mine, theirs = game.view(s, 0), game.view(s, 1)
    assert mine["player_zones"][0]["played"] == [card]
    assert theirs["player_zones"][0]["played"] == [None]
    assert "faces" not in theirs and "faces" in game.to_json(s)
    for seat in range(3):
        assert hidden_leaks(game, s, seat) == []


def test_a_peek_shows_the_card_to_the_one_who_peeks_only():
    game = load_game(SHOWDOWN)
    s = game.new_game(3, seed=2)
    s = _play(game, s, "play", "play", "play", "peek(q=1)")
    card = s.zones[game.layout.zone_index("played", 1)][0]
    assert game.view(s, 0)["player_zones"][1]["played"] == [card]
    assert game.view(s, 2)["player_zones"][1]["played"] == [None]
    assert action_leaks(game, s) == []


def test_a_card_revealed_from_a_hand_is_listed_in_the_hidden_hand():
    game = load_game(SHOWDOWN)
    s = game.new_game(2, seed=2)
    s = _play(game, s, "play", "play", "boast")
    card = s.zones[game.layout.zone_index("hand", 0)][0]
    hand = game.view(s, 1)["player_zones"][0]["hand"]
    assert hand == {"hidden": 1, "seen": [card]}
    assert hidden_leaks(game, s, 1) == []


def test_the_narration_names_a_face_down_card_only_to_its_player():
    game = load_game(SHOWDOWN)
    s = game.new_game(2, seed=2)
    log = []
    _play(game, s, "play", log=log)
    entry = next(e for e in log if "face down" in e["en"])
    assert "a card" in entry["en"]  # the table's text
    assert "Card" in entry["seen"][0]["en"]  # its player's


def test_faces_survive_save_and_load_and_a_move_forgets_them():
    game = load_game(SHOWDOWN)
    s = game.new_game(2, seed=2)
    s = _play(game, s, "play", "play")
    assert game.from_json(game.to_json(s)) == s
    s = _play(game, s, "pass", "pass")  # the showdown: every card turns up, then goes to the discard
    assert s.faces == {}


def test_a_sampled_state_keeps_the_card_face_down_and_consistent_with_the_view():
    game = load_game(SHOWDOWN)
    s = game.new_game(2, seed=2)
    s = _play(game, s, "play", "play")
    view = game.view(s, 1)
    t = sample_state(game, view, random.Random(3))
    x = t.zones[game.layout.zone_index("played", 0)][0]
    assert t.faces.get(x, [None])[0] == "down"
    assert game.view(t, 1)["player_zones"][0]["played"] == [None]
    assert t.zones[game.layout.zone_index("played", 1)] == s.zones[game.layout.zone_index("played", 1)]


def test_the_leak_check_sees_a_face_down_card_listed_in_a_view():
    game = load_game(SHOWDOWN)
    s = game.new_game(2, seed=2)
    s = _play(game, s, "play")
    card = s.zones[game.layout.zone_index("played", 0)][0]
    shown = game.view
    try:
        def leaky(st, p):
            v = shown(st, p)
            v["player_zones"][0]["played"] = [card]
            return v
        game.view = leaky
        assert hidden_leaks(game, s, 1) == [f"piece {card} ({s.types[card]}) is listed to player 2, who may not "
                                            "see it"]
    finally:
        del game.view


PEEK = """
game: {id: peek, name: Peek, players: [2], source: "a test"}
zones:
  global:
    deck: {visibility: hidden}
    table: {}
  player:
    hand: {visibility: owner}
components:
  card:
    zone: deck
    types: {a: {count: 2}, b: {count: 2}}
setup: |
  move(top(deck), table)
steps:
  go:
    actions:
      up: {effect: "reveal(top(deck))"}
      down: {effect: "face_down(top(table))"}
      back: {effect: "hide(top(table))"}
      show: {effect: "reveal(top(deck), next_player(player))"}
      show_table: {effect: "reveal(top(table), next_player(player))"}
flow:
  repeat: {each_player: {step: go}}
  max: 4
"""


def _peek_game(tmp_path):
    import textwrap
    d = tmp_path / "peek"
    d.mkdir()
    (d / "game.yaml").write_text(textwrap.dedent(PEEK))
    return load_game(d)


def test_reveal_to_all_face_down_and_hide_again(tmp_path):
    game = _peek_game(tmp_path)
    s = game.new_game(2)
    top_of_deck = s.zones[game.layout.zone_index("deck")][0]
    up = game.apply(s, {"id": "up"})
    assert game.view(up, 1)["zones"]["deck"] == {"hidden": 3, "seen": [top_of_deck]}  # face up on a hidden pile
    on_table = s.zones[game.layout.zone_index("table")][0]
    down = game.apply(s, {"id": "down"})
    assert game.view(down, 0)["zones"]["table"] == [None] and game.view(down, 1)["zones"]["table"] == [None]
    back = game.apply(down, {"id": "back"})
    assert game.view(back, 1)["zones"]["table"] == [on_table] and back.faces == {}


def test_a_card_shown_to_one_seat_only(tmp_path):
    game = _peek_game(tmp_path)
    s = game.new_game(2)
    top_of_deck = s.zones[game.layout.zone_index("deck")][0]
    shown = game.apply(s, {"id": "show"})  # seat 0 shows it to seat 1
    assert game.view(shown, 1)["zones"]["deck"]["seen"] == [top_of_deck]
    assert "seen" not in game.view(shown, 0)["zones"]["deck"]
    assert game.evaluate(shown, "sees(player, top(deck))", player=1) is True
    assert game.evaluate(shown, "sees(player, top(deck))", player=0) is False


def test_a_card_turned_face_down_is_hidden_from_a_seat_it_was_shown_to(tmp_path):
    game = _peek_game(tmp_path)
    s = game.new_game(2)
    on_table = s.zones[game.layout.zone_index("table")][0]
    shown = game.apply(s, {"id": "show_table"})  # seat 0 shows the table's card to seat 1 as well
    down = game.apply(shown, {"id": "down"})  # seat 1 turns it face down
    assert game.view(down, 1)["zones"]["table"] == [None] == game.view(down, 0)["zones"]["table"]
    assert game.evaluate(down, "sees(player, top(table))", player=1) is False
    again = game.apply(down, {"id": "show_table"})  # shown again to seat 1 (by seat 0): seat 1 sees it
    assert game.view(again, 1)["zones"]["table"] == [on_table] and game.view(again, 0)["zones"]["table"] == [None]
