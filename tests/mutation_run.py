"""A mutation run: one-line changes to the engine and to the checkers, each of which the tests must notice.

Not part of the default suite (it runs the relevant tests once per mutant). Run it from the repository root:

    python tests/mutation_run.py              # every mutant, two at a time; a table per module at the end
    python tests/mutation_run.py 3 17         # only these mutants (by number)
    python tests/mutation_run.py --list       # the mutants
    python tests/mutation_run.py --check      # only whether every mutant still applies (a second; the suite
                                              # runs this check too: tests/test_mutation_run.py)

Each mutant is applied to a copy of the repository in a temporary directory (the checkout is never changed),
and the tests named for it run there with `python -m pytest -x -q` (Hypothesis derandomized). Each mutant
ends as one of:
- killed: the tests failed, as they must;
- SURVIVED: the tests passed: a checker, or a guard, that no test can see fail: report it;
- TIMEOUT: the tests ran past TIMEOUT seconds: no verdict (neither a kill nor a survivor), reported apart;
- NOT APPLIED: the line to change is no longer in the file exactly once (the code moved on): the mutant
  must be written again; it is named, and it is neither a kill nor a survivor.
The run exits 0 only when every mutant run was killed.
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
    ("interpreter/engine/visibility.py", "        return owner is not None and viewer == owner", "        return owner is not None",
     "tests/test_checkers.py"),
    ("interpreter/engine/invariants.py", "            if not piece_seen(game, s, x, player):", "            if False:",
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
    ("interpreter/analysis/scenario.py", "elif not same(plain(bd[pl][item]), value):", "elif False:", "tests/test_checkers.py"),
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
    ("interpreter/engine/scoring.py", '                    raise RuleError(f"a tiebreak gave {v!r}, not a number", where)', "                    pass",
     "tests/test_checkers.py"),
    ("tests/goldens.py", 'return env.get("MEEPLE_REGEN_GOLDEN") == "1" and not env.get("CI")',
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
    ("interpreter/definition/files.py", "            if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):", "            if False:",
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
    # --- bots' samples
    ("interpreter/players/determinize.py", "s.rng = game_rng.seed_state(r.getrandbits(62))", "s.rng = game_rng.seed_state(7)",
     "tests/test_determinize.py"),
    ("interpreter/players/mcts.py", "state = sampler.sample(rng)", "state = sampler.sample(type(rng)(0))",
     "tests/test_determinize.py"),
    # --- leak checks
    ("interpreter/analysis/textleaks.py", "for seat in range(s.n):", "for seat in range(1):", "tests/test_textleaks.py"),
    ("interpreter/analysis/textleaks.py", "t.rng = s.rng  #", "pass  #", "tests/test_textleaks.py"),
    ("interpreter/analysis/textleaks.py", "r[1] is None or r[1] is labels.EVERYONE", "r[1] is labels.EVERYONE",
     "tests/test_textleaks.py"),
    ("interpreter/analysis/secrecy.py", "narrate = len(waiting) > 1", "narrate = False", "tests/test_simultaneous.py"),
    # --- simultaneous decisions
    ("interpreter/engine/simultaneous.py", "fr[5] = [c if p == seat else None for p, c in zip(fr[4], fr[5])]",
     "fr[5] = list(fr[5])", "tests/test_simultaneous.py"),
    ("interpreter/engine/simultaneous.py", "seats = [p for p in seats if node.step.menu(s, p, fr[2])]", "seats = list(seats)",
     "tests/test_simultaneous.py"),
    ("interpreter/engine/simultaneous.py", "    if None not in choices:", "    if False:", "tests/test_simultaneous.py"),
    ("interpreter/engine/simultaneous.py", "    if len(set(seats)) != len(seats):", "    if False:", "tests/test_simultaneous.py"),
    # --- outcomes
    ("interpreter/engine/outcomes.py", "if type(p) is int and 0 <= p < n})", "if type(p) is int and 0 <= p})",
     "tests/test_outcomes.py"),
    ("interpreter/engine/outcomes.py", "        n = s.n\n        for t in s.ends:", "        n = s.n\n        for t in reversed(s.ends):",
     "tests/test_outcomes.py"),
    ("interpreter/engine/outcomes.py", "best = max(sign * v for v in totals.values())", "best = max(v for v in totals.values())",
     "tests/test_outcomes.py"),
    # --- the cache
    ("interpreter/definition/cache.py", 'if not isinstance(payload, dict) or payload.get("key") != k:',
     "if not isinstance(payload, dict):", "tests/test_cache.py"),
    ("interpreter/definition/cache.py", 'for name in ("schemas", "grammar"):', 'for name in ("schemas",):', "tests/test_cache.py"),
    ("interpreter/definition/cache.py", "                _feed(h, name.encode(), f.read())", "                _feed(h, name.encode())",
     "tests/test_cache.py"),
    ("interpreter/definition/cache.py", "    with read_once():", "    if True:", "tests/test_cache.py"),
    ("interpreter/definition/files.py", "    if got is None or (max_bytes > got[0] and len(got[1]) > got[0]):", "    if True:",
     "tests/test_cache.py"),
    # --- fast path and parallel runs
    ("interpreter/engine/playout.py", "            think[seat] += clock() - started\n            moves[seat] += 1\n            actions_taken",
     "            think[seat] += clock() - started\n            actions_taken", "tests/test_fastpath.py"),
    ("interpreter/analysis/parallel.py", "    for future in futures:", "    for future in futures[::-1]:",
     "tests/test_parallel.py -k dask"),
    ("interpreter/analysis/parallel.py", "    signal.signal(signal.SIGINT, signal.SIG_IGN)", "    pass", "tests/test_cli.py -k ctrl_c"),
    ("interpreter/analysis/parallel.py", "        raise Interrupted(records) from None", "        return records",
     "tests/test_parallel.py -k interrupted"),
    # --- saved states
    ("interpreter/engine/consistency.py", "            elif fr[1] != below[1]:", "            elif False:",
     "tests/test_tamper.py -k refused"),
    ("interpreter/engine/consistency.py", "if fr[1] != _turn_of(nodes[below[0]], below):", "if fr[1] not in below[4]:",
     "tests/test_tamper.py -k refused"),
    ("interpreter/engine/consistency.py", "if node.kind == SEQ and a > len(node.children):", "if False:",
     "tests/test_tamper.py -k refused"),
    # --- visibility and boards
    ("interpreter/engine/facing.py", "    seats = [] if mode is not None else list(old[1])", "    seats = list(old[1])",
     "tests/test_facing.py"),
    ("interpreter/language/lists.py", "        i = old.index(v)", "        i = len(old) - 1 - old[::-1].index(v)", "tests/test_lists.py"),
    ("interpreter/language/boards.py",
     "                if not _ok(cond, slot, s, e, z):\n                    refused.add(z)\n                    continue\n"
     "                if z == b:\n                    walk.charge(len(seen) + len(refused))\n                    return d",
     "                if z == b:\n                    walk.charge(len(seen) + len(refused))\n                    return d\n"
     "                if not _ok(cond, slot, s, e, z):\n                    refused.add(z)\n                    continue",
     "tests/test_generated_boards.py"),
    ("interpreter/language/boards.py", "    if cols * rows > MAX_BOARD_SPACES:", "    if False:",
     "tests/test_generated_boards.py -k too_large"),
    ("interpreter/language/world.py", "if type(n) is int and n > MAX_PLAYERS:", "if False:", "tests/test_limits.py -k player_count"),
    # --- disputes and coverage
    ("interpreter/analysis/verify.py", "                and not (self.alternatives and alternatives_failed(self.alternatives)))",
     "                )", "tests/test_disputes.py"),
    ("interpreter/definition/disputes.py", "        elif option in bound:", "        elif False:", "tests/test_disputes.py"),
    ("interpreter/analysis/translation.py", "MAX_WORDS = 12", "MAX_WORDS = 3", "tests/test_translation.py"),
    # --- the command line against strangers' files
    ("interpreter/commands/play.py", "    capped = {k: min(v, limits[k]) if k in limits else v for k, v in options.items()}",
     "    capped = dict(options)", "tests/test_cli.py -k record"),
    ("interpreter/commands/play.py", '    check_actions(game, players, seed, options, ids, lambda i: where("actions", i, "id"))',
     "    pass", "tests/test_cli.py -k resume"),
    ("interpreter/commands/common.py", '    s = _UNSHOWABLE.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), raw)',
     "    s = raw", "tests/test_cli.py -k record"),
    ("interpreter/commands/study.py", '    if held is not None and not getattr(args, "overwrite", False):', "    if False:",
     "tests/test_cli.py -k save_games"),
]

# The modules whose behaviours issue 32 asked to pin: each has a mutant above (tests/test_mutation_run.py checks).
COVERED = ["interpreter/players/determinize.py", "interpreter/players/mcts.py", "interpreter/analysis/textleaks.py",
           "interpreter/analysis/secrecy.py", "interpreter/engine/simultaneous.py", "interpreter/engine/outcomes.py",
           "interpreter/definition/cache.py", "interpreter/engine/playout.py", "interpreter/analysis/parallel.py",
           "interpreter/engine/consistency.py", "interpreter/engine/facing.py", "interpreter/language/boards.py",
           "interpreter/language/lists.py", "interpreter/analysis/verify.py", "interpreter/definition/disputes.py",
           "interpreter/analysis/translation.py", "interpreter/commands/play.py", "tests/goldens.py"]


def copy_repo() -> Path:
    d = Path(tempfile.mkdtemp(prefix="mutant-"))
    for name in ("interpreter", "tests", "examples", "gamedefs", "grammar", "schemas", "README.md", "pyproject.toml"):
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, d / name, ignore=shutil.ignore_patterns("__pycache__", ".hypothesis"))
        elif src.exists():
            shutil.copy2(src, d / name)
    return d


def applies(i: int, root: Path = ROOT) -> str | None:
    """Why mutant i does not apply to the code at `root` (None when its text is there exactly once)."""
    file, old, _new, tests = MUTANTS[i]
    path = root / file
    if not path.is_file():
        return f"no file {file}"
    n = path.read_text(encoding="utf-8").count(old)
    if n != 1:
        return f"its line is {'not' if n == 0 else f'{n} times'} in {file}"
    for name in tests.split():
        if name.startswith("tests/") and not (root / name.split("::")[0]).is_file():
            return f"no test file {name}"
    return None


def run_mutant(i: int) -> tuple[int, str, str]:
    file, old, new, tests = MUTANTS[i]
    why = applies(i)
    if why is not None:
        return i, "NOT APPLIED", why
    d = copy_repo()
    try:
        path = d / file
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace(old, new), encoding="utf-8")
        env = dict(os.environ, PYTHONPATH=str(d), PYTHONDONTWRITEBYTECODE="1", HYPOTHESIS_PROFILE="ci")
        env.pop("MEEPLE_REGEN_GOLDEN", None)
        check = subprocess.run([sys.executable, "-c", "import interpreter; print(interpreter.__file__)"], cwd=d, env=env,
                               capture_output=True, text=True)
        if not check.stdout.startswith(str(d)):
            return i, "NOT APPLIED", f"the copy's package is not the one imported: {check.stdout.strip()}"
        try:
            proc = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-n", "0", "-p", "no:cacheprovider", *tests.split()],
                                  cwd=d, env=env, capture_output=True, text=True, timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            return i, "TIMEOUT", f"no verdict after {TIMEOUT} s"
        last = (proc.stdout.strip().splitlines() or [""])[-1]
        if proc.returncode == 5:  # pytest collected no test: the names of its tests are stale
            return i, "NOT APPLIED", f"its tests select nothing ({last})"
        return i, ("killed" if proc.returncode != 0 else "SURVIVED"), last
    finally:
        shutil.rmtree(d, ignore_errors=True)


VERDICTS = ("killed", "SURVIVED", "TIMEOUT", "NOT APPLIED")


def table(results: list[tuple[int, str]]) -> str:
    """The verdicts per module (the file each mutant changes), as a Markdown table."""
    rows: dict = {}
    for i, verdict in results:
        rows.setdefault(MUTANTS[i][0], dict.fromkeys(VERDICTS, 0))[verdict] += 1
    head = "| module | mutants | " + " | ".join(VERDICTS) + " |"
    lines = [head, "|" + "---|" * (len(VERDICTS) + 2)]
    for module in sorted(rows):
        counts = rows[module]
        lines.append(f"| `{module}` | {sum(counts.values())} | " + " | ".join(str(counts[v]) for v in VERDICTS) + " |")
    total = {v: sum(r[v] for r in rows.values()) for v in VERDICTS}
    lines.append(f"| all | {sum(total.values())} | " + " | ".join(str(total[v]) for v in VERDICTS) + " |")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if argv[:1] == ["--list"]:
        for i, (file, old, new, tests) in enumerate(MUTANTS):
            print(f"{i:3} {file}: {old.strip()!r} -> {new.strip()!r}  [{tests}]")
        return 0
    if argv[:1] == ["--check"]:
        stale = [(i, why) for i in range(len(MUTANTS)) if (why := applies(i)) is not None]
        for i, why in stale:
            print(f"{i:3} NOT APPLIED {MUTANTS[i][0]}: {why}")
        uncovered = sorted(set(COVERED) - {m[0] for m in MUTANTS})
        for module in uncovered:
            print(f"    no mutant changes {module}")
        print(f"{len(MUTANTS) - len(stale)}/{len(MUTANTS)} mutants apply")
        return 1 if stale or uncovered else 0
    which = [int(a) for a in argv] or list(range(len(MUTANTS)))
    results = []
    with ThreadPoolExecutor(max_workers=2) as pool:
        for i, verdict, detail in pool.map(run_mutant, which):
            file, old, new, _ = MUTANTS[i]
            print(f"{i:3} {verdict:11} {file}: {old.strip()[:60]!r}  ({detail})", flush=True)
            results.append((i, verdict))
    print()
    print(table(results))
    print()
    for verdict in VERDICTS[1:]:
        named = [i for i, v in results if v == verdict]
        if named:
            print(f"{verdict}: " + ", ".join(f"{i} ({MUTANTS[i][0]})" for i in named))
    killed = sum(v == "killed" for _, v in results)
    print(f"{killed}/{len(results)} mutants killed")
    return 0 if killed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
