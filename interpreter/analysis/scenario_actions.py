"""Action ids as a scenario writes them: parsed, checked against the game, and found among the legal actions.

A scenario names an action as the API does, `name(arg=value, ...)`, with friendlier values: a piece by its
id or by a component type (the first legal piece of that type), a player by `pN` (and, from format version
2, by its seat from 1), a kind value. Every id is parsed and checked before it is looked for: a malformed
id (no parentheses around the arguments, an unbalanced parenthesis, an argument without `=`, one given
twice), an action the game does not have, an argument it does not take or a value it can never take is a
`ScenarioError` (a mistake of the scenario), never an action "refused as expected".
"""

from __future__ import annotations

import re

from ..definition.problems import did_you_mean

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class ScenarioError(Exception):
    """A mistake in the scenario itself (an action name that the game does not have)."""


def parse_action_id(text: str) -> tuple[str, dict]:
    """(name, {arg: value text}) of an action id `name(arg=value, ...)` or `name`; ScenarioError says what is
    malformed."""
    raw = str(text).strip()
    m = NAME.match(raw)
    if not m:
        raise ScenarioError(f"'{text}' is not an action id: write name(arg=value, ...)")
    name, rest = m.group(0), raw[m.end():].strip()
    if not rest:
        return name, {}
    if not (rest.startswith("(") and rest.endswith(")")):
        raise ScenarioError(f"'{text}' is not an action id: write {name}(arg=value, ...), its arguments in "
                            "parentheses")
    parts, depth, cur = [], 0, ""
    for ch in rest[1:-1]:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth < 0:
                break
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    if depth != 0:
        raise ScenarioError(f"'{text}' is not an action id: its parentheses do not balance")
    parts.append(cur)
    args: dict[str, str] = {}
    for part in parts:
        part = part.strip()
        if not part and len(parts) == 1:
            break  # name()
        if "=" not in part:
            raise ScenarioError(f"'{text}': write each argument as name=value ('{part}' has no '=')")
        k, v = (y.strip() for y in part.split("=", 1))
        if not NAME.fullmatch(k) or not v:
            raise ScenarioError(f"'{text}': write each argument as name=value, not '{part}'")
        if k in args:
            raise ScenarioError(f"'{text}': argument {k} is given twice")
        args[k] = v
    return name, args


def argument_types(game, action, arg) -> set:
    """The value types argument `arg` of `action` takes (in any step that has that action)."""
    acts = [a for st in game.steps.values() for a in st.actions if a.name == action]
    return {t for a in acts for p, t in zip(a.pnames, getattr(a, "ptypes", ())) if p == arg}


def argument_problem(game, action, arg, value: str, n: int) -> str | None:
    """Why `value` can never be argument `arg` of `action` (a misspelt kind value or type), or None."""
    types = argument_types(game, action, arg)
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


def resolve(game, s, text, seat=None, version: int = 2) -> dict:
    """The legal action an id names (for `seat`, default the current player), or, when none is legal, the
    action it names as {id, action, args} (which `apply` then refuses). ScenarioError for an id that names
    nothing this game has. In format version 2 a number given for a player argument is a seat from 1 (in
    version 1 it was compared with the API's seat from 0)."""
    name, want = parse_action_id(text)
    known = {a.name: [p[0] for p in a.params] for st in game.steps.values() for a in st.actions}
    known.setdefault("pass", [])
    if name not in known:
        raise ScenarioError(f"'{name}' is no action of this game" + _hint(name, known))
    unknown = set(want) - set(known[name])
    if unknown:
        raise ScenarioError(f"action {name} has no argument {', '.join(sorted(unknown))} "
                            f"(its arguments: {', '.join(known[name]) or 'none'})")
    acts = game.legal_actions(s, labels=False, player=seat)
    seats_from_one = version >= 2 and any(v.isascii() and v.isdigit() and argument_types(game, name, k) == {"player"}
                                          for k, v in want.items())
    if not seats_from_one:  # the API's own id, as legal_actions gives it
        exact = str(text).replace(" ", "")
        for a in acts:
            if a["id"] == exact:
                return a
    for k, v in want.items():
        problem = argument_problem(game, name, k, v, s.n)
        if problem:
            raise ScenarioError(f"'{text}': {problem}")
        if version >= 2 and v.isascii() and v.isdigit() and argument_types(game, name, k) == {"player"}:
            if not 1 <= int(v) <= s.n:
                raise ScenarioError(f"'{text}': {v} cannot be argument {k}: a game of {s.n} players has seats "
                                    f"1 to {s.n}")
            want[k] = f"p{int(v)}"
    for a in acts:
        if a["action"] != name or set(a["args"]) != set(want):
            continue
        if all(matches(s, a["args"][k], v) for k, v in want.items()):
            return a
    return {"id": text, "action": name, "args": want}


def matches(s, actual, wanted: str) -> bool:
    """Whether an argument's value in a legal action is the one a scenario wrote (a piece id, a piece's
    type, a seat pN, a kind value)."""
    if str(actual) == wanted:
        return True
    if isinstance(actual, int) and 0 <= actual < len(s.types) and s.types[actual] == wanted:
        return True
    if wanted.startswith("p") and wanted[1:].isascii() and wanted[1:].isdigit() and actual == int(wanted[1:]) - 1:
        return True
    return False


def _hint(name, names):
    h = did_you_mean(str(name), names)
    return f"; {h}" if h else ""
