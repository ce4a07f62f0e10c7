"""The names a definition shows to a reader, and the label each has.

The generated rulebook (`meeple rules`, interpreter/readback/) puts every declared name in front of a reader:
vars, zones, tables, resources, kinds and their values, component classes, types, fields and properties,
parameters, phases, steps, actions, events and their arguments, hooks, options, scoring items, end triggers,
scripted seats, named definitions and procedures. Each is shown by its label: the `label` of its own entry, or, for a
name declared with no place for one (a property, an event's argument, a named definition), its entry in the
`labels:` section. `shown_names` lists them with the label found; `missing_labels` names every one that has
no label in a language the definition uses, and every provisional note that lacks one (the lint reports
them). A label written as a plain string serves every language; a provisional note written as a plain
string is English. Nothing here prints.
"""

from __future__ import annotations

from typing import NamedTuple

BUILTIN_ARGS = ("player",)   # an event argument the table names by itself ("the player")


class Named(NamedTuple):
    what: str        # the kind of name, in words ("table", "property of building")
    name: str
    label: object    # a string, a {lang: text} mapping, or None
    path: tuple      # where it is declared (for the problem's location)


def text_in(value, lang: str, fallback: str = "") -> str:
    """The text of a label or note in `lang`: a string serves every language; else English, else any."""
    if isinstance(value, dict):
        return str(value.get(lang) or value.get("en") or next(iter(value.values()), fallback) or fallback)
    return str(value) if value not in (None, "") else fallback


def languages(definition) -> list:
    """The languages the definition's labels give (en first); just en when every label is a plain string."""
    found: set = set()

    def walk(v):
        if isinstance(v, dict):
            for k, x in v.items():
                if k in ("label", "says", "default") and isinstance(x, dict):
                    found.update(lang for lang in x if isinstance(x.get(lang), str))
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    walk(definition.sections)
    for lab in (definition.sections.get("labels") or {}).values():
        if isinstance(lab, dict):
            found.update(lab)
    return ["en"] + sorted(found - {"en"})


def _label(entry):
    return entry.get("label") if isinstance(entry, dict) else None


def shown_names(definition):
    """(what, name, label, path) of every name the rulebook shows; label None when there is none."""
    d = definition.sections
    extra = d.get("labels") or {}

    def named(what, name, entry, path):
        lab = _label(entry)
        return Named(what, str(name), lab if lab is not None else extra.get(name), path)

    for sec, what in (("options", "option"), ("tables", "table"), ("resources", "resource"),
                      ("parameters", "parameter"), ("phases", "phase"), ("steps", "step"), ("hooks", "hook"),
                      ("scripted_seats", "scripted seat")):
        for k, v in (d.get(sec) or {}).items():
            yield named(what, k, v, (sec, k))
    for scope in ("global", "player", "piece"):
        for sec in ("vars", "zones"):
            for k, v in ((d.get(sec) or {}).get(scope) or {}).items():
                yield named(f"{scope} {sec[:-1]}", k, v, (sec, scope, k))
    for k, v in (d.get("kinds") or {}).items():
        yield named("kind", k, v, ("kinds", k))
        values = (v.get("values") or []) if isinstance(v, dict) else []
        labels = (v.get("labels") or {}) if isinstance(v, dict) else {}
        for val in values:
            lab = labels.get(val)
            yield Named(f"value of kind {k}", str(val), lab if lab is not None else extra.get(val),
                        ("kinds", k, "labels") if labels else ("kinds", k))
    for cls, c in (d.get("components") or {}).items():
        c = c if isinstance(c, dict) else {}
        yield named("component class", cls, c, ("components", cls))
        for t, tv in (c.get("types") or {}).items():
            yield named(f"type of {cls}", t, tv, ("components", cls, "types", t))
        for f, fv in (c.get("fields") or {}).items():
            yield named(f"field of {cls}", f, fv, ("components", cls, "fields", f))
        for prop in (c.get("properties") or {}):
            yield Named(f"property of {cls}", str(prop), extra.get(prop), ("components", cls, "properties", prop))
    for sid, st in (d.get("steps") or {}).items():
        for aid, a in ((st or {}).get("actions") or {}).items() if isinstance(st, dict) else ():
            yield named(f"action of step {sid}", aid, a, ("steps", sid, "actions", aid))
    for ev, args in (d.get("events") or {}).items():
        args = args if isinstance(args, dict) else {}
        yield Named("event", str(ev), extra.get(ev) if extra.get(ev) is not None else _label(args), ("events", ev))
        for arg in args:
            if arg not in ("label", "source", "description") and arg not in BUILTIN_ARGS:
                yield Named(f"argument of event {ev}", str(arg), extra.get(arg), ("events", ev, arg))
    for k, v in (((d.get("scoring") or {}).get("items")) or {}).items():
        yield named("scoring item", k, v, ("scoring", "items", k))
    for k, v in (((d.get("end") or {}).get("triggers")) or {}).items():
        yield named("end trigger", k, v, ("end", "triggers", k))
    for sec, what in (("defs", "named definition"), ("procedures", "procedure")):
        for k in (d.get(sec) or {}):
            name = str(k).split("(")[0].strip()
            yield Named(what, name, extra.get(name), (sec, k))


def _notes(v, path=()):
    """(path, note) of every provisional note inside a section."""
    if isinstance(v, dict):
        for k, x in v.items():
            if k == "provisional":
                yield path + (k,), x
            else:
                yield from _notes(x, path + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from _notes(x, path + (i,))


def missing_labels(definition):
    """(what, name, language, path) of every shown name, and every provisional note, without a text in a
    language the definition uses (a name with no label at all: language None)."""
    langs = languages(definition)
    seen = set()
    for n in shown_names(definition):
        key = (n.what, n.name)
        if key in seen:
            continue
        seen.add(key)
        if n.label is None:
            yield n.what, n.name, None, n.path
        elif isinstance(n.label, dict):
            for lang in langs:
                if not n.label.get(lang):
                    yield n.what, n.name, lang, n.path
    for sec, body in definition.sections.items():
        for path, note in _notes(body, (sec,)):
            for lang in langs:
                # a note written as a plain string is English (a label's string serves every language)
                if not (note.get(lang) if isinstance(note, dict) else lang == "en"):
                    yield "provisional note", ".".join(map(str, path[:-1])), lang, path
