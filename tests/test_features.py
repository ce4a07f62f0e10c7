"""Features of a position (interpreter/players/features.py): derived from the definition, named, and a
function of what the seat may see."""

import random

import pytest

from interpreter.game import load_game
from interpreter.players.determinize import Determinizer
from interpreter.players.features import FeatureSpace

from conftest import ROOT
from games import make_game, run_random

SHIPPED = [("puerto_rico", 3), ("castles_of_burgundy", 2), ("phoenicia", 3), ("la_granja_no_siesta", 2)]
EXAMPLES = [("brow_cards", 3), ("hint_cards", 2), ("pile_up", 2), ("levee", 2)]


def load(name):
    folder = ROOT / "examples" / "mechanisms" / name
    return load_game(folder if folder.is_dir() else name)


@pytest.mark.parametrize("name, players", SHIPPED + EXAMPLES)
def test_a_seats_features_are_a_function_of_its_view(name, players):
    """Two states the seat cannot tell apart (the true one, and one sampled from its view) give it the
    same features: the learner cannot read what the seat does not see."""
    game = load(name)
    space = FeatureSpace.of(game)
    r = random.Random(3)
    states = run_random(game, players, seed=5).states
    for s in states[:: max(1, len(states) // 12)]:
        if game.is_over(s):
            continue
        for seat in range(players):
            sample = Determinizer.of(game, game.view(s, seat)).sample(r)
            assert space.extract(sample, seat, 0.5) == space.extract(s, seat, 0.5), (name, seat, s.decisions)


def test_features_are_named_by_what_they_count(tmp_path):
    game = make_game(tmp_path, """
        game: {id: f, players: [2]}
        vars:
          global: {round: {}}
          player: {coins: {init: 3}}
        zones:
          global: {market: {}, deck: {visibility: hidden}}
          player: {hand: {visibility: owner}, table: {}}
        components:
          card:
            zone: deck
            properties: {value: 0, suit: none}
            types:
              red: {value: 2, suit: hearts, count: 2}
              blue: {value: 5, suit: spades, count: 2}
        setup: |
          for p in players:
              draw(deck, p.hand)
          draw(deck, market)
        steps:
          play:
            actions:
              play:
                choose: {c: player.hand}
                effect: "move(c, player.table)"
        flow:
          - each_player: {step: play}
        scoring:
          items:
            coins: {expr: "player.coins"}
    """)
    space = FeatureSpace.of(game)
    names = set(space.names)
    for expected in ("early.var.coins", "late.var.coins", "others.var.coins", "table.var.round",
                     "early.zone.hand.type.red", "middle.zone.table.suit.spades", "late.zone.table.sum.value",
                     "table.zone.market.class.card", "table.zone.deck.size", "early.score.coins", "late.score.total",
                     "table.step.play", "table.turn.0", "table.bias", "table.remaining"):
        assert expected in names
    assert len(names) == len(space.names)  # every feature has its own name
    s = game.new_game(2, seed=1)
    row = {space.names[i]: v for i, v in space.extract(s, 0, 1.0).items()}
    assert row["early.var.coins"] == 3 and row["others.var.coins"] == 3 and "late.var.coins" not in row
    assert row["table.zone.deck.size"] == 1 and row["table.zone.market.size"] == 1
    assert row["early.zone.hand.size"] == 1 and row["others.zone.hand.size"] == 1
    # the seat sees its own hand by type, not the other's (an owner-only zone), nor the deck
    mine = s.types[s.zones[game.layout.zone_index("hand", 0)][0]]
    assert row[f"early.zone.hand.type.{mine}"] == 1
    halfway = {space.names[i]: v for i, v in space.extract(s, 0, 0.25).items()}
    assert halfway["middle.var.coins"] == 1.5 and halfway["late.var.coins"] == 1.5 and "early.var.coins" not in halfway
    assert not any(k.startswith("others.zone.hand.type") for k in row)
    assert not any(k.startswith("table.zone.deck.type") for k in row)
    assert row["table.turn.0"] == 1 and row["table.bias"] == 1 and row["table.remaining"] == 1.0


def test_a_text_field_is_counted_by_the_kind_value_it_holds(tmp_path):
    """Which revenue a disc marks is a text field: counted alone it says only that a disc marks one; by the
    kind value it holds, which one (a model that cannot tell a hat from silver marked cannot value either)."""
    game = make_game(tmp_path, """
        game: {id: t, players: [2]}
        kinds:
          good: {values: [hat, silver]}
        zones:
          global: {supply: {}}
          player: {board: {}}
        components:
          disc:
            zone: supply
            fields: {space: {type: str}}
            types: {marker: {count: 4}}
        steps:
          mark:
            actions:
              mark:
                choose: {g: good}
                effect: |
                  x = top(supply)
                  x.space = g
                  move(x, player.board)
        flow:
          - each_player: {step: mark}
    """)
    space = FeatureSpace.of(game)
    s = game.new_game(2, seed=1)
    s = game.apply(s, "mark(g=hat)")
    s = game.apply(s, "mark(g=silver)")
    mine = {space.names[i]: v for i, v in space.extract(s, 0, 1.0).items()}
    theirs = {space.names[i]: v for i, v in space.extract(s, 1, 1.0).items()}
    assert mine["early.zone.board.field.space"] == theirs["early.zone.board.field.space"] == 1
    assert mine["early.zone.board.field.space=hat"] == 1 and "early.zone.board.field.space=silver" not in mine
    assert theirs["early.zone.board.field.space=silver"] == 1 and theirs["others.zone.board.field.space=hat"] == 1


def test_another_seats_score_is_left_out_where_a_player_hides_something(tmp_path):
    """A score may count what the seat cannot see (another player's hand): then it is no quantity of
    that player; where nothing of a player is hidden it is."""
    hidden = FeatureSpace.of(load("puerto_rico"))      # VP chips are private
    public = FeatureSpace.of(load("levee"))
    assert not hidden.scores_public and public.scores_public


def test_a_var_naming_the_seat_counts_the_tables_numbers_and_pieces_again_for_it(tmp_path):
    """The high bidder owes the bid and is about to take the card: a linear value cannot multiply "the
    high bidder is me" by the bid, so the numbers and piece vars of the table are counted again, for the
    seat a player var names."""
    game = make_game(tmp_path, """
        game: {id: auction, players: [2]}
        vars:
          global:
            bid: {}
            high: {type: player}
            lot: {type: piece}
        zones:
          global: {market: {}}
          player: {won: {}}
        components:
          card:
            zone: market
            types:
              gem: {count: 2}
        setup: |
          high = players[1]
          bid = 4
          lot = top(market)
        steps:
          wait:
            actions:
              raise: {effect: "bid += 1"}
        flow:
          - each_player: {step: wait}
    """)
    space = FeatureSpace.of(game)
    s = game.new_game(2, seed=1)
    rows = [{space.names[i]: v for i, v in space.extract(s, seat, 1.0).items()} for seat in range(2)]
    assert rows[1]["table.var.high.me"] == 1 and rows[1]["table.var.high.me.var.bid"] == 4
    assert rows[1]["table.var.high.me.lot.type.gem"] == 1
    assert "table.var.high.me" not in rows[0] and not any(".high.me." in k for k in rows[0])
    assert rows[0]["table.var.bid"] == rows[1]["table.var.bid"] == 4
