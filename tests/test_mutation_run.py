"""The mutation run keeps itself honest (tests/mutation_run.py): every mutant still applies to the code, the
modules issue 32 named each have mutants, and a mutant that no longer applies, or whose tests time out, is
named as such, never counted as a kill or a survivor. (The run itself is not part of the suite.)"""
import subprocess

import mutation_run as run


def test_every_mutant_still_applies_to_exactly_one_place_of_the_code():
    assert [(i, run.MUTANTS[i][0], why) for i in range(len(run.MUTANTS)) if (why := run.applies(i))] == []


def test_every_module_the_run_must_cover_has_mutants():
    assert set(run.COVERED) <= {file for file, *_ in run.MUTANTS}


def test_a_mutant_that_no_longer_applies_fails_the_run_with_its_name(monkeypatch, capsys):
    monkeypatch.setattr(run, "MUTANTS", [("interpreter/game.py", "a line that is nowhere", "x", "tests/test_game.py")])
    assert run.run_mutant(0) == (0, "NOT APPLIED", "its line is not in interpreter/game.py")
    assert run.main(["0"]) == 1
    out = capsys.readouterr().out
    assert "NOT APPLIED: 0 (interpreter/game.py)" in out and "0/1 mutants killed" in out
    assert "| `interpreter/game.py` | 1 | 0 | 0 | 0 | 1 |" in out


def test_a_timeout_is_reported_apart_not_as_a_kill(monkeypatch, capsys):
    file, old, _, _ = run.MUTANTS[0]
    monkeypatch.setattr(run, "MUTANTS", [(file, old, old, "tests/test_game.py")])
    real = subprocess.run

    def slow(argv, **kw):
        if "pytest" in argv:
            raise subprocess.TimeoutExpired(argv, run.TIMEOUT)
        return real(argv, **kw)
    monkeypatch.setattr(run.subprocess, "run", slow)
    assert run.run_mutant(0)[1] == "TIMEOUT"
    assert run.main(["0"]) == 1
    out = capsys.readouterr().out
    assert "TIMEOUT: 0" in out and "0/1 mutants killed" in out and f"| `{file}` | 1 | 0 | 0 | 1 | 0 |" in out
