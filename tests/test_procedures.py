"""Procedures: named statement blocks with parameters, called from effects, checked where they are written."""

from __future__ import annotations

import pytest

from games import make_game
from interpreter.definition.problems import DefinitionError

GAME = """
    game: {id: proc, players: [2]}
    vars:
      global: {supply: {init: 10}}
      player: {coins: {init: 5}, paid: {}}
    procedures:
      "pay(p: player, n: int)": |
        p.coins -= n
        supply += n
        note(p)
      "note(p: player)": "p.paid += 1"
    steps:
      buy:
        actions:
          buy:
            choose: {n: "range(1, 3)"}
            effect: "pay(player, n)"
    flow:
      each_player: {step: buy}
"""


def problems(tmp_path, text):
    with pytest.raises(DefinitionError) as ex:
        make_game(tmp_path, text)
    return [str(p) for p in ex.value.problems]


def test_a_procedure_runs_its_statements_with_the_arguments(tmp_path):
    g = make_game(tmp_path, GAME)
    s = g.new_game(2)
    s = g.apply(s, "buy(n=2)")
    assert g.evaluate(s, "players[0].coins") == 3
    assert g.evaluate(s, "supply") == 12
    assert g.evaluate(s, "players[0].paid") == 1


def test_a_mistake_in_a_procedure_is_reported_once_where_it_is_written(tmp_path):
    text = GAME.replace("supply += n", "suply += n").replace('effect: "pay(player, n)"',
                                                              'effect: "pay(player, n)\\npay(player, 1)"')
    out = problems(tmp_path, text)
    assert len(out) == 1
    assert ":8:" in out[0] and "'suply' is not a var that can be set" in out[0] and "did you mean 'supply'" in out[0]


def test_calls_are_checked_for_arguments_and_context(tmp_path):
    out = problems(tmp_path, GAME.replace('effect: "pay(player, n)"', 'effect: "pay(n, player, 1)"'))
    assert any("pay() takes 2 argument(s) (p, n), got 3" in p for p in out)
    out = problems(tmp_path, GAME.replace('effect: "pay(player, n)"', "effect: \"pay(player, 'x')\""))
    assert any("pay(): argument 'n' is a int, got a str" in p for p in out)
    out = problems(tmp_path, GAME.replace('effect: "pay(player, n)"', 'if: "pay(player, n)"'))
    assert any("changes the state: it may be called in an effect only" in p for p in out)
    out = problems(tmp_path, GAME.replace('effect: "pay(player, n)"', 'effect: "pya(player, n)"'))
    assert any("unknown function 'pya'" in p and "did you mean 'pay'" in p for p in out)


def test_a_procedure_may_not_call_itself(tmp_path):
    out = problems(tmp_path, GAME.replace('"p.paid += 1"', '"pay(p, 1)"'))
    assert any("calls itself" in p for p in out)
