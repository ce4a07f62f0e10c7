"""Worked examples as tests: scenarios written in YAML next to a game (`scenarios/*.yaml`).

A scenario starts a game, changes it into the position the rulebook describes (`given`), plays the actions
of the example (`when`) and checks what the rulebook says must follow (`then`), all without Python:

    format: 2                                      # the format version the file is written for
    scenarios:
      discount_for_workers:
        source: "rulebook.txt §Building (the worked example)"
        players: 4
        given:
          vars: {chooser: 2}                       # a player is its seat, from 1
          players:
            1:
              vars: {doubloons: 10}
              zones:
                land: [{mine: {workers: 1}}, {mine: {workers: 1}}, {mine: {workers: 1}}]
          start: {phase: builder_phase, player: 1}
        when:
          - build(b=town_hall)                     # a piece argument may be given by its type
        then:
          p1.doubloons: 3                          # an expression (p1..pN are the seats) and its value
          chooser: 2                               # a player value: its seat from 1 (or p2)

`given` keys: `vars` (global vars), `players` (per seat: `vars`, `zones`), `zones` (global zones), `effect`
(statements run last, with `p1`..`pN` bound: e.g. put a tile on a board space that stays in place), `random`
(the outcomes of the next draws: a number for a `random(n)`, a list of types for a shuffle's order), `start`
(`{phase: ID, player: N}` or `{step: ID, player: N}`, only that step or phase; with `resume: true` the
game's own flow goes on after it, and `in: PHASE` says which place of a step the flow takes in several;
without `start` the game's own flow goes on from its first decision). docs/scenarios.md is the reference of
every key. A zone listed in `given` holds exactly the listed pieces, in order: each item is a type (or
`{type: {field: value}}`; a map field changes only the keys given; a player field takes a seat from 1 or
pN), a piece of that type already in the zone if there is one, else from anywhere. Pieces that were there go
back to their class's starting zone; `{top: [...]}` keeps, below the listed pieces, those whose starting zone
it is. Action ids in `when`, `legal` and `not_legal` are parsed and checked (scenario_actions.py): a
malformed or misspelt one is a scenario mistake, not a silent pass.

`when` items: an action id (`name(arg=value,...)`; a value may be a piece id, a type name, a kind value, or
a seat `pN`), `{pN: ID}` (seat N takes the action: in a simultaneous decision the seats may choose in any
order), `{illegal: ID}` (the action must be refused), or `{then: {...}}` (checks in the middle).
`then` keys: DSL expressions (with `p1`.. bound to the seats) mapped to their expected value (compared
with its type, as the DSL compares: `true` is not 1, 5.0 is not 5), and `legal: [ids]`, `not_legal: [ids]`,
`to_move: N`, `over: true|false`, `ends: [trigger]`, `score: {pN: {item: value}}`, `total: {pN: value}`
(the sum of the scoring items), `winners: [N]`.

A file of format version 1 (no `format`) keeps the meaning it had (`definition/versions.py`): a player value
in `then`, in a piece field or as a number in an action argument is a seat from 0, a listed zone is
`{top: [...]}`, and an ambiguous `start` step takes its first place.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..language.compiler import CompileError, RuleError, Scope, Unit, const, fault_words
from ..language.dsl import DslSyntaxError
from ..engine.exact import plain
from ..game import Game, IllegalAction
from ..definition import versions
from ..definition.loader import load_yaml
from ..definition.problems import DefinitionError, did_you_mean
from .scenario_actions import ScenarioError, resolve
from .scenario_given import Position

class ScenarioResult:
    """The outcome of one scenario: `failures` is empty when it passed."""

    def __init__(self, name, label, source, file):
        self.name, self.label, self.source, self.file = name, label, source, file
        self.failures: list[str] = []
        self.trace: list[str] = []
        self.where: str | None = None  # file:line:col of the scenario

    @property
    def passed(self):
        return not self.failures

    def to_json(self):
        return {"name": self.name, "source": self.source, "file": self.file, "where": self.where,
                "passed": self.passed,
                "failures": self.failures, "trace": self.trace}


def scenario_files(game_dir: Path) -> list[Path]:
    d = Path(game_dir) / "scenarios"
    return sorted(d.glob("*.yaml")) if d.is_dir() else []


def load_scenarios(files) -> list[tuple]:
    """[(name, entry, doc)] from scenario files; DefinitionError with every problem of their shape."""
    from ..definition.schema import validate_document
    out, problems = [], []
    for f in files:
        try:
            doc = load_yaml(f)
        except DefinitionError as ex:
            problems.extend(ex.problems)
            continue
        version, wrong = versions.header_version(doc, None)
        if wrong is not None and version > versions.CURRENT:  # a later format: the rest would be noise
            problems.append(wrong)
            continue
        problems.extend(validate_document(doc, "scenario"))
        data = doc.data or {}
        for name, entry in ((data.get("scenarios") or {}) if isinstance(data, dict) else {}).items():
            out.append((str(name), entry or {}, doc))
    if problems:
        raise DefinitionError(problems)
    return out


class Runner(Position):
    """Runs scenarios against one compiled game."""

    def __init__(self, game: Game, options: dict | None = None):
        self.game = game
        self.options = dict(options or {})  # forced over each scenario's own (a disputed rule's reading)

    def run(self, name, entry, doc) -> ScenarioResult:
        g = self.game
        res = ScenarioResult(name, entry.get("label"), entry.get("source"), doc.file if doc else None)
        self.doc, self.name = doc, name
        # The meaning of a player value, and of a listed zone, depends on the file's format version.
        self.version = versions.header_version(doc, None)[0] if doc is not None else versions.CURRENT
        res.where = str(self.where()) if doc is not None else None
        try:
            players = int(entry.get("players", g.player_counts[0]))
            options = {**(entry.get("options") or {}), **self.options}
            s = g.new_game(players, seed=int(entry.get("seed", 0)), options=options)
            s = self.given(s, entry.get("given") or {}, res)
            if res.failures:
                return res
            start_loc = list(s.loc)
            for i, step in enumerate(entry.get("when") or []):
                s = self.when(s, step, i, res)
                if s is None:
                    return res
            if not checks_of(entry):
                raise ScenarioError("it checks nothing: give `then` expectations or `{illegal: ...}` steps")
            self.then(s, entry.get("then") or {}, res, "then")
            for trig in s.ends:  # for the verifier's coverage: this ending was reached
                g.fired[("end", trig)] = g.fired.get(("end", trig), 0) + 1
            for x, z in enumerate(s.loc):  # and these components moved in the example
                if z != start_loc[x]:
                    key = ("component", s.types[x])
                    g.fired[key] = g.fired.get(key, 0) + 1
        except ScenarioError as ex:
            res.failures.append(f"scenario mistake: {ex}")
        except (RuleError, IllegalAction, ValueError, KeyError, TypeError) as ex:
            res.failures.append(f"{type(ex).__name__}: {ex}")
        return res

    # ------------------------------------------------------------------ when
    def when(self, s, step, i, res):
        g = self.game
        if isinstance(step, dict) and "then" in step:
            self.then(s, step["then"], res, f"when[{i}].then")
            return s if not res.failures else None
        if isinstance(step, dict) and "illegal" in step:
            try:
                a = self.resolve(s, str(step["illegal"]))
            except IllegalAction:
                res.trace.append(f"{step['illegal']}: refused, as expected")
                return s
            try:
                g.apply(s, a)
            except IllegalAction as ex:
                res.trace.append(f"{step['illegal']}: refused, as expected ({ex})")
                return s
            res.failures.append(f"when[{i}]: '{step['illegal']}' should be illegal, but it was accepted")
            return None
        seat = None
        if isinstance(step, dict) and len(step) == 1 and re.fullmatch(r"p\d+", str(next(iter(step)))):
            # {p2: "bid(n=3)"}: that seat chooses (in a simultaneous decision, in any order)
            (key, step), = step.items()
            seat = self.seat(key, s.n, res)
            if seat is None:
                return None
        log: list = []
        try:
            a = self.resolve(s, str(step), seat)
            s2 = g.apply(s, a, log=log, player=seat)
        except IllegalAction as ex:
            res.failures.append(f"when[{i}]: {ex}")
            self.add_menu(s, res)
            return None
        except RuleError as ex:  # the trace of the step that raised: what it told before it failed
            res.trace.extend(_told(step, log))
            res.trace.append(f"{step}: raised {ex}")
            res.failures.append(f"when[{i}] {step}: a rule failed: {ex}")
            return None
        res.trace.extend(_told(step, log))
        return s2

    def add_menu(self, s, res):
        acts = self.game.legal_actions(s)
        res.trace.append("legal then: " + "; ".join(f"{a['id']} ({a['label']['en']})" for a in acts[:20]))

    def resolve(self, s, text, seat=None):
        """The legal action an id names (scenario_actions.resolve, in this file's format version)."""
        return resolve(self.game, s, text, seat, self.version)

    # ------------------------------------------------------------------ then
    def then(self, s, then, res, where):
        g = self.game
        for key, expected in then.items():
            if key == "legal" or key == "not_legal":
                ids = {a["id"] for a in g.legal_actions(s, labels=False)}
                for text in expected:
                    a = self.resolve(s, str(text))
                    ok = a["id"] in ids
                    if ok != (key == "legal"):
                        res.failures.append(f"{where}: '{text}' should {'' if key == 'legal' else 'not '}be legal"
                                            f"; legal now: {', '.join(sorted(ids)) or 'nothing'}")
            elif key == "to_move":
                cur = g.current_player(s)
                if not same(cur + 1 if cur is not None else None, expected):
                    res.failures.append(f"{where}: player {expected} should be to move, "
                                        f"got {cur + 1 if cur is not None else 'nobody'}")
            elif key == "over":
                if type(expected) is not bool:
                    raise ScenarioError(f"{where}: over: is true or false, not {expected!r}")
                if g.is_over(s) != expected:
                    res.failures.append(f"{where}: the game should {'' if expected else 'not '}be over")
            elif key == "ends":
                if list(s.ends) != list(expected):
                    res.failures.append(f"{where}: end triggers: expected {expected}, got {s.ends}")
            elif key == "score":
                bd = g.score_breakdown(s)
                for seat, items in expected.items():
                    pl = self.seat(seat, s.n, res)
                    if pl is None:
                        continue
                    for item, value in items.items():
                        if item not in bd[pl]:
                            res.failures.append(f"{where}: no scoring item '{item}'" + _hint(item, bd[pl]))
                        elif not same(plain(bd[pl][item]), value):  # an exact fraction is written "3/2"
                            res.failures.append(f"{where}: score of p{pl + 1} for {item}: expected {value}, "
                                                f"got {bd[pl][item]}")
            elif key == "total":
                scores = g.scores(s)
                for seat, value in expected.items():
                    pl = self.seat(seat, s.n, res)
                    if pl is not None and not same(plain(scores[pl]), value):
                        res.failures.append(f"{where}: total score of p{pl + 1}: expected {value}, got {scores[pl]}")
            elif key == "winners":
                got = [p + 1 for p in g.outcome(s)["winners"]]
                if not same(got, list(expected) if isinstance(expected, list) else expected):
                    res.failures.append(f"{where}: winners: expected {expected}, got {got}")
            else:
                try:
                    f, n, typ = self.compile(str(key), s.n)
                except (CompileError, DslSyntaxError) as ex:
                    res.failures.append(f"{where}: cannot read '{key}': {getattr(ex, 'message', ex)}")
                    continue
                try:
                    got = f(s, [None, None] + [None] * (n - 2))
                except RuleError as ex:
                    res.failures.append(f"{where}: '{key}' failed: {ex}")
                    continue
                except (TypeError, KeyError, IndexError, AttributeError, ValueError, ZeroDivisionError) as ex:
                    res.failures.append(f"{where}: '{key}' failed: {fault_words(ex)}")
                    continue
                if self.version >= 2 and typ in ("player", "list:player"):
                    # a player is written as its seat from 1 (or pN); version 1 compared seats from 0
                    got = [_seat(p) for p in got] if typ == "list:player" else _seat(got)
                    expected = _seats(expected)
                if not same(got, expected):
                    res.failures.append(f"{where}: {key}: expected {expected!r}, got {got!r}")

    def compile(self, text, n):
        from ..language.dsl import parse_expr
        u = Unit(player=False)
        sc = Scope(u)
        for i in range(n):
            sc.names[f"p{i + 1}"] = ("macro", const(i, "player"))
        x = self.game.world.compiler.expr(parse_expr(text), sc)
        return x.f, u.n, x.t


def _told(step, log) -> list[str]:
    """The narration of one `when` step, as the trace shows it."""
    return [f"{step}: {x.get('en', '')}" if "player" in x else f"  [{x.get('en', '')}]" for x in log
            if isinstance(x, dict)]


def same(got, expected) -> bool:
    """Equal with types, as the DSL compares: `true` is not `1` (YAML's true would otherwise equal a count of
    1), and a number written `5.0` is not the whole number 5 (the rules have no fractions of that kind)."""
    if isinstance(got, (list, tuple)) and isinstance(expected, (list, tuple)):
        return len(got) == len(expected) and all(same(a, b) for a, b in zip(got, expected))
    if isinstance(got, dict) and isinstance(expected, dict):
        return set(got) == set(expected) and all(same(got[k], expected[k]) for k in got)
    if isinstance(got, (bool, int, float)) or isinstance(expected, (bool, int, float)):
        return type(got) is type(expected) and got == expected
    return got == expected


def _seat(p):
    """A seat index as a scenario writes it (from 1); none stays none."""
    return p + 1 if isinstance(p, int) and not isinstance(p, bool) else p


def _seats(expected):
    """A scenario's expected player value(s) with `pN` read as the seat number N."""
    if isinstance(expected, list):
        return [_seats(x) for x in expected]
    if isinstance(expected, str) and expected[:1] == "p" and expected[1:].isascii() and expected[1:].isdigit():
        return int(expected[1:])
    return expected


def checks_of(entry) -> int:
    """How many checks a scenario makes: `then` keys, and `illegal` or `then` steps in `when`."""
    then = entry.get("then")
    n = len(then) if isinstance(then, dict) else 0
    for step in entry.get("when") or []:
        if isinstance(step, dict) and ("illegal" in step or "then" in step):
            n += 1
    return n


def _hint(name, names):
    h = did_you_mean(str(name), names)
    return f"; {h}" if h else ""


def run_game_scenarios(game: Game, game_dir: Path, files=None, options=None) -> list[ScenarioResult]:
    """Run every scenario of a game directory (or the given files); `options` are forced over each
    scenario's own options."""
    runner = Runner(game, options)
    files = scenario_files(game_dir) if files is None else files
    return [runner.run(name, entry, doc) for name, entry, doc in load_scenarios(files)]
