"""Values as a definition writes them: labels in every language (`label_of`), values wrapped with their
provenance (`unwrap`), and the word `none` (`literal`)."""

from __future__ import annotations

from ..table.words import Texts


def label_of(entry, default):
    """A label from an entry's `label` as Texts: en and zh always (a string is used for both), and every
    other language the label gives; a language it lacks reads as English."""
    lab = entry.get("label") if isinstance(entry, dict) else None
    if isinstance(lab, str):
        return Texts(en=lab, zh=lab)
    if isinstance(lab, dict):
        en = lab.get("en") or lab.get("zh") or default
        out = Texts(en=en, zh=lab.get("zh") or en)
        out.update((k, v) for k, v in lab.items() if k not in out and isinstance(v, str) and v)
        return out
    text = str(default).replace("_", " ")
    return Texts(en=text, zh=text)


def unwrap(v):
    """A table or count value without its provenance wrapper."""
    if isinstance(v, dict) and "value" in v and set(v) <= {"value", "source", "provisional", "label", "note"}:
        return v["value"]
    return v


def literal(v):
    """A property or field value as the DSL sees it: the word `none` is the DSL's none."""
    v = unwrap(v)
    return None if v == "none" else v
