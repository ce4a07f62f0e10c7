"""Disputed rules: where sources disagree, the definition names the readings and binds them to an option.

A dispute is an entry of the definition section `disputes`:

    disputes:
      last_round_scoring:
        label: {en: "Does the last round score twice?", zh: ...}
        option: double_last_round              # the game option that chooses the reading
        rules: [phases.final_round]            # where the disputed rule is encoded (definition paths)
        alternatives:
          - value: false                       # a value of the option
            source: "rulebook.txt §Scoring (hint)"
            says: {en: "The last round scores as any other.", zh: ...}
            default: {en: "The rulebook is the primary source.", zh: ...}   # the default, and why
          - value: true
            source: "summary.txt §Scoring"
            says: {en: "The last round scores twice.", zh: ...}

`read_disputes` checks them at load (the option exists; each alternative names a value of it, once; every
value of the option has an alternative; exactly one alternative is the default, and it is the option's
default; the rule paths exist) and returns `Dispute` values. Nothing here prints.
"""

from __future__ import annotations

import attrs

from .problems import Problem, did_you_mean
from ..table.words import Texts


def _label(value, fallback: str = "") -> dict:
    """{en, zh} from a label-like value (a string serves both languages)."""
    if isinstance(value, dict):
        en = value.get("en") or value.get("zh") or fallback
        out = Texts(en=str(en), zh=str(value.get("zh") or en))
        out.update((k, str(v)) for k, v in value.items() if k not in out and v)
        return out
    if value is None:
        return Texts(en=fallback, zh=fallback)
    return Texts(en=str(value), zh=str(value))


def _same(a, b) -> bool:
    """Equal values of one type (YAML's false is not 0)."""
    return type(a) is type(b) and a == b


@attrs.frozen
class Alternative:
    """One reading of a disputed rule: the option value that selects it, its source and what it says."""

    value: object
    source: str
    says: dict
    default_reason: dict | None = None

    @property
    def is_default(self) -> bool:
        return self.default_reason is not None

    def to_json(self) -> dict:
        out = {"value": self.value, "source": self.source, "says": self.says, "default": self.is_default}
        if self.default_reason is not None:
            out["why_default"] = self.default_reason
        return out


@attrs.frozen
class Dispute:
    """A rule whose sources disagree, its readings, and the option that chooses between them."""

    id: str
    label: dict
    option: str
    alternatives: tuple
    rules: tuple = ()
    where: str = ""

    @property
    def default(self) -> Alternative:
        return next(a for a in self.alternatives if a.is_default)

    def to_json(self) -> dict:
        return {"id": self.id, "label": self.label, "option": self.option, "rules": list(self.rules),
                "where": self.where, "alternatives": [a.to_json() for a in self.alternatives]}


def _path_exists(sections: dict, path: str) -> bool:
    node = sections
    for part in path.split("."):
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, dict) and any(str(k).startswith(part + "(") for k in node):
            node = next(v for k, v in node.items() if str(k).startswith(part + "("))  # defs: name(args)
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return False
    return True


def read_disputes(definition, options: dict, problems: list) -> tuple:
    """The disputes of a definition, checked against its options; problems are appended to `problems`."""
    out = []
    entries = definition.sections.get("disputes") or {}
    bound: dict = {}
    for did, entry in entries.items():
        if not isinstance(entry, dict):
            continue  # the schema reports it
        base = ("disputes", did)

        def bad(message, path=(), hint=None):
            problems.append(Problem(message, definition.where(base + tuple(path)), hint))

        option = entry.get("option")
        spec = options.get(option) if isinstance(option, str) else None
        if spec is None:
            bad(f"dispute '{did}' names the option '{option}', which the game does not declare (options:)",
                ("option",), did_you_mean(str(option), list(options)))
        elif option in bound:
            bad(f"the option '{option}' already chooses the reading of dispute '{bound[option]}'", ("option",))
        else:
            bound[option] = did
        values = list(spec.get("values") or []) if spec else []
        alts = []
        defaults = []
        for i, a in enumerate(entry.get("alternatives") or []):
            if not isinstance(a, dict):
                continue
            v = a.get("value")
            if spec is not None and values and not any(_same(v, x) for x in values):
                bad(f"alternative {i + 1} of dispute '{did}' has the value {v!r}, which is not a value of option "
                    f"'{option}'; expected one of {values}", ("alternatives", i, "value"))
            if any(_same(v, x.value) for x in alts):
                bad(f"two alternatives of dispute '{did}' have the value {v!r}", ("alternatives", i, "value"))
            alt = Alternative(v, str(a.get("source") or ""), _label(a.get("says")),
                              _label(a["default"]) if a.get("default") is not None else None)
            if alt.is_default:
                defaults.append((i, alt))
            alts.append(alt)
        if len(defaults) != 1:
            bad(f"dispute '{did}' must mark exactly one alternative as the default (with `default:` saying why); "
                f"it marks {len(defaults)}", ("alternatives",))
        elif spec is not None and not _same(defaults[0][1].value, spec.get("default")):
            i, alt = defaults[0]
            bad(f"the default alternative of dispute '{did}' has the value {alt.value!r}, but option '{option}' "
                f"defaults to {spec.get('default')!r}", ("alternatives", i, "default"))
        for v in values:
            if not any(_same(v, a.value) for a in alts):
                bad(f"the value {v!r} of option '{option}' is no alternative of dispute '{did}'", ("alternatives",))
        for j, path in enumerate(entry.get("rules") or []):
            if not isinstance(path, str) or not _path_exists(definition.sections, path):
                bad(f"dispute '{did}' names the rule '{path}', which is not a path of the definition",
                    ("rules", j))
        loc = definition.where(base)
        out.append(Dispute(str(did), _label(entry.get("label"), str(did)), str(option), tuple(alts),
                           tuple(str(p) for p in entry.get("rules") or ()), str(loc) if loc else ""))
    return tuple(out)


def disputes_text(disputes, lang: str = "en") -> list[str]:
    """The disputes as lines for people: each with its option and every reading, its source and status."""
    lines = []
    for d in disputes:
        lines.append(f"  {d.id}: {d.label[lang]} (option {d.option})")
        for a in d.alternatives:
            mark = "*" if a.is_default else "-"
            head = f"    {mark} {d.option}={_show(a.value)}: {a.says[lang]}"
            lines.append(head + (" [default]" if a.is_default else ""))
            lines.append(f"        source: {a.source}")
            if a.is_default:
                lines.append(f"        why the default: {a.default_reason[lang]}")
    return lines


def _show(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)
