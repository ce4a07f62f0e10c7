"""Boards as graphs, pieces per player, and turn orders given as a list."""

import pytest

from games import make_game

HEX = """
game: {id: hexg, players: [2, 3]}
zones:
  global:
    supply: {}
  player:
    board: {}
    placed: {}
vars:
  player:
    track: {}
    height: {}
components:
  space:
    zone: board            # a player zone: every player gets these pieces
    graph: {id: num, edges: adj}
    properties: {num: 0, adj: [], color: none}
    fields: {tile: {type: piece}}
    types:
      s1: {num: 1, color: red, adj: [2, 3]}
      s2: {num: 2, color: red, adj: [1, 3, 4]}
      s3: {num: 3, color: blue, adj: [1, 2, 4]}
      s4: {num: 4, color: red, adj: [2, 3]}
  tile:
    zone: supply
    types:
      t: {count: 12}
flow:
  repeat:
    each_player: {step: place}
    order: "sort_by(-(p.track * 10 + p.height) for p in players)"
  until: "all(x.tile != none for x in pieces if x.class == 'space')"
  max: 10
steps:
  place:
    actions:
      put:
        choose: {x: {from: player.board}}
        if: "x.tile == none"
        effect: |
          nt = top(supply)
          move(nt, player.placed)
          x.tile = nt
          player.track += len(region(x, 'color'))
scoring:
  items:
    track: {expr: "player.track"}
"""


@pytest.fixture
def hexg(tmp_path):
    return make_game(tmp_path, HEX)


def piece(game, s, player, tname):
    z = game.layout.zone_index("board", player)
    return next(x for x in s.zones[z] if s.types[x] == tname)


def test_a_class_starting_in_a_player_zone_gives_every_player_its_own_pieces(hexg):
    s = hexg.new_game(3)
    for pl in range(3):
        z = hexg.layout.zone_index("board", pl)
        assert [s.types[x] for x in s.zones[z]] == ["s1", "s2", "s3", "s4"]


def test_neighbors_and_regions_stay_on_the_pieces_own_board(hexg):
    s = hexg.new_game(2)
    w = hexg.world
    s2 = piece(hexg, s, 1, "s2")
    assert sorted(s.types[y] for y in w.neighbors(s, s2)) == ["s1", "s3", "s4"]
    assert all(s.loc[y] == s.loc[s2] for y in w.neighbors(s, s2))
    # s1-s2-s4 are red and connected through s2; s3 is blue
    assert sorted(s.types[y] for y in w.region(s, piece(hexg, s, 1, "s4"), "color")) == ["s1", "s2", "s4"]
    assert [s.types[y] for y in w.region(s, piece(hexg, s, 1, "s3"), "color")] == ["s3"]


def test_order_takes_turns_in_the_listed_order_fixed_for_the_round(hexg):
    s = hexg.new_game(3, seed=1)
    # round 1: everyone at 0, sort_by is stable: seats 1, 2, 3
    seen = []
    for _ in range(3):
        seen.append(hexg.current_player(s))
        s = hexg.apply(s, hexg.legal_actions(s)[0])
    assert seen == [0, 1, 2]
    # each took s1 (a red region of 1): all at track 1, still in seat order; now seat 3 takes s2
    seen = []
    for pick in ("s1", "s1", "s2"):
        seen.append(hexg.current_player(s))
        s = hexg.apply(s, next(a for a in hexg.legal_actions(s) if s.types[a["args"]["x"]] == "s2"))
    assert seen == [0, 1, 2]
    assert hexg.current_player(s) == 0   # everyone placed s2 (+2): still tied, seat order


def test_region_needs_a_property_name(tmp_path):
    from interpreter.definition.problems import DefinitionError
    with pytest.raises(DefinitionError, match="region\\(\\) takes a property name"):
        make_game(tmp_path, HEX.replace("region(x, 'color')", "region(x, 'colour')"))
