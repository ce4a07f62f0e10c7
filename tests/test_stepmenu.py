"""A step's menu as one generated function (interpreter/engine/stepmenu.py): the actions are asked in the
order the rules list them, each in a fresh environment, and a failure names the action that failed."""

import pytest

from interpreter.language.compiler import RuleError

from games import action_ids
from test_menuplan import game_with


def test_the_actions_are_asked_in_the_order_the_rules_list_them(tmp_path):
    game = game_with(tmp_path, """
wait: {}
take:
  choose: {x: pool}
  if: "x.w == 2"
pair:
  choose: {k: "range(1, 3)", x: pool}
  if: "x.w == k + 1"
rest:
  if: "player.coins > 0"
never:
  if: "player.coins > 5"
""")
    assert action_ids(game, game.new_game(2)) == ["wait", "take(x=2)", "take(x=3)", "pair(k=1,x=2)",
                                                  "pair(k=1,x=3)", "pair(k=2,x=4)", "rest"]


def test_a_failure_names_the_action_whose_condition_failed(tmp_path):
    game = game_with(tmp_path, """
fine:
  choose: {x: pool}
  if: "x.w > 0"
broken:
  choose: {x: pool}
  if: "x.w > 10 // zero"
""")
    with pytest.raises(RuleError, match="division by zero") as info:
        action_ids(game, game.new_game(2))
    assert "action broken" in str(info.value) and "action fine" not in str(info.value)
