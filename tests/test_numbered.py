"""Numbered component types (one type, one piece per number) and number kinds (the integers from..to)."""

from __future__ import annotations

import pytest

from games import make_game
from interpreter.definition.problems import DefinitionError

GAME = """
    game: {id: numbers, players: [2]}
    kinds:
      face: {from: 1, to: 6}
    vars:
      player: {total: {}}
    zones:
      global: {deck: {}}
      player: {hand: {}}
    components:
      card:
        zone: deck
        properties: {number: 0}
        types:
          card: {numbered: {from: 1, to: 20}, label: {en: Card, zh: 牌}}
    steps:
      pick:
        actions:
          take:
            choose: {c: deck, f: face}
            if: "c.number == f * 3"
            effect: |
              move(c, player.hand)
              player.total += c.number
            label: "take {c} for {f}"
    flow:
      each_player: {step: pick}
"""


def test_a_numbered_type_gives_one_piece_per_number_named_by_its_number(tmp_path):
    g = make_game(tmp_path, GAME)
    s = g.new_game(2)
    assert g.evaluate(s, "len(deck)") == 20
    assert g.evaluate(s, "sum(x.number for x in deck)") == 210
    acts = g.legal_actions(s)
    assert [a["label"]["en"] for a in acts] == [f"take Card {3 * f} for {f}" for f in range(1, 7)]
    s = g.apply(s, acts[-1])
    assert g.evaluate(s, "players[0].total") == 18
    assert g.value_text(g.evaluate(s, "top(players[0].hand)"), "piece", "zh", s) == "牌18"


def test_a_number_kind_is_the_list_of_its_integers(tmp_path):
    g = make_game(tmp_path, GAME)
    s = g.new_game(2)
    assert g.evaluate(s, "face") == [1, 2, 3, 4, 5, 6]
    assert g.evaluate(s, "values(face)") == [1, 2, 3, 4, 5, 6]
    assert g.evaluate(s, "4 in face") is True


@pytest.mark.parametrize("old,new,message", [
    ("{numbered: {from: 1, to: 20}", "{numbered: {from: 5, to: 2}", "numbered is written {from: LOW, to: HIGH"),
    ("{numbered: {from: 1, to: 20}", "{numbered: {from: 1, to: 20, property: nummber}",
     "class card declares no property 'nummber'"),
])
def test_mistakes_in_numbered_types_and_number_kinds_are_reported(tmp_path, old, new, message):
    with pytest.raises(DefinitionError) as ex:
        make_game(tmp_path, GAME.replace(old, new))
    assert any(message in str(p) for p in ex.value.problems), [str(p) for p in ex.value.problems]


def test_a_map_over_a_number_kind_is_keyed_by_its_numbers_and_survives_save_and_load(tmp_path):
    import json
    text = GAME.replace("player: {total: {}}", "player: {total: {}, rolled: {of: face}}").replace(
        "player.total += c.number", "player.total += c.number\n              player.rolled[f] += 1")
    g = make_game(tmp_path, text)
    s = g.new_game(2)
    s = g.apply(s, g.legal_actions(s)[1])                       # take Card 6 for a 2
    assert g.evaluate(s, "players[0].rolled[2]") == 1
    assert g.evaluate(s, "total(players[0].rolled)") == 1
    back = g.from_json(json.loads(json.dumps(g.to_json(s))))
    assert back == s
