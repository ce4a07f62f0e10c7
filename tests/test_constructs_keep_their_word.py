"""Constructs do what the format reference says: `distinct` compares map fields, `max`/`min` of nothing is
an error, component-type `hooks:` are refused (they were never run)."""

import pytest

from interpreter.language.compiler import RuleError

from games import action_ids, make_game, problems_of

BOATS = """
game: {id: boats, players: [2]}
kinds:
  good: {values: [corn, rice]}
vars:
  global:
    top: {}
zones:
  global:
    harbour: {}
  player:
    fleet: {}
components:
  boat:
    zone: harbour
    fields: {cargo: {of: good}}
    types:
      ship: {count: 3}
setup: |
  top(harbour).cargo[corn] = 2
flow:
  each_player: {step: take}
steps:
  take:
    actions:
      take:
        choose: {b: {from: harbour, distinct: true}}
        effect: "move(b, player.fleet)"
      best:
        effect: "top = max(b.cargo[rice] for b in player.fleet)"
      best_or_none:
        effect: "top = max(b.cargo[rice] for b in player.fleet, default = -1)"
scoring:
  items:
    top: {expr: "top"}
"""


@pytest.fixture(scope="module")
def boats(tmp_path_factory):
    return make_game(tmp_path_factory.mktemp("boats"), BOATS)


def test_distinct_tells_pieces_apart_by_their_map_fields(boats):
    ids = action_ids(boats, boats.new_game(2))
    # the loaded boat and one empty boat: two entries; the second empty boat is the same as the first
    assert [i for i in ids if i.startswith("take(")] == ["take(b=0)", "take(b=1)"]


def test_max_of_nothing_is_an_error_not_zero(boats):
    s = boats.new_game(2)
    with pytest.raises(Exception, match="max of nothing"):
        boats.apply(s, "best")


def test_max_of_nothing_takes_its_default(boats):
    s = boats.apply(boats.new_game(2), "best_or_none")
    assert boats.scores(s) == [-1, -1]


def test_hooks_on_a_component_type_are_refused(tmp_path):
    problems = problems_of(tmp_path, BOATS.replace("ship: {count: 3}",
                                                    "ship: {count: 3, hooks: {h: {on: e, do: []}}}"))
    assert problems and any("hooks" in str(p) for p in problems)
