"""Worked examples as tests: scenarios written in YAML next to a game (`scenarios/*.yaml`).

A scenario starts a game, changes it into the position the rulebook describes (`given`), plays the actions
of the example (`when`) and checks what the rulebook says must follow (`then`), all without Python:

    scenarios:
      discount_for_workers:
        source: "rulebook.txt §Building (the worked example)"
        players: 4
        given:
          vars: {chooser: 2}                       # a player var's value is a seat, from 1
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

`given` keys: `vars` (global vars), `players` (per seat: `vars`, `zones`), `zones` (global zones), `effect`
(statements run last, with `p1`..`pN` bound: e.g. put a tile on a board space that stays in place), `random`
(the outcomes of the next draws: a number for a `random(n)`, a list of types for a shuffle's order), `start`
(`{phase: ID, player: N}` or `{step: ID, player: N}`, only that step or phase; with `resume: true` the
game's own flow goes on after it; without `start` the game's own flow goes on from its first decision).
docs/scenarios.md is the reference of every key. A zone listed in `given` starts with exactly the listed pieces, in order: each item is a type (or
`{type: {field: value}}`; a map field changes only the keys given), a piece of that type already in the zone
if there is one, else from anywhere. Pieces that were there go back to their class's starting zone (so a
starting zone keeps its unlisted pieces after the listed ones). Action names and argument names in `when`,
`legal` and `not_legal` are checked: a misspelt one is a scenario mistake, not a silent pass.

`when` items: an action id (`name(arg=value,...)`; a value may be a piece id, a type name, a kind value, or
`pN`), `{pN: ID}` (seat N takes the action: in a simultaneous decision the seats may choose in any order),
`{illegal: ID}` (the action must be refused), or `{then: {...}}` (checks in the middle).
`then` keys: DSL expressions (with `p1`.. bound to the seats) mapped to their expected value, and
`legal: [ids]`, `not_legal: [ids]`, `to_move: N`, `over: true|false`, `ends: [trigger]`,
`score: {pN: {item: value}}`, `total: {pN: value}` (the sum of the scoring items), `winners: [N]`.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..language.compiler import CompileError, RuleError, Scope, Unit, const
from ..language.dsl import DslSyntaxError
from ..engine.exact import plain
from ..engine.flow import push
from ..game import Game, IllegalAction
from ..definition.loader import load_yaml
from ..definition.problems import DefinitionError, did_you_mean

ID = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\((.*)\))?\s*$")


class ScenarioError(Exception):
    """A mistake in the scenario itself (an action name that the game does not have)."""


class ScenarioResult:
    """The outcome of one scenario: `failures` is empty when it passed."""

    def __init__(self, name, label, source, file):
        self.name, self.label, self.source, self.file = name, label, source, file
        self.failures: list[str] = []
        self.trace: list[str] = []

    @property
    def passed(self):
        return not self.failures

    def to_json(self):
        return {"name": self.name, "source": self.source, "file": self.file, "passed": self.passed,
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
        problems.extend(validate_document(doc, "scenario"))
        data = doc.data or {}
        for name, entry in ((data.get("scenarios") or {}) if isinstance(data, dict) else {}).items():
            out.append((str(name), entry or {}, doc))
    if problems:
        raise DefinitionError(problems)
    return out


class Runner:
    """Runs scenarios against one compiled game."""

    def __init__(self, game: Game, options: dict | None = None):
        self.game = game
        self.options = dict(options or {})  # forced over each scenario's own (a disputed rule's reading)

    def run(self, name, entry, doc) -> ScenarioResult:
        g = self.game
        res = ScenarioResult(name, entry.get("label"), entry.get("source"), doc.file if doc else None)
        self.doc, self.name = doc, name
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

    # ------------------------------------------------------------------ given
    def where(self, *path):
        return self.doc.where(("scenarios", self.name) + path) if self.doc else None

    def given(self, s, given, res):
        g = self.game
        w = g.world
        lay = g.layout
        t = s.copy(lay)
        named_zones = []
        for name in (given.get("zones") or {}):
            if name not in w.gzones:
                res.failures.append(f"given.zones: unknown global zone '{name}'"
                                    + _hint(name, w.gzones))
                continue
            named_zones.append(w.gzones[name])
        for seat, pdef in (given.get("players") or {}).items():
            pl = self.seat(seat, s.n, res, s)
            if pl is None:
                continue
            for name in ((pdef or {}).get("zones") or {}):
                if name not in w.pzones:
                    res.failures.append(f"given.players.{seat}.zones: unknown player zone '{name}'"
                                        + _hint(name, w.pzones))
                    continue
                named_zones.append(lay.zone_index(name, pl))
        if res.failures:
            return t
        # Empty the named zones first, so their pieces can be taken again for the listed contents.
        start_zone = {tname: (z, per_player) for tname, _, z, per_player in g.piece_plan}
        for z in named_zones:
            for x in list(t.zones[z]):
                home, per_player = start_zone[t.types[x]]
                if per_player:  # back to its owner's own zone (or the first player's)
                    owner = lay.zone_owner(z)
                    home = lay.G + (owner or 0) * lay.PZ + home
                w.move(t, x, home, None)
        claimed: set = set()
        for name, items in (given.get("zones") or {}).items():
            self.fill(t, w.gzones[name], items, claimed, res, f"given.zones.{name}")
        for seat, pdef in (given.get("players") or {}).items():
            pl = self.seat(seat, s.n, res, s)
            for name, items in ((pdef or {}).get("zones") or {}).items():
                self.fill(t, lay.zone_index(name, pl), items, claimed, res,
                          f"given.players.{seat}.zones.{name}")
            for name, value in ((pdef or {}).get("vars") or {}).items():
                if name not in w.pvars:
                    res.failures.append(f"given.players.{seat}.vars: unknown player var '{name}'"
                                        + _hint(name, w.pvars))
                    continue
                slot, typ = w.pvars[name]
                t.p[pl][slot] = self.value(t.p[pl][slot], value, typ, s.n, res, f"p{pl + 1}.{name}")
        for name, value in (given.get("vars") or {}).items():
            if name not in w.gvars:
                res.failures.append(f"given.vars: unknown var '{name}'" + _hint(name, w.gvars))
                continue
            slot, typ = w.gvars[name]
            t.g[slot] = self.value(t.g[slot], value, typ, s.n, res, name)
        if given.get("effect"):
            self.given_effect(t, str(given["effect"]), res)
        if given.get("random") is not None:
            t.rng = self.fixed_random(t, given["random"], res)
        start = given.get("start")
        if start is not None:
            pl = self.seat(start.get("player", 1), s.n, res)
            t.flow = []
            if "phase" in start:
                root = g.phase_root.get(start["phase"])
                if root is None:
                    res.failures.append(f"given.start: unknown phase '{start['phase']}'"
                                        + _hint(start["phase"], g.phase_root))
                    return t
            elif "step" in start:
                root = self.step_node(start["step"])
                if root is None:
                    res.failures.append(f"given.start: unknown step '{start['step']}'"
                                        + _hint(start["step"], w.d["steps"]))
                    return t
            else:
                res.failures.append("given.start: give a phase or a step")
                return t
            if start.get("resume"):
                from ..engine.resume import resume_stack
                stack = resume_stack(g, root, pl, s.n, t)
                if stack is None:
                    res.failures.append(f"given.start: {start.get('step') or start.get('phase')} is not reached "
                                        "from the game's flow, so the flow cannot resume after it")
                    return t
                t.flow = stack
            else:
                push(t, root, pl, None)
        t.menu = None
        t.ids = None
        from ..engine.flow import advance
        advance(g, t)
        return t

    def fixed_random(self, t, items, res):
        """The generator state whose next draws give `items`: a number is what the next `random(n)` gives
        (0..n-1); a list of component types is the order (top first) the next shuffle leaves."""
        from ..engine import rng
        w = self.game.world
        out = []
        for i, item in enumerate(items if isinstance(items, list) else [items]):
            if isinstance(item, bool) or not isinstance(item, (int, list)):
                res.failures.append(f"given.random[{i}]: a number (a random(n) outcome) or a list of "
                                    f"component types (a shuffle's order), not {item!r}")
                continue
            if isinstance(item, list):
                for name in item:
                    if name not in w.types:
                        res.failures.append(f"given.random[{i}]: unknown component type '{name}'"
                                            + _hint(name, w.types))
            out.append(item)
        return rng.fix(t.rng, out)

    def given_effect(self, t, text, res):
        """Statements that finish the position (e.g. set a field of a piece that stays in place), with
        p1..pN bound to the seats; run after the given zones and vars, before `start`."""
        from ..language.dsl import parse_stmts
        u = Unit(player=False, effects=True)
        sc = Scope(u)
        for i in range(t.n):
            sc.names[f"p{i + 1}"] = ("macro", const(i, "player"))
        try:
            fn = self.game.world.compiler.stmts(parse_stmts(text), sc, "given.effect")
        except (CompileError, DslSyntaxError) as ex:
            res.failures.append(f"given.effect, line {getattr(ex, 'line', 1)}: {ex.message}")
            return
        t.ev = []
        t.budget = 0
        try:
            fn(t, [None, None] + [None] * (u.n - 2))
        except RuleError as ex:
            res.failures.append(f"given.effect: {ex}")
        t.ev = []

    def step_node(self, sid):
        for n in self.game.nodes:
            if n.step is not None and n.step.id == sid:
                return n.id
        return None

    def seat(self, seat, n, res, s=None):
        """The seat index of `seat` (1.., pN; in a state `s`, also a scripted seat's id), or None."""
        if s is not None:
            for pl, name in self.game.world.scripted.seats(s.n, s.opts):
                if str(seat) == name:
                    return pl
        try:
            k = int(str(seat).lstrip("p"))
        except ValueError:
            res.failures.append(f"'{seat}' is not a seat (1..{n})")
            return None
        if not 1 <= k <= n:
            res.failures.append(f"seat {k} is not in this {n}-player game")
            return None
        return k - 1

    def value(self, old, value, typ, n, res, what):
        if typ == "player":
            return None if value is None else self.seat(value, n, res)
        if isinstance(old, dict):
            if not isinstance(value, dict):
                res.failures.append(f"{what} is a map: give {{kind: value}}")
                return old
            new = dict(old)
            for k, v in value.items():
                if k not in new:
                    res.failures.append(f"{what}: '{k}' is not a key ({', '.join(new)})")
                    continue
                new[k] = v
            return new
        return value

    def fill(self, t, z, items, claimed, res, what):
        """Put the listed pieces into zone z, in order, with their fields; `claimed` are pieces that
        earlier lists of this `given` already placed."""
        w = self.game.world
        for i, item in enumerate(items or []):
            fields = {}
            if isinstance(item, dict) and len(item) == 1:
                (tname, fields), = item.items()
                fields = fields or {}
            else:
                tname = item
            if tname not in w.types:
                res.failures.append(f"{what}[{i}]: unknown component type '{tname}'" + _hint(tname, w.types))
                continue
            # Prefer a piece already in the zone (a zone where its pieces start lists them in place).
            candidates = [x for x in range(len(t.types)) if t.types[x] == tname and x not in claimed]
            x = next((x for x in candidates if t.loc[x] == z), candidates[0] if candidates else None)
            if x is None:
                res.failures.append(f"{what}[{i}]: no piece of type '{tname}' is left to place")
                continue
            claimed.add(x)
            try:
                w.move(t, x, z, len([y for y in t.zones[z] if y in claimed and y != x]))
            except RuleError as ex:
                res.failures.append(f"{what}[{i}]: {ex.message}")
                continue
            for f, v in fields.items():
                if f not in w.fields:
                    res.failures.append(f"{what}[{i}]: unknown field '{f}'" + _hint(f, w.fields))
                    continue
                col = w.fields[f][0]
                old = t.fields[col][x]
                if isinstance(old, dict):  # a map field: the listed keys change, the others stay
                    if not isinstance(v, dict) or set(v) - set(old):
                        res.failures.append(f"{what}[{i}]: field {f} is a map with keys {', '.join(old)}")
                        continue
                    v = {**old, **v}
                t.fields[col][x] = v

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
        try:
            a = self.resolve(s, str(step), seat)
            log = []
            s2 = g.apply(s, a, log=log, player=seat)
        except IllegalAction as ex:
            res.failures.append(f"when[{i}]: {ex}")
            self.add_menu(s, res)
            return None
        res.trace.extend(f"{step}: {x['en']}" if "player" in x else f"  [{x['en']}]" for x in log)
        return s2

    def add_menu(self, s, res):
        acts = self.game.legal_actions(s)
        res.trace.append("legal then: " + "; ".join(f"{a['id']} ({a['label']['en']})" for a in acts[:20]))

    def resolve(self, s, text, seat=None):
        """The legal action an id names (for `seat`, default the current player); piece args may be type
        names, player args seats (pN)."""
        g = self.game
        acts = g.legal_actions(s, labels=False, player=seat)
        for a in acts:
            if a["id"] == text.replace(" ", ""):
                return a
        m = ID.match(text)
        if not m:
            raise IllegalAction(f"'{text}' is not an action id")
        name, argtext = m.group(1), m.group(2) or ""
        known = {a.name: [p[0] for p in a.params] for st in g.steps.values() for a in st.actions}
        known.setdefault("pass", [])
        if name not in known:
            raise ScenarioError(f"'{name}' is no action of this game" + _hint(name, known))
        want = {}
        for part in filter(None, (x.strip() for x in argtext.split(","))):
            if "=" not in part:
                raise IllegalAction(f"'{text}': write arguments as name=value")
            k, v = (y.strip() for y in part.split("=", 1))
            want[k] = v
        unknown = set(want) - set(known[name])
        if unknown:
            raise ScenarioError(f"action {name} has no argument {', '.join(sorted(unknown))} "
                                f"(its arguments: {', '.join(known[name]) or 'none'})")
        for k, v in want.items():
            problem = argument_problem(g, name, k, v, s.n)
            if problem:
                raise ScenarioError(f"'{text}': {problem}")
        for a in acts:
            if a["action"] != name or set(a["args"]) != set(want):
                continue
            if all(self.matches(s, a["args"][k], v) for k, v in want.items()):
                return a
        return {"id": text, "action": name, "args": want}

    def matches(self, s, actual, wanted: str):
        if str(actual) == wanted:
            return True
        if isinstance(actual, int) and 0 <= actual < len(s.types) and s.types[actual] == wanted:
            return True
        if wanted.startswith("p") and wanted[1:].isascii() and wanted[1:].isdigit() and actual == int(wanted[1:]) - 1:
            return True
        return False

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
                    if pl is not None and plain(scores[pl]) != value:
                        res.failures.append(f"{where}: total score of p{pl + 1}: expected {value}, got {scores[pl]}")
            elif key == "winners":
                got = [p + 1 for p in g.outcome(s)["winners"]]
                if not same(got, list(expected) if isinstance(expected, list) else expected):
                    res.failures.append(f"{where}: winners: expected {expected}, got {got}")
            else:
                try:
                    f, n = self.compile(str(key), s.n)
                except (CompileError, DslSyntaxError) as ex:
                    res.failures.append(f"{where}: cannot read '{key}': {getattr(ex, 'message', ex)}")
                    continue
                try:
                    got = f(s, [None, None] + [None] * (n - 2))
                except (RuleError, TypeError, KeyError, IndexError) as ex:
                    res.failures.append(f"{where}: '{key}' failed: {ex}")
                    continue
                if not same(got, expected):
                    res.failures.append(f"{where}: {key}: expected {expected!r}, got {got!r}")

    def compile(self, text, n):
        from ..language.dsl import parse_expr
        u = Unit(player=False)
        sc = Scope(u)
        for i in range(n):
            sc.names[f"p{i + 1}"] = ("macro", const(i, "player"))
        x = self.game.world.compiler.expr(parse_expr(text), sc)
        return x.f, u.n


def same(got, expected) -> bool:
    """Equal with types: `true` is not `1` (YAML's true would otherwise equal a count of 1)."""
    if isinstance(got, (list, tuple)) and isinstance(expected, (list, tuple)):
        return len(got) == len(expected) and all(same(a, b) for a, b in zip(got, expected))
    if isinstance(got, dict) and isinstance(expected, dict):
        return set(got) == set(expected) and all(same(got[k], expected[k]) for k in got)
    if isinstance(got, bool) or isinstance(expected, bool):
        return type(got) is type(expected) and got == expected
    return got == expected


def checks_of(entry) -> int:
    """How many checks a scenario makes: `then` keys, and `illegal` or `then` steps in `when`."""
    then = entry.get("then")
    n = len(then) if isinstance(then, dict) else 0
    for step in entry.get("when") or []:
        if isinstance(step, dict) and ("illegal" in step or "then" in step):
            n += 1
    return n


def argument_problem(game, action, arg, value: str, n: int) -> str | None:
    """Why `value` can never be argument `arg` of `action` (a misspelt kind value or type), or None."""
    acts = [a for st in game.steps.values() for a in st.actions if a.name == action]
    types = {t for a in acts for p, t in zip(a.pnames, getattr(a, "ptypes", ())) if p == arg}
    w = game.world
    text = value.strip()
    # Every type of value the text can denote; it is a fit if any of them is one the argument takes (a
    # component type named `p02` names a piece even though it is spelt like a seat).
    readings = []
    if text.lstrip("-").isascii() and text.lstrip("-").isdigit():
        readings.append({"int", "piece", "player", "any"})
    if text in w.types:
        readings.append({"piece", "str", "any"})
    if text in w.all_strings or text in ("true", "false", "none"):
        readings.append({"str", "any", "bool", "none"})
    if text.startswith("p") and text[1:].isascii() and text[1:].isdigit() and 1 <= int(text[1:]) <= n:
        readings.append({"player", "any"})
    if not readings and text.startswith("p") and text[1:].isascii() and text[1:].isdigit():
        return f"{text!r} cannot be argument {arg}: a game of {n} players has seats p1 to p{n}"
    if not readings:
        return (f"{text!r} is not a value of argument {arg} (a kind value, a component type, a piece id or pN)"
                + _hint(text, w.all_strings))
    ok = not types or any(types & r for r in readings)
    return None if ok else f"{text!r} cannot be argument {arg}, which takes a {' or '.join(sorted(types))}"


def _hint(name, names):
    h = did_you_mean(str(name), names)
    return f"; {h}" if h else ""


def run_game_scenarios(game: Game, game_dir: Path, files=None, options=None) -> list[ScenarioResult]:
    """Run every scenario of a game directory (or the given files); `options` are forced over each
    scenario's own options."""
    runner = Runner(game, options)
    files = scenario_files(game_dir) if files is None else files
    return [runner.run(name, entry, doc) for name, entry, doc in load_scenarios(files)]
