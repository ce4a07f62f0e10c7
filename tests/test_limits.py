"""Budgets and static checks: a definition that would cost unbounded time or memory, or that would load and
then fail in every game, is refused at load with a located, named problem (or, while playing, a RuleError
naming the limit). See interpreter/definition/limits.py and interpreter/definition/static_checks.py."""

import textwrap
from pathlib import Path

import pytest

from interpreter.definition import limits
from interpreter.language.compiler import RuleError
from interpreter.game import load_game
from interpreter.definition.problems import DefinitionError

from games import make_game, problems_of

MARKET = Path("examples/market_day/game.yaml").read_text(encoding="utf-8")


def market_problems(tmp_path, old, new):
    """The problems of Market Day with `old` replaced by `new` (written as game.yaml in tmp_path)."""
    assert old in MARKET, old
    (tmp_path / "game.yaml").write_text(MARKET.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(DefinitionError) as info:
        load_game(tmp_path)
    return info.value.problems


def only(problems, words):
    found = [p for p in problems if words in p.message]
    assert found, "\n".join(map(str, problems))
    assert found[0].location is not None and found[0].location.line > 0, str(found[0])
    return found[0]


SCORE = 'coins: {expr: "player.coins"'


def test_chained_defs_that_double_stop_at_the_compile_work_limit(tmp_path):
    defs = '  "d0(x)": "x + x"\n' + "".join(f'  "d{i}(x)": "d{i - 1}(x) + d{i - 1}(x)"\n' for i in range(1, 22))
    text = MARKET.replace("defs:\n", "defs:\n" + defs).replace(SCORE, 'coins: {expr: "player.coins + d21(1)"')
    (tmp_path / "game.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(DefinitionError) as info:
        load_game(tmp_path)
    p = only(info.value.problems, "compile-work limit")
    assert p.location.file.endswith("game.yaml")


def test_a_long_sum_is_a_located_nesting_limit(tmp_path):
    p = only(market_problems(tmp_path, SCORE, 'coins: {expr: "' + " + ".join(["1"] * 400) + '"'),
             "nesting limit")
    assert p.location.col > 1


def test_a_nesting_limit_does_not_hide_other_problems(tmp_path):
    problems = market_problems(tmp_path, SCORE, 'coins: {expr: "' + " + ".join(["1"] * 400) + ' + nosuch"')
    text = MARKET.replace("draw(deck, player.hand)", "draw(deck, player.hnd)")
    (tmp_path / "game.yaml").write_text(text.replace(SCORE, 'coins: {expr: "' + "+".join(["1"] * 400) + '"'))
    with pytest.raises(DefinitionError) as info:
        load_game(tmp_path)
    messages = " ".join(p.message for p in info.value.problems)
    assert "nesting limit" in messages and "hnd" in messages and problems
    assert "bug of meeple" not in messages


def test_twenty_nested_for_blocks_are_a_located_nesting_limit(tmp_path):
    body = "".join("  " + "    " * i + f"for i{i} in range(2):\n" for i in range(20)) + "  " + "    " * 20 + "pass\n"
    p = only(market_problems(tmp_path, "  first_player = random(player_count)\n",
                             "  first_player = random(player_count)\n" + body), "blocks nested more than 12")
    assert "bug of meeple" not in p.message


def test_thirteen_nested_ifs_are_past_the_block_limit(tmp_path):
    body = "".join("  " + "    " * i + "if true:\n" for i in range(13)) + "  " + "    " * 13 + "pass\n"
    only(market_problems(tmp_path, "  first_player = random(player_count)\n",
                         "  first_player = random(player_count)\n" + body), "blocks nested more than 12")


def test_a_very_long_expression_is_refused_before_parsing(tmp_path):
    only(market_problems(tmp_path, SCORE, "coins: {expr: \"'" + "a" * 60_000 + "' == 'b'\""), "text limit")


def test_an_effect_of_twenty_thousand_statements_is_refused_fast(tmp_path):
    import time
    start = time.process_time()
    only(market_problems(tmp_path, "  first_player = random(player_count)\n",
                         "  first_player = random(player_count)\n" + "  first_player = 0\n" * 20_000), "limit")
    assert time.process_time() - start < 2


def test_locating_statements_is_linear(tmp_path):
    """A body of many statements with a mistake in the last: located exactly, without quadratic cost."""
    body = "  first_player = 0\n" * 1500 + "  first_player = nosuch\n"
    p = only(market_problems(tmp_path, "  first_player = random(player_count)\n", body), "nosuch")
    assert p.location.line == MARKET.count("\n", 0, MARKET.index("  first_player = random")) + 1 + 1500


@pytest.mark.parametrize("count", ["100000000", "9223372036854775808"])
def test_huge_component_counts_are_the_piece_limit(tmp_path, count):
    p = only(market_problems(tmp_path, "count: 8,", f"count: {count},"), "piece limit")
    assert p.location.line == MARKET.count("\n", 0, MARKET.index("count: 8,")) + 1


def test_a_hook_that_emits_its_own_event_stops_at_the_event_limit(tmp_path):
    text = MARKET.replace('    if: "price[event.kind] > 1"\n', "").replace(
        'effect: "price[event.kind] -= 1"', 'effect: "emit sold(player, event.kind, 1)"')
    (tmp_path / "game.yaml").write_text(text, encoding="utf-8")
    game = load_game(tmp_path)
    s = game.new_game(2, seed=1)
    with pytest.raises(RuleError, match="event limit"):
        for _ in range(200):
            acts = [a["id"] for a in game.legal_actions(s, labels=False)]
            s = game.apply(s, next((a for a in acts if a.startswith("sell")), acts[0]))


def test_a_call_that_reenters_itself_stops_at_the_flow_depth_limit(tmp_path):
    game = make_game(tmp_path, """
    game: {id: t, players: [2]}
    phases:
      again:
        flow:
          - effect: "pass"
          - call: again
    flow:
      call: again
    """)
    with pytest.raises(RuleError, match="flow-depth limit"):
        game.new_game(2)


def test_loops_inside_generators_count_against_the_loop_budget(tmp_path):
    game = make_game(tmp_path, """
    game: {id: t, players: [2]}
    tables:
      xs: {value: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}
    vars:
      global:
        v: {}
    flow:
      effect: |
        ys = list(x for x in range(1000))
        v = sum(sum(1 for a in ys) for b in ys)
    """)
    with pytest.raises(RuleError, match="loop steps"):
        game.new_game(2)


def test_a_flow_that_never_reaches_a_decision_stops_at_the_node_limit(tmp_path):
    game = make_game(tmp_path, """
    game: {id: t, players: [2]}
    vars:
      global:
        v: {}
    flow:
      repeat: {effect: "v = 1"}
      until: "v == 2"
      max: 1000000
    """)
    with pytest.raises(RuleError, match="200000 nodes without a decision"):
        game.new_game(2)


@pytest.mark.parametrize("inner", ["len(list(a for a in ys))",           # a comprehension (charge())
                                   "count(a for a in ys if a >= 0)"])     # an aggregate loop (charged inline)
def test_items_a_generator_walks_count_against_the_loop_budget(tmp_path, inner):
    game = make_game(tmp_path, f"""
    game: {{id: t, players: [2]}}
    vars:
      global:
        v: {{}}
    flow:
      effect: |
        ys = list(x for x in range(1000))
        v = len(list({inner} for b in ys))
    """)
    with pytest.raises(RuleError, match="loop steps"):
        game.new_game(2)


# ------------------------------------------------------------------ static typing (class 5 traps)

def test_an_option_default_must_be_one_of_its_values(tmp_path):
    p = only(market_problems(tmp_path, "default: false", "default: no"), "not one of its values")
    assert "false or true" in p.hint


def test_an_option_value_is_compared_with_its_type(tmp_path):
    game = load_game("examples/market_day")
    with pytest.raises(ValueError):
        game.new_game(2, options={"short_game": 1})


def test_a_zone_capacity_is_a_number(tmp_path):
    only(market_problems(tmp_path, "hand_limit: 5", "hand_limit: five"), "capacity is a whole number")


def test_random_takes_a_number(tmp_path):
    only(market_problems(tmp_path, "random(player_count)", "random('a')"), "random(n)")


def test_true_is_not_a_number(tmp_path):
    only(market_problems(tmp_path, "random(player_count)", "random(6) + true"), "not numbers")


def test_a_kind_value_is_never_equal_to_a_number(tmp_path):
    only(market_problems(tmp_path, '"price[event.kind] > 1"', '"event.kind == 3"'), "never equal")


def test_a_number_cannot_be_stored_in_a_bool(tmp_path):
    problems = problems_of(tmp_path, """
    game: {id: t, players: [2]}
    vars:
      global:
        flag: {type: bool}
    flow:
      effect: "flag = 3"
    """)
    only(problems, "cannot assign a int to a bool")


def test_a_table_that_mixes_text_into_numbers_is_refused_where_the_overlay_wrote_it(tmp_path):
    f = tmp_path / "v.yaml"
    f.write_text("overlay: {base: market_day}\nset:\n  tables.start_coins.by_players.4: four\n", encoding="utf-8")
    with pytest.raises(DefinitionError) as info:
        load_game("examples/market_day", variant=[str(f)])
    p = only(info.value.problems, "'four' is text")
    assert p.location.file == str(f) and p.location.line == 3


def test_a_capacity_an_overlay_breaks_is_located_in_the_overlay(tmp_path):
    f = tmp_path / "v.yaml"
    f.write_text("overlay: {base: market_day}\nset:\n  tables.hand_limit: five\n", encoding="utf-8")
    with pytest.raises(DefinitionError) as info:
        load_game("examples/market_day", variant=[str(f)])
    assert only(info.value.problems, "capacity").location.file == str(f)


def test_removing_the_player_counts_is_refused(tmp_path):
    f = tmp_path / "v.yaml"
    f.write_text("overlay: {base: market_day}\nremove: [game.players]\n", encoding="utf-8")
    with pytest.raises(DefinitionError) as info:
        load_game("examples/market_day", variant=[str(f)])
    only(info.value.problems, "how many players")


def test_two_overlays_where_the_first_removes_a_section(tmp_path):
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text("overlay: {base: market_day}\nremove: [game]\n", encoding="utf-8")
    b.write_text("overlay: {base: market_day}\nset:\n  tables.hand_limit: 4\n", encoding="utf-8")
    with pytest.raises(DefinitionError) as info:
        load_game("examples/market_day", variant=[str(a), str(b)])
    assert str(info.value.problems[0].location).startswith(str(a))


def test_a_file_that_fails_to_load_is_not_followed_by_an_unlocated_no_flow(tmp_path):
    (tmp_path / "game.yaml").write_text("game: {id: x, players: [2]}\nflow: [\n", encoding="utf-8")
    with pytest.raises(DefinitionError) as info:
        load_game(tmp_path)
    assert all(p.location is not None for p in info.value.problems), info.value


def test_the_limits_are_in_the_readme():
    readme = Path("README.md").read_text(encoding="utf-8")
    for name in ("MAX_EXPR_DEPTH", "MAX_COMPILE_WORK", "MAX_PIECES", "MAX_FLOW_DEPTH", "MAX_EVENTS", "LOOP_BUDGET"):
        value = getattr(limits, name)
        assert f"{value:,}" in readme, name


def test_a_mistake_only_an_overlay_causes_is_located_in_the_overlay(tmp_path):
    f = tmp_path / "v.yaml"
    f.write_text("overlay: {base: market_day}\nremove: [kinds.produce]\n", encoding="utf-8")
    with pytest.raises(DefinitionError) as info:
        load_game("examples/market_day", variant=[str(f)])
    problems = info.value.problems
    assert problems and all(p.location.file == str(f) for p in problems), "\n".join(map(str, problems))
    assert any("game.yaml:" in p.message and "kinds.produce" in p.message for p in problems)


def test_a_mistake_in_a_def_no_rule_calls_is_reported(tmp_path):
    p = only(market_problems(tmp_path, '  "held(p, k)"', '  "unused(p)": "nosuch(p) + p.coins"\n  "held(p, k)"'),
             "called by no rule")
    assert "unknown function 'nosuch'" in p.message and p.location.line > 0


def test_a_player_count_beyond_the_limit_is_refused_before_anything_is_made_for_it(tmp_path):
    import time
    import tracemalloc
    from interpreter.definition.limits import MAX_PLAYERS
    from games import problem_about, problems_of
    text = """
        game: {id: crowd, players: [2, 10000000]}
        vars: {player: {n: {}}}
        steps: {s: {actions: {go: {effect: "player.n += 1"}}}}
        flow: {each_player: {step: s}}
        scoring: {items: {n: {expr: "player.n"}}}
    """
    tracemalloc.start()
    started = time.process_time()
    try:
        problems = problems_of(tmp_path, text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    p = problem_about(problems, f"at most {MAX_PLAYERS} players (MAX_PLAYERS), not 10000000")
    assert (p.location.line, p.location.col) == (1, 32)
    assert time.process_time() - started < 5 and peak < 60 * 2 ** 20
