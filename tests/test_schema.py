"""schema: the JSON Schema of definition files, and the located problems it yields."""

import json
from pathlib import Path

import jsonschema
import pytest
import referencing
import referencing.exceptions

from interpreter.definition import resources
from interpreter.definition.loader import load_yaml, load_yaml_text
from interpreter.definition.problems import Location
from interpreter.definition.schema import _retrieve, load_schema, schema_path, validate_document

ROOT = Path(__file__).resolve().parent.parent


def check(text):
    return validate_document(load_yaml_text(text, "g.yaml"))


def messages(text):
    return [str(p) for p in check(text)]


# ---------------------------------------------------------------- the schema itself


def test_the_schema_is_a_valid_draft_2020_12_schema():
    schema = load_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)


def test_the_schema_has_a_stable_urn_id_and_only_local_refs():
    schema = load_schema()
    assert schema["$id"] == "urn:meeple:schema:gamedef"

    def refs(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "$ref":
                    yield value
                yield from refs(value)
        elif isinstance(node, list):
            for value in node:
                yield from refs(value)

    assert all(ref.startswith("#/$defs/") for ref in refs(schema))
    for ref in refs(schema):  # every reference resolves
        assert ref.removeprefix("#/$defs/") in schema["$defs"]


def test_schema_path_is_in_the_schemas_folder():
    assert schema_path() == ROOT / "schemas" / "gamedef.schema.json"
    assert json.loads(schema_path().read_text(encoding="utf-8")) == load_schema()


def test_remote_references_are_never_fetched():
    registry = referencing.Registry(retrieve=_retrieve)
    validator = jsonschema.Draft202012Validator({"$ref": "https://example.com/schema.json"}, registry=registry)
    with pytest.raises(referencing.exceptions.Unresolvable):
        validator.validate(1)
    with pytest.raises(LookupError, match="never fetched"):
        _retrieve("https://example.com/schema.json")
    with pytest.raises(LookupError):
        _retrieve("urn:meeple:schema:../../etc/passwd")


def test_our_urns_resolve_to_local_files():
    registry = referencing.Registry(retrieve=_retrieve)
    validator = jsonschema.Draft202012Validator({"$ref": "urn:meeple:schema:gamedef"}, registry=registry)
    assert validator.is_valid({"game": {"id": "x"}})
    assert not validator.is_valid({"gmae": {}})


# ---------------------------------------------------------------- valid files


def test_a_minimal_file_passes():
    assert check("game:\n  id: tiny\n  players: [2]\n") == []


def test_an_empty_file_passes():
    assert check("# nothing yet\n") == []


EVERYTHING = """\
game:
  id: market_day
  name: {en: Market Day, zh: 集市日}
  players: [3, 4, 5]
  source: "rules.txt §1"
options:
  short_game: {default: false, values: [false, true], label: Short game, description: {en: Ten rounds}}
kinds:
  good:
    values: [corn, indigo]
    label: Good
    labels: {corn: {en: Corn, zh: 玉米}, indigo: Indigo}
tables:
  start_doubloons: {by_players: {3: 2, 4: 3, 5: 4}}
  price: {corn: 0, indigo: 1}
  ship_capacity: {by_players: {3: [4, 5, 6], 4: [5, 6, 7]}}
  vp_chips: {value: {by_players: {3: 75, 4: 100, 5: 122}}, source: "reference §1.3", provisional: "a guess"}
  flag: true
resources:
  colonist: {label: Colonist, box: 100, conserved: true}
  vp: {box: vp_chips}
vars:
  global:
    colonist_supply: {init: colonists_in_supply, resource: colonist}
    governor: {type: player}
    game_ending: {type: bool}
    house: {of: good, resource: goods}
  player:
    doubloons: {init: start_doubloons}
    vp_chips: {resource: vp, visible: owner}
    goods: {of: good, init: {corn: 1, indigo: 0}}
zones:
  global:
    plantation_deck: {visibility: hidden}
    plantation_row: {}
    building_supply: {}
  player:
    island: {capacity: 12}
    city: {capacity: 12, size: spaces, visibility: owner}
parameters:
  trade_bonus: {default: 0, label: Trade bonus}
components:
  building:
    zone: building_supply
    fields: {workers: {resource: colonist}}
    properties: {cost: 0, vp: 0, spaces: 1, circles: 1, kind: none}
    active: "self.workers > 0"
    types:
      university:
        label: {en: University, zh: 大学}
        count: 2
        cost: 8
        vp: 3
        modifies: {build_worker: 1, trade_bonus: {set: 2}}
        source: "puerto-rico.zh-hans.txt, 大学"
        hooks:
          on_build: {on: built, if: "event.piece == self", do: {effect: "self.workers += 1"}}
      market:
        count: {by_players: {3: 1, 4: 2, 5: 2}}
defs:
  price(p, b): "max(0, b.cost - 1)"
  two_players(): "player_count == 2"
  ending: "game_ending"
events:
  built: {player: player, piece: piece}
  round_over: {}
hooks:
  university_worker:
    on: built
    if: "active(event.player, university)"
    player: "event.player"
    do:
      - effect: "pass"
      - step: build
setup: |
  shuffle(plantation_deck)
flow:
  repeat:
    - each_player:
        - step: build
        - call: "chosen_role.phase"
      from: governor
      direction: clockwise
      until: all_pass
    - if: "game_ending"
      then: {effect: "pass"}
      else: []
    - repeat: {effect: "x += 1"}
      while: "x < 3"
      max: 5
  until: "game_ending"
  max: 100
phases:
  builder: {label: Builder, source: "§3", flow: {step: build}}
steps:
  build:
    label: {en: Build, zh: 建造}
    optional: true
    if: "true"
    actions:
      build:
        choose: {b: "building_supply", n: {from: "range(0, 3)", distinct: true}}
        if: "price(player, b) <= player.doubloons and not owns(player, b.type)"
        effect: |
          player.doubloons -= price(player, b)
          move(b, player.city)
          emit built(player, b)
        label: {en: "build {b} for {price(player, b)}", zh: "建造{b}"}
      give_up: {pass: true, effect: "pass"}
scoring:
  items:
    chips: {label: VP chips, expr: "player.vp_chips"}
    buildings: {expr: "sum(b.vp for b in player.city)", source: "§end"}
  tiebreak: ["player.doubloons"]
  order: high
"""


def test_every_section_of_the_readme_format_passes():
    assert messages(EVERYTHING) == []


SHIPPED_FILES = (sorted((ROOT / "gamedefs").glob("*/*.yaml")) + sorted((ROOT / "gamedefs").glob("*/*/*.yaml"))
                 + sorted((ROOT / "examples").glob("*/*.yaml")) + sorted((ROOT / "examples").glob("*/*/*.yaml")))


def schema_for(doc):
    """Each shipped file against its own schema: game files, scenario files and overlays."""
    data = doc.data if isinstance(doc.data, dict) else {}
    return "overlay" if "overlay" in data else "scenario" if "scenarios" in data else "gamedef"


@pytest.mark.parametrize("path", SHIPPED_FILES, ids=str)
def test_shipped_definitions_pass(path):
    doc = load_yaml(path)
    assert [str(p) for p in validate_document(doc, schema_for(doc))] == []


# ---------------------------------------------------------------- problems


def test_unknown_key_is_located_at_the_key_with_did_you_mean():
    problems = check("components:\n  building:\n    zone: supply\n    fieldz: {}\n")
    assert [str(p) for p in problems] == [
        "g.yaml:4:5: error: components.building: unknown key 'fieldz'; expected one of 'zone', 'fields', "
        "'properties', 'active', 'types', 'label', 'source', 'provisional', 'box', 'graph', 'board' or 'copies'; "
        "did you mean 'fields'?"
    ]


def test_unknown_section_with_did_you_mean():
    (problem,) = check("compnents: {}\n")
    assert problem.message.startswith("unknown section 'compnents'; expected one of 'game', ")
    assert problem.hint == "did you mean 'components'?"
    assert problem.location == Location("g.yaml", 1, 1)


def test_misspelt_required_key_is_reported_once():
    assert messages("kinds:\n  good: {value: [a, b]}\n") == [
        "g.yaml:2:10: error: kinds.good: unknown key 'value'; expected one of 'values', 'labels', 'label', "
        "'source', 'provisional', 'from' or 'to'; did you mean 'values'?"
    ]


def test_missing_key_is_located_at_the_entry():
    assert messages("hooks:\n  h:\n    on: built\n") == ["g.yaml:2:3: error: hooks.h: missing key 'do'"]


def test_wrong_type_is_located_at_the_value():
    assert messages("steps:\n  s:\n    actions:\n      a: {label: 7}\n") == [
        "g.yaml:4:18: error: steps.s.actions.a.label: expected a string or a mapping; got the integer 7"
    ]


def test_yes_for_a_boolean_gets_a_hint():
    (problem,) = check("steps:\n  s:\n    optional: yes\n    actions: {}\n")
    assert problem.message == "steps.s.optional: the string 'yes' is not allowed; expected true, false or 'always'"
    assert "true or false" in problem.hint
    (problem,) = check("game: {id: g, players: [2], name: {en: G}}\nsteps:\n  s:\n    actions:\n      a: {pass: yes}\n")
    assert problem.message.endswith("expected true or false; got the string 'yes'") and "true or false" in problem.hint


def test_enum_value_with_did_you_mean():
    text = "flow:\n  each_player: {step: s}\n  direction: clockwize\n"
    assert messages(text) == [
        "g.yaml:3:14: error: flow.direction: the string 'clockwize' is not allowed; "
        "expected 'clockwise' or 'counterclockwise'; did you mean 'clockwise'?"
    ]


def test_flow_node_without_a_kind_key():
    assert messages("flow:\n  - efect: 'x = 1'\n") == [
        "g.yaml:2:5: error: flow[0]: expected one of the keys 'effect', 'step', 'simultaneous', 'call', 'if', "
        "'repeat' or "
        "'each_player'; 'efect': did you mean 'effect'?"
    ]


def test_flow_node_keys_are_checked_per_kind():
    assert messages("flow:\n  step: s\n  untill: x\n") == [
        "g.yaml:3:3: error: flow: unknown key 'untill'; expected one of 'step', 'label', 'source' or 'provisional'"
    ]
    assert messages("flow:\n  repeat: []\n  until: a\n  while: b\n") == [
        "g.yaml:4:3: error: flow: 'until' and 'while' cannot be used together"
    ]


def test_bad_names_are_located_at_the_key():
    assert messages("components:\n  c:\n    types:\n      3bad: {}\n") == [
        "g.yaml:4:7: error: components.c.types: invalid name '3bad': "
        "expected a name: letters, digits and '_', not starting with a digit"
    ]
    assert messages('defs:\n  "f(a, b": "1"\n') == [
        "g.yaml:2:3: error: defs: invalid name 'f(a, b': expected a name with its parameters, e.g. price(p, b)"
    ]


def test_player_count_maps_and_int_keys():
    text = "components:\n  c:\n    types:\n      t: {count: {by_players: {3: 1, four: 2}}}\n"
    assert messages(text) == [
        "g.yaml:4:38: error: components.c.types.t.count.by_players: invalid name 'four': expected a player count"
    ]
    text = "components:\n  c:\n    types:\n      t: {count: {3: 1}}\n"
    assert messages(text) == [
        "g.yaml:4:11: error: components.c.types.t.count: missing key 'by_players'",
        "g.yaml:4:19: error: components.c.types.t.count: unknown key '3'; expected 'by_players'",
    ]


def test_table_with_provenance_is_strict_and_floats_are_not_values():
    assert messages("tables:\n  t: {value: 3, sorce: x}\n") == [
        "g.yaml:2:17: error: tables.t: unknown key 'sorce'; expected one of 'value', 'label', 'source' or "
        "'provisional'; did you mean 'source'?"
    ]
    assert messages("tables:\n  t: {3: 0.5}\n") == [
        "g.yaml:2:10: error: tables.t.3: expected true or false, an integer, a string, a list or a mapping; "
        "got the number 0.5"
    ]


def test_visibility_owner_only_for_player_zones():
    assert check("zones:\n  player:\n    hand: {visibility: owner}\n") == []
    assert messages("zones:\n  global:\n    deck: {visibility: owner}\n") == [
        "g.yaml:3:24: error: zones.global.deck.visibility: the string 'owner' is not allowed; "
        "expected 'public', 'hidden', 'contents' or 'top'"
    ]


def test_a_file_that_is_not_a_mapping():
    assert messages("- a\n- b\n") == ["g.yaml:1:1: error: expected a mapping; got a list"]


def test_all_problems_at_once_shallow_first_then_in_file_order():
    text = "steps:\n  s:\n    optional: 3\n    actions: {a: {pass: 1}}\nkinds:\n  k: {values: []}\ngmae: {}\n"
    assert [(p.location.line, p.message.split(":")[0]) for p in check(text)] == [
        (7, "unknown section 'gmae'; expected one of 'game', 'options', 'disputes', 'kinds', 'tables', 'resources', "
            "'vars', 'zones', 'parameters', 'components', 'defs', 'procedures', 'events', 'scripted_seats', 'hooks', "
            "'setup', 'flow', 'phases', 'steps', "
            "'scoring', 'end', 'words', 'labels' or 'display'"),
        (3, "steps.s.optional"),
        (6, "kinds.k.values"),
        (4, "steps.s.actions.a.pass"),
    ]


# ---------------------------------------------------------------- data folders


def test_data_dir_prefers_the_checkout_then_package_data(tmp_path, monkeypatch):
    assert resources.data_dir("schemas") == ROOT / "schemas"

    installed = tmp_path / "site-packages" / "interpreter"
    (installed / "_data" / "schemas").mkdir(parents=True)
    (tmp_path / "site-packages" / "schemas").mkdir()  # somebody else's folder
    monkeypatch.setattr(resources, "_PACKAGE", installed)
    assert resources.data_dir("schemas") == installed / "_data" / "schemas"
    with pytest.raises(FileNotFoundError, match="grammar"):
        resources.data_dir("grammar")
