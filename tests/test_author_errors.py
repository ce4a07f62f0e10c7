"""Errors for authors: one error per root cause, at the place of the mistake, with a did-you-mean; kinds,
numbers, yes/no and texts told apart when the game loads."""

from __future__ import annotations

import pytest

from games import make_game
from interpreter.definition.problems import DefinitionError

BASE = """
    game: {id: t, players: [2]}
    kinds: {fruit: {values: [apple, pear]}}
    vars:
      global: {x: {init: 0}, price: {of: fruit}}
      player: {coins: {init: 0}}
    defs:
      "rich(p)": "p.coins > 3"
    steps:
      s:
        actions:
          a:
            if: "COND"
            effect: "EFFECT"
    flow: {step: s}
"""


def problems(tmp_path, cond="x == 0", effect="x += 1", extra=""):
    text = BASE.replace("COND", cond).replace("EFFECT", effect) + extra
    with pytest.raises(DefinitionError) as ex:
        make_game(tmp_path, text)
    return [str(p).split("error: ", 1)[1] for p in ex.value.problems]


def test_one_equals_sign_for_two_is_one_error_that_says_so(tmp_path):
    assert problems(tmp_path, cond="x = 1") == [
        "unexpected '=' (to compare two values, write '=='); expected the end of the text"]


def test_a_mistake_in_a_def_is_reported_once_at_the_def(tmp_path):
    text = BASE.replace("p.coins > 3", "p.cions > 3")
    with pytest.raises(DefinitionError) as ex:
        make_game(tmp_path, text.replace("COND", "rich(player)").replace("EFFECT", "if rich(player):\\n    x += 1"))
    got = [str(p) for p in ex.value.problems]
    assert len(got) == 1  # three uses, one mistake
    assert got[0].endswith(":7:17: error: in def 'rich': a player has no var, zone or parameter 'cions'; "
                           "did you mean 'coins'?")


def test_an_unknown_function_has_a_did_you_mean(tmp_path):
    assert problems(tmp_path, cond="lenn(players) > 1") == ["unknown function 'lenn'; did you mean 'len'?"]


def test_a_number_is_not_a_kind_value(tmp_path):
    assert problems(tmp_path, effect="price[6] += 1") == ["a map's keys are the values of its kind, not a int"]
    assert problems(tmp_path, cond="apple == 1") == ["a str is never equal to an int: compare values of one type"]


def test_a_text_is_not_a_number(tmp_path):
    assert problems(tmp_path, effect="x = apple") == ["cannot assign a str to a int"]


def test_an_event_argument_of_the_wrong_type_is_refused(tmp_path):
    extra = "    events:\n      sold: {who: player, what: fruit}\n"
    assert problems(tmp_path, effect="emit sold(player, 3)", extra=extra) == [
        "event sold: argument 'what' is a str, got a int"]
    assert problems(tmp_path, effect="emit sold(apple, apple)", extra=extra) == [
        "event sold: argument 'who' is a player, got a str"]


def test_a_loop_that_reaches_its_max_is_reported_where_it_is_written(tmp_path):
    from interpreter.language.compiler import RuleError
    g = make_game(tmp_path, """
        game: {id: loop, players: [2]}
        vars: {global: {x: {}}}
        flow:
          repeat: {effect: "x += 1"}
          until: "x < 0"
          max: 3
    """)
    with pytest.raises(RuleError) as ex:
        g.new_game(2)
    assert "a repeat ran 3 times (its max)" in str(ex.value)
    assert "game.yaml:4:3" in str(ex.value)


def test_a_table_is_read_with_keys_of_its_own_kind(tmp_path):
    extra = "    tables: {start_price: {apple: 3, pear: 4}}\n"
    assert problems(tmp_path, cond="start_price[6] > 0", extra=extra) == [
        "this table has no key 6 (its keys: apple, pear)"]
    assert problems(tmp_path, cond="start_price[aple] > 0", extra=extra) == [
        "unknown name 'aple'; did you mean 'apple'?"]
    assert problems(tmp_path, cond="start_price[x] > 0", extra=extra) == [
        "this table's keys are names (apple, pear), not a int"]
