"""Static checks of a compiled game that are not errors but usually mean a rule is missing or wrong.

Each check yields `Finding`s: state written but never read (a scoring item a translation dropped shows up
here), names never used, components never referenced, steps/phases/hooks/end triggers that nothing can
reach, event cycles, counts that disagree with the box inventory, rules without a source, names shown to a
reader without a label in a language the definition uses, and the register of provisional values.
"""

from __future__ import annotations

import re

from ..definition.naming import missing_labels, text_in
from ..engine.invariants import resource_totals

EMIT = re.compile(r"\bemit\s+([A-Za-z_][A-Za-z0-9_]*)")
END = re.compile(r"\bend_game\s*\(\s*([A-Za-z_][A-Za-z0-9_]*)")
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class Finding:
    """One lint result: `severity` is 'error', 'warning' or 'info'; `code` names the check."""

    __slots__ = ("code", "severity", "message", "location", "note")

    def __init__(self, code, severity, message, location=None, note=None):
        self.code, self.severity, self.message, self.location, self.note = code, severity, message, location, note

    def __str__(self):
        loc = f"{self.location}: " if self.location else ""
        return f"{loc}{self.severity}: {self.message}" + (f" ({self.note})" if self.note else "")

    def to_json(self):
        return {"code": self.code, "severity": self.severity, "message": self.message,
                "location": str(self.location) if self.location else None, "note": self.note}


def _strings(v):
    """Every string inside a YAML value."""
    if isinstance(v, str):
        yield v
    elif isinstance(v, dict):
        for k, x in v.items():
            yield from _strings(x)
    elif isinstance(v, list):
        for x in v:
            yield from _strings(x)


def _walk(v, path=()):
    """(path, key, value) for every mapping entry inside a YAML value."""
    if isinstance(v, dict):
        for k, x in v.items():
            yield path, k, x
            yield from _walk(x, path + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from _walk(x, path + (i,))


def lint(game) -> list[Finding]:
    out: list[Finding] = []
    for check in (written_not_read, unused_names, unused_components, unreachable, event_cycles,
                  box_inventory, without_source, label_missing, provisional_register):
        out.extend(check(game))
    return out


def written_not_read(game):
    w = game.world
    d = game.definition
    reads, writes = game.static_reads, game.static_writes
    for scope, kind in (("global", "var"), ("player", "pvar")):
        for name, v, t in w.var_defs[scope]:
            if (kind, name) in writes and (kind, name) not in reads:
                yield Finding("written-not-read", "warning",
                              f"{'player ' if scope == 'player' else ''}var '{name}' is set by rules but no rule "
                              f"or scoring item reads it", d.where(("vars", scope, name)),
                              "a dropped scoring item or a missing rule?")
    for fname, classes, fdef, is_map in w.field_defs:
        if ("field", fname) in writes and ("field", fname) not in reads:
            cls = sorted(classes)[0]
            yield Finding("written-not-read", "warning",
                          f"field '{fname}' is set by rules but nothing reads it",
                          d.where(("components", cls, "fields", fname)))
    seen = set()
    for name, loc in w.unused_locals:
        if (name, str(loc)) not in seen:  # a step compiled for two contexts reports once
            seen.add((name, str(loc)))
            yield Finding("written-not-read", "warning", f"local '{name}' is set but never read", loc,
                          "a misspelt name?")


def unused_names(game):
    w = game.world
    d = game.definition
    reads, writes = game.static_reads, game.static_writes
    for scope, kind in (("global", "var"), ("player", "pvar")):
        for name, v, t in w.var_defs[scope]:
            if (kind, name) in reads or (kind, name) in writes:
                continue
            if v.get("resource") is not None:
                continue  # a reserve that only holds its part of a conserved resource
            yield Finding("unused", "warning", f"{'player ' if scope == 'player' else ''}var '{name}' is never used",
                          d.where(("vars", scope, name)))
    for name in w.tables:
        if ("table", name) not in reads:
            yield Finding("unused", "warning", f"table '{name}' is never used", d.where(("tables", name)))
    for name in w.defs:
        if ("def", name) not in reads:
            key = next((k for k in d["defs"] if str(k).split("(")[0].strip() == name), name)
            yield Finding("unused", "warning", f"def '{name}' is never used", d.where(("defs", key)))
    for name, (_, _, path) in w.procedures.sigs.items():
        if ("procedure", name) not in reads:
            yield Finding("unused", "warning", f"procedure '{name}' is never called", d.where(path))
    for name in w.params:
        if ("param", name) not in reads:
            yield Finding("unused", "warning", f"parameter '{name}' is never read by a rule, so its "
                          f"modifiers change nothing", d.where(("parameters", name)))
    for name in w.options:
        if ("option", name) not in reads:
            yield Finding("unused", "warning", f"option '{name}' is never read by a rule",
                          d.where(("options", name)))
    start_zones = {z for _, _, z, per_player in game.piece_plan if not per_player}
    # the zones as declared (a family or a piece zone once, not each of its zones)
    for scope in ("global", "piece"):
        for name in (d["zones"].get(scope) or {}):
            if ("zone", name) not in reads and w.gzones.get(name) not in start_zones:
                yield Finding("unused", "warning", f"zone '{name}' is never used", d.where(("zones", scope, name)))
    for name in (d["zones"].get("player") or {}):
        if ("pzone", name) not in reads:
            yield Finding("unused", "warning", f"player zone '{name}' is never used",
                          d.where(("zones", "player", name)))
    for name in w.events:
        if ("emit", name) not in reads:
            yield Finding("unused", "warning", f"event '{name}' is never emitted", d.where(("events", name)))
        elif name not in game.hooks and name not in getattr(game, "event_notes", {}):  # a label narrates it
            yield Finding("unused", "info", f"event '{name}' has no hook", d.where(("events", name)))


def unused_components(game):
    """Types that no rule names, that change no parameter, and whose starting zone no rule reads."""
    w = game.world
    d = game.definition
    reads = game.static_reads
    mentioned = {n for k, n in reads if k == "name"}
    for tables in (d["tables"], d["components"]):
        for s in _strings(tables):
            mentioned.update(WORD.findall(s))
    zone_names = {z: name for name, z in w.gzones.items()}
    pzone_names = {z: name for name, z in w.pzones.items()}
    for tname, plan in ((p[0], p) for p in game.piece_plan):
        tdef = w.type_entries[tname]
        if tname in mentioned or tdef.get("modifies"):
            continue
        zname = (pzone_names if plan[3] else zone_names).get(plan[2])
        if zname is not None and (("pzone" if plan[3] else "zone"), zname) in reads:
            continue
        cls = w.types[tname]
        yield Finding("unused-component", "warning",
                      f"component type '{tname}' is never used: no rule names it and no rule reads its "
                      f"starting zone '{zname}'", d.where(("components", cls, "types", tname)))


def unreachable(game):
    w = game.world
    d = game.definition
    used_steps = {n.step.id for n in game.nodes if n.step is not None and n.kind in (2, 7)}  # a step or a simultaneous step
    for sid in d["steps"]:
        if sid not in used_steps:
            yield Finding("unreachable", "warning", f"step '{sid}' is in no flow: its actions can never be taken",
                          d.where(("steps", sid)))
    called = {game.nodes[n.extra].phase for n in game.nodes if n.kind == 3 and n.extra is not None}
    dynamic = any(n.kind == 3 and n.extra is None for n in game.nodes)
    named = set()
    if dynamic:
        for table in w.props.values():
            named.update(v for v in table.values() if isinstance(v, str))
        for v, _ in w.tables.values():
            named.update(_strings(v))
    for ph in d["phases"]:
        if ph not in called and ph not in named:
            yield Finding("unreachable", "warning", f"phase '{ph}' is never called", d.where(("phases", ph)))
    emitted = {n for k, n in game.static_reads if k == "emit"}
    for hid, h in d["hooks"].items():
        ev = h.get("on") if isinstance(h, dict) else None
        if ev is not None and ev not in emitted:
            yield Finding("unreachable", "warning", f"hook '{hid}' listens to '{ev}', which no rule emits",
                          d.where(("hooks", hid)))
    set_triggers = set()
    for s in _strings({k: v for k, v in d.sections.items() if k not in ("end",)}):
        set_triggers.update(END.findall(s))
    for t in w.end_triggers:
        if t not in set_triggers:
            yield Finding("unreachable", "warning", f"end trigger '{t}' is never set by end_game()",
                          d.where(("end", "triggers", t)))


def event_cycles(game):
    """Hooks whose flows emit events that come back to them: E -> F -> ... -> E."""
    d = game.definition
    steps = d["steps"]
    edges: dict[str, set] = {}
    for hid, h in d["hooks"].items():
        if not isinstance(h, dict):
            continue
        texts = list(_strings(h.get("do")))
        for _, key, value in _walk(h.get("do")):
            if key == "step" and value in steps:
                texts.extend(_strings(steps[value]))
        for t in texts:
            for ev in EMIT.findall(t):
                edges.setdefault(h.get("on"), set()).add(ev)
    seen_cycles = set()
    for start in edges:
        stack = [(start, [start])]
        while stack:
            node, path = stack.pop()
            for nxt in edges.get(node, ()):
                if nxt == start:
                    cyc = tuple(sorted(path))
                    if cyc not in seen_cycles:
                        seen_cycles.add(cyc)
                        yield Finding("cycle", "warning", "events trigger each other in a cycle: "
                                      + " -> ".join(path + [start]), d.where(("events", start)),
                                      "a hook chain that may never end")
                elif nxt not in path and len(path) < 20:
                    stack.append((nxt, path + [nxt]))


def box_inventory(game):
    """Component counts and resource totals against the `box` numbers of the definition."""
    w = game.world
    d = game.definition
    for cname, cls in w.classes.items():
        box = cls.get("box")
        if box is None:
            continue
        totals = {n: sum(count(n) * (n if per_player else 1) for t, count, z, per_player in game.piece_plan
                         if w.types[t] == cname)
                  for n in game.player_counts}
        most = max(totals.values()) if totals else 0
        if most != box:
            yield Finding("box", "error", f"class '{cname}': the types' counts add up to {most}, but the box "
                          f"holds {box}", d.where(("components", cname, "box")))
    res = {r: v for r, v in d["resources"].items() if isinstance(v, dict) and v.get("box") is not None}
    if not res:
        return
    for n in game.player_counts:
        try:
            s = game.new_game(n, seed=0)
        except Exception as ex:  # reported by the random-play checks
            yield Finding("box", "error", f"cannot set up {n} players: {ex}", d.where(("game",)))
            continue
        totals = resource_totals(game, s)
        for r, v in res.items():
            got = totals.get(r, 0)
            got = sum(got.values()) if isinstance(got, dict) else got
            if got != v["box"]:
                yield Finding("box", "warning" if got < v["box"] else "error",
                              f"resource '{r}': {got} in play at {n} players, the box holds {v['box']}",
                              d.where(("resources", r, "box")),
                              "declare a reserve var for what stays in the box" if got < v["box"] else None)


RULE_SECTIONS = ("phases", "steps", "hooks")


def without_source(game):
    d = game.definition
    for sec in RULE_SECTIONS:
        for rid, entry in d[sec].items():
            if isinstance(entry, dict) and not entry.get("source"):
                yield Finding("no-source", "info", f"{sec[:-1]} '{rid}' cites no source", d.where((sec, rid)))
            if sec == "steps" and isinstance(entry, dict):
                for aid, a in (entry.get("actions") or {}).items():
                    if isinstance(a, dict) and not a.get("source") and not entry.get("source"):
                        yield Finding("no-source", "info", f"action '{sid_aid(rid, aid)}' cites no source",
                                      d.where((sec, rid, "actions", aid)))
    for cname, cls in d["components"].items():
        if not isinstance(cls, dict):
            continue
        for tname, t in (cls.get("types") or {}).items():
            if not (isinstance(t, dict) and t.get("source")) and not cls.get("source"):
                yield Finding("no-source", "info", f"component type '{tname}' cites no source",
                              d.where(("components", cname, "types", tname)))


def label_missing(game):
    """Names the generated rulebook shows, and provisional notes, that have no text in a language the
    definition uses (interpreter/definition/naming.py): the rulebook would show the identifier instead."""
    d = game.definition
    for what, name, lang, path in missing_labels(d):
        if what == "provisional note":
            yield Finding("label-missing", "info", f"the provisional note of {name} has no {lang} text",
                          d.where(path), "write it as {en: ..., " + f"{lang}: ...}}")
        elif lang is None:
            yield Finding("label-missing", "info", f"{what} '{name}' has no label", d.where(path),
                          "give it a `label:`, or list it under `labels:`")
        else:
            yield Finding("label-missing", "info", f"{what} '{name}' has no {lang} label", d.where(path),
                          f"add {lang}: ... to its label")


def sid_aid(sid, aid):
    return f"{sid}.{aid}"


def provisional_register(game):
    """Every value marked provisional, with its note: facts no source establishes."""
    d = game.definition
    for sec, body in d.sections.items():
        if body is None:
            continue
        for path, key, value in _walk(body, (sec,)):
            if key == "provisional":
                yield Finding("provisional", "info", f"{'.'.join(map(str, path))} is provisional",
                              d.where(path + (key,)), " ".join(text_in(value, "en").split()))


def summary(findings) -> dict:
    out: dict = {}
    for f in findings:
        out[f.code] = out.get(f.code, 0) + 1
    return out
