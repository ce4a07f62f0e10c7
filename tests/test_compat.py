"""The compatibility corpus (tests/compat/): authors' files exactly as they stood at earlier releases still
verify on this engine, as written and after `meeple upgrade` (README: Formats are promises)."""

import hashlib
import shutil
from pathlib import Path

import pytest

from interpreter.analysis.scenario import load_scenarios, run_game_scenarios
from interpreter.analysis.upgrade import upgrade
from interpreter.analysis.verify import verify
from interpreter.definition import versions
from interpreter.definition.loader import load_yaml
from interpreter.definition.overlay import scenario_files as overlay_scenarios
from interpreter.game import load_game

from conftest import ROOT

COMPAT = ROOT / "tests" / "compat"
COMMITS = sorted(p.name for p in COMPAT.iterdir() if p.is_dir())


def _digest(paths) -> str:
    h = hashlib.sha256()
    for p in sorted(paths):
        h.update(p.read_bytes())
    return h.hexdigest()


def _distinct(items):
    """Items (label, path, files) with distinct content: a file that did not change between two releases is
    verified once."""
    seen, out = set(), []
    for label, path, files in items:
        key = _digest(files)
        if key not in seen:
            seen.add(key)
            out.append(pytest.param(path, id=label))
    return out


def _games():
    for c in COMMITS:
        for game in sorted((COMPAT / c / "examples").glob("**/game.yaml")):
            d = game.parent
            yield f"{c}:{d.name}", d, list(d.rglob("*.yaml"))


def _overlays():
    for c in COMMITS:
        for f in sorted((COMPAT / c).glob("examples/house_rules/*.yaml")) + sorted(
                (COMPAT / c).glob("gamedefs/*/variants/*.yaml")):
            files, _ = overlay_scenarios(load_yaml(f))
            yield f"{c}:{f.stem}", f, [f] + files


GAMES = _distinct(_games())
OVERLAYS = _distinct(_overlays())


def test_the_corpus_is_exactly_as_it_was_taken():
    manifest = {}
    for line in (COMPAT / "MANIFEST").read_text(encoding="utf-8").splitlines():
        digest, name = line.split(None, 1)
        manifest[name] = digest
    present = {"./" + str(p.relative_to(COMPAT)) for p in COMPAT.rglob("*")
               if p.is_file() and p.name not in ("MANIFEST", "README.md")}
    assert present == set(manifest)
    changed = [n for n, d in manifest.items() if hashlib.sha256((COMPAT / n).read_bytes()).hexdigest() != d]
    assert changed == []
    assert {"82dcfcf", "caaff96", "90e3129"} <= set(COMMITS) and len(GAMES) >= 15 and len(OVERLAYS) >= 8


@pytest.mark.parametrize("game_dir", GAMES)
def test_an_example_game_of_an_earlier_release_verifies_as_written(game_dir):
    report = verify(game_dir, games=1, seed=1)
    assert report.ok, (report.definition_problems, report.scenario_error,
                       [(r.name, r.failures) for r in report.scenarios if not r.passed], report.violations)
    assert report.scenarios and report.play


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_an_overlay_of_an_earlier_release_verifies_as_written(overlay):
    base = load_yaml(overlay).data["overlay"]["base"]
    report = verify(base, games=0, variant=[str(overlay)])
    assert report.ok, (report.definition_problems, report.scenario_error,
                       [(r.name, r.failures) for r in report.scenarios if not r.passed])


def _scenarios_pass(game, files, root=None):
    results = run_game_scenarios(game, root, files)
    return results and [(r.name, r.failures) for r in results if not r.passed] == []


def test_the_corpus_upgraded_to_the_current_version_means_the_same(tmp_path):
    """After `meeple upgrade`, every file states the current version and every scenario still passes: the
    upgrade rewrote what version 2 reads differently (Puerto Rico's 2-player `governor: 0` is seat 1)."""
    copy = tmp_path / "compat"
    shutil.copytree(COMPAT, copy)
    changes = 0
    for param in GAMES + OVERLAYS:
        (path,) = param.values
        mine = copy / Path(path).relative_to(COMPAT)
        report = upgrade(mine)
        assert [p for p in report.problems if p.severity == "error"] == [], report.problems
        changes += len(report.changes)
        if mine.is_dir():
            game = load_game(mine)
            assert _scenarios_pass(game, None, mine), mine
            assert load_yaml(mine / "game.yaml").data["game"]["format"] == versions.CURRENT
        else:
            head = load_yaml(mine).data["overlay"]
            files, _ = overlay_scenarios(load_yaml(mine))
            assert head["format"] == versions.CURRENT
            assert all(load_yaml(f).data["format"] == versions.CURRENT for f in files)
            game = load_game(head["base"], variant=[str(mine)])  # an overlay with no scenarios: it must load
            assert not files or _scenarios_pass(game, files), mine
    assert changes > len(GAMES) + len(OVERLAYS)  # more than the stamps: some meanings were rewritten


def test_the_two_player_scenarios_of_an_earlier_release_read_their_seats_from_0():
    files = sorted((COMPAT / "82dcfcf" / "gamedefs/puerto_rico/variants/two_players_scenarios").glob("*.yaml"))
    governor = [entry["then"]["governor"] for _, entry, _ in load_scenarios(files) if "governor" in entry["then"]]
    assert 0 in governor  # seat 1 written as 0: the file is of format 1, read as it
