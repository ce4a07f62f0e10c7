"""Editors: every shipped game, overlay and scenario file names its schema on its first line, and that
schema, loaded by path as an editor's YAML language server loads it (no registry of ours, no network),
accepts the file.

When the `yaml-language-server` program is installed the same files may be opened in an editor; this test
does what the server does with a modeline: resolve `$schema=PATH` relative to the file and validate.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest

from conftest import ROOT
from interpreter.definition.loader import load_yaml

MODELINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)\s*$")
SHIPPED = sorted(p for d in ("gamedefs", "examples") for p in (ROOT / d).rglob("*.yaml"))


def schema_of(path: Path):
    first = path.read_text(encoding="utf-8").split("\n", 1)[0]
    m = MODELINE.match(first)
    assert m, f"{path.relative_to(ROOT)}: the first line names no schema (# yaml-language-server: $schema=...)"
    target = (path.parent / m.group(1)).resolve()
    assert target.is_file(), f"{path.relative_to(ROOT)}: its schema {m.group(1)} is not there"
    return json.loads(target.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", SHIPPED, ids=[str(p.relative_to(ROOT)) for p in SHIPPED])
def test_a_shipped_file_is_valid_against_the_schema_its_modeline_names(path):
    schema = schema_of(path)
    data = load_yaml(path).data  # YAML 1.2 booleans (`on:` is a key), as the language server reads it
    # A plain validator: a $ref an editor could not follow (another file by URN) fails here too.
    validator = jsonschema.Draft202012Validator(schema)
    errors = [f"{'.'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(data)]
    assert errors == []


def test_a_typo_in_an_overlay_or_a_scenario_is_flagged_by_its_schema():
    overlay = json.loads((ROOT / "schemas" / "overlay.schema.json").read_text(encoding="utf-8"))
    bad = {"overlay": {"base": "puerto_rico"}, "sett": {"a.b": 1}}
    assert any("sett" in e.message for e in jsonschema.Draft202012Validator(overlay).iter_errors(bad))
    scenario = json.loads((ROOT / "schemas" / "scenario.schema.json").read_text(encoding="utf-8"))
    bad = {"scenarios": {"x": {"source": "s", "givn": {}}}}
    assert any("givn" in e.message for e in jsonschema.Draft202012Validator(scenario).iter_errors(bad))


def test_every_key_of_every_schema_has_a_description():
    missing = []
    for name in ("gamedef", "overlay", "scenario"):
        schema = json.loads((ROOT / "schemas" / f"{name}.schema.json").read_text(encoding="utf-8"))
        defs = schema.get("$defs", {})

        def walk(node, path):
            if isinstance(node, dict):
                for key, sub in (node.get("properties") or {}).items():
                    ref = sub.get("$ref", "") if isinstance(sub, dict) else ""
                    described = isinstance(sub, dict) and ("description" in sub or (
                        ref.startswith("#/$defs/") and "description" in defs.get(ref.split("/")[-1], {})))
                    if not described:
                        missing.append(f"{name}: {'.'.join(path + [key])}")
                for key, sub in node.items():
                    if key == "properties" and isinstance(sub, dict):  # a map of key -> subschema
                        for name_, subschema in sub.items():
                            walk(subschema, path + [name_])
                    else:
                        walk(sub, path + [key])
            elif isinstance(node, list):
                for sub in node:
                    walk(sub, path)
        walk(schema, [])
    assert missing == []


def test_meeple_schema_prints_each_kind_of_schema(capsys):
    from interpreter.cli import main
    for kind, title in (("gamedef", "definition"), ("overlay", "overlay"), ("scenario", "scenario")):
        assert main(["schema", "--kind", kind]) == 0
        assert title in json.loads(capsys.readouterr().out)["title"]


def test_a_bare_game_name_in_a_checkout_is_the_checkout_s_copy_and_says_so(capsys, monkeypatch):
    from interpreter.cli import main
    from interpreter.game import find_game
    monkeypatch.chdir(ROOT / "examples")           # anywhere inside the checkout
    assert find_game("puerto_rico").resolve() == (ROOT / "gamedefs" / "puerto_rico").resolve()
    assert main(["validate", "puerto_rico"]) == 0
    err = capsys.readouterr().err
    assert "puerto_rico: the copy in" in err and "gamedefs/puerto_rico" in err
