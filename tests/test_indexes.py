"""Indexed generators: a filter that starts with `x.PROP == VALUE` walks only the matching pieces, with the
value, order and failures of the generator as written."""

import pytest

from games import action_ids, make_game
from interpreter.language import indexes
from interpreter.language.compiler import RuleError

SPACES = """
game: {id: spaces, players: [2]}
kinds:
  color: {values: [red, blue, green]}
zones:
  global:
    board: {}
    empty: {}
  player:
    hand: {}
components:
  space:
    zone: board
    properties: {color: none, size: 0}
    fields: {taken: {type: bool}}
    types:
      red1: {color: red, size: 1}
      blue1: {color: blue, size: 1}
      red2: {color: red, size: 2}
      green1: {color: green, size: 1}
      red3: {color: red, size: 3}
flow:
  - repeat: {step: pick}
    max: 10
steps:
  pick:
    actions:
      take:
        choose:
          c: "list(k for k in ['red', 'blue'])"
          x: "list(y for y in board if y.color == c and not y.taken)"
        effect: "x.taken = true"
scoring:
  items:
    n: {expr: "count(y for y in board if y.taken)"}
"""


@pytest.fixture
def spaces(tmp_path):
    return make_game(tmp_path, SPACES)


def types_of(game, s, pieces):
    return [s.types[x] for x in pieces]


def test_the_matching_pieces_come_in_zone_order(spaces):
    s = spaces.new_game(2)
    got = spaces.evaluate(s, "list(y for y in board if y.color == 'red')", 0)
    assert types_of(spaces, s, got) == ["red1", "red2", "red3"]
    got = spaces.evaluate(s, "list(y for y in board if 'red' == y.color and y.size > 1)", 0)
    assert types_of(spaces, s, got) == ["red2", "red3"]


def test_the_type_itself_indexes_a_zone(spaces):
    s = spaces.new_game(2)
    assert types_of(spaces, s, spaces.evaluate(s, "list(y for y in board if y.type == 'blue1')", 0)) == ["blue1"]
    assert spaces.evaluate(s, "count(y for y in board if y.type == 'red2' and y.size == 2)", 0) == 1


def test_every_aggregate_sees_the_same_pieces_as_written(spaces):
    s = spaces.new_game(2)
    assert spaces.evaluate(s, "sum(y.size for y in board if y.color == 'red')", 0) == 6
    assert spaces.evaluate(s, "any(y.size == 3 for y in board if y.color == 'red')", 0) is True
    assert spaces.evaluate(s, "all(y.size == 1 for y in board if y.color == 'red')", 0) is False
    assert spaces.evaluate(s, "max(y.size for y in board if y.color == 'green')", 0) == 1
    assert spaces.evaluate(s, "count(y for y in board if y.color == 'green' and y.size == 2)", 0) == 0
    for _ in range(3):  # walked, then indexed: the same pieces either way
        assert spaces.evaluate(s, "first(y.size for y in board if y.color == 'red' and y.size > 1)", 0) == 2
        assert spaces.evaluate(s, "first(y for y in board if y.color == 'green' and y.size > 1)", 0) is None


def test_a_menu_offers_what_the_filter_as_written_offers(spaces):
    s = spaces.new_game(2)
    ids = action_ids(spaces, s)
    assert len(ids) == 4  # three red spaces and one blue
    s = spaces.apply(s, ids[0])
    # the field read after the equality is the state's as it is now (the index holds types only)
    assert len(action_ids(spaces, s)) == 3


def test_the_compared_value_is_computed_only_when_the_zone_holds_a_piece(spaces):
    s = spaces.new_game(2)
    # `none.color` fails; as written it is never computed over an empty zone
    assert spaces.evaluate(s, "list(y for y in empty if y.color == top(empty).color)", 0) == []
    with pytest.raises(RuleError):
        spaces.evaluate(s, "list(y for y in board if y.color == top(empty).color)", 0)


def test_shapes_that_are_not_an_equality_on_a_property_are_walked_as_written(spaces):
    w = spaces.world
    from lark import Tree, Token

    def compare(a, op, b):
        return Tree("compare", [a, Token("COMP_OP", op), b])

    def attr(var, name):
        return Tree("attr", [Tree("name", [Token("NAME", var)]), Token("NAME", name)])

    value = Tree("string", [Token("STRING", "'red'")])
    assert indexes.prop_equality(w, compare(attr("y", "color"), "==", value), "y")[0] == "color"
    assert indexes.prop_equality(w, compare(value, "==", attr("y", "color")), "y")[0] == "color"
    assert indexes.prop_equality(w, compare(attr("y", "color"), "!=", value), "y") is None
    assert indexes.prop_equality(w, compare(attr("y", "taken"), "==", value), "y") is None  # a field changes
    assert indexes.prop_equality(w, compare(attr("y", "color"), "==", attr("y", "color")), "y") is None
    assert indexes.prop_equality(w, compare(attr("z", "color"), "==", value), "y") is None


def test_the_first_conjunct_is_taken_out_of_an_and_chain():
    from lark import Tree
    a, b, c = Tree("a", []), Tree("b", []), Tree("c", [])
    first, rest = indexes.leftmost(Tree("and_", [Tree("and_", [a, b]), c]))
    assert first is a and rest == Tree("and_", [b, c])
    assert indexes.leftmost(a) == (a, None)


def test_an_index_kept_from_an_earlier_menu_follows_the_pieces_of_the_zone(spaces):
    s = spaces.new_game(2)
    assert action_ids(spaces, s) == ["take(c=red,x=0)", "take(c=red,x=2)", "take(c=red,x=4)", "take(c=blue,x=1)"]
    # The same zone number in another state, with a red space gone: the index is built for these pieces.
    t = s.copy(spaces.layout)
    z = next(i for i, pieces in enumerate(t.zones) if pieces == [0, 1, 2, 3, 4])
    t.zones[z].remove(2)
    t.menu = None
    assert action_ids(spaces, t) == ["take(c=red,x=0)", "take(c=red,x=4)", "take(c=blue,x=1)"]
    s.menu = None
    assert action_ids(spaces, s) == ["take(c=red,x=0)", "take(c=red,x=2)", "take(c=red,x=4)", "take(c=blue,x=1)"]


def test_outside_a_menu_a_kept_index_answers_only_for_the_same_pieces(spaces):
    s = spaces.new_game(2)
    action_ids(spaces, s)  # a menu: the board's index is built and kept
    red = "list(y for y in board if y.color == 'red')"
    assert types_of(spaces, s, spaces.evaluate(s, red, 0)) == ["red1", "red2", "red3"]
    # Another state with the same zone number holding other pieces: the kept index is not used.
    t = s.copy(spaces.layout)
    z = next(i for i, pieces in enumerate(t.zones) if pieces == [0, 1, 2, 3, 4])
    t.zones[z].remove(2)
    t.zones[z].append(2)  # the same pieces in another order: the walk follows the zone's order
    assert types_of(spaces, t, spaces.evaluate(t, red, 0)) == ["red1", "red3", "red2"]
    assert types_of(spaces, s, spaces.evaluate(s, red, 0)) == ["red1", "red2", "red3"]


def test_outside_a_menu_a_zone_filtered_again_with_the_same_pieces_is_indexed(spaces):
    s = spaces.new_game(2)
    red = "list(y for y in board if y.color == 'red')"
    first = spaces.evaluate(s, red, 0)
    assert spaces.evaluate(s, red, 0) == first == spaces.evaluate(s, red, 0)
    t = s.copy(spaces.layout)
    z = next(i for i, pieces in enumerate(t.zones) if pieces == [0, 1, 2, 3, 4])
    t.zones[z].reverse()  # the index kept for the old order is not this zone's
    assert types_of(spaces, t, spaces.evaluate(t, red, 0)) == ["red3", "red2", "red1"]
    assert types_of(spaces, t, spaces.evaluate(t, red, 0)) == ["red3", "red2", "red1"]
    assert spaces.evaluate(s, red, 0) == first


class Looked(dict):
    """A property table that counts the pieces whose value was looked up."""
    looked = 0

    def __getitem__(self, k):
        self.looked += 1
        return dict.__getitem__(self, k)


def test_outside_a_menu_a_zone_that_gained_pieces_extends_its_index_and_one_that_lost_one_does_not():
    from types import SimpleNamespace
    table = Looked({"r": "red", "b": "blue"})
    index = indexes.zone_index(table)
    s = SimpleNamespace(zones=[[0, 1]], types=["r", "b", "r", "b", "r"], pcache=None)
    assert list(index(s, 0, "red")) == [0]  # first filter: walked
    assert list(index(s, 0, "red")) == [0]  # the same pieces again: indexed
    handed_out = index(s, 0, "blue")
    s.zones[0] += [2, 3]  # pieces put on the zone (a move appends)
    before = table.looked
    assert list(index(s, 0, "red")) == [0, 2]
    assert table.looked - before == 2  # only the new pieces were looked up
    assert list(handed_out) == [1]  # what was handed out before does not change
    assert list(index(s, 0, "blue")) == [1, 3]
    s.zones[0] = [1, 2, 3, 4]  # a piece left (and another came): not a zone that only grew
    assert list(index(s, 0, "red")) == [2, 4]
    assert list(index(s, 0, "blue")) == [1, 3]


def test_outside_a_menu_a_generator_that_stops_at_its_first_match_walks_an_unindexed_zone_only_so_far():
    from types import SimpleNamespace
    table = Looked({"r": "red", "b": "blue"})
    index = indexes.zone_index(table)
    s = SimpleNamespace(zones=[[1, 3, 0, 2, 4]], types=["r", "b", "r", "b", "r"], pcache=None, budget=0)
    walk = index.first_ones(s, 0, "red")
    assert next(iter(walk)) == 0 and table.looked == 3  # b, b, then the first red: no further
    assert s.budget == 5  # charged as the generator as written: every piece of the zone
    s.zones[0].remove(1)  # another zone than last time: walked again
    assert list(index.first_ones(s, 0, "red")) == [0, 2, 4]
    s.pcache = {}  # within a menu: the index
    assert list(index.first_ones(s, 0, "blue")) == [3]
