"""List vars (append, remove, index, len, in), the bounded `while` loop, and a position history kept in a
list var (a repetition rule)."""

import pytest

from interpreter.language.compiler import RuleError
from interpreter.definition.limits import MAX_LIST

from games import make_game, problem_about, problems_of

QUEUE = """
game: {id: queue, players: [2, 3]}
vars:
  global:
    line: {type: list, items: player}
    seen: {type: list}
    steps: {}
    limit: {init: 3}
  player:
    picks: {type: list, items: int, init: "[7, 8]"}
steps:
  act:
    actions:
      join:
        if: "player not in line"
        effect: "append(line, player)"
      leave:
        if: "player in line"
        effect: "remove(line, player)"
      count_up:
        effect: |
          steps = 0
          while steps < limit max 5:
              steps += 1
      run_away:
        effect: |
          while true max limit:
              steps += 1
      remember:
        effect: |
          append(seen, list(p.picks for p in players))
          append(player.picks, index(player.picks, 8))
      seven_again:
        effect: "append(player.picks, 7)"
      drop_seven:
        if: "7 in player.picks"
        effect: "remove(player.picks, 7)"
flow:
  repeat:
    each_player: {step: act}
  until: "false"
  max: 1000
"""


@pytest.fixture(scope="module")
def queue(tmp_path_factory):
    return make_game(tmp_path_factory.mktemp("queue"), QUEUE)


def test_a_list_var_keeps_its_items_in_order(queue):
    s = queue.new_game(3)
    assert queue.evaluate(s, "line") == [] and queue.evaluate(s, "players[1].picks") == [7, 8]
    for seat in range(3):
        s = queue.apply(s, "join")
    s2 = queue.apply(s, "leave")           # seat 1, first in line, leaves it
    assert queue.evaluate(s, "line") == [0, 1, 2]
    assert queue.evaluate(s2, "line") == [1, 2]
    assert queue.evaluate(s2, "index(line, players[2])") == 1 and queue.evaluate(s2, "len(line)") == 2
    assert queue.evaluate(s, "line") == [0, 1, 2]      # the state before is untouched
    assert queue.from_json(queue.to_json(s2)).g == s2.g


def test_remove_takes_the_first_of_equal_items_out(queue):
    s = queue.apply(queue.new_game(2), "seven_again")  # seat 1's picks: 7, 8, 7
    s = queue.apply(queue.apply(s, "join"), "drop_seven")
    assert queue.evaluate(s, "players[0].picks") == [8, 7]
    assert queue.evaluate(s, "index(players[0].picks, 7)") == 1


def test_a_list_may_hold_positions_and_ask_whether_one_occurred_before(queue):
    s = queue.new_game(2)
    s = queue.apply(s, "remember")
    s = queue.apply(s, "remember")
    assert queue.evaluate(s, "seen") == [[[7, 8], [7, 8]], [[7, 8, 1], [7, 8]]]
    assert queue.evaluate(s, "list(p.picks for p in players) in seen") is False
    assert queue.evaluate(s, "[[7, 8], [7, 8]] in seen") is True


def test_index_and_remove_of_a_missing_item_are_rule_errors(queue):
    s = queue.new_game(2)
    with pytest.raises(RuleError, match="not in the list"):
        queue.evaluate(s, "index(line, players[0])")


def test_a_while_loop_runs_while_its_condition_holds(queue):
    s = queue.apply(queue.new_game(2), "count_up")
    assert queue.evaluate(s, "steps") == 3


def test_a_while_loop_beyond_its_max_is_a_located_rule_error(queue):
    s = queue.new_game(2)
    with pytest.raises(RuleError, match="a while loop ran more than its max of 3 passes") as info:
        queue.apply(s, "run_away")
    assert info.value.where.endswith("game.yaml:26:11")  # the `while` line


def test_a_list_var_is_bounded(tmp_path):
    game = make_game(tmp_path, f"""
        game: {{id: long, players: [2]}}
        vars:
          global:
            xs: {{type: list, items: int}}
        steps:
          act:
            actions:
              fill:
                effect: |
                  for i in range({MAX_LIST + 1}):
                      append(xs, i)
        flow: {{step: act}}
    """)
    with pytest.raises(RuleError, match=f"at most {MAX_LIST} items"):
        game.apply(game.new_game(2), "fill")


@pytest.mark.parametrize("effect, words", [
    ("append(steps, 1)", "changes a list var, not a int"),
    ("append(line, 'x')", "this list holds player values, not a str"),
    ("while steps < 3 max 'many':\\n    steps += 1", "expected a number"),
    ("x = index(steps, 1)", "index() takes a list"),
])
def test_list_and_loop_mistakes_are_load_errors(tmp_path, effect, words):
    text = QUEUE.replace('effect: "append(line, player)"', f'effect: "{effect}"')
    problems = problems_of(tmp_path, text)
    assert any(words in p.message for p in problems), [str(p) for p in problems]


def test_an_unknown_item_type_is_refused(tmp_path):
    problems = problems_of(tmp_path, QUEUE.replace("items: player", "items: meeple"))
    assert problems


def test_a_saved_state_with_a_list_var_that_is_not_a_list_is_refused(queue):
    from interpreter.engine.state import StateFormatError
    d = queue.to_json(queue.apply(queue.new_game(2), "join"))
    assert d["vars"]["line"] == [0]
    d["vars"]["line"] = 5
    with pytest.raises(StateFormatError, match="var line has a value of the wrong type"):
        queue.from_json(d)


@pytest.mark.parametrize("lang, words", [
    ("en", ["While *open*(*ahead*(*here*, *h*)) (at most 3 times):", "Append *position* to the player's",
            "the spaces connected to *here*, through each *t* where"]),
    ("zh", ["当*畅通*(*前方*(*here*, *h*))时重复(至多3次):", "将*局面*加到", "只经过满足"]),
])
def test_the_rules_text_says_loops_lists_and_board_walks_in_words(lang, words):
    from interpreter.game import load_game
    from interpreter.readback.phrases import Names, Phrases, lines_text
    from conftest import ROOT
    game = load_game(ROOT / "examples" / "mechanisms" / "ice_rink")
    text = "\n".join(lines_text(Phrases(Names(game.definition, lang)).stmts(
        "while open(ahead(here, h)) max 3:\n    here = ahead(here, h)\nappend(player.seen, position)\n"
        "n = len(connected(here, where t: t.paint == player))\n")))
    for w in words:
        assert w in text, text
