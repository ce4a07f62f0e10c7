"""Menus planned at load (interpreter/language/menuplan.py): where each part of an action's condition runs.

A part that reads no choice is computed once per menu; a conjunct is checked at the outermost loop that
binds what it reads, so an action whose choice-free part is false offers nothing without its choices being
enumerated; a moved conjunct that fails is not trusted, and the condition as written decides. The golden
transcripts check that no shipped game's menus changed.
"""

import pytest

from interpreter.language.compiler import RuleError

from games import action_ids, make_game

GAME = """
game: {id: plan, players: [2]}
vars:
  global:
    zero: {}
    gate: {type: bool, init: GATE}
  player:
    coins: {init: 1}
zones:
  global:
    pool: {}
  player:
    hand: {}
components:
  thing:
    zone: pool
    properties: {w: 0}
    types:
      one: {count: 2, w: 1}
      two: {count: 2, w: 2}
      three: {w: 3}
  gear:
    zone: hand
    fields: {on: {type: bool, init: true}}
    active: "self.on"
    types:
      lamp: {}
flow:
  - each_player: {step: pick}
steps:
  pick:
    actions:
      ACTIONS
"""


def game_with(tmp_path, actions, gate="true"):
    body = "\n".join("      " + line for line in actions.strip("\n").split("\n"))
    return make_game(tmp_path, GAME.replace("GATE", gate).replace("      ACTIONS", body))


def action(game, name):
    return next(a for (sid, _), st in game.steps.items() for a in st.actions if a.name == name)


def test_a_part_that_reads_no_choice_is_computed_once_per_menu(tmp_path):
    game = game_with(tmp_path, """
take:
  choose: {x: pool}
  if: "x.w <= player.coins or active(player, lamp)"
""")
    fired = game.world.active_fired
    before = fired.get("lamp", 0)
    ids = action_ids(game, game.new_game(2))
    assert ids == [f"take(x={x})" for x in range(5)]
    assert fired.get("lamp", 0) - before == 1  # asked for the three pieces of w > 1, computed once


def test_an_action_whose_choice_free_part_is_false_is_not_enumerated(tmp_path):
    actions = """
take:
  choose: {x: "list(y for y in pool if 10 // zero > 0)"}
  if: "gate and x.w > 0"
other: {}
"""
    closed = game_with(tmp_path, actions, gate="false")
    assert action(closed, "take").plan.pre is not None
    assert action_ids(closed, closed.new_game(2)) == ["other"]  # the failing domain was never computed
    opened = game_with(tmp_path, actions, gate="true")
    with pytest.raises(RuleError, match="division by zero"):
        action_ids(opened, opened.new_game(2))


def test_a_conjunct_of_the_first_choice_is_checked_before_the_second_is_enumerated(tmp_path):
    game = game_with(tmp_path, """
take:
  choose: {k: "range(1, 4)", x: pool}
  if: "k <= player.coins + 1 and x.w == k"
""")
    plan = action(game, "take").plan
    assert plan.pre is None and plan.levels[0] is not None and plan.rest is not None
    assert action_ids(game, game.new_game(2)) == ["take(k=1,x=0)", "take(k=1,x=1)", "take(k=2,x=2)",
                                                   "take(k=2,x=3)"]


def test_a_moved_conjunct_that_fails_leaves_the_decision_to_the_condition_as_written(tmp_path):
    # `10 // zero > 0` reads no choice, so it is checked first; it fails, so each piece is checked
    # with the whole condition, in its order: `x.w > 5` is false for every piece, nothing fails.
    quiet = game_with(tmp_path, """
take:
  choose: {x: pool}
  if: "x.w > 5 and 10 // zero > 0"
other: {}
""")
    assert action_ids(quiet, quiet.new_game(2)) == ["other"]
    # Where the condition as written reaches the failing part, the failure is reported as before.
    loud = game_with(tmp_path, """
take:
  choose: {x: pool}
  if: "x.w > 2 and 10 // zero > 0"
""")
    with pytest.raises(RuleError, match="division by zero") as info:
        action_ids(loud, loud.new_game(2))
    assert "take" in str(info.value)


def test_a_first_choice_shared_by_actions_is_found_once_per_menu(tmp_path):
    game = game_with(tmp_path, """
take:
  choose: {x: "list(y for y in pool if active(player, lamp))"}
  if: "x.w == 1"
mark:
  choose: {x: "list(y for y in pool if active(player, lamp))"}
  if: "x.w == 2"
""")
    assert action(game, "take").params[0][2] is action(game, "mark").params[0][2]
    fired = game.world.active_fired
    before = fired.get("lamp", 0)
    ids = action_ids(game, game.new_game(2))
    assert ids == ["take(x=0)", "take(x=1)", "mark(x=2)", "mark(x=3)"]
    assert fired.get("lamp", 0) - before == 5  # one pass over the five pieces, not one per action


def test_a_distinct_choice_judges_a_signature_once_only_when_the_condition_reads_just_type_and_fields(tmp_path):
    # Pieces 0 and 1 are alike (type one), 2 and 3 too (type two), 4 is a three.
    game = game_with(tmp_path, """
take:
  choose: {x: {from: pool, distinct: true}}
  if: "x.w >= 2"
near:
  choose: {x: {from: pool, distinct: true}}
  if: "x != top(pool)"
""")
    # `x.w` reads the piece through its type: piece 0 failing stands for piece 1. `x != top(pool)` reads
    # the piece itself: piece 0 fails, its twin piece 1 is still asked and passes.
    assert action_ids(game, game.new_game(2)) == ["take(x=2)", "take(x=4)", "near(x=1)", "near(x=2)",
                                                   "near(x=4)"]



def test_an_action_of_several_choices_offers_in_its_generated_loops_what_the_choices_as_written_offer(tmp_path):
    from interpreter.engine import flow

    # Twins (0 and 1, 2 and 3) tell the `distinct` choices apart: the first choice's signature is spent
    # once it gave an entry, the last one's only with the entry it gave.
    game = game_with(tmp_path, """
pair:
  choose: {a: {from: pool, distinct: true}, k: "range(1, 3)", b: {from: pool, distinct: true}}
  if: "a != b and a.w + k <= b.w + 1"
""")
    act = action(game, "pair")
    assert act.loop is not None  # no check between the choices: one generated function
    s = game.new_game(2)
    generated = action_ids(game, s)
    written = []
    e = [0, None, *[None] * (act.nslots - 2)]
    s.pcache = {}
    flow._enumerate(s, e, act, act.params, 0, (), written, act.cond)
    s.pcache = None
    s.menu = None
    assert [v for _, v in game._menu(s)] == [v for _, v in written]
    # a=1 is a=0's twin (spent); b=3 is asked only where its twin b=2 gave nothing (a=2: a != b)
    assert generated == ["pair(a=0,k=1,b=1)", "pair(a=0,k=1,b=2)", "pair(a=0,k=1,b=4)", "pair(a=0,k=2,b=2)",
                         "pair(a=0,k=2,b=4)", "pair(a=2,k=1,b=3)", "pair(a=2,k=1,b=4)", "pair(a=2,k=2,b=4)"]


def test_an_action_with_a_check_between_its_choices_keeps_the_planned_enumeration(tmp_path):
    game = game_with(tmp_path, """
take:
  choose: {k: "range(1, 4)", x: pool}
  if: "k <= player.coins + 1 and x.w == k"
""")
    assert action(game, "take").loop is None  # the check after k runs between the loops (see above)


# ---------------------------------------------------------------- work shared across an earlier choice
SHARED = """
game: {id: shared, players: [2]}
kinds:
  color: {values: [red, blue, green, white]}
zones:
  global:
    board: {}
components:
  space:
    zone: board
    properties: {color: none}
    fields: {n: {init: 1}, taken: {type: bool}}
    types:
      red1: {color: red}
      blue1: {color: blue}
      red2: {color: red}
      green1: {color: green}
      red3: {color: red}
flow:
  - repeat: {step: pick}
    max: 10
steps:
  pick:
    actions:
      take:
        choose:
          c: "list(k for k in COLOURS)"
          x: "list(y for y in board if not y.taken and (y.n > 0 or c == white) and count(z for z in board if z.n == 100 // y.n) >= 0 and y.color == c)"
        effect: "x.taken = true"
      zero:
        choose:
          x: "list(y for y in board if not y.taken)"
        effect: "x.n = 0"
"""


def shared_game(tmp_path, colours):
    return make_game(tmp_path, SHARED.replace("COLOURS", repr(colours)))


@pytest.mark.parametrize("colours", [["red"], ["red", "blue", "green"], ["blue", "red"]])
def test_a_later_domain_offers_what_it_offers_as_written(tmp_path, colours):
    game = shared_game(tmp_path, colours)
    s = game.new_game(2)
    expected = {"red": ["x=0", "x=2", "x=4"], "blue": ["x=1"], "green": ["x=3"]}
    assert [i for i in action_ids(game, s) if i.startswith("take")] == [
        f"take(c={c},{x})" for c in colours for x in expected[c]]


def test_the_part_that_reads_no_earlier_choice_is_walked_once_per_menu(tmp_path):
    def budget(colours):
        game = shared_game(tmp_path / str(len(colours)), colours)
        s = game.new_game(2)
        action_ids(game, s)
        return s.budget
    one, three = budget(["red"]), budget(["red", "blue", "green"])
    # each colour walks the board once more for its own test, not the inner count over the board again
    assert three < 2 * one


def test_a_moved_conjunct_that_fails_leaves_the_domain_as_written(tmp_path):
    game = shared_game(tmp_path, ["red", "blue"])
    s = game.new_game(2)
    s = game.apply(s, "zero(x=2)")  # 100 // 0 fails for space 2, which `y.n > 0` keeps out as written
    assert [i for i in action_ids(game, s) if i.startswith("take")] == [
        "take(c=red,x=0)", "take(c=red,x=4)", "take(c=blue,x=1)"]
