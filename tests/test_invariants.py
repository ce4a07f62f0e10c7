"""invariants: the checks that hold in every state — conserved resources, consistent pieces, honest views."""

import pytest

from interpreter.engine.invariants import check_state, hidden_leaks, pieces_consistent, resource_holders, resource_totals

from games import make_game, run_random

BANK = """
game: {id: bank, players: [2, 3]}
kinds:
  good: {values: [corn, rice]}
vars:
  global:
    pool: {init: 10, resource: coin}
    store: {of: good, init: 4, resource: goods}
    turns: {}
  player:
    coins: {init: 1, resource: coin}
    goods: {of: good, resource: goods}
zones:
  global:
    bag: {}
  player:
    hand: {visibility: owner}
components:
  worker:
    zone: bag
    fields: {load: {resource: coin}}
    types:
      w: {count: 2}
flow:
  repeat:
    each_player: {step: s}
  until: "turns >= 6"
steps:
  s:
    actions:
      earn: {effect: "transfer(2, pool, player.coins); turns += 1"}
      harvest: {effect: "transfer(1, store[corn], player.goods[corn]); turns += 1"}
      load: {if: "size(bag) > 0", effect: "transfer(1, player.coins, top(bag).load); move(top(bag), player.hand); turns += 1"}
      mint: {effect: "player.coins += 1; turns += 1"}
"""


@pytest.fixture(scope="module")
def bank(tmp_path_factory):
    return make_game(tmp_path_factory.mktemp("bank"), BANK)


def test_resource_holders_name_every_place_that_holds_a_resource(bank):
    assert [(r, where) for r, where, _ in resource_holders(bank)] == [
        ("coin", "pool"), ("goods", "store"), ("coin", "player.coins"), ("goods", "player.goods"),
        ("coin", "piece.load")]


def test_resource_totals_sum_every_holder_per_kind(bank):
    s = bank.new_game(3)
    assert resource_totals(bank, s) == {"coin": 10 + 3 * 1 + 0, "goods": {"corn": 4, "rice": 4}}


@pytest.mark.parametrize("action", ["earn", "harvest", "load"])
def test_moving_a_resource_conserves_it(bank, action):
    s = bank.new_game(2)
    t0 = resource_totals(bank, s)
    t = bank.apply(s, action)
    assert t != s
    assert check_state(bank, t, t0) == []


def test_check_state_detects_a_resource_created_from_nothing(bank):
    s = bank.new_game(2)
    t0 = resource_totals(bank, s)
    t = bank.apply(s, "mint")
    assert check_state(bank, t, t0) == ["resource coin is not conserved: 12 at setup, now 13"]


def test_random_playouts_of_conserving_rules_keep_the_totals(tmp_path):
    without_mint = BANK.replace('      mint: {effect: "player.coins += 1; turns += 1"}\n', "")
    assert without_mint != BANK
    game = make_game(tmp_path, without_mint)
    for seed in range(5):
        p = run_random(game, 3, seed)
        t0 = resource_totals(game, p.states[0])
        assert all(check_state(game, s, t0) == [] for s in p.states)


def test_a_random_playout_finds_the_non_conserving_rule(bank):
    bad = []
    for seed in range(5):
        p = run_random(bank, 2, seed)
        t0 = resource_totals(bank, p.states[0])
        bad += [a for a, s in zip(p.actions, p.states[1:]) if check_state(bank, s, t0)]
    assert bad and bad[0] == "mint"


def test_pieces_consistent_holds_in_a_fresh_state(bank):
    assert pieces_consistent(bank.new_game(2)) is None


def test_pieces_consistent_detects_a_piece_in_two_zones(bank):
    s = bank.new_game(2).copy(bank.layout)
    s.zones[bank.layout.zone_index("hand", 0)].append(0)
    assert pieces_consistent(s) == "piece 0 is in zone 1 but its location says 0"


def test_pieces_consistent_detects_a_lost_piece(bank):
    s = bank.new_game(2).copy(bank.layout)
    s.zones[bank.layout.zone_index("bag")].remove(1)
    assert pieces_consistent(s) == "piece 1 (w) is in 0 zones"


def test_pieces_consistent_detects_a_wrong_location(bank):
    s = bank.new_game(2).copy(bank.layout)
    s.loc[0] = 2
    assert pieces_consistent(s) == "piece 0 is in zone 0 but its location says 2"


def test_check_state_reports_pieces_too(bank):
    s = bank.new_game(2)
    t0 = resource_totals(bank, s)
    t = s.copy(bank.layout)
    t.zones[0].pop()
    assert check_state(bank, t, t0) == ["piece 1 (w) is in 0 zones"]


def test_the_view_of_a_game_leaks_nothing(bank):
    s = bank.apply(bank.new_game(2), "load")
    assert bank.to_json(s)["player_zones"][0]["hand"] == [0]
    assert hidden_leaks(bank, s, 0) == [] and hidden_leaks(bank, s, 1) == []
    assert bank.view(s, 1)["player_zones"][0]["hand"] == {"hidden": 1}


def test_an_action_naming_a_hidden_piece_is_a_leak(tmp_path):
    from interpreter.engine.invariants import action_leaks
    game = make_game(tmp_path, """
    game: {id: peek, players: [2]}
    zones:
      global:
        deck: {visibility: hidden}
      player:
        hand: {}
    components:
      card:
        zone: deck
        types:
          a: {count: 2}
          b: {count: 2}
    flow:
      each_player: {step: s}
    steps:
      s:
        actions:
          take:
            choose: {c: deck}
            effect: "move(c, player.hand)"
    """)
    s = game.new_game(2)
    leaks = action_leaks(game, s)
    assert leaks and "which player 1 may not see" in leaks[0]
