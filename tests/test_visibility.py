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


# ---------------------------------------------------------------------------------------------- piles

PILES = ROOT / "examples" / "mechanisms" / "pile_up"


def _pile_game(rounds=14, seed=3):
    """Pile Up, 2 players, after some seeded random decisions (cards bought, discarded, decks remade)."""
    import random
    game = load_game(PILES)
    s = game.new_game(2, seed=seed)
    r = random.Random(1)
    for _ in range(rounds):
        acts = game.legal_actions(s)
        s = game.apply(s, acts[r.randrange(len(acts))])
    return game, s


def _zone(game, s, name, seat):
    return s.zones[game.layout.zone_index(name, seat)]


def test_a_pile_of_known_contents_shows_which_pieces_it_holds_but_not_their_order():
    game, s = _pile_game()
    deck = _zone(game, s, "deck", 1)
    for viewer in (0, 1):
        assert game.view(s, viewer)["player_zones"][1]["deck"] == {"hidden": len(deck), "seen": sorted(deck)}
    t = s.copy(game.layout)
    t.zones[game.layout.zone_index("deck", 1)] = list(reversed(deck))
    assert deck != list(reversed(deck)) and game.view(t, 0) == game.view(s, 0)


def test_a_pile_that_shows_its_top_lists_the_top_piece_and_how_many_lie_below():
    game, s = _pile_game(rounds=20)
    pile = _zone(game, s, "discard", 0)
    assert len(pile) > 1
    for viewer in (0, 1):
        assert game.view(s, viewer)["player_zones"][0]["discard"] == [pile[0]] + [None] * (len(pile) - 1)
        assert hidden_leaks(game, s, viewer) == []


def test_the_leak_check_catches_a_pile_shown_in_order_or_below_its_top(monkeypatch):
    game, s = _pile_game(rounds=20)
    real = game.view

    def ordered(state, seat):
        v = real(state, seat)
        v["player_zones"][1]["deck"] = list(_zone(game, state, "deck", 1))
        v["player_zones"][0]["discard"] = list(_zone(game, state, "discard", 0))
        return v
    monkeypatch.setattr(game, "view", ordered)
    problems = hidden_leaks(game, s, 1)
    assert any("keeps its order secret" in p for p in problems)
    assert any("who may not see it" in p for p in problems)


def test_a_pile_may_show_its_top_n_and_top_needs_visibility_top(tmp_path):
    from games import make_game, problem_about, problems_of
    text = """
game: {id: t, name: T, players: [2]}
zones: {global: {pile: {visibility: top, top: 2}}}
components:
  card: {zone: pile, types: {a: {count: 2}, b: {count: 2}}}
flow: {effect: "pass"}
"""
    game = make_game(tmp_path, text)
    s = game.new_game(2, seed=1)
    assert game.view(s, 0)["zones"]["pile"] == s.zones[0][:2] + [None, None]
    problems = problems_of(tmp_path / "bad", text.replace("visibility: top, top: 2", "top: 2"))
    assert problem_about(problems, "with visibility: top")


def test_the_bots_samples_keep_a_pile_s_known_pieces_in_it_in_a_new_order_and_its_top_on_top():
    import random
    from interpreter.players.determinize import Determinizer
    game, s = _pile_game(rounds=20)
    view = game.view(s, 0)
    sampler = Determinizer.of(game, view)
    deck, top = _zone(game, s, "deck", 1), _zone(game, s, "discard", 0)[0]
    orders = set()
    for seed in range(12):
        t = sampler.sample(random.Random(seed))
        assert sorted(_zone(game, t, "deck", 1)) == sorted(deck)
        assert _zone(game, t, "discard", 0)[0] == top
        assert game.view(t, 0) == view
        orders.add(tuple(_zone(game, t, "deck", 1)))
    assert len(orders) > 1


def test_the_picture_of_piles_says_what_is_in_a_deck_and_what_shows_of_a_discard_pile():
    from interpreter.table.presentation import present
    from interpreter.table.textview import picture
    game, s = _pile_game(rounds=20)
    text = picture(present(game, game.view(s, 0)))
    below = len(_zone(game, s, "discard", 0)) - 1
    assert f"{below} below" in text and "in a secret order: " in text
    assert "下面还有" in picture(present(game, game.view(s, 0), "zh"))
