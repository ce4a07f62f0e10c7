"""Boards generated from a size: coordinates, directions, connected groups over the state, distances.

The boards here (a 5 × 3 square grid with diagonals, a hexagon of side 2, a small route map) are used by no
shipped game."""

import pytest

from interpreter.language.compiler import RuleError
from interpreter.definition.limits import MAX_BOARD_SPACES

from games import make_game, problem_about, problems_of

GRID = """
game: {id: grid, players: [2]}
zones:
  global:
    board: {}
components:
  cell:
    zone: board
    board: {layout: square, size: [5, 3], diagonals: true}
    properties: {col: 0, row: 0}
    fields: {owner: {type: player}}
defs:
  "at(c, r)": "first(x for x in board if x.col == c and x.row == r)"
steps:
  claim:
    actions:
      claim:
        choose: {c: {from: board}}
        if: "c.owner == none"
        effect: "c.owner = player"
flow:
  repeat:
    each_player: {step: claim}
  until: "all(c.owner != none for c in board)"
  max: 20
"""


@pytest.fixture(scope="module")
def grid(tmp_path_factory):
    return make_game(tmp_path_factory.mktemp("grid"), GRID)


def owned(game, cells):
    """A new game whose cells {(col, row): seat} are owned as given."""
    s = game.new_game(2)
    for (c, r), p in cells.items():
        x = game.evaluate(s, f"at({c}, {r})")
        s.fields[game.world.fields["owner"][0]][x] = p
    return s


def test_a_generated_board_has_one_space_per_coordinate_with_its_neighbours_by_direction(grid):
    s = grid.new_game(2)
    assert grid.evaluate(s, "len(board)") == 15
    assert grid.evaluate(s, "list(x.type for x in board)")[:3] == ["cell_1_1", "cell_2_1", "cell_3_1"]
    assert grid.evaluate(s, "neighbor(at(2, 2), 'n') == at(2, 1)") is True
    assert grid.evaluate(s, "neighbor(at(2, 2), 'se') == at(3, 3)") is True
    assert grid.evaluate(s, "neighbor(at(1, 1), 'w')") is None  # off the edge
    assert grid.evaluate(s, "len(neighbors(at(1, 1)))") == 3    # a corner, diagonals included
    assert grid.evaluate(s, "len(neighbors(at(3, 2)))") == 8
    assert grid.evaluate(s, "directions(at(1, 1))") == ["n", "e", "s", "w", "ne", "nw", "se", "sw"]
    assert grid.view(s, 0) is not None and grid.to_json(s)


def test_connected_follows_the_state_not_a_printed_property(grid):
    s = owned(grid, {(1, 1): 0, (2, 2): 0, (3, 3): 0, (5, 1): 0, (4, 1): 1})
    chain = grid.evaluate(s, "list(x.type for x in connected(at(1, 1), where t: t.owner == at(1, 1).owner))")
    assert chain == ["cell_1_1", "cell_2_2", "cell_3_3"]               # joined through diagonals
    assert grid.evaluate(s, "connected(at(1, 2), where t: t.owner != none)") == []  # x fails the condition
    assert grid.evaluate(s, "len(connected(at(1, 2)))") == 15
    s = grid.apply(s, "claim(c=%d)" % grid.evaluate(s, "at(4, 2)"))  # seat 1 joins (3,3) and (5,1)
    assert grid.evaluate(s, "len(connected(at(1, 1), where t: t.owner == at(1, 1).owner))") == 5


def test_groups_lists_every_connected_group_once(grid):
    s = owned(grid, {(1, 1): 0, (2, 1): 0, (5, 3): 0, (3, 2): 1})
    groups = grid.evaluate(s, "list(len(g) for g in groups(board, where t: t.owner == players[0]))")
    assert groups == [2, 1]
    assert grid.evaluate(s, "len(groups(board, where t: t.owner == none))") == 1
    assert grid.evaluate(s, "groups([], where t: true)") == []


def test_distance_counts_the_fewest_steps_through_the_spaces_allowed(grid):
    s = owned(grid, {(2, 1): 1, (2, 2): 1, (2, 3): 1})
    assert grid.evaluate(s, "distance(at(1, 1), at(5, 3))") == 4             # diagonals shorten it
    assert grid.evaluate(s, "distance(at(1, 1), at(1, 1))") == 0
    assert grid.evaluate(s, "distance(at(1, 1), at(3, 1), where t: t.owner == none)") is None  # a wall
    assert grid.evaluate(s, "distance(at(1, 1), at(3, 1), where t: t.owner != players[0])") == 2
    # the target is a space like any other: one the condition refuses is not reached, even next door
    assert grid.evaluate(s, "distance(at(1, 1), at(2, 1), where t: t.owner == none)") is None
    assert grid.evaluate(s, "distance(at(1, 1), at(2, 1), where t: t.owner != none)") == 1


HEXAGON = """
game: {id: hexagon, players: [2]}
zones:
  global:
    board: {}
components:
  hexa:
    zone: board
    board: {layout: hexagon, size: 2}
    properties: {col: 0, row: 0}
defs:
  "centre": "first(x for x in board if x.col == 2 and x.row == 2)"
flow: []
"""


def test_a_hexagon_board_has_six_neighbours_round_its_centre(tmp_path):
    game = make_game(tmp_path, HEXAGON)
    s = game.new_game(2)
    assert game.evaluate(s, "len(pieces)") == 7
    assert game.evaluate(s, "len(neighbors(centre))") == 6
    assert game.evaluate(s, "max(len(neighbors(x)) for x in board if x != centre)") == 3
    assert game.evaluate(s, "directions(centre)") == ["e", "w", "ne", "nw", "se", "sw"]
    assert game.evaluate(s, "max(distance(centre, x) for x in board)") == 1


ROUTES = """
game: {id: routes, players: [2]}
zones:
  global:
    map: {}
components:
  town:
    zone: map
    graph: {edges: ends}
    properties: {ends: []}
    types: {north: {}, south: {}, west: {}}
  road:
    zone: map
    graph: {edges: ends}
    properties: {ends: []}
    fields: {owner: {type: player}}
    types:
      north_south: {ends: [north, south]}
      south_west: {ends: [south, west]}
defs:
  "place(n)": "first(x for x in map if x.type == n)"
flow: []
"""


def test_an_edge_written_on_one_side_joins_both_and_a_type_name_is_an_id(tmp_path):
    game = make_game(tmp_path, ROUTES)
    s = game.new_game(2)
    assert game.evaluate(s, "list(x.type for x in neighbors(place('south')))") == ["north_south", "south_west"]
    road = game.world.fields["owner"][0]
    s.fields[road][game.evaluate(s, "place('north_south')")] = 0
    joined = "place('west') in connected(place('north'), where t: t.class == 'town' or t.owner == players[0])"
    assert game.evaluate(s, joined) is False
    s.fields[road][game.evaluate(s, "place('south_west')")] = 0
    assert game.evaluate(s, joined) is True
    assert game.evaluate(s, "distance(place('north'), place('west'))") == 4   # town, road, town, road, town


def test_a_misspelt_end_of_a_route_is_a_located_error(tmp_path):
    problems = problems_of(tmp_path, ROUTES.replace("ends: [south, west]", "ends: [south, wset]"))
    p = problem_about(problems, "names wset, which is no space's id")
    assert p.hint and "west" in p.hint and p.location.line == 18


@pytest.mark.parametrize("board, words", [
    ("{layout: square, size: [0, 3]}", "board"),
    ("{layout: hexagon, size: [2, 2]}", "cells on a side"),
    (f"{{layout: square, size: [{MAX_BOARD_SPACES}, 2]}}", f"at most {MAX_BOARD_SPACES} spaces"),
])
def test_a_board_of_a_wrong_size_is_refused_at_load(tmp_path, board, words):
    problems = problems_of(tmp_path, GRID.replace("{layout: square, size: [5, 3], diagonals: true}", board))
    assert any(words in p.message for p in problems), [str(p) for p in problems]


def test_a_board_needs_properties_for_its_coordinates(tmp_path):
    problems = problems_of(tmp_path, GRID.replace("properties: {col: 0, row: 0}", "properties: {col: 0}"))
    p = problem_about(problems, "declares no property row")
    assert "row: 0" in p.hint


@pytest.mark.parametrize("expr, words", [
    ("neighbor(at(1, 1), 'up')", "'up' is not a direction"),
    ("connected(at(1, 1), where t: t.col)", "must be true or false"),
    ("len(board, where t: true)", "takes no `where` clause"),
    ("distance(at(1, 1), where t: true)", "takes 2 argument(s) before `where`"),
])
def test_board_queries_are_checked_at_load(grid, expr, words):
    with pytest.raises(Exception) as info:
        grid.evaluate(grid.new_game(2), expr)
    assert words in str(info.value)


def test_a_board_query_on_a_piece_of_no_board_is_a_rule_error(tmp_path):
    game = make_game(tmp_path, ROUTES)
    with pytest.raises(RuleError, match="not a space of a generated board"):
        game.evaluate(game.new_game(2), "neighbor(place('north'), 'n')")


TWO_MAPS = """
game: {id: two_maps, players: [2]}
zones:
  global:
    east_map: {}
    west_map: {}
components:
  east:
    zone: east_map
    graph: {id: num, edges: adj}
    properties: {num: 0, adj: []}
    types: {e1: {num: 1, adj: [2]}, e2: {num: 2}, e3: {num: 3}}
  west:
    zone: west_map
    graph: {id: num, edges: adj}
    properties: {num: 0, adj: []}
    types: {w1: {num: 1}, w2: {num: 2}, w3: {num: 3, adj: [1]}}
flow: []
"""


def test_edges_go_both_ways_within_a_zone_only(tmp_path):
    game = make_game(tmp_path, TWO_MAPS)
    s = game.new_game(2)
    names = lambda e: game.evaluate(s, f"list(x.type for x in {e})")  # noqa: E731
    assert names("neighbors(top(east_map))") == ["e2"]
    assert names("neighbors(first(x for x in east_map if x.num == 2))") == ["e1"]   # the edge written on e1
    assert names("neighbors(first(x for x in west_map if x.num == 2))") == []       # not w1: e1's edge is east
    assert names("neighbors(top(west_map))") == ["w3"]


def test_groups_of_a_list_join_its_own_spaces_only(grid):
    s = owned(grid, {(1, 1): 0, (2, 1): 0, (3, 1): 0})
    # (1,1) and (3,1) touch only through (2,1), which the list leaves out
    assert grid.evaluate(s, "list(len(g) for g in groups([at(1, 1), at(3, 1)], where t: t.owner != none))") == [1, 1]
    assert grid.evaluate(s, "list(len(g) for g in groups(board, where t: t.owner != none))") == [3]


@pytest.mark.parametrize("board", ["{layout: square, size: 40}", "{layout: square, size: 3000}", "{layout: hexagon, size: 30000}",
                                   "{layout: hex, size: [1000000000, 1000000000]}"])
def test_a_board_too_large_is_refused_from_its_size_before_any_space_is_made(tmp_path, board):
    import time
    import tracemalloc
    tracemalloc.start()
    started = time.process_time()
    try:
        problems = problems_of(tmp_path, GRID.replace("{layout: square, size: [5, 3], diagonals: true}", board))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    p = problem_about(problems, f"at most {MAX_BOARD_SPACES} spaces (MAX_BOARD_SPACES")
    assert p.location.line > 0
    assert time.process_time() - started < 5 and peak < 60 * 2 ** 20


def test_a_board_in_a_player_zone_gives_every_player_a_board_of_their_own(tmp_path):
    from games import make_game
    game = make_game(tmp_path, """
game: {id: t, name: T, players: [2, 3]}
zones: {player: {kingdom: {}}}
components:
  plot: {zone: kingdom, board: {layout: square, size: 3}, properties: {col: 0, row: 0}}
flow: {effect: "pass"}
""")
    s = game.new_game(3, seed=1)
    for p in range(3):
        plots = s.zones[game.layout.zone_index("kingdom", p)]
        assert len(plots) == 9
        centre = game.evaluate(s, "first(q for q in player.kingdom if q.col == 2 and q.row == 2)", player=p)
        assert game.evaluate(s, "len(neighbors(first(q for q in player.kingdom if q.col == 2 and q.row == 2)))",
                             player=p) == 4
        assert all(game.evaluate(s, f"zone_of(neighbor(first(q for q in player.kingdom if q.col == 2 and "
                                    f"q.row == 2), '{d}')) == player.kingdom", player=p) for d in "nesw")
        assert centre in plots
