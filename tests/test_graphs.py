"""Graph neighbours and regions, remembered per layout of a zone: a later state with the same pieces in the
same zone (and the same types) finds them again; any other layout is worked out anew."""

import pytest

from games import make_game
from interpreter.language import graphs

LINE = """
game: {id: line, players: [2]}
zones:
  global:
    board: {}
    box: {}
components:
  cell:
    zone: board
    graph: {id: num, edges: adj}
    properties: {num: 0, adj: [], color: none}
    types:
      c1: {num: 1, color: red, adj: [2]}
      c2: {num: 2, color: red, adj: [1, 3]}
      c3: {num: 3, color: red, adj: [2, 4]}
      c4: {num: 4, color: blue, adj: [3]}
      c5: {num: 5, color: red, adj: [4]}
flow: []
"""


@pytest.fixture
def line(tmp_path):
    return make_game(tmp_path, LINE)


def cell(game, s, tname):
    return next(x for x in range(len(s.types)) if s.types[x] == tname)


def names(s, pieces):
    return [s.types[x] for x in pieces]


def test_neighbours_follow_a_piece_that_leaves_the_zone(line):
    w = line.world
    s = line.new_game(2)
    c2, c3 = cell(line, s, "c2"), cell(line, s, "c3")
    assert names(s, w.neighbors(s, c2)) == ["c1", "c3"]
    assert names(s, w.region(s, c2, "color")) == ["c1", "c2", "c3"]
    t = s.copy(line.layout)
    box = line.layout.zone_index("box")
    w.move(t, c3, box, None)
    assert names(t, w.neighbors(t, c2)) == ["c1"]
    assert names(t, w.region(t, c2, "color")) == ["c1", "c2"]
    # the first state's layout is still known and still right
    assert names(s, w.neighbors(s, c2)) == ["c1", "c3"]


def test_a_state_with_the_same_layout_finds_the_answers_again(line):
    w = line.world
    a, b = line.new_game(2), line.new_game(2, seed=7)
    c2 = cell(line, a, "c2")
    first = w.neighbors(a, c2)
    assert w.neighbors(b, c2) is first  # another state, the same zone layout: remembered


def test_a_piece_whose_type_changed_is_placed_by_its_new_type(line):
    w = line.world
    s = line.new_game(2)
    c1, c2, c5 = cell(line, s, "c1"), cell(line, s, "c2"), cell(line, s, "c5")
    assert names(s, w.neighbors(s, c2)) == ["c1", "c3"]
    t = s.copy(line.layout)
    types = list(t.types)  # as `become` does: the list is replaced, never changed in place
    types[c5] = "c3"
    types[c1] = "c4"
    t.types = types
    # c1 is now a c4 (number 4, no neighbour of c2), c5 a second c3 (number 3, one)
    assert [(x, t.types[x]) for x in w.neighbors(t, c2)] == [(cell(line, s, "c3"), "c3"), (c5, "c3")]
    assert names(s, w.neighbors(s, c2)) == ["c1", "c3"]


def test_the_layouts_kept_are_bounded(line, monkeypatch):
    monkeypatch.setattr(graphs, "MAX_LAYOUTS", 2)
    w = line.world
    s = line.new_game(2)
    c1 = cell(line, s, "c1")
    box = line.layout.zone_index("box")
    for tname in ("c5", "c4", "c3"):
        s = s.copy(line.layout)
        w.move(s, cell(line, s, tname), box, None)
        w.neighbors(s, c1)
        assert len(w.zone_graphs.layouts) <= 2
    assert names(s, w.neighbors(s, c1)) == ["c2"]


def test_a_piece_of_a_class_without_a_graph_has_no_neighbours_even_in_a_zone_already_laid_out(tmp_path):
    from interpreter.language.compiler import RuleError
    game = make_game(tmp_path / "mixed", LINE.replace("flow: []", """  token:
    zone: board
    types: {t1: {}}
flow: []"""))
    w = game.world
    s = game.new_game(2)
    token, c2 = cell(game, s, "t1"), cell(game, s, "c2")
    with pytest.raises(RuleError, match="t1 is not laid out as a graph"):
        w.neighbors(s, token)
    s.pcache = {}  # within a menu, once the zone's layout was looked up for another piece
    assert names(s, w.neighbors(s, c2)) == ["c1", "c3"]
    with pytest.raises(RuleError, match="t1 is not laid out as a graph"):
        w.neighbors(s, token)
    s.pcache = None
