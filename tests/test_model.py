"""A game directory is read whole: every problem of every file is reported at once, located."""

import shutil

import pytest

from interpreter.game import load_game
from interpreter.definition.problems import DefinitionError

from conftest import ROOT


def plant(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path.name}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_misspelt_name_a_schema_violation_and_a_duplicate_key_are_reported_together(tmp_path):
    game = tmp_path / "pr"
    shutil.copytree(ROOT / "gamedefs" / "puerto_rico", game)
    plant(game / "builder.yaml", "player.doubloons -= price", "player.doublons -= price")
    plant(game / "game.yaml", "players: [3, 4, 5]", "players: three")
    plant(game / "components.yaml", "        cost: 8\n", "        cost: 8\n        cost: 9\n")
    with pytest.raises(DefinitionError) as info:
        load_game(game)
    text = "\n".join(str(p) for p in info.value.problems)
    assert "builder.yaml:" in text and "a player has no var 'doublons'; did you mean 'doubloons'?" in text
    assert "game.yaml:" in text and "game.players: expected a list" in text
    assert "components.yaml:" in text and "duplicate key 'cost' (first defined at line" in text
    for p in info.value.problems:
        assert p.location is not None and p.location.line > 0 and p.location.col > 0
    assert len(info.value.problems) == 3, text


def test_an_id_defined_in_two_files_names_both_places(tmp_path):
    (tmp_path / "a.yaml").write_text("game: {id: g, players: [2]}\nflow: {effect: pass}\n"
                                     "tables:\n  x: 1\n", encoding="utf-8")
    (tmp_path / "b.yaml").write_text("tables:\n  x: 2\n", encoding="utf-8")
    with pytest.raises(DefinitionError) as info:
        load_game(tmp_path)
    (p,) = info.value.problems
    assert "'x' is defined twice in tables" in str(p)
    assert p.location.file.endswith("b.yaml") and "a.yaml:4" in p.hint
