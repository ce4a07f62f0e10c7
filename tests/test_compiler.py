"""compiler: DSL trees become typed, name-checked closures; mistakes are located problems at load.

Most tests go through tiny games (tests/games.py): a value is read from a scoring item, an effect is run by
applying an action. Load errors are `DefinitionError`s whose `Problem` points at the file, line and column
of the offending name *inside* the YAML string.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from interpreter.engine import rng
from interpreter.language.compiler import LIMIT, RuleError
from interpreter.definition.problems import DefinitionError

from games import evaluate_all, make_game, position_of, problem_about, problems_of, split_items

# ---------------------------------------------------------------- values of expressions
# Each entry: (expression, expected value). All are items of one game's scoring, read for player 1 (seat 0)
# of a 3-player game whose global var `v` is 7 and whose list table `xs` is [3, 1, 2].
VALUES = {
    "add_mul": ("1 + 2 * 3", 7),
    "sub_left": ("10 - 3 - 2", 5),
    "parens": ("(1 + 2) * 3", 9),
    "floordiv": ("7 // 2", 3),
    "floordiv_neg": ("-7 // 2", -4),
    "mod_neg": ("-7 % 3", 2),
    "neg_var": ("-v", -7),
    "eq": ("v == 7", True),
    "ne": ("v != 7", False),
    "lt": ("v < 7", False),
    "le": ("v <= 7", True),
    "gt": ("v > 6", True),
    "ge": ("v >= 8", False),
    "and": ("v > 1 and v < 5", False),
    "or": ("v > 1 or v < 5", True),
    "not": ("not v == 7", False),
    "not_binds_looser": ("not 1 + 1 == 3", True),
    "and_before_or": ("true or true and false", True),
    "ternary_true": ("1 if v == 7 else 2", 1),
    "ternary_false": ("1 if v == 8 else 2", 2),
    "in_list": ("3 in xs", True),
    "in_literal": ("v in [1, 2, 3]", False),
    "not_in_list": ("4 not in xs", True),
    "index_list": ("xs[0]", 3),
    "list_literal": ("[v, v + 1]", [7, 8]),
    "none": ("none", None),
    # none equals none only, whatever the other side holds (0, false, an empty list are not none)
    "eq_none": ("none == none", True),
    "ne_none": ("none != none", False),
    "number_eq_none": ("v == none", False),
    "zero_ne_none": ("v - 7 != none", True),
    "list_eq_none": ("xs == none", False),
    "empty_list_ne_none": ("list(x for x in xs if x > 5) != none", True),
    "found_ne_none": ("first(k for k in fruit if k == pear) != none", True),
    "not_found_eq_none": ("first(x for x in xs if x > 5) == none", True),
    "none_on_the_left": ("none == first(x for x in xs if x > 2)", False),
    "player_is_seat": ("player", 0),
    "players": ("list(p for p in players)", [0, 1, 2]),
    "player_count": ("player_count", 3),
    "option": ("option.bonus", 2),
    "table_map": ("price[pear]", 4),
    "by_players_table": ("start_coins", 30),
    "by_players_list": ("caps[1]", 32),
    "kind_as_list": ("list(k for k in fruit)", ["apple", "pear"]),
    "kind_value": ("first(k for k in fruit if k == pear)", "pear"),
    "map_var": ("stock[apple] + stock[pear]", 5),
}

VALUES_GAME = """
game: {id: values, players: [2, 3]}
options:
  bonus: {default: 2}
kinds:
  fruit: {values: [apple, pear]}
tables:
  xs: [3, 1, 2]
  price: {apple: 3, pear: 4}
  start_coins: {by_players: {2: 20, 3: 30}}
  caps: {by_players: {2: [20, 21], 3: [31, 32]}}
vars:
  global:
    v: {init: 7}
    stock: {of: fruit, init: {apple: 2, pear: 3}}
flow: []
scoring:
  items:
%s
"""


@pytest.fixture(scope="module")
def values(tmp_path_factory):
    items = "\n".join(f"    {k}: {{expr: {e!r}}}" for k, (e, _) in VALUES.items())
    text, exprs = split_items(VALUES_GAME % items)
    game = make_game(tmp_path_factory.mktemp("values"), text)
    return evaluate_all(game, game.new_game(3), exprs)


@pytest.mark.parametrize("key", list(VALUES))
def test_expression_value(values, key):
    expr, want = VALUES[key]
    assert values[key] == want, expr


ARITH_GAME = """
game: {id: arith, players: [2]}
options:
  a: {default: 0}
  b: {default: 1}
flow: []
scoring:
  items:
    add: {expr: "option.a + option.b"}
    sub: {expr: "option.a - option.b"}
    mul: {expr: "option.a * option.b"}
    div: {expr: "option.a // option.b"}
    mod: {expr: "option.a % option.b"}
    neg: {expr: "-option.a"}
    lt: {expr: "option.a < option.b"}
    le: {expr: "option.a <= option.b"}
    eq: {expr: "option.a == option.b"}
    mix: {expr: "(option.a + 3) * 2 - option.b // 2"}
"""


@pytest.fixture(scope="module")
def arith(tmp_path_factory):
    return make_game(tmp_path_factory.mktemp("arith"), ARITH_GAME)


@given(a=st.integers(-2 ** 26, 2 ** 26), b=st.integers(-2 ** 26, 2 ** 26).filter(lambda b: b != 0))
def test_arithmetic_agrees_with_python(arith, a, b):
    got = arith.score_breakdown(arith.new_game(2, options={"a": a, "b": b}))[0]
    assert got == {"add": a + b, "sub": a - b, "mul": a * b, "div": a // b, "mod": a % b, "neg": -a,
                   "lt": a < b, "le": a <= b, "eq": a == b, "mix": (a + 3) * 2 - b // 2}


def test_division_by_zero_is_a_rule_error(arith):
    with pytest.raises(RuleError, match="division by zero"):
        arith.score_breakdown(arith.new_game(2, options={"a": 1, "b": 0}))


# ---------------------------------------------------------------- effects, statements and locals
EFFECT_GAME = """
game: {id: effects, players: [2]}
vars:
  global:
    n: {}
    flag: {type: bool}
    who: {type: player}
  player:
    coins: {init: 3}
flow:
  each_player: {step: s}
steps:
  s:
    actions:
      locals:
        effect: |
          a = 2
          b = a * 10
          a = a + b
          n = a
      branches:
        effect: |
          for i in range(5):
              if i == 0:
                  n += 1
              elif i < 3:
                  n += 10
              else:
                  n += 100
      semicolons:
        effect: "n = 1; n += 2; flag = n == 3"
      players:
        effect: |
          for p in players:
              p.coins += player_count + p.coins
          who = next_player(player)
"""


@pytest.fixture(scope="module")
def effects(tmp_path_factory):
    return make_game(tmp_path_factory.mktemp("effects"), EFFECT_GAME)


def after(game, action, players=2, seed=0):
    s = game.new_game(players, seed=seed)
    return game.to_json(game.apply(s, action))


def test_local_variables_live_within_one_effect(effects):
    assert after(effects, "locals")["vars"]["n"] == 22


def test_if_elif_else_and_for(effects):
    assert after(effects, "branches")["vars"]["n"] == 1 + 20 + 200


def test_semicolon_separated_statements_run_in_order(effects):
    d = after(effects, "semicolons")
    assert d["vars"]["n"] == 3 and d["vars"]["flag"] is True


def test_player_values_index_player_vars(effects):
    d = after(effects, "players")
    assert [row["coins"] for row in d["player_vars"]] == [8, 8]
    assert d["vars"]["who"] == 1


# ---------------------------------------------------------------- defs
DEFS_GAME = """
game: {id: defs, players: [2]}
vars:
  global:
    r: {}
    k: {}
defs:
  "twice(n)": "n + n"
  "inner(n)": "n + 1"
  "outer(n)": "inner(n * 10) + n"
  "quad(n)": "twice(twice(n))"
  "zero()": "0"
flow:
  each_player: {step: s}
steps:
  s:
    actions:
      roll:
        effect: |
          r = twice(random(1000))
          k = outer(3) + quad(r) + zero()
scoring:
  items:
    nested: {expr: "outer(k + 2)"}
    in_generator: {expr: "sum(twice(x) for x in [1, 2, 3])"}
"""


def test_def_arguments_are_evaluated_once_call_by_value(tmp_path):
    game = make_game(tmp_path, DEFS_GAME)
    s = game.new_game(2, seed=1)
    t = game.apply(s, "roll")
    state, drawn = rng.below(s.rng, 1000)
    assert t.rng == state, "random(1000) was drawn exactly once"
    d = game.to_json(t)["vars"]
    assert d["r"] == 2 * drawn
    assert d["k"] == (31 + 3) + 4 * d["r"] + 0


def test_nested_defs_keep_their_own_parameters(tmp_path):
    game = make_game(tmp_path, DEFS_GAME)
    s = game.new_game(2)
    assert game.score_breakdown(s)[0] == {"nested": 23, "in_generator": 12}


def test_a_def_calling_itself_is_refused_at_load(tmp_path):
    text = """
    game: {id: rec, players: [2]}
    defs:
      "loop(n)": "loop(n - 1)"
    flow: []
    scoring:
      items:
        x: {expr: "loop(3)"}
    """
    p = problem_about(problems_of(tmp_path, text), "calls itself")
    assert "loop -> loop" in p.message
    assert p.location.line == position_of(text, "loop(n - 1)")[0]  # reported at the def, once


def test_mutual_recursion_is_refused_with_the_chain(tmp_path):
    text = """
    game: {id: rec, players: [2]}
    defs:
      "ping(n)": "pong(n)"
      "pong(n)": "ping(n)"
    flow: []
    scoring:
      items:
        x: {expr: "ping(1)"}
    """
    p = problem_about(problems_of(tmp_path, text), "calls itself")
    assert "ping -> pong -> ping" in p.message


def test_a_def_called_with_the_wrong_number_of_arguments(tmp_path):
    text = """
    game: {id: d, players: [2]}
    defs:
      "twice(n)": "n + n"
    flow: []
    scoring:
      items:
        x: {expr: "twice(1, 2)"}
    """
    p = problem_about(problems_of(tmp_path, text), "takes 1 argument")
    assert "got 2" in p.message


def test_a_def_without_parameters_is_a_name(tmp_path):
    game = make_game(tmp_path, """
    game: {id: d, players: [2]}
    defs:
      "seven": "7"
    flow: []
    scoring:
      items:
        x: {expr: "seven"}
    """)
    assert game.score_breakdown(game.new_game(2))[0]["x"] == 7


# ---------------------------------------------------------------- names: located problems with did-you-mean
NAMES_GAME = """
game: {id: names, players: [2]}
vars:
  global:
    total: {}
  player:
    coins: {}
zones:
  global:
    bag: {}
components:
  card:
    zone: bag
    properties: {cost: 1}
    types:
      gem: {}
flow:
  each_player: {step: s}
steps:
  s:
    actions:
      a:
        if: "total > 0 and totle < 3"
        effect: |
          total += 1
          if total > 2:
              total = totall + 1
      b:
        effect: "total += player.coinz"
      c:
        effect: 'shufle(bag)'
      d:
        choose: {x: bag}
        effect: >-
          total += 1 +
          x.cots
"""


@pytest.fixture(scope="module")
def name_problems(tmp_path_factory):
    return problems_of(tmp_path_factory.mktemp("names"), NAMES_GAME)


@pytest.mark.parametrize("needle,message,hint", [
    ("totle", "unknown name 'totle'", "did you mean 'total'?"),
    ("totall", "unknown name 'totall'", "did you mean 'total'?"),
    ("coinz", "a player has no var, zone or parameter 'coinz'", "did you mean 'coins'?"),
    ("shufle", "unknown function 'shufle'", "did you mean 'shuffle'?"),
    ("cots", "a piece has no field or property 'cots'", "did you mean 'cost'?"),
])
def test_a_misspelt_name_is_located_inside_the_yaml_string(name_problems, needle, message, hint):
    p = problem_about(name_problems, message)
    assert p.hint == hint
    assert p.location.file.endswith("game.yaml")
    assert (p.location.line, p.location.col) == position_of(NAMES_GAME, needle)
    assert str(p).startswith(f"{p.location.file}:{p.location.line}:{p.location.col}: error: ")


def test_every_mistake_of_a_game_is_reported_at_once(name_problems):
    assert len(name_problems) == 5


def test_unknown_option_and_event_argument(tmp_path):
    text = """
    game: {id: t, players: [2]}
    options:
      fast: {default: false}
    events:
      scored: {who: player, points: int}
    hooks:
      h:
        on: scored
        if: "event.pionts > 0 and option.fats"
        do: []
    flow: []
    """
    p = problem_about(problems_of(tmp_path, text), "the event has no argument 'pionts'")
    assert p.hint == "did you mean 'points'?"
    assert (p.location.line, p.location.col) == position_of(text, "pionts")


def test_a_syntax_error_is_located_inside_a_block_effect(tmp_path):
    text = """
    game: {id: t, players: [2]}
    vars:
      global:
        n: {}
    flow:
      effect: |
        n = 1
        n += * 2
    """
    p = problem_about(problems_of(tmp_path, text), "unexpected '*'")
    assert "expected" in p.message
    assert (p.location.line, p.location.col) == position_of(text, "* 2")


def test_a_player_var_needs_a_player(tmp_path):
    text = """
    game: {id: t, players: [2]}
    vars:
      player:
        coins: {}
    flow: []
    scoring:
      items:
        x: {expr: "coins"}
    """
    p = problem_about(problems_of(tmp_path, text), "'coins' is a player var")
    assert "player.coins" in p.message


def test_a_string_compared_must_be_a_known_value(tmp_path):
    text = """
    game: {id: t, players: [2]}
    zones:
      global:
        bag: {}
    components:
      card:
        zone: bag
        types:
          university: {}
    flow: []
    scoring:
      items:
        x: {expr: "count(c for c in bag if c.type == 'univrsity')"}
    """
    p = problem_about(problems_of(tmp_path, text), "'univrsity' is not a kind value, component type or phase")
    assert p.hint == "did you mean 'university'?"


# ---------------------------------------------------------------- effects are refused in conditions
@pytest.mark.parametrize("where", ["flow_if", "step_if", "hook_if", "scoring", "until"])
def test_an_effect_function_is_refused_in_a_condition(tmp_path, where):
    conds = {k: "true" for k in ("flow_if", "step_if", "hook_if", "scoring", "until")}
    conds[where] = "random(2) == 0"
    text = f"""
    game: {{id: t, players: [2]}}
    events:
      e: {{who: player}}
    hooks:
      h: {{on: e, if: "{conds['hook_if']}", do: []}}
    flow:
      repeat:
        if: "{conds['flow_if']}"
        then: {{step: s}}
      until: "{conds['until']}"
    steps:
      s:
        if: "{conds['step_if']}"
        actions:
          a: {{}}
    scoring:
      items:
        x: {{expr: "{conds['scoring']}"}}
    """
    p = problem_about(problems_of(tmp_path, text), "'random' changes the state: it may be used in an effect only")
    assert (p.location.line, p.location.col) == position_of(text, "random")


@pytest.mark.parametrize("action", ['if: "random(2) == 0"', 'choose: {k: "[random(3)]"}'])
def test_an_effect_function_is_refused_in_an_action_condition(tmp_path, action):
    text = f"""
    game: {{id: t, players: [2]}}
    flow:
      each_player: {{step: s}}
    steps:
      s:
        actions:
          a:
            {action}
    """
    problem_about(problems_of(tmp_path, text), "'random' changes the state")


# ---------------------------------------------------------------- types of assignments
@pytest.mark.parametrize("stmt,message", [
    ("player.coins = bag", "cannot assign a zone to a int"),
    ("who = 'gem'", "cannot assign a str to a player"),
    ("player.coins += bag", "expected a number, got a zone"),
    ("bag = 1", "'bag' is a name of the game: choose another local name"),
    ("price[gem] = 1", "only a map entry can be set by index"),
])
def test_assigning_a_value_of_the_wrong_type_is_refused(tmp_path, stmt, message):
    text = f"""
    game: {{id: t, players: [2]}}
    tables:
      price: {{gem: 1}}
    vars:
      global:
        who: {{type: player}}
      player:
        coins: {{}}
    zones:
      global:
        bag: {{}}
    components:
      card:
        zone: bag
        types:
          gem: {{}}
    flow:
      each_player: {{step: s}}
    steps:
      s:
        actions:
          a:
            effect: "{stmt}"
    """
    problem_about(problems_of(tmp_path, text), message)


# ---------------------------------------------------------------- resources, limits, budget
LIMITS_GAME = """
game: {id: limits, players: [2]}
kinds:
  good: {values: [corn, rice]}
vars:
  global:
    big: {init: "4503599627370496"}
    n: {}
  player:
    coins: {init: 1, resource: coin}
    goods: {of: good, resource: goods}
    debt: {init: 1}
flow:
  each_player: {step: s}
steps:
  s:
    actions:
      overspend: {effect: "player.coins -= 2"}
      spend_all: {effect: "player.coins -= 1"}
      map_below: {effect: "player.goods[corn] -= 1"}
      plain_below: {effect: "player.debt -= 5"}
      set_below: {effect: "player.coins = -1"}
      set_zero: {effect: "player.coins = 0"}
      double_big: {effect: "big = big * 2"}
      quadruple_big: {effect: "big = big * 4"}
      add_big: {effect: "big += big + big"}
      runaway:
        effect: |
          for i in range(1000):
              for j in range(1000):
                  n += 1
      generator_runaway:
        effect: "n = sum(1 for i in range(300000))"
"""


@pytest.fixture(scope="module")
def limits(tmp_path_factory):
    return make_game(tmp_path_factory.mktemp("limits"), LIMITS_GAME)


def test_a_resource_var_may_reach_zero(limits):
    assert after(limits, "spend_all")["player_vars"][0]["coins"] == 0


def test_a_resource_var_refuses_to_go_below_zero(limits):
    s = limits.new_game(2)
    with pytest.raises(RuleError, match="player 1's coins would become -1 \\(below 0\\)") as info:
        limits.apply(s, "overspend")
    assert info.value.where is not None and "game.yaml" in info.value.where


def test_a_resource_map_entry_refuses_to_go_below_zero(limits):
    with pytest.raises(RuleError, match="corn would become -1"):
        limits.apply(limits.new_game(2), "map_below")


def test_a_constant_is_checked_against_the_floor_where_it_is_stored(limits):
    # (a constant within the bounds needs no check at run time; one below the floor keeps it)
    assert after(limits, "set_zero")["player_vars"][0]["coins"] == 0
    with pytest.raises(RuleError, match="player 1's coins would become -1 \\(below 0\\)"):
        limits.apply(limits.new_game(2), "set_below")


def test_a_plain_var_may_go_negative(limits):
    assert after(limits, "plain_below")["player_vars"][0]["debt"] == -4


def test_integers_up_to_2_pow_53_are_fine(limits):
    assert after(limits, "double_big")["vars"]["big"] == LIMIT


def test_integers_beyond_2_pow_53_are_refused_at_run_time(limits):
    with pytest.raises(RuleError, match="beyond the limit"):
        limits.apply(limits.new_game(2), "quadruple_big")


def test_an_assignment_beyond_2_pow_53_is_refused(limits):
    with pytest.raises(RuleError, match="beyond the limit"):
        limits.apply(limits.new_game(2), "add_big")


def test_a_sum_beyond_2_pow_53_is_refused(tmp_path):
    game = make_game(tmp_path, """
    game: {id: t, players: [2]}
    vars:
      global:
        big: {init: "4503599627370496 * 2"}
    flow: []
    scoring:
      items:
        x: {expr: "big + 1 - 1"}
    """)
    with pytest.raises(RuleError, match="beyond the limit"):
        game.score_breakdown(game.new_game(2))


def test_a_literal_beyond_2_pow_53_is_a_definition_error(tmp_path):
    text = """
    game: {id: t, players: [2]}
    flow: []
    scoring:
      items:
        x: {expr: "9007199254740993"}
    """
    p = problem_about(problems_of(tmp_path, text), "beyond the limit")
    assert (p.location.line, p.location.col) == position_of(text, "9007199254740993")


def test_a_constant_division_by_zero_is_a_definition_error(tmp_path):
    text = """
    game: {id: t, players: [2]}
    flow: []
    scoring:
      items:
        x: {expr: "7 // 0"}
    """
    p = problem_about(problems_of(tmp_path, text), "division by zero")
    assert (p.location.line, p.location.col) == position_of(text, "7 // 0")


@pytest.mark.parametrize("expr", ["player.coins // 0", "player.coins % (3 - 3)"])
def test_a_divisor_that_is_always_zero_is_a_definition_error_though_the_dividend_varies(tmp_path, expr):
    text = f"""
    game: {{id: t, players: [2]}}
    vars:
      player: {{coins: {{init: 1}}}}
    flow: []
    scoring:
      items:
        x: {{expr: "{expr}"}}
    """
    p = problem_about(problems_of(tmp_path, text), "division by zero: the divisor of")
    assert (p.location.line, p.location.col) == position_of(text, expr)


def test_an_integer_literal_of_thousands_of_digits_is_a_definition_problem(tmp_path):
    text = f"""
    game: {{id: t, players: [2]}}
    flow: []
    scoring:
      items:
        x: {{expr: "1 + {'9' * 5000}"}}
    """
    p = problem_about(problems_of(tmp_path, text), "an integer of 5000 digits is beyond the limit of ±2**53")
    assert (p.location.line, p.location.col) == position_of(text, "9999")
    assert "bug" not in p.message and len(str(p)) < 300


@pytest.mark.parametrize("extra", ["tables:\n      big: 9007199254740993\n",
                                   "vars:\n      player: {coins: {init: -9007199254740993}}\n"])
def test_an_integer_written_beyond_the_limit_is_a_definition_problem_where_it_is_written(tmp_path, extra):
    text = f"""
    game: {{id: t, players: [2]}}
    flow: []
    {extra}"""
    p = problem_about(problems_of(tmp_path, text), "is beyond the limit of ±2**53")
    assert (p.location.line, p.location.col) == position_of(text, "9007199254740993")[:1] + (
        position_of(text, "9007199254740993")[1] - extra.count("-9007"),)


def test_the_step_budget_stops_a_runaway_effect(limits):
    s = limits.new_game(2)
    with pytest.raises(RuleError, match="more than 100000 loop steps"):
        limits.apply(s, "runaway")


def test_the_step_budget_counts_generator_steps(limits):
    with pytest.raises(RuleError, match="loop steps"):
        limits.apply(limits.new_game(2), "generator_runaway")


def test_a_failing_condition_is_a_rule_error(tmp_path):
    game = make_game(tmp_path, """
    game: {id: t, players: [2]}
    zones:
      global:
        bag: {}
    components:
      card:
        zone: bag
        properties: {vp: 1}
        types:
          c: {count: 0}
    flow:
      each_player: {step: s}
    steps:
      s:
        actions:
          a: {if: "top(bag).vp > 0"}
    """)
    with pytest.raises(RuleError):
        game.new_game(2)


def test_a_failed_effect_leaves_the_state_untouched(limits):
    s = limits.new_game(2)
    before = limits.to_json(s)
    with pytest.raises(RuleError):
        limits.apply(s, "overspend")
    assert limits.to_json(s) == before


# ---------------------------------------------------------------- by_players tables
def test_a_by_players_table_missing_a_count_is_reported_at_load(tmp_path):
    text = """
    game: {id: t, players: [2, 3, 4]}
    tables:
      start: {by_players: {2: 5, 3: 6}}
    flow: []
    """
    p = problem_about(problems_of(tmp_path, text), "table 'start' has no entry for 4 players")
    assert p.location.line == position_of(text, "{by_players")[0]


def test_a_by_players_count_missing_a_count_is_reported_at_load(tmp_path):
    problem_about(problems_of(tmp_path, """
    game: {id: t, players: [2, 3]}
    zones:
      global:
        bag: {}
    components:
      card:
        zone: bag
        types:
          c: {count: {by_players: {2: 4}}}
    flow: []
    """), "count has no entry for 3 players")


def test_a_by_players_count_gives_the_pieces_of_that_count(tmp_path):
    game = make_game(tmp_path, """
    game: {id: t, players: [2, 3]}
    zones:
      global:
        bag: {}
    components:
      card:
        zone: bag
        types:
          c: {count: {by_players: {2: 4, 3: 6}}}
    flow: []
    """)
    assert [len(game.new_game(n).types) for n in (2, 3)] == [4, 6]


def test_definition_error_text_lists_each_problem_on_its_own_line(tmp_path):
    text = """
    game: {id: t, players: [2]}
    flow: []
    scoring:
      items:
        a: {expr: "nope1"}
        b: {expr: "nope2"}
    """
    with pytest.raises(DefinitionError) as info:
        make_game(tmp_path, text)
    lines = str(info.value).splitlines()
    assert len(lines) == 2 and "nope1" in lines[0] and "nope2" in lines[1]


def test_deeply_nested_defs_compile_and_evaluate(tmp_path):
    """Generated code nests; past CPython's limit on nested parentheses it continues in a new function."""
    defs = ['  "d0(x)": "x + 1"'] + [f'  "d{i}(x)": "d{i - 1}((x + 1) * 1) + 1"' for i in range(1, 60)]
    text = ("game: {id: deep, players: [2]}\nvars:\n  global:\n    v: {}\ndefs:\n" + "\n".join(defs)
            + '\nflow:\n  effect: "v = d59(v)"\nscoring:\n  items:\n    s: {expr: "v"}\n')
    (tmp_path / "g.yaml").write_text(text, encoding="utf-8")
    from interpreter.game import load_game
    game = load_game(tmp_path)
    assert game.outcome(game.new_game(2))["scores"] == [119, 119]


ITEMS = """
game: {id: items, players: [2]}
zones:
  global:
    row: {}
components:
  cell:
    zone: row
    fields: {mark: {type: bool, init: true}}
    types: {a: {count: 3}, b: {count: 2}}
defs:
  marked(x): "x.mark"
  next_to_an_a(x): "any(y.type == a for y in row if y != x)"
flow: []
"""


def test_a_generators_item_kept_out_of_the_environment_means_what_it_meant(tmp_path):
    # A generator whose condition and element read the item only themselves keeps it in a local of the
    # loop (calls.item_local); one that hands the environment to a def that reads the item keeps the slot.
    game = make_game(tmp_path, ITEMS)
    s = game.new_game(2)
    values = {
        "count(x for x in row if x.mark)": 5,
        "list(x.type for x in row if x.type != a)": ["b", "b"],
        "first(x.type for x in row if x.type == b)": "b",
        "sum(1 for x in row if marked(x))": 5,
        "count(x for x in row if next_to_an_a(x))": 5,
        "any(not x.mark for x in row)": False,
        "max(count(y for y in row if y.type == x.type) for x in row)": 3,
        "list(count(y for y in row if y != x and y.type == x.type) for x in row)": [2, 2, 2, 1, 1],
    }
    for text, want in values.items():
        assert game.evaluate(s, text, 0) == want, text


def test_a_generators_item_is_kept_in_a_local_only_when_nothing_else_can_read_it():
    from interpreter.language.calls import item_local
    from interpreter.language.codegen import Pool
    pool = Pool()
    f = pool.ref(lambda s, e: True)
    assert item_local(pool, 3, ["e[3] > e[30] and e[0]", None]) == ("_i3", ["_i3 > e[30] and e[0]", None])
    assert item_local(pool, 3, ["s.types[e[3]] == 'e[3]'"]) == ("_i3", ["s.types[_i3] == 'e[3]'"])
    # a function handed the environment may read the item: it stays in its slot
    assert item_local(pool, 3, [f"{f}(s, e) and e[3]"]) == ("e[3]", [f"{f}(s, e) and e[3]"])
