"""JSON Schema checking of loaded YAML files, with problems phrased and located for authors.

Contract:

- `load_schema(name)` reads `schemas/<name>.schema.json` (see `resources.data_dir`).
- `validate_document(doc, name)` checks `doc.data` against that schema (Draft 2020-12) and
  returns every problem, most useful first: shallow problems before deep ones, strong
  keywords before `anyOf`/`oneOf` summaries, then file order. Each problem is located at
  `file:line:col` (an unknown or misspelt key at the key itself) and unknown keys and
  values get a did-you-mean. An empty file (`data is None`) has no problems.
- `$ref`s resolve only to our own schemas: `urn:meeple:schema:<name>` is
  `schemas/<name>.schema.json`; nothing is ever fetched from the network.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import referencing
import referencing.jsonschema
from jsonschema.exceptions import ValidationError, best_match

from .document import Document, Path as DocPath, _key_text
from .problems import Problem, close_matches, did_you_mean, format_choices, quote
from .resources import data_dir

URN_PREFIX = "urn:meeple:schema:"
_WEAK = {"anyOf", "oneOf"}


def schema_path(name: str = "gamedef") -> Path:
    """The file of the schema `name`."""
    return data_dir("schemas") / f"{name}.schema.json"


def load_schema(name: str = "gamedef") -> dict:
    """The schema `name` as a dict (a fresh copy: callers may modify it)."""
    return json.loads(schema_path(name).read_text(encoding="utf-8"))


def _retrieve(uri: str) -> referencing.Resource:
    """Resolves our own URNs to local files; refuses everything else."""
    if uri.startswith(URN_PREFIX):
        name = uri.removeprefix(URN_PREFIX)
        if name.replace("_", "").replace("-", "").isalnum() and schema_path(name).is_file():
            return referencing.jsonschema.DRAFT202012.create_resource(load_schema(name))
    raise LookupError(f"schema reference {uri!r} is not one of our local schemas ({URN_PREFIX}<name>); "
                      "remote schemas are never fetched")


@functools.lru_cache(maxsize=None)
def _validator(name: str) -> jsonschema.Draft202012Validator:
    schema = load_schema(name)
    registry = referencing.Registry(retrieve=_retrieve)
    return jsonschema.Draft202012Validator(schema, registry=registry)


def validate_document(doc: Document, schema_name: str = "gamedef") -> list[Problem]:
    """Every schema problem of `doc`, located and ordered most useful first."""
    if doc.data is None:
        return []
    instance = _jsonable(doc.data)
    errors = list(_validator(schema_name).iter_errors(instance))
    errors = [best_match([e]) if e.context else e for e in errors]  # descend anyOf/oneOf
    # A misspelt key shows up twice: as an unknown key and as a missing one. Keep only the
    # first, which says "did you mean ...".
    misspelt = {(tuple(e.absolute_path), m) for e in errors for k in _unknown_keys(e)
                for m in close_matches(k, e.schema.get("properties", {}))}
    problems: list[tuple[tuple, Problem]] = []
    seen: set[str] = set()
    for error in errors:
        for problem in _problems(error, doc, misspelt):
            if str(problem) not in seen:  # e.g. `required` repeats per missing key
                seen.add(str(problem))
                problems.append((_rank(error, problem), problem))
    problems.sort(key=lambda item: item[0])
    return [p for _, p in problems]


def _rank(error: ValidationError, problem: Problem) -> tuple:
    loc = problem.location
    return (len(error.absolute_path), error.validator in _WEAK,
            (loc.line, loc.col) if loc else (0, 0), problem.message)


def _jsonable(value: Any) -> Any:
    """The data as JSON sees it: keys are strings (int keys like `3:` become "3")."""
    if isinstance(value, dict):
        return {_key_text(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    return value


# --------------------------------------------------------------------------- messages


def _format_path(doc: Document, path: DocPath) -> str:
    """components.card.types.apple_card, flow[2].then — from the actual data."""
    text, node = "", doc.data
    for element in path:
        if isinstance(node, list):
            text += f"[{element}]"
        else:
            text += f".{_key_text(element)}" if text else _key_text(element)
        try:
            node = node[element]
        except (KeyError, IndexError, TypeError):
            node = None
    return text


_TYPE_NAMES = {
    "object": "a mapping", "array": "a list", "string": "a string", "integer": "an integer",
    "number": "a number", "boolean": "true or false", "null": "nothing",
}


def _describe(value: Any) -> str:
    if value is None:
        return "an empty value"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return f"the integer {value}"
    if isinstance(value, float):
        return f"the number {value}"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"the string {quote(shown)}"
    return "a list" if isinstance(value, list) else "a mapping"


def _expected_types(types: Any) -> str:
    names = [_TYPE_NAMES.get(t, t) for t in ([types] if isinstance(types, str) else types)]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def _unknown_keys(error: ValidationError) -> list[str]:
    """The keys an additionalProperties error is about."""
    if error.validator != "additionalProperties" or not isinstance(error.instance, dict):
        return []
    allowed = error.schema.get("properties", {})
    patterns = error.schema.get("patternProperties", {})
    return [k for k in error.instance
            if k not in allowed and not any(re.search(p, k) for p in patterns)]


def _problems(error: ValidationError, doc: Document, misspelt: set) -> list[Problem]:
    path, _ = doc.resolve(tuple(error.absolute_path))
    where = _format_path(doc, path)
    prefix = f"{where}: " if where else ""
    value_at = doc.where(path)
    key_at = doc.key_where(path) if path else doc.where(())
    kind, instance = error.validator, error.instance
    schema = error.schema if isinstance(error.schema, dict) else {}

    if kind == "additionalProperties" and isinstance(instance, dict):
        allowed = list(schema.get("properties", {}))
        what = "section" if not path else "key"
        expected = format_choices(allowed) if len(allowed) == 1 else f"one of {format_choices(allowed)}"
        return [
            Problem(f"{prefix}unknown {what} {quote(key)}; expected {expected}",
                    doc.key_where((*path, key)), did_you_mean(key, allowed))
            for key in _unknown_keys(error)
        ]
    if "propertyNames" in error.absolute_schema_path:  # the error is about a key
        description = schema.get("description") or f"a name matching {schema.get('pattern')}"
        return [Problem(f"{prefix}invalid name {quote(instance)}: expected {description}",
                        doc.key_where((*path, instance)))]
    if kind == "required" and isinstance(instance, dict):
        missing = [k for k in error.validator_value
                   if k not in instance and (tuple(error.absolute_path), k) not in misspelt]
        return [Problem(f"{prefix}missing key {quote(k)}", key_at) for k in missing]
    if kind == "type":
        hint = None
        if "boolean" in error.validator_value and isinstance(instance, str) \
                and instance.lower() in ("yes", "no", "on", "off", "y", "n"):
            hint = "write true or false: yes/no/on/off are strings here"
        return [Problem(f"{prefix}expected {_expected_types(error.validator_value)}; got {_describe(instance)}",
                        value_at, hint)]
    if kind in ("enum", "const"):
        choices = error.validator_value if kind == "enum" else [error.validator_value]
        texts = [c for c in choices if not isinstance(c, bool)]
        flags = ["true" for c in choices if c is True] + ["false" for c in choices if c is False]
        expected = format_choices(texts) if not flags else ", ".join(flags + [quote(t) for t in texts][:-1]) + (
            f" or {quote(texts[-1])}" if texts else "")
        hint = did_you_mean(instance, texts) if isinstance(instance, str) else None
        if flags and isinstance(instance, str) and instance.lower() in ("yes", "no", "on", "off", "y", "n"):
            hint = "write true or false: yes/no/on/off are strings here"
        return [Problem(f"{prefix}{_describe(instance)} is not allowed; expected {expected}", value_at, hint)]
    if kind == "pattern":
        description = schema.get("description") or f"a string matching {schema.get('pattern')}"
        return [Problem(f"{prefix}{_describe(instance)} is not valid: expected {description}", value_at)]
    if kind in _WEAK:
        return [_alternatives(error, prefix, key_at, value_at)]
    if kind == "not" and isinstance(error.validator_value, dict) and \
            set(error.validator_value) == {"required"}:
        keys = error.validator_value["required"]
        return [Problem(f"{prefix}{format_choices(keys, 'and')} cannot be used together",
                        doc.key_where((*path, keys[-1])))]
    message = _SIMPLE.get(kind)
    if message is not None:
        return [Problem(prefix + message.format(v=error.validator_value, got=_describe(instance)),
                        key_at if kind in ("minProperties", "maxProperties") else value_at)]
    if kind is None or error.validator_value is False:  # a `false` schema
        return [Problem(f"{prefix}not allowed here", key_at)]
    return [Problem(prefix + error.message, value_at)]


_SIMPLE = {
    "minItems": "expected at least {v} item(s)",
    "maxItems": "expected at most {v} item(s)",
    "uniqueItems": "the items must all be different",
    "minProperties": "expected at least {v} key(s)",
    "maxProperties": "expected at most {v} key(s)",
    "minLength": "must not be empty",
    "maxLength": "must be at most {v} characters long",
    "minimum": "expected a number >= {v}; got {got}",
    "maximum": "expected a number <= {v}; got {got}",
    "exclusiveMinimum": "expected a number > {v}; got {got}",
    "exclusiveMaximum": "expected a number < {v}; got {got}",
}


def _alternatives(error: ValidationError, prefix: str, key_at, value_at) -> Problem:
    """An anyOf/oneOf that best_match could not narrow down: say what would be accepted."""
    branches = error.validator_value
    instance = error.instance
    keys = [b["required"][0] for b in branches
            if isinstance(b, dict) and set(b) == {"required"} and len(b["required"]) == 1]
    if len(keys) == len(branches) and isinstance(instance, dict):
        # "one of these keys" — a misspelt key is the likely cause.
        hint = next((f"{quote(k)}: {h}" for k in instance
                     if (h := did_you_mean(k, keys)) is not None), None)
        return Problem(f"{prefix}expected one of the keys {format_choices(keys)}", key_at, hint)
    types = [c.validator_value for c in error.context if c.validator == "type" and not c.path]
    if types and len(types) == len(branches):
        flat = list(dict.fromkeys(t for ts in types for t in ([ts] if isinstance(ts, str) else ts)))
        return Problem(f"{prefix}expected {_expected_types(flat)}; got {_describe(instance)}", value_at)
    return Problem(f"{prefix}{_describe(instance)} matches none of the allowed forms", value_at)
