"""The rulebook verifier: scenarios, lint and random-play checks of one game, as one report.

`verify(game_dir, games=N)` returns a `Report` (plain data, `to_json()` for tools); `report_text()` renders it
for people. Nothing here prints: the CLI does.

Random play covers every supported player count with N seeded games each and checks: termination (a
length bound, and no exact repetition of a sampled state), playability (a legal action at every decision
of a game that is not over), conservation of resources and pieces after every decision, JSON save/load
round trips and hidden information in every player's view at sampled decisions, the rendered text of
labels and narration for every seat (`textleaks`: the same in two states the seat cannot tell apart),
determinism (replaying the
seed and the actions gives the same final state), and rule coverage: every action, hook, phase, modifier and
end trigger taken at least once, or listed as never fired.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
import statistics
import time

from ..engine import fastpath
from .alternatives import alternatives_failed, alternatives_text, run_alternatives
from ..definition.disputes import disputes_text
from ..game import Game, load_game, find_game
from ..engine.invariants import action_leaks, check_state, hidden_leaks, resource_totals
from .secrecy import elimination_leaks, hides_choices, sealed_leaks
from .lint import lint, summary
from ..definition.overlay import scenario_files
from .parallel import map_local, split, worker_game
from ..definition.problems import DefinitionError
from .scenario import run_game_scenarios
from .textleaks import text_leaks

MAX_DECISIONS = 20_000
SAMPLE_EVERY = 11
TEXT_EVERY = 29  # decisions between two checks of the rendered texts (each renders every seat's twice)
REPLAYS_PER_COUNT = 3


class Report:
    def __init__(self, game_id):
        self.game_id = game_id
        self.definition_problems: list[str] = []
        self.load_ms = 0.0
        self.scenarios = []
        self.scenario_error: list[str] = []
        self.findings = []
        self.play: dict = {}
        self.violations: list[str] = []
        self.coverage: dict = {}
        self.disputes: list = []       # Dispute values of the game (disputed rules and their readings)
        self.alternatives = None       # with --alternatives: alternatives.run_alternatives(...)

    @property
    def ok(self):
        return (not self.definition_problems and not self.scenario_error
                and all(r.passed for r in self.scenarios)
                and not any(f.severity == "error" for f in self.findings) and not self.violations
                and not (self.alternatives and alternatives_failed(self.alternatives)))

    def to_json(self):
        return {
            "game": self.game_id, "ok": self.ok, "definition_problems": self.definition_problems,
            "load_ms": round(self.load_ms, 1),
            "scenarios": {"passed": sum(r.passed for r in self.scenarios), "total": len(self.scenarios),
                          "errors": self.scenario_error, "results": [r.to_json() for r in self.scenarios]},
            "lint": {"summary": summary(self.findings), "findings": [f.to_json() for f in self.findings]},
            "random_play": self.play, "violations": self.violations, "coverage": self.coverage,
            "provisional": [f.to_json() for f in self.findings if f.code == "provisional"],
            "disputes": [d.to_json() for d in self.disputes],
            **({"alternatives": self.alternatives} if self.alternatives is not None else {}),
        }


def verify(name_or_path, games: int = 100, seed: int = 1, progress=None, players=None, variant=None,
           alternatives: bool = False, jobs: int = 1) -> Report:
    """Check one game (with overlay files `variant` applied): definition, scenarios, lint, random play
    with coverage, the disputed rules. Under a variant that names its own `scenarios`, those replace the
    base game's. With `alternatives`, the scenarios and random play also run under every reading of every
    disputed rule (alternatives.py). Random play runs on `jobs` local processes with the same report."""
    root = find_game(name_or_path)
    report = Report(root.name)
    t0 = time.perf_counter()
    try:
        game = load_game(root, variant)
    except DefinitionError as ex:
        report.definition_problems = [str(p) for p in ex.problems]
        return report
    report.load_ms = (time.perf_counter() - t0) * 1000
    report.game_id = game.id
    report.disputes = list(game.disputes)
    try:
        report.scenarios = run_game_scenarios(game, root, variant_scenarios(game))
    except DefinitionError as ex:
        report.scenario_error = [str(p) for p in ex.problems]
    report.findings = lint(game)
    scenario_fired = dict(game.fired)
    scenario_fired.update({("mod",) + k: v for k, v in game.world.mod_fired.items()})
    scenario_fired.update({("active", k): v for k, v in game.world.active_fired.items()})
    game.fired.clear()
    game.world.mod_fired.clear()
    game.world.active_fired.clear()
    counts = [n for n in game.player_counts if players is None or n in players]
    random_play(game, counts, games, seed, report, progress, jobs=jobs)
    if report.coverage:
        mark_scenario_coverage(report.coverage, scenario_fired)
    if alternatives and not report.scenario_error:
        def play(options):
            sub = Report(game.id)
            random_play(game, counts, games, seed, sub, progress, options=options, jobs=jobs)
            return sub.play, sub.violations

        report.alternatives = run_alternatives(game, root, variant_scenarios(game), play,
                                               (report.play, report.violations))
    return report


def mark_scenario_coverage(cov, fired):
    """Name, among what random play never fired, what the scenarios did exercise."""
    keys = {
        "actions": lambda k: ("action",) + tuple(k.split(".", 1)),
        "hooks": lambda k: ("hook", k),
        "phases": lambda k: ("phase", k),
        "modifiers": lambda k: ("mod",) + tuple(k.split(".", 1)),
        "abilities": lambda k: ("active", k),
        "components": lambda k: ("component", k),
        "end_triggers": lambda k: ("end", k),
    }
    for what, key in keys.items():
        entry = cov.get(what)
        if entry:
            entry["scenarios_only"] = [k for k in entry["never"] if fired.get(key(k))]


def variant_scenarios(game):
    """The scenario files the last overlay naming `scenarios` gives, or None for the base game's."""
    files = None
    for doc in game.definition.overlays:
        head = doc.data.get("overlay") or {}
        if head.get("scenarios"):
            files = scenario_files(doc)[0]  # confined to the overlay's folder (see overlay.scenario_files)
    return files


def moved_types(game, s) -> set:
    """The component types with a piece that is no longer where its pieces start."""
    lay = game.layout
    start = {t: (z, per_player) for t, _, z, per_player in game.piece_plan}
    out = set()
    for x, t in enumerate(s.types):
        z, per_player = start[t]
        here = s.loc[x]
        if (lay.zone_owner(here) is None or (here - lay.G) % lay.PZ != z) if per_player else here != z:
            out.add(t)
    return out


def random_play(game: Game, counts, games, seed, report, progress=None, options=None, jobs: int = 1):
    """`games` seeded random games per player count in `counts`, checked; fills `report.play`,
    `report.violations` and `report.coverage`. With `jobs` > 1 the games run on that many local processes,
    each batch returning its games' results and its coverage counters, merged in seed order: the report
    is exactly that of a serial run."""
    work = [(n, g, seed, options) for n in counts for g in range(games)]
    if jobs > 1 and len(work) > 1:
        results = _parallel_results(game, work, jobs)
    else:
        results = (play_one(game, *item) for item in work)
    ends_fired: dict = {}
    scored: dict = {}
    used: dict = {}
    per_count = {n: {"lengths": [], "ends": {}, "winners": [0.0] * n, "completed": 0} for n in counts}
    for res in results:
        acc = per_count[res["n"]]
        report.violations.extend(res["violations"])
        if res["completed"]:
            acc["completed"] += 1
            acc["lengths"].append(res["length"])
            key = ",".join(res["ends"]) or "(flow ended)"
            acc["ends"][key] = acc["ends"].get(key, 0) + 1
            for t in res["ends"]:
                ends_fired[t] = ends_fired.get(t, 0) + 1
            for t in res["moved"]:
                used[t] = used.get(t, 0) + 1
            for item in res["scored"]:
                scored[item] = scored.get(item, 0) + 1
            for w in res["winners"]:
                acc["winners"][w] += 1 / len(res["winners"])
        if progress:
            progress(1)
    for n in counts:
        acc = per_count[n]
        lengths, completed = acc["lengths"], acc["completed"]
        report.play[str(n)] = {
            "games": games, "completed": completed,
            "decisions": {"mean": round(statistics.mean(lengths), 1) if lengths else None,
                          "min": min(lengths) if lengths else None, "max": max(lengths) if lengths else None},
            "ends": acc["ends"], "seat_wins": [round(x / max(1, completed), 3) for x in acc["winners"]],
        }
    report.coverage = coverage(game, ends_fired, scored, used,
                               sum(report.play[str(n)]["completed"] for n in counts))


def play_one(game: Game, n: int, g: int, seed: int, options=None) -> dict:
    """The `g`-th random game of verify's random play at `n` players, as a small result: its violations,
    and when it completed its length, end triggers, moved component types, scored items and winners."""
    gseed = seed + g
    sink = Report(game.id)
    res = {"n": n, "violations": sink.violations, "completed": False}
    try:
        actions, s = play_checked(game, n, gseed, sink, check_replay=g < REPLAYS_PER_COUNT, options=options)
    except Exception as ex:  # a rule failed at run time: that is a finding, not a crash
        sink.violations.append(f"{n} players, seed {gseed}: {type(ex).__name__}: {ex}")
        return res
    if s is not None and game.is_over(s):
        out = game.outcome(s)
        res.update(completed=True, length=len(actions), ends=list(s.ends), moved=sorted(moved_types(game, s)),
                   scored=[item for row in out["breakdown"] for item, v in row.items() if v],
                   winners=list(out["winners"]))
    return res


def _counters(game) -> tuple:
    """The coverage counters random play adds to (copies)."""
    return dict(game.fired), dict(game.world.mod_fired), dict(game.world.active_fired)


def _play_batch(batch) -> tuple:
    """A worker's batch: the games' results and what they added to the coverage counters."""
    game = worker_game()
    before = _counters(game)
    results = [play_one(game, *item) for item in batch]
    after = _counters(game)
    deltas = tuple({k: v - b.get(k, 0) for k, v in a.items() if v != b.get(k, 0)} for b, a in zip(before, after))
    return results, deltas


def _parallel_results(game, work, jobs):
    """The results of `work` played on `jobs` local processes, in order; each batch's coverage counters
    are added to the caller's `game` as its batch comes in."""
    targets = (game.fired, game.world.mod_fired, game.world.active_fired)
    for results, deltas in map_local(game, _play_batch, split(work, jobs), jobs):
        for target, delta in zip(targets, deltas):
            for k, v in delta.items():
                target[k] = target.get(k, 0) + v
        yield from results


def play_checked(game, n, seed, report, check_replay=False, options=None):
    """Play one seeded random game (with game `options`), recording every invariant violated."""
    def violation(msg):
        report.violations.append(f"{n} players, seed {seed}, decision {len(taken)}: {msg}")

    s = game.new_game(n, seed=seed, options=options)
    totals0 = resource_totals(game, s)
    r = random.Random(seed)
    taken = []
    seen = set()
    secret = hides_choices(game)
    checked: dict = {}  # (step, action) -> times its secrecy was checked
    told: set = set()  # labels already found leaking in this game (each reported once)
    while not game.is_over(s):
        if len(taken) >= MAX_DECISIONS:
            from ..engine.flow import where_now
            violation(f"the game did not end within {MAX_DECISIONS} decisions{where_now(game, s)}")
            return taken, None
        n_acts = fastpath.legal_count(game, s)
        if not n_acts:
            violation("no legal action, yet the game is not over")
            return taken, None
        if len(taken) % SAMPLE_EVERY == 0:
            d = game.to_json(s)
            back = game.from_json(json.loads(json.dumps(d)))
            if back != s:
                violation("the state does not survive a JSON round trip")
            d.pop("decisions", None)
            key = json.dumps(d, sort_keys=True)
            if key in seen:
                violation("a sampled state repeated exactly: the game may not progress")
            seen.add(key)
            for viewer in range(n):
                for leak in hidden_leaks(game, s, viewer):
                    violation(leak)
            for leak in action_leaks(game, s):
                violation(leak)
        # The index path: no action dicts, and the decision is played on `s` (this loop owns it); the
        # replay below goes through the public apply with the ids.
        i = r.randrange(n_acts)
        aid = fastpath.action_id(game, s, i)
        if secret:
            a = fastpath.action_dict(game, s, i)
            key = (a["step"], a["action"])
            if checked.get(key, 0) < 3 or len(taken) % SAMPLE_EVERY == 0:
                # a choice the rules hide: the others must not tell it (sealed, or by elimination)
                checked[key] = checked.get(key, 0) + 1
                for leak in sealed_leaks(game, s) + elimination_leaks(game, s, a):
                    violation(leak)
        if len(taken) % TEXT_EVERY == 0:
            # what each seat is shown as text (menu, phase and step labels, narration) must follow from its view
            for leak in text_leaks(game, s, aid, random.Random(f"{seed}/{len(taken)}"), told):
                violation(leak)
        taken.append(aid)
        s = fastpath.apply_index(game, s, i, owned=True)
        for p in check_state(game, s, totals0):
            violation(f"after {aid}: {p}")
    if check_replay:
        t = game.new_game(n, seed=seed, options=options)
        for aid in taken:
            t = game.apply(t, aid)
        if t != s:
            violation("replaying the seed and the actions gave a different state")
    return taken, s


def coverage(game, ends_fired, scored, used, games):
    w = game.world
    fired = game.fired
    actions = {}
    for (sid, ev), st in game.steps.items():
        for a in st.actions:
            actions[f"{sid}.{a.name}"] = fired.get(("action", sid, a.name), 0)
    hooks = {hid: fired.get(("hook", hid), 0) for hid in w.d["hooks"]}
    phases = {ph: fired.get(("phase", ph), 0) for ph in game.phase_root}
    mods = {}
    for pname, table in w.param_mods.items():
        for tname in table:
            mods[f"{tname}.{pname}"] = w.mod_fired.get((tname, pname), 0)
    ends = {t: ends_fired.get(t, 0) for t in w.end_triggers}
    # A type whose presence a rule tests with active(p, type): its ability was found in play.
    tested = {n for k, n in game.static_reads if k == "active"}
    abilities = {t: w.active_fired.get(t, 0) for t in sorted(tested)}
    items = {iid: scored.get(iid, 0) for iid, *_ in game.score_items}
    components = {t: used.get(t, 0) + fired.get(("component", t), 0) for t in w.types}
    out = {}
    for what, table in (("actions", actions), ("hooks", hooks), ("phases", phases), ("modifiers", mods),
                        ("abilities", abilities), ("components", components), ("scoring_items", items),
                        ("end_triggers", ends)):
        out[what] = {"fired": sum(1 for v in table.values() if v), "total": len(table),
                     "never": sorted(k for k, v in table.items() if not v), "counts": table}
    out["games"] = games
    return out


def report_text(rep: Report, verbose: bool = False) -> str:
    lines = [f"meeple verify {rep.game_id}"]
    if rep.definition_problems:
        lines.append(f"definition: {len(rep.definition_problems)} problem(s)")
        lines.extend("  " + p for p in rep.definition_problems)
        lines.append("result: FAIL")
        return "\n".join(lines)
    lines.append(f"definition: ok (loaded and compiled in {rep.load_ms:.0f} ms)")
    if rep.scenario_error:
        lines.append("scenarios: the scenario files have problems")
        lines.extend("  " + p for p in rep.scenario_error)
    else:
        passed = sum(r.passed for r in rep.scenarios)
        lines.append(f"scenarios: {passed}/{len(rep.scenarios)} passed")
        for r in rep.scenarios:
            if not r.passed:
                src = " ".join(str(r.source).split()) if r.source else ""
                if len(src) > 110:
                    src = src[:107] + "..."
                lines.append(f"  FAIL {r.name}" + (f" at {r.where}" if getattr(r, "where", None) else "")
                             + (f" ({src})" if src else ""))
                lines.extend("    " + f for f in r.failures)
                if r.trace:
                    lines.append("    trace:")
                    lines.extend("      " + t for t in r.trace)
            elif verbose:
                lines.append(f"  ok   {r.name}")
    errors = [f for f in rep.findings if f.severity == "error"]
    warnings = [f for f in rep.findings if f.severity == "warning"]
    infos = [f for f in rep.findings if f.severity == "info" and f.code != "provisional"]
    prov = [f for f in rep.findings if f.code == "provisional"]
    lines.append(f"lint: {len(errors)} error(s), {len(warnings)} warning(s), {len(infos)} note(s)")
    for f in errors + warnings + (infos if verbose else []):
        lines.append("  " + str(f))
    if rep.play and not any(v["games"] for v in rep.play.values()):
        lines.append("random play: skipped (--games 0)")
    elif rep.play:
        total = sum(v["games"] for v in rep.play.values())
        done = sum(v["completed"] for v in rep.play.values())
        lines.append(f"random play: {done}/{total} games completed, {len(rep.violations)} violation(s)")
        for n, v in rep.play.items():
            d = v["decisions"]
            ends = ", ".join(f"{k} {c}" for k, c in sorted(v["ends"].items()))
            lines.append(f"  {n} players: {v['completed']}/{v['games']} completed, decisions mean {d['mean']} "
                         f"(min {d['min']}, max {d['max']}); ends: {ends}; seat wins: {v['seat_wins']}")
        for x in rep.violations[:30]:
            lines.append("  VIOLATION " + x)
        if len(rep.violations) > 30:
            lines.append(f"  ... and {len(rep.violations) - 30} more")
    if rep.coverage and rep.coverage.get("games"):
        cov = rep.coverage
        kinds = ("actions", "hooks", "phases", "modifiers", "abilities", "components", "scoring_items",
                 "end_triggers")
        parts = [f"{k.replace('_', ' ')} {cov[k]['fired']}/{cov[k]['total']}" for k in kinds]
        lines.append(f"coverage over {cov['games']} games: " + ", ".join(parts))
        for k in kinds:
            if cov[k]["never"]:
                only = set(cov[k].get("scenarios_only", ()))
                lines.append(f"  never fired in random play ({k.replace('_', ' ')}): " + ", ".join(
                    x + (" (exercised by a scenario)" if x in only else "") for x in cov[k]["never"]))
    lines.append(f"provisional values: {len(prov)}")
    for f in prov:
        lines.append("  " + str(f))
    lines.append(f"disputed rules: {len(rep.disputes)}" + (" (each reading is a game option: --option NAME=VALUE)"
                                                           if rep.disputes else ""))
    lines.extend(disputes_text(rep.disputes))
    if rep.alternatives is not None:
        lines.extend(alternatives_text(rep.alternatives))
    lines.append("result: " + ("PASS" if rep.ok else "FAIL"))
    return "\n".join(lines)
