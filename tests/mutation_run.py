"""A mutation run: one-line changes to the engine and to the checkers, each of which the tests must notice.

Not part of the default suite (it runs the relevant tests once per mutant). Run it from the repository root:

    python tests/mutation_run.py              # every mutant, two at a time; prints killed / SURVIVED
    python tests/mutation_run.py 3 17         # only these mutants (by number)
    python tests/mutation_run.py --list       # the mutants

Each mutant is applied to a copy of the repository in a temporary directory (the checkout is never changed),
and the tests named for it run there with `python -m pytest -x -q`; the mutant is killed when they fail (or
run past the time limit). A survivor is a checker, or a guard, that no test can see fail: report it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 300

# (file, the line's text to change (unique in the file), its replacement, tests that must fail)
MUTANTS = [
    # --- checkers
    ("interpreter/engine/invariants.py", 'if (vis == "hidden" or pl != viewer)', 'if (vis == "hidden")', "tests/test_checkers.py"),
    ("interpreter/engine/invariants.py", 'if v == "hidden" or (v == "owner" and owner != player):', 'if v == "hidden":',
     "tests/test_checkers.py"),
    ("interpreter/engine/invariants.py", "    if t != totals0:", "    if False:", "tests/test_invariants.py"),
    ("interpreter/engine/invariants.py", "        if c != 1:", "        if c > 1:", "tests/test_invariants.py"),
    ("interpreter/engine/invariants.py", 'if "rng" in v:', "if False:", "tests/test_checkers.py"),
    ("interpreter/analysis/scenario.py", 'if ok != (key == "legal"):', "if False:", "tests/test_checkers.py"),
    ("interpreter/analysis/scenario.py", "if g.is_over(s) != expected:", "if False:", "tests/test_checkers.py"),
    ("interpreter/analysis/scenario.py", "return type(got) is type(expected) and got == expected", "return got == expected",
     "tests/test_checkers.py"),
    ("interpreter/analysis/scenario.py", "if not checks_of(entry):", "if False:", "tests/test_checkers.py"),
    ("interpreter/analysis/scenario_actions.py", "        if problem:", "        if False:", "tests/test_checkers.py"),
    ("interpreter/analysis/scenario.py", "res.failures.append(f\"when[{i}]: '{step['illegal']}' should be illegal", "return s  #",
     "tests/test_checkers.py"),
    ("interpreter/analysis/scenario.py", "if not same(cur + 1 if cur is not None else None, expected):", "if False:",
     "tests/test_checkers.py"),
    ("interpreter/analysis/scenario.py", "if list(s.ends) != list(expected):", "if False:", "tests/test_checkers.py"),
    ("interpreter/analysis/scenario.py", "elif not same(bd[pl][item], value):", "elif False:", "tests/test_checkers.py"),
    ("interpreter/engine/consistency.py", "    if list(s.types) != types:", "    if False:", "tests/test_tamper.py"),
    ("interpreter/engine/consistency.py", "    if now != totals:", "    if False:", "tests/test_tamper.py"),
    ("interpreter/engine/consistency.py", "if type(s.rng) is not int or not 0 <= s.rng < RNG_STATES:", "if False:",
     "tests/test_tamper.py"),
    ("interpreter/engine/consistency.py", "if lo is not None and v < lo:", "if False:", "tests/test_tamper.py"),
    ("interpreter/engine/consistency.py", "if fr[0] not in cache[below[0]] and fr[0] not in hooks:", "if False:",
     "tests/test_tamper.py"),
    ("interpreter/engine/consistency.py", "if any(type(x) is not int or x < 0 for x in (a, b, c)):", "if False:",
     "tests/test_tamper.py"),
    ("interpreter/engine/state_types.py", "if any(c != 1 for c in seen):", "if False:", "tests/test_state.py tests/test_tamper.py"),
    ("interpreter/engine/scoring.py", '                    raise RuleError(f"a tiebreak gave {v!r}, not a number")', "                    pass",
     "tests/test_checkers.py"),
    ("tests/test_golden.py", 'return env.get("MEEPLE_REGEN_GOLDEN") == "1" and not env.get("CI")',
     'return bool(env.get("MEEPLE_REGEN_GOLDEN"))', "tests/test_golden.py"),
    ("tests/test_hostile.py", 'if r["cpu"] > CPU_SECONDS:', "if False:", "tests/test_hostile.py::test_the_checks_of_this_test_can_fail"),
    # --- engine guards
    ("interpreter/engine/decisions.py", "if type(aid) is not str or len(aid) > MAX_ACTION_ID:", "if False:", "tests/test_untrusted.py"),
    ("interpreter/engine/decisions.py", "return self._play(s, s.copy(self.layout), act, vals, log, player)",
     "return self._play(s, s, act, vals, log, player)", "tests/test_stateful.py"),
    ("interpreter/engine/flow.py", "    if len(s.flow) >= MAX_FLOW_DEPTH:", "    if False:", "tests/test_limits.py"),
    ("interpreter/engine/flow.py", "        if _events > MAX_EVENTS:", "        if False:", "tests/test_limits.py"),
    ("interpreter/language/codegen.py", "    if s.budget > LOOP_BUDGET:", "    if False:", "tests/test_limits.py"),
    ("interpreter/language/calls.py", 'f"if s.budget > {LOOP_BUDGET}:",', 'f"if False:",', "tests/test_limits.py"),
    ("interpreter/language/compiler.py", "        if self._depth >= MAX_EXPR_DEPTH:", "        if False:", "tests/test_limits.py"),
    ("interpreter/language/compiler.py", "        if self._work > MAX_COMPILE_WORK or self._total > MAX_GAME_WORK:", "        if False:",
     "tests/test_limits.py"),
    ("interpreter/language/statements.py", "        if depth - 2 >= MAX_BLOCK_DEPTH:", "        if False:", "tests/test_limits.py"),
    ("interpreter/language/operators.py", '        if x.t == "bool":', "        if False:", "tests/test_limits.py"),
    ("interpreter/definition/limits.py", "    if len(text) > MAX_DSL_CHARS:", "    if False:", "tests/test_limits.py"),
    ("interpreter/definition/limits.py", "        if total > MAX_PIECES and largest is not None:", "        if False:", "tests/test_limits.py"),
    ("interpreter/definition/static_checks.py", "            if not any(same_value(d, v) for v in values):", "            if False:",
     "tests/test_limits.py"),
    ("interpreter/language/vocabulary.py", '    _want(a[0], ("int",), "random(n)", node)', "    pass", "tests/test_limits.py"),
    ("interpreter/definition/untrusted.py", "            if depth > max_depth:", "            if False:", "tests/test_untrusted.py"),
    ("interpreter/definition/loader.py", "            if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):", "            if False:",
     "tests/test_untrusted.py"),
    ("interpreter/definition/parser_cache.py", "if not _private(st, stat.S_ISREG) or st.st_size > MAX_CACHE_BYTES:",
     "if st.st_size > MAX_CACHE_BYTES:", "tests/test_untrusted.py"),
    ("interpreter/definition/parser_cache.py", "        if hashlib.sha256(body).hexdigest().encode() != digest:", "        if False:",
     "tests/test_untrusted.py"),
    ("interpreter/definition/overlay.py", "if Path(entry).is_absolute() or not inside(p):", "if False:", "tests/test_untrusted.py"),
    ("interpreter/engine/state.py", "    if set(d) != set(keys):", "    if False:", "tests/test_tamper.py"),
    ("interpreter/engine/state.py", "    if type(v) is not int:", "    if False:", "tests/test_tamper.py"),
    ("interpreter/definition/overlay.py", "if loc is None or loc.file in files or str(p) in base or loc.line <= 0 or not changes:",
     "if True:", "tests/test_limits.py"),
    ("interpreter/definition/static_checks.py", "        if name in called or name not in keys:", "        if True:",
     "tests/test_limits.py"),
    ("interpreter/game.py", "        if not (type(player) is int and 0 <= player < s.n):", "        if False:",
     "tests/test_untrusted.py"),
    ("interpreter/engine/setup.py", "            if allowed is not None and not any(same_value(v, a) for a in allowed):",
     "            if allowed is not None and v not in allowed:", "tests/test_limits.py"),
]


def copy_repo() -> Path:
    d = Path(tempfile.mkdtemp(prefix="mutant-"))
    for name in ("interpreter", "tests", "examples", "gamedefs", "grammar", "schemas", "README.md", "pyproject.toml"):
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, d / name, ignore=shutil.ignore_patterns("__pycache__", ".hypothesis"))
        elif src.exists():
            shutil.copy2(src, d / name)
    return d


def run_mutant(i: int) -> tuple[int, str, str]:
    file, old, new, tests = MUTANTS[i]
    d = copy_repo()
    try:
        path = d / file
        text = path.read_text(encoding="utf-8")
        if text.count(old) != 1:
            return i, "BROKEN", f"the line is not unique in {file} ({text.count(old)} matches)"
        path.write_text(text.replace(old, new), encoding="utf-8")
        env = dict(os.environ, PYTHONPATH=str(d), PYTHONDONTWRITEBYTECODE="1")
        env.pop("MEEPLE_REGEN_GOLDEN", None)
        check = subprocess.run([sys.executable, "-c", "import interpreter; print(interpreter.__file__)"], cwd=d, env=env,
                               capture_output=True, text=True)
        if not check.stdout.startswith(str(d)):
            return i, "BROKEN", f"the copy's package is not the one imported: {check.stdout.strip()}"
        try:
            proc = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests.split()],
                                  cwd=d, env=env, capture_output=True, text=True, timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            return i, "killed", f"timeout after {TIMEOUT} s"
        last = (proc.stdout.strip().splitlines() or [""])[-1]
        return i, ("killed" if proc.returncode != 0 else "SURVIVED"), last
    finally:
        shutil.rmtree(d, ignore_errors=True)


def main(argv: list[str]) -> int:
    if argv[:1] == ["--list"]:
        for i, (file, old, new, tests) in enumerate(MUTANTS):
            print(f"{i:3} {file}: {old.strip()!r} -> {new.strip()!r}  [{tests}]")
        return 0
    which = [int(a) for a in argv] or list(range(len(MUTANTS)))
    survivors = []
    with ThreadPoolExecutor(max_workers=2) as pool:
        for i, verdict, detail in pool.map(run_mutant, which):
            file, old, new, _ = MUTANTS[i]
            print(f"{i:3} {verdict:8} {file}: {old.strip()[:60]!r}  ({detail})", flush=True)
            if verdict != "killed":
                survivors.append(i)
    print(f"{len(which) - len(survivors)}/{len(which)} mutants killed; survivors: {survivors or 'none'}")
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
