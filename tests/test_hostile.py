"""The hostile corpus (tests/hostile.py): every input is refused cleanly, within a CPU and memory budget.

The cases run in child processes (tests/hostile_child.py), a batch per child so that the imports are paid
once; each case's CPU time and the child's peak memory after it are measured there. For each case: the exit
code is the one due (1: the definition, overlay or scenario is at fault; 2: usage, or a record, state or
file that cannot be read), the file at fault is named with its `file:line:col`, no "internal error" nor
traceback is printed, and the case used under 1 s of CPU and the process under 300 MB.
"""

import json
import os
import re
import subprocess
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest

from conftest import ROOT
from hostile import corpus

CPU_SECONDS = 1.0
MEMORY_MB = 300
BATCHES = 4

CASES = corpus()


def run_batch(names):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, str(ROOT / "tests" / "hostile_child.py"), *names], cwd=ROOT, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def results():
    names = [c.name for c in CASES]
    batches = [names[i::BATCHES] for i in range(BATCHES)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        done = [r for batch in pool.map(run_batch, batches) for r in batch]
    return {r["name"]: r for r in done}


def test_the_corpus_covers_every_class_with_at_least_400_inputs():
    counts = Counter(c.cls for c in CASES)
    assert len(CASES) >= 400 and set(counts) == set(range(1, 11)), counts


def problems_of(case, r) -> list[str]:
    out = r["out"]
    problems = []
    if r["exit"] not in case.exit:
        problems.append(f"exit {r['exit']}, expected {' or '.join(map(str, case.exit))}")
    for bad in ("internal error", "Traceback", "bug of meeple"):
        if bad in out:
            problems.append(f"prints {bad!r}")
    if case.at_fault:
        path = re.escape(f"{r['dir']}/{case.at_fault}")
        if not re.search(path + (r"\b" if case.whole_file else r":\d+:\d+"), out):
            problems.append(f"does not locate {case.at_fault}" + ("" if case.whole_file else " at line:col"))
    if r["cpu"] > CPU_SECONDS:
        problems.append(f"{r['cpu']:.2f} s of CPU")
    if r["rss_mb"] > MEMORY_MB:
        problems.append(f"{r['rss_mb']:.0f} MB")
    return problems


@pytest.mark.parametrize("cls", range(1, 11))
def test_hostile_inputs_are_refused_cleanly(results, cls):
    failures = []
    for case in CASES:
        if case.cls != cls:
            continue
        r = results[case.name]
        problems = problems_of(case, r)
        if problems:
            failures.append(f"{case.name}: {'; '.join(problems)}\n    " + r["out"].strip().replace("\n", "\n    ")[-600:])
    assert not failures, f"{len(failures)} case(s) of class {cls}:\n" + "\n".join(failures)


def test_the_checks_of_this_test_can_fail():
    """A result that crashed, hung, or named no location is caught by `problems_of`."""
    case = next(c for c in CASES if c.at_fault and not c.whole_file)
    good = {"exit": case.exit[0], "out": "x", "cpu": 0.1, "rss_mb": 50, "dir": "/d"}
    assert problems_of(case, dict(good, out=f"/d/{case.at_fault}:3:4: error: x")) == []
    assert problems_of(case, dict(good, out="/d/x:3:4: error"))
    assert problems_of(case, dict(good, exit=0, out=f"/d/{case.at_fault}:3:4: error"))
    assert problems_of(case, dict(good, out=f"/d/{case.at_fault}:3:4: internal error KeyError"))
    assert problems_of(case, dict(good, cpu=1.5, out=f"/d/{case.at_fault}:3:4:"))
    assert problems_of(case, dict(good, rss_mb=400, out=f"/d/{case.at_fault}:3:4:"))
