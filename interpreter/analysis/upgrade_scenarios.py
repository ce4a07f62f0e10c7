"""A scenario file of format version 1 rewritten to mean the same in version 2 (`upgrade`).

Version 2 reads a player written in a scenario as its seat from 1 everywhere, a listed zone as holding
exactly its pieces, and refuses a `start` step the flow takes in several places. Each rewrite here keeps
what the version-1 file meant: the game is loaded to know which expressions and arguments are players,
which listed zones kept pieces below the listed ones, and where an ambiguous step was taken.
"""

from __future__ import annotations

from ..definition.problems import Problem
from .scenario import Runner
from .scenario_given import _holder
from .scenario_actions import ScenarioError, argument_types, parse_action_id

SPECIAL = ("to_move", "over", "ends", "score", "total", "winners")


def one_to_two(doc, game, edits) -> list[Problem]:
    """Add to `edits` the rewrites of a version-1 scenario file; the problems of what could not be read."""
    problems: list[Problem] = []
    runner = Runner(game)
    runner.doc, runner.version = doc, 1
    for name, entry in ((doc.data or {}).get("scenarios") or {}).items():
        if not isinstance(entry, dict):
            continue
        runner.name = name
        base = ("scenarios", name)
        try:
            n = int(entry.get("players", game.player_counts[0]))
        except (TypeError, ValueError):
            continue
        when = entry.get("when") if isinstance(entry.get("when"), list) else []
        thens = [(base + ("then",), entry.get("then"))] + [
            (base + ("when", i, "then"), step["then"]) for i, step in enumerate(when)
            if isinstance(step, dict) and "then" in step]
        for path, then in thens:
            if isinstance(then, dict):
                _then(runner, edits, path, then, n, problems, doc)
        for i, step in enumerate(when):
            if isinstance(step, str):
                _action(game, edits, base + ("when", i), step, n)
            elif isinstance(step, dict) and len(step) == 1:
                (key, value), = step.items()
                if key != "then" and isinstance(value, str):
                    _action(game, edits, base + ("when", i, key), value, n)
        given = entry.get("given")
        if isinstance(given, dict):
            _given(runner, edits, base + ("given",), given, entry, n, problems, doc)
    return problems


def _then(runner, edits, path, then, n, problems, doc):
    for key, value in then.items():
        if key in ("legal", "not_legal"):
            for i, text in enumerate(value if isinstance(value, list) else []):
                if isinstance(text, str):
                    _action(runner.game, edits, path + (key, i), text, n)
            continue
        if key in SPECIAL:
            continue
        try:
            _, _, typ = runner.compile(str(key), n)
        except Exception:  # a key that does not read: the scenario fails either way; left as written
            problems.append(Problem(f"'{key}' does not read: left as written (check it after the upgrade)",
                                    doc.where(path + (key,)), severity="warning"))
            continue
        if typ == "player" and _is_int(value):
            edits.scalar(edits.node(path + (key,)), value + 1,
                         f"then {key}: {value} → {value + 1} (a player is its seat from 1)")
        elif typ == "list:player" and isinstance(value, list):
            for i, item in enumerate(value):
                if _is_int(item):
                    edits.scalar(edits.node(path + (key, i)), item + 1,
                                 f"then {key}[{i}]: {item} → {item + 1} (a player is its seat from 1)")


def _action(game, edits, path, text, n):
    """An action id whose player argument is a number (a seat from 0 in version 1): written pN."""
    try:
        name, args = parse_action_id(text)
    except ScenarioError:
        return  # malformed: the scenario says so when it runs
    changed = dict(args)
    for k, v in args.items():
        if v.isascii() and v.isdigit() and argument_types(game, name, k) == {"player"} and int(v) < n:
            changed[k] = f"p{int(v) + 1}"
    if changed == args:
        return
    sep = ", " if ", " in text else ","
    new = name + "(" + sep.join(f"{k}={v}" for k, v in changed.items()) + ")"
    edits.scalar(edits.node(path), new, f"action {text} → {new} (a player argument is a seat pN)")


def _given(runner, edits, path, given, entry, n, problems, doc):
    game = runner.game
    w = game.world
    zones = [(("zones", z), items) for z, items in (given.get("zones") or {}).items()]
    for seat, pdef in (given.get("players") or {}).items():
        if isinstance(pdef, dict):
            zones += [(("players", seat, "zones", z), items) for z, items in (pdef.get("zones") or {}).items()]
    for zpath, items in zones:
        listed = items.get("top") if isinstance(items, dict) else items
        ipath = path + zpath + (("top",) if isinstance(items, dict) else ())
        for i, item in enumerate(listed if isinstance(listed, list) else []):
            if not (isinstance(item, dict) and len(item) == 1):
                continue
            (tname, fields), = item.items()
            for f, v in (fields or {}).items() if isinstance(fields, dict) else ():
                if f in w.fields and w.fields[f][1] == "player" and _is_int(v):
                    edits.scalar(edits.node(ipath + (i, tname, f)), v + 1,
                                 f"field {f}: {v} → {v + 1} (a player is its seat from 1)")
    held = _held(runner, entry, given, n)
    for zpath, items in zones:
        what = "given." + ".".join(map(str, zpath))
        if isinstance(items, list) and held.get(what, len(items)) > len(items):
            node = edits.node(path + zpath)
            if node.flow_style:
                a, b = node.start_mark.index, node.end_mark.index
                new = "{top: " + edits.text[a:b] + "}"
            else:
                from .upgrade import _flow_text
                new = "{top: " + _flow_text(items) + "}"
            edits.replace(node, new, f"{what}: the pieces that start there stay below the listed ones: "
                                     "written {top: [...]} (a list holds exactly its pieces in format 2)")
    start = given.get("start")
    if isinstance(start, dict) and "step" in start and "in" not in start and start.get("resume"):
        places = [nd for nd in game.nodes if nd.step is not None and nd.step.id == start["step"]]
        holders = [_holder(nd.path) for nd in places]
        if len(places) > 1 and len(set(holders)) > 1:
            edits.insert_key(path + ("start",), "in", holders[0],
                             f"given.start: step {start['step']} is taken in {len(places)} places: in: "
                             f"{holders[0]} (the first, where format 1 started)", after="step")
        elif len(places) > 1:
            problems.append(Problem(f"given.start: step {start['step']} is taken {len(places)} times in "
                                    f"{holders[0]}; format 2 cannot start at one of them: start at a phase",
                                    doc.where(path + ("start",)), severity="warning"))


def _held(runner, entry, given, n) -> dict:
    """How many pieces each listed zone held once a version-1 `given` placed its pieces."""
    game = runner.game
    runner.held = {}
    try:
        s = game.new_game(n, seed=int(entry.get("seed", 0)), options=entry.get("options") or {})
        from .scenario import ScenarioResult
        runner.given(s, {k: v for k, v in given.items() if k in ("zones", "players")},
                     ScenarioResult("", None, None, None))
    except Exception:  # a position that cannot be set up: the scenario fails either way
        return {}
    return runner.held


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)
