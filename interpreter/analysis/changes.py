"""What each change of a variant touches in play: the counters that can show it was used.

    rules = Vocabulary(base, variant)
    things = touched(rules_diff(base.definition, variant.definition)["changes"], rules, players=4)
    base.metered(meter_names(things))       # the reads those changes need counted (see language.meters)

For each change `diff.rules_diff` lists (by its path), `touched` says which usage keys (`usage.UsageMeter`)
can tell whether it mattered, which reads a read meter must count for it, and which scoring items it
changes or feeds:

- a component type: its pieces chosen in an action, its modifiers and its abilities; a property of a
  type (or of a class, for all its types): the reads of that property of those types;
- an action, hook or phase: itself; a step: its actions;
- a table: its reads (of the entry the path names, or of the whole table), and the component type its
  name names (`trading_house_size`: the type `trading_house`), the only link a name gives; a change of a
  by_players entry for another player count than the one played is not in play at all;
- a parameter: its reads and the modifiers of it; a var: its reads (a change of its initial value);
- a scoring item: the points it gave; and any change of a name a scoring item reads (a table, a
  parameter, a var, a property, a def, a piece type, found in its text and in the defs it calls) the
  points of that item too.

Keys are plain strings: `component:TYPE`, `action:STEP/ACTION`, `hook:ID`, `phase:ID`,
`modifier:TYPE/PARAMETER`, `ability:TYPE`, `read:KIND/NAME[ENTRY]` and `menu:KIND/NAME[ENTRY]` (KIND one
of table, parameter, var, property; see usage), and `points:ITEM` for a scoring item's points.
"""
from __future__ import annotations

from lark import Token, Tree

from ..language.dsl import DslSyntaxError, parse_expr
from .usage import READ_WORDS


class Vocabulary:
    """The names of a game and its variant that changes are matched against (the union of both)."""

    def __init__(self, *games):
        self.types: dict[str, str] = {}       # piece type -> its class
        self.props: set[str] = set()
        self.items: dict[str, frozenset] = {}  # scoring item -> the names its text (and its defs) read
        for game in games:
            w = getattr(game, "world", None)
            if w is None:
                continue
            self.types.update(w.types)
            self.props.update(w.props)
            for iid, names in item_reads(game).items():
                self.items[iid] = self.items.get(iid, frozenset()) | names


def item_reads(game) -> dict[str, frozenset]:
    """For each scoring item of `game`: every name its text and its `divided_by` name, with the names of
    the defs it calls (and those they call) and what those read: a table, var, parameter, property, def
    or piece type it reads is among them (a local of the same name too: a superset, never less)."""
    w = game.world
    items = (w.d["scoring"] or {}).get("items") or {}
    out = {}
    for iid, item in items.items():
        texts = [item.get("expr"), item.get("divided_by")] if isinstance(item, dict) else [item]
        names: set[str] = set()
        todo = [t for t in texts if isinstance(t, str)]
        seen_defs: set[str] = set()
        while todo:
            text = todo.pop()
            try:
                tree = parse_expr(text) if isinstance(text, str) else text
            except DslSyntaxError:
                continue
            for name in _names(tree):
                names.add(name)
                if name in w.defs and name not in seen_defs:
                    seen_defs.add(name)
                    todo.append(w.defs[name][1])
        out[str(iid)] = frozenset(names)
    return out


def _names(tree) -> set[str]:
    found, todo = set(), [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, Token):
            if node.type == "NAME":
                found.add(str(node))
        elif isinstance(node, Tree):
            todo.extend(node.children)
    return found


def touched(changes: list[dict], rules: Vocabulary, players: int | None = None) -> list[dict]:
    """For each change of `diff.rules_diff` (see the module doc): {"text", "path", "match": [(key kind,
    name or pattern)], "meter": [(kind, name)], "expect": [keys to show as never used when no key of
    their kind (a piece chosen, an action, a hook, a phase, a read) is seen], "items": [scoring item ids],
    "note": str or None (why it is not in play)}."""
    return [_touched(c, rules, players) for c in changes]


def _touched(c: dict, rules: Vocabulary, players: int | None) -> dict:
    path = c["path"].split(".")
    match: list[tuple[str, str]] = []
    meter: list[tuple[str, str]] = []
    expect: list[str] = []  # keys shown as never used when no key of their kind is seen (see compare)
    names: set[str] = set()  # names a scoring item may read
    items: list[str] = []
    note = None
    head = path[0]
    if head == "components" and len(path) >= 4 and path[2] == "types":
        t = path[3]
        match = _type_match(t)
        expect.append(f"component:{t}")
        names.add(t)
        if len(path) >= 5 and path[4] in rules.props:
            match += _read_match("prop", path[4], t)
            meter.append(("prop", path[4]))
            expect.append(f"read:property/{path[4]}[{t}]")
            names.add(path[4])
    elif head == "components" and len(path) >= 2:
        of_class = [t for t, cls in rules.types.items() if cls == path[1]]
        if len(path) >= 4 and path[2] == "properties" and path[3] in rules.props:
            match = [m for t in of_class for m in _read_match("prop", path[3], t)]
            meter.append(("prop", path[3]))
            expect.append(f"read:property/{path[3]}")
            names.add(path[3])
        else:
            match = [m for t in of_class for m in _type_match(t)]
        names.update(of_class)
    elif head == "steps" and len(path) >= 4 and path[2] == "actions":
        match = [("action", f"{path[1]}/{path[3]}")]
        expect.append(f"action:{path[1]}/{path[3]}")
    elif head == "steps" and len(path) >= 2:
        match = [("action", f"{path[1]}/")]
    elif head in ("hooks", "phases") and len(path) >= 2:
        match = [(head[:-1], path[1])]
        expect.append(f"{head[:-1]}:{path[1]}")
    elif head == "tables" and len(path) >= 2:
        name = path[1]
        rest = path[3:] if path[2:3] == ["value"] else path[2:]  # a table written with `value:` or without
        if rest[:1] == ["by_players"]:  # the value at one player count (or at every count)
            if len(rest) >= 2 and players is not None and rest[1] != str(players):
                note = f"not in play: the change is for {rest[1]} players, these games have {players}"
            rest = rest[2:]
        if note is None:
            entry = rest[0] if rest else None
            match = _read_match("table", name, entry)
            meter.append(("table", name))
            expect.append(f"read:table/{name}" + (f"[{entry}]" if entry is not None else ""))
            named = [t for t in sorted(rules.types, key=len, reverse=True) if t in name]
            match += [m for t in named[:1] for m in _type_match(t)]
            names.add(name)
    elif head == "parameters" and len(path) >= 2:
        match = [("modifier", f"/{path[1]}")] + _read_match("param", path[1])
        meter.append(("param", path[1]))
        expect.append(f"read:parameter/{path[1]}")
        names.add(path[1])
    elif head == "vars" and len(path) >= 3:
        match = _read_match("var", path[2])
        meter.append(("var", path[2]))
        expect.append(f"read:var/{path[2]}")
        names.add(path[2])
    elif head == "defs" and len(path) >= 2:
        names.add(path[1].split("(")[0].strip())
    if head == "scoring" and len(path) >= 3 and path[1] == "items":
        items.append(path[2])
    if names:
        items += [iid for iid, reads in rules.items.items() if reads & names and iid not in items]
    return {"text": c.get("text") or c["path"], "path": c["path"], "match": match, "meter": meter,
            "expect": expect, "items": items, "note": note}


def _type_match(t: str) -> list[tuple[str, str]]:
    return [("component", t), ("modifier", f"{t}/"), ("ability", t)]


def _read_match(kind: str, name: str, entry=None) -> list[tuple[str, str]]:
    """The read and menu keys of `name`: of the whole value and of its entry `entry` when given, else of
    the whole value and every entry."""
    word = READ_WORDS[kind]
    patterns = [f"{word}/{name}", f"{word}/{name}[{entry}]" if entry is not None else f"{word}/{name}[*"]
    return [(where, p) for p in patterns for where in ("read", "menu")]


def meter_names(things: list[dict]) -> set[tuple[str, str]]:
    """The (kind, name) pairs a read meter must count for the changes `touched` found."""
    return {m for thing in things for m in thing["meter"]}


def evidence(key: str) -> str:
    """The kind of use a usage key shows: its kind, with a read and a menu's read one kind."""
    kind = key.partition(":")[0]
    return "read" if kind == "menu" else kind


def matching_keys(match: list[tuple[str, str]], keys) -> list[str]:
    """The usage keys (`kind:name`) that a `touched` match selects: a name equal to the pattern, or
    starting with it for a pattern ending in `/` (without its `*` for one ending in `*`), or ending with
    it for a pattern starting with `/`."""
    out = []
    for key in keys:
        kind, _, name = key.partition(":")
        for mkind, mname in match:
            if kind != mkind:
                continue
            if (name == mname or (mname.endswith("/") and name.startswith(mname))
                    or (mname.endswith("*") and name.startswith(mname[:-1]))
                    or (mname.startswith("/") and name.endswith(mname))):
                out.append(key)
                break
    return sorted(out)
