"""A game's components read into the `World`: classes, piece types, their properties and fields, how many
of each (per player count), numbered copies. A mixin of `world.World`, run once at load."""

from __future__ import annotations

from . import boards
from .codegen import _value_type
from .entries import label_of, literal
from ..definition.problems import did_you_mean


class Components:
    """Part of `World` (see the module doc)."""

    def _components(self):
        self.classes = {}
        self.types = {}          # type -> class
        self.class_of = {}
        self.type_entries = {}
        self.type_labels = {}
        self.props = {}
        self.prop_types = {}
        self.fields = {}
        self.field_min = {}
        self.field_defs = []     # (name, class set, init, is_map, kind)
        field_classes = {}
        for cname, cls in self.d["components"].items():
            if not isinstance(cls, dict):
                continue
            self.classes[cname] = cls
            for fname, fdef in (cls.get("fields") or {}).items():
                fdef = fdef if isinstance(fdef, dict) else {"init": fdef}
                field_classes.setdefault(fname, []).append((cname, fdef))
            defaults = cls.get("properties") or {}
            for tname, tdef in self._numbered(cname, boards.expand(self, cname, cls, cls.get("types") or {})):
                tdef = tdef or {}
                if tname in self.types:
                    self.error(f"component type '{tname}' is also in class {self.types[tname]}",
                               ("components", cname, "types", tname))
                self.types[tname] = cname
                self.class_of[tname] = cname
                self.type_entries[tname] = tdef
                self.type_labels[tname] = label_of(tdef, tname)
                for pname, default in defaults.items():
                    self.props.setdefault(pname, {})
        reserved = {"label", "count", "source", "provisional", "modifies", "zone", "description",
                    "note", "becomes"}
        for tname, cname in self.types.items():
            tdef = self.type_entries[tname]
            defaults = self.classes[cname].get("properties") or {}
            for pname in set(defaults) | (set(tdef) - reserved):
                if pname not in defaults:
                    self.error(f"type '{tname}' sets '{pname}', which class {cname} does not declare in "
                               f"properties", ("components", cname, "types", tname, pname),
                               did_you_mean(pname, defaults))
                    continue
                self.props.setdefault(pname, {})
        for pname, table in self.props.items():
            for tname, cname in self.types.items():
                defaults = self.classes[cname].get("properties") or {}
                tdef = self.type_entries[tname]
                table[tname] = literal(tdef[pname]) if pname in tdef else literal(defaults.get(pname))
            defaults = [literal((self.classes[c].get("properties") or {}).get(pname))
                        for c in self.classes if pname in (self.classes[c].get("properties") or {})]
            kinds = {_value_type(v) for v in list(table.values()) + list(defaults) if v is not None}
            self.prop_types[pname] = kinds.pop() if len(kinds) == 1 else "any"
            kinds = {_value_type(v) for v in list(table.values()) + list(defaults) if v is not None}
            if len(kinds) > 1 and not all(k.startswith("list") for k in kinds):
                # One type's `cost: "cheap"` among numbers would fail every rule that reads it: say where.
                counts = {}
                for v in list(table.values()) + [x for x in defaults if x is not None] * 2:
                    if v is not None:  # the class's default counts double: it says what is meant
                        counts[_value_type(v)] = counts.get(_value_type(v), 0) + 1
                usual = max(counts, key=counts.get)
                for tname, v in table.items():
                    if v is not None and _value_type(v) != usual:
                        cname = self.types[tname]
                        where = (("components", cname, "types", tname, pname) if pname in self.type_entries[tname]
                                 else ("components", cname, "properties", pname))
                        self.error(f"property '{pname}' of '{tname}' is a {_value_type(v)} ({v!r}), but the "
                                   f"others are {usual}s", where)
        for i, (fname, decls) in enumerate(field_classes.items()):
            if fname in self.props:
                self.error(f"'{fname}' is both a field and a property", ("components", decls[0][0], "fields", fname))
            fdef = decls[0][1]
            is_map = "of" in fdef
            t = "map" if is_map else str(fdef.get("type", "int"))
            self.fields[fname] = (i, t)
            if fdef.get("resource") is not None or fdef.get("min") is not None:
                self.field_min[fname] = fdef.get("min", 0)
            self.field_defs.append((fname, {c for c, _ in decls}, fdef, is_map))
        # The field columns that tell two pieces of one type apart (for `distinct` choices); maps are
        # compared by their items (sig_maps: the types with a map field, whose signature freezes them).
        self.sig_cols = {t: [self.fields[f][0] for f, classes, fdef, is_map in self.field_defs
                             if c in classes]
                         for t, c in self.types.items()}
        self.sig_maps = frozenset(t for t, c in self.types.items()
                                  if any(is_map and c in classes for f, classes, fdef, is_map in self.field_defs))

    def _numbered(self, cname, types):
        """(type name, entry) of a class's types, a numbered type expanded into one type per number:
        `card: {numbered: {from: 1, to: 20, property: number}, label: Card}` gives card_1..card_20, each with
        its number in the property and labelled "Card 1".."Card 20"."""
        self.numbered = getattr(self, "numbered", {})  # expanded type -> (numbered type, its number)
        for tname, tdef in types.items():
            num = tdef.get("numbered") if isinstance(tdef, dict) else None
            if num is None:
                yield tname, tdef
                continue
            path = ("components", cname, "types", tname, "numbered")
            if not isinstance(num, dict) or type(num.get("from", 1)) is not int or type(num.get("to")) is not int:
                continue  # the schema says what is wrong
            lo, hi = num.get("from", 1), num.get("to")
            prop = num.get("property", "number")
            if not lo <= hi or hi - lo >= 1000:
                self.error("numbered is written {from: LOW, to: HIGH, property: NAME}: integers, LOW <= HIGH, "
                           "at most 1,000 numbers", path)
                continue
            if prop not in ((self.d["components"][cname] or {}).get("properties") or {}):
                self.error(f"numbered: class {cname} declares no property '{prop}' to hold the number",
                           path, f"add `{prop}: 0` to the class's properties")
                continue
            base = label_of(tdef, tname)
            for k in range(lo, hi + 1):
                entry = {key: v for key, v in tdef.items() if key != "numbered"}
                entry[prop] = k
                entry["label"] = {lang: f"{text}{'' if lang.startswith('zh') else ' '}{k}" for lang, text in base.items()}
                self.numbered[f"{tname}_{k}"] = (tname, k)
                yield f"{tname}_{k}", entry
