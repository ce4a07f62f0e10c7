"""Golden transcripts: seeded games whose every menu size, action and final score are on file.

Like a chess engine's move-count files, they pin the exact behaviour of the engine on the shipped games: a
change of the machine that alters any menu or outcome shows up here, even when every invariant still holds.
After an intended change of a game's rules, write them again with `MEEPLE_REGEN_GOLDEN=1 pytest
tests/test_golden.py` and review the diff.
"""

import hashlib
import json
import os
import random

import pytest

from interpreter.game import load_game

from conftest import ROOT
from goldens import check_text, regenerate

GOLDEN = ROOT / "tests" / "golden"
CASES = [("puerto_rico", 3, 11), ("puerto_rico", 5, 12), ("castles_of_burgundy", 2, 13),
         ("castles_of_burgundy", 4, 14), ("market_day", 3, 15), ("phoenicia", 2, 16), ("phoenicia", 5, 17),
         ("la_granja_no_siesta", 1, 16), ("la_granja_no_siesta", 2, 17)]


def transcript(name, players, seed):
    game = load_game(ROOT / "examples" / name if name == "market_day" else name)
    s = game.new_game(players, seed=seed)
    r = random.Random(seed)
    menus, actions = [], []
    while not game.is_over(s):
        acts = game.legal_actions(s)
        menus.append(len(acts))
        a = acts[r.randrange(len(acts))]
        actions.append(a["id"])
        s = game.apply(s, a)
    out = game.outcome(s)
    state = json.dumps(game.to_json(s), sort_keys=True)
    return {"game": name, "players": players, "seed": seed, "decisions": len(actions),
            "menu_sizes": menus, "actions": actions, "scores": out["scores"], "winners": out["winners"],
            "ends": out["ends"], "final_state_sha256": hashlib.sha256(state.encode()).hexdigest()}


def test_goldens_are_regenerated_only_by_an_explicit_1_outside_ci():
    assert regenerate({"MEEPLE_REGEN_GOLDEN": "1"})
    for env in ({}, {"MEEPLE_REGEN_GOLDEN": "0"}, {"MEEPLE_REGEN_GOLDEN": "yes"}, {"MEEPLE_REGEN_GOLDEN": ""},
                {"MEEPLE_REGEN_GOLDEN": "1", "CI": "true"}, {"MEEPLE_REGEN_GOLDEN": "1", "CI": "1"}):
        assert not regenerate(env), env


@pytest.mark.parametrize("env", [{"MEEPLE_REGEN_GOLDEN": "0"}, {"MEEPLE_REGEN_GOLDEN": "yes"},
                                 {"MEEPLE_REGEN_GOLDEN": "1", "CI": "true"}])
def test_a_changed_golden_text_fails_and_is_not_written_again_unless_asked(tmp_path, monkeypatch, env):
    """Every golden text (rulebooks, pictures, web pages) goes through goldens.check_text."""
    monkeypatch.delenv("CI", raising=False)
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    path = tmp_path / "golden.txt"
    path.write_text("as on file\n", encoding="utf-8")
    with pytest.raises(AssertionError, match="changed"):
        check_text(path, "something else")
    assert path.read_text(encoding="utf-8") == "as on file\n"
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("MEEPLE_REGEN_GOLDEN", "1")
    check_text(path, "something else")
    assert path.read_text(encoding="utf-8") == "something else\n"


def test_every_golden_file_is_checked_through_goldens():
    """No test writes a golden by a rule of its own: the tests that hold golden files use goldens.py."""
    for test in sorted((ROOT / "tests").glob("test_*.py")):
        text = test.read_text(encoding="utf-8")
        if "MEEPLE_REGEN_GOLDEN" in text and test.name != "test_golden.py":
            assert 'environ.get("MEEPLE_REGEN_GOLDEN")' not in text and "environ['MEEPLE_REGEN_GOLDEN']" not in text, test
        if test.name != "test_golden.py" and ("golden/" in text or "GOLDEN =" in text):
            assert "from goldens import" in text, test.name


@pytest.mark.parametrize("name,players,seed", CASES, ids=[f"{n}-{p}p-{s}" for n, p, s in CASES])
def test_a_seeded_game_plays_exactly_as_on_file(name, players, seed):
    path = GOLDEN / f"{name}-{players}p-seed{seed}.json"
    got = transcript(name, players, seed)
    if regenerate(os.environ):
        path.write_text(json.dumps(got, indent=1) + "\n", encoding="utf-8")
    want = json.loads(path.read_text(encoding="utf-8"))
    for i, (a, b) in enumerate(zip(want["actions"], got["actions"])):
        assert (want["menu_sizes"][i], a) == (got["menu_sizes"][i], b), f"first difference at decision {i}"
    assert got == want
