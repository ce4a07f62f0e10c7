"""Visibility: a zone seen by everyone but its owner (`others`), a global var no one sees (`visible: none`),
one rule (interpreter/engine/visibility.py) for the views and the leak checks."""

from interpreter.game import load_game
from interpreter.engine.invariants import hidden_leaks
from interpreter.engine.visibility import sees

from conftest import ROOT

BROW = ROOT / "examples" / "mechanisms" / "brow_cards"


def test_the_rule_of_who_sees_what():
    assert sees("public", 0, 1) and sees(None, None, 0)
    assert not sees("hidden", 0, 0) and not sees("none", None, 1)
    assert sees("owner", 1, 1) and not sees("owner", 1, 0) and not sees("owner", None, 0)
    assert sees("others", 1, 0) and not sees("others", 1, 1) and sees("others", 1, None)


def test_a_card_held_facing_out_is_seen_by_all_but_its_owner():
    game = load_game(BROW)
    s = game.new_game(3, seed=4)
    for viewer in range(3):
        rows = game.view(s, viewer)["player_zones"]
        for owner in range(3):
            if owner == viewer:
                assert rows[owner]["brow"] == {"hidden": 1}
            else:
                assert isinstance(rows[owner]["brow"], list) and len(rows[owner]["brow"]) == 1
        assert hidden_leaks(game, s, viewer) == []


def test_a_hidden_global_counter_is_in_no_view():
    game = load_game(BROW)
    s = game.new_game(2, seed=4)
    assert 4 <= game.evaluate(s, "fuse") < 8
    for viewer in range(2):
        assert game.view(s, viewer)["vars"]["fuse"] == "hidden"


def test_the_leak_check_sees_a_shown_hidden_var():
    game = load_game(BROW)
    s = game.new_game(2, seed=4)
    shown = game.view
    try:
        game.view = lambda st, p: dict(shown(st, p), vars=dict(shown(st, p)["vars"], fuse=5))
        assert hidden_leaks(game, s, 0) == ["the hidden fuse is shown to player 1"]
    finally:
        del game.view
