"""The names of one game and the runtime primitives the compiled rules call.

`World` is built from a `Definition`: it assigns every var, zone and field its slot (the `Layout`), knows
every kind, component type, property and parameter, and provides the primitives that touch pieces
(move with capacity checks, find a player's piece of a type, evaluate parameters with their modifiers).
"""

from __future__ import annotations

from . import boards

from . import lists
from .codegen import _value_type
from .compiler import NOCONST, CompileError, Compiler, RuleError, Scope, Unit
from .dsl import DslSyntaxError, parse_expr, parse_stmts
from ..definition.limits import LOOP_BUDGET, text_over_limit
from ..definition.static_checks import option_problems, table_problems
from ..definition.problems import Problem, did_you_mean
from ..engine.state import Layout
from ..table.words import Texts
from .graphs import ZoneGraphs

VAR_TYPES = {"int", "bool", "player", "piece", "str", "zone"}
STEP_BUDGET = LOOP_BUDGET
# Keys of what a menu computes once (s.pcache): private objects, so no name of a game can collide with them.
_MODIFIERS, _BY_TYPE = object(), object()


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


class World:
    def __init__(self, d, problems: list[Problem]):
        self.d = d
        self.problems = problems
        self.step_budget = STEP_BUDGET
        self.mod_fired: dict = {}  # (type, parameter) -> times a modifier applied: rule coverage
        self.active_fired: dict = {}  # type -> times active(p, type) found one: rule coverage
        self.reads: set = set()    # (what, name) that some rule reads: for the lint
        self.unused_locals: list = []  # (name, location) of locals an effect sets and never reads
        self.writes: set = set()   # (what, name) that some rule sets
        game = d["game"] or {}
        self.game_id = str(game.get("id", d.root.name))
        counts = game.get("players") if isinstance(game, dict) else None
        # A malformed list is a schema problem (already reported): carry on to find the other problems.
        self.player_counts = [n for n in counts if type(n) is int] if isinstance(counts, list) else []
        self.counts_known = bool(self.player_counts)
        if not self.counts_known and counts is None and isinstance(d["game"], dict) and d.docs:
            self.error("the game does not say how many players it takes", ("game", "players"),
                       "add players: [2, 3, 4] (every supported count) under game:")
        self.player_counts = self.player_counts or [2]
        self.options = {k: (v if isinstance(v, dict) else {"default": v}) for k, v in d["options"].items()}
        for message, path, hint in option_problems(self.options):
            self.error(message, path, hint)
        self._kinds()
        self._tables()
        self.board_steps, self.board_dirs = {}, {}  # generated board spaces: type -> {direction: type}, [directions]
        self._components()
        self._vars_and_zones()
        self._defs()
        self.events = {}
        for name, ev in d["events"].items():
            args = ev if isinstance(ev, dict) else {}
            args = {k: v for k, v in args.items() if k not in ("label", "source", "description")}
            self.events[name] = (list(args), [str(t) for t in args.values()])
        self.phases = set(d["phases"])
        end = d["end"] if isinstance(d["end"], dict) else {}
        self.end_triggers = {k: (v or {}) for k, v in (end.get("triggers") or {}).items()}
        self.all_strings = (set(self.kind_values) | set(self.types) | self.phases | set(self.classes)
                            | set(self.end_triggers))
        self.reserved_names = (set(self.gvars) | set(self.tables) | set(self.gzones) | set(self.gfamilies)
                               | set(self.kinds) | set(self.kind_values) | set(self.types) | self.phases | set(self.end_triggers))
        self._check_namespace()
        from ..engine.scripted import ScriptedSeats
        self.scripted = ScriptedSeats(self)  # seats that make no decisions: names of type player
        self.reserved_names |= set(self.scripted.names)
        self.compiler = Compiler(self)
        from .zonevalues import PieceZones
        from .promotion import allowed_changes
        self.piece_zone_rt = PieceZones(self)
        self.becomes = allowed_changes(self)
        from .procedures import Procedures
        self.procedures = Procedures(self)
        self._graphs()
        boards.install(self)
        self._params()
        self._copies()
        self._active()
        self.scripted.compile(self)

    # ------------------------------------------------------------ problems
    def error(self, message, path, hint=None, line=None, col=None):
        loc = self.d.locate(path, line, col) if line is not None else self.d.where(path)
        self.problems.append(Problem(message, loc, hint))

    # ------------------------------------------------------------ declarations
    def _kinds(self):
        self.kinds = {}
        self.kind_values = {}
        self.kind_labels = {}
        self.number_kinds = {}   # kind -> the list of its integers (a kind `from: 1, to: 6`)
        for name, k in self.d["kinds"].items():
            if isinstance(k, dict) and ("from" in k or "to" in k):
                lo, hi = k.get("from", 1), k.get("to")
                if hi is None:
                    self.error("a number kind needs its last value: to: HIGH", ("kinds", name))
                    continue
                if type(lo) is not int or type(hi) is not int:  # the schema says so
                    continue
                if not lo <= hi or hi - lo >= 10_000:
                    self.error("a number kind is written {from: LOW, to: HIGH}: integers, LOW <= HIGH, "
                               "at most 10,000 values", ("kinds", name))
                    continue
                self.number_kinds[name] = list(range(lo, hi + 1))
                self.kinds[name] = list(range(lo, hi + 1))  # a map over it is keyed by these numbers
                continue
            if isinstance(k, dict) and "values" not in k:
                self.error("a kind lists its values (values: [a, b]) or is a number kind (from: 1, to: 6)",
                           ("kinds", name))
            values = k.get("values", []) if isinstance(k, dict) else (k or [])
            values = [str(v) for v in values]
            self.kinds[name] = values
            labels = k.get("labels", {}) if isinstance(k, dict) else {}
            for v in values:
                if v in self.kind_values:
                    self.error(f"kind value '{v}' is in two kinds ({self.kind_values[v]} and {name})",
                               ("kinds", name))
                self.kind_values[v] = name
                self.kind_labels[v] = label_of({"label": labels.get(v)} if labels.get(v) else {}, v)

    def _tables(self):
        self.tables = {}
        for name, raw in self.d["tables"].items():
            v = unwrap(raw)
            by_players = isinstance(v, dict) and set(v) == {"by_players"}
            if by_players and not (isinstance(v["by_players"], dict) and all(type(k) is int for k in v["by_players"])):
                self.error(f"table '{name}': by_players maps each player count (a number) to a value",
                           ("tables", name))
                v, by_players = {}, True
            elif by_players:
                v = {int(k): unwrap(x) for k, x in v["by_players"].items()}
                missing = [n for n in self.player_counts if n not in v] if self.counts_known else []
                if missing:
                    self.error(f"table '{name}' has no entry for {', '.join(map(str, missing))} players",
                               ("tables", name), "a by_players table lists every supported player count")
            self.tables[name] = (v, by_players)
        for message, path in table_problems(self.d["tables"]):
            self.error(message, path)

    def count_value(self, v, path):
        """A component count: int, by_players table, table name or expression; returns a function of n."""
        v = unwrap(v)
        if v is None:
            return lambda n: 1
        if isinstance(v, bool):
            self.error("a count must be a number", path)
            return lambda n: 0
        if isinstance(v, int):
            return lambda n, v=v: v
        if isinstance(v, dict) and "by_players" in v:
            if not (isinstance(v["by_players"], dict) and all(type(k) is int for k in v["by_players"])):
                self.error("by_players maps each player count (a number) to a count", path)
                return lambda n: 0
            tab = {int(k): unwrap(x) for k, x in v["by_players"].items()}
            missing = [n for n in self.player_counts if n not in tab] if self.counts_known else []
            if missing:
                self.error(f"count has no entry for {', '.join(map(str, missing))} players", path)
            return lambda n, tab=tab: tab.get(n, 0)
        if isinstance(v, str) and v in self.tables:
            self.reads.add(("table", v))
            val, byp = self.tables[v]
            return (lambda n: val.get(n, 0)) if byp else (lambda n: val)
        self.error("a count must be a number, a by_players table or a table name", path)
        return lambda n: 0

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

    def _vars_and_zones(self):
        d = self.d
        self.gvars, self.pvars = {}, {}
        self.gvar_min, self.pvar_min = {}, {}
        self.var_defs = {"global": [], "player": []}
        gmaps, pmaps = [], []
        for scope, table, mins, maps in (("global", self.gvars, self.gvar_min, gmaps),
                                         ("player", self.pvars, self.pvar_min, pmaps)):
            for i, (name, v) in enumerate((d["vars"].get(scope) or {}).items()):
                v = v if isinstance(v, dict) else {"init": v}
                if "of" in v:
                    t = "map"
                    if v["of"] not in self.kinds:
                        self.error(f"unknown kind '{v['of']}'", ("vars", scope, name, "of"),
                                   did_you_mean(v["of"], self.kinds))
                    maps.append(i)
                else:
                    t = str(v.get("type", "int"))
                    if t == "list":  # an ordered list of values (interpreter/language/lists.py)
                        t = lists.var_type(self, v, ("vars", scope, name))
                    elif t not in VAR_TYPES:
                        self.error(f"unknown var type '{t}'; expected one of {', '.join(sorted(VAR_TYPES | {'list'}))}",
                                   ("vars", scope, name, "type"))
                table[name] = (i, t)
                if v.get("resource") is not None or v.get("min") is not None:
                    mins[name] = v.get("min", 0)
                self.var_defs[scope].append((name, v, t))
        # Families (`per: KIND`) are expanded into one zone per value; piece zones are global zones.
        from .zonevalues import declared_zones, piece_zone_entries
        gentries, self.gfamilies = declared_zones(self, "global")
        pentries, self.pfamilies = declared_zones(self, "player")
        gentries.update(piece_zone_entries(self))
        gz = {name: i for i, name in enumerate(gentries)}
        pz = {name: i for i, name in enumerate(pentries)}
        self.gzones, self.pzones = gz, pz
        self.zone_defs = {("global", k): (v or {}) for k, v in gentries.items()}
        self.zone_defs.update({("player", k): (v or {}) for k, v in pentries.items()})
        fmaps = [col for name, (col, t) in self.fields.items() if t == "map"]
        self.layout = Layout(dict((k, v[0]) for k, v in self.gvars.items()),
                             dict((k, v[0]) for k, v in self.pvars.items()),
                             gz, pz, dict((k, v[0]) for k, v in self.fields.items()), gmaps, pmaps, fmaps)
        # capacity and size per zone (compiled lazily once the compiler exists)
        self.gcap = [None] * len(gz)
        self.pcap = [None] * len(pz)
        self.gsize = [None] * len(gz)
        self.psize = [None] * len(pz)
        self.zone_visibility = {}
        for (scope, name), z in self.zone_defs.items():
            vis = z.get("visibility", "public")
            self.zone_visibility[(scope, name)] = vis
            size_prop = z.get("size")
            if size_prop is not None and size_prop not in self.props:
                self.error(f"zone size property '{size_prop}' is not a component property",
                           ("zones", scope, name, "size"), did_you_mean(size_prop, self.props))
                size_prop = None
            table = self.props.get(size_prop) if size_prop else None
            if scope == "global":
                self.gsize[gz[name]] = table
            else:
                self.psize[pz[name]] = table

    def _defs(self):
        self.defs = {}
        self.def_paths = {}
        self._def_reported = set()
        for key, body in self.d["defs"].items():
            path = ("defs", key)
            key_s = str(key).strip()
            if "(" in key_s and key_s.endswith(")"):
                name, params = key_s[:-1].split("(", 1)
                params = [p.strip() for p in params.split(",") if p.strip()]
            else:
                name, params = key_s, []
            name = name.strip()
            if not name.isidentifier():
                self.error(f"a def is written 'name(a, b)', not '{key_s}'", path)
                continue
            if not isinstance(body, str):
                self.error("a def's body is an expression (a string)", path)
                continue
            try:
                tree = parse_expr(body)
            except DslSyntaxError as ex:
                self.error(ex.message, path, line=ex.line, col=ex.col)
                continue
            where = str(self.d.where(path) or key_s)
            self.defs[name] = (params, tree, where)
            self.def_paths[name] = path

    BUILTIN_NAMES = ("player", "players", "player_count", "pieces", "none", "true", "false", "option",
                     "event", "game_ending", "self")

    def _check_namespace(self):
        for what, names, path in (("var", self.gvars, "vars"), ("table", self.tables, "tables"),
                                  ("zone", self.gzones, "zones"), ("zone", self.gfamilies, "zones"),
                                  ("kind", self.kinds, "kinds"),
                                  ("component type", self.types, "components")):
            for n in names:
                if n in self.BUILTIN_NAMES:
                    self.problems.append(Problem(f"{what} '{n}' has the name of a built-in: choose another",
                                                 self.d.where((path,))))
        seen = {}
        groups = [("var", self.gvars), ("table", self.tables), ("zone", self.gzones), ("zone", self.gfamilies),
                  ("kind", self.kinds),
                  ("kind value", self.kind_values), ("component type", self.types)]
        for what, names in groups:
            for n in names:
                if n in seen and seen[n] != what:
                    self.problems.append(Problem(
                        f"'{n}' is both a {seen[n]} and a {what}: DSL names must be unique", self.d.where(())))
                seen.setdefault(n, what)

    def def_problem(self, name, ex, use):
        """A mistake in def `name`'s body (CompileError ex), reported once at the def."""
        key = (name, ex.message)
        if key in self._def_reported:
            return
        self._def_reported.add(key)
        self.problems.append(Problem(f"in def '{name}': {ex.message}",
                                     self.d.locate(self.def_paths[name], ex.line, ex.col), ex.hint))

    # ------------------------------------------------------------ compiling helpers
    def compile_expr(self, text, path, unit: Unit | None = None, scope: Scope | None = None, want=None):
        """Compile one expression at `path`; on error record a problem and return None."""
        if isinstance(text, bool) or isinstance(text, int) or text is None:
            from .compiler import const
            return const(text)
        if not isinstance(text, str):
            self.error(f"expected an expression (a string), got {type(text).__name__}", path)
            return None
        unit = unit or Unit(player=False)
        scope = scope or Scope(unit)
        too_long = text_over_limit(text)
        if too_long:
            self.error(too_long, path)
            return None
        try:
            x = self.compiler.expr(parse_expr(text), scope)
        except DslSyntaxError as ex:
            self.error(ex.message, path, line=ex.line, col=ex.col)
            return None
        except CompileError as ex:
            if not getattr(ex, "reported", False):  # a def's mistake is reported at the def
                self.error(ex.message, path, ex.hint, line=ex.line, col=ex.col)
            return None
        except (RecursionError, SyntaxError, MemoryError) as ex:  # CPython's own limits on generated code
            self.error(f"this expression is too large or too deep to compile ({type(ex).__name__}): "
                       "the nesting limit", path)
            return None
        if want == "bool" and x.t not in ("bool", "any", "int", "piece", "player", "str", "none"):
            self.error(f"expected a condition, got a {x.t}", path)
        return x

    def compile_stmts(self, text, path, unit: Unit, scope: Scope | None = None):
        if isinstance(text, list):
            text = "\n".join(str(t) for t in text)
        if not isinstance(text, str):
            self.error("expected statements (a string)", path)
            return None
        scope = scope or Scope(unit)
        d = self.d
        too_long = text_over_limit(text)
        if too_long:
            self.error(too_long, path)
            return None

        def where(line, col):
            return str(d.locate(path, line, col) or ".".join(map(str, path)))
        try:
            fn = self.compiler.stmts(parse_stmts(text), scope, where)
            for slot, (name, node) in unit.assigned.items():
                if slot not in unit.read:  # `totl = 3` for `total = 3`: a local nothing reads
                    meta = getattr(node, "meta", None)
                    self.unused_locals.append((name, self.d.locate(path, getattr(meta, "line", 1),
                                                                     getattr(meta, "column", 1))))
            return fn
        except DslSyntaxError as ex:
            self.error(ex.message, path, line=ex.line, col=ex.col)
        except CompileError as ex:
            if not getattr(ex, "reported", False):  # a def's mistake is reported at the def
                self.error(ex.message, path, ex.hint, line=ex.line, col=ex.col)
        except (RecursionError, SyntaxError, MemoryError) as ex:  # CPython's own limits on generated code
            self.error(f"these statements are too large or too deep to compile ({type(ex).__name__}): "
                       "the nesting limit", path)
        return None

    # ------------------------------------------------------------ parameters and activity
    def _params(self):
        self.params = {}
        self.param_mods = {}
        self.modifying_types = None  # the types that modify some parameter (known once param_mods is)
        self._modifier_ids = None  # (a list of piece types, the pieces of a modifying type in it)
        for name, p in self.d["parameters"].items():
            p = p if isinstance(p, dict) else {"default": p}
            self.params[name] = p.get("default", 0)
            self.param_mods[name] = {}
        for tname, tdef in self.type_entries.items():
            for pname, delta in (tdef.get("modifies") or {}).items():
                cname = self.types[tname]
                path = ("components", cname, "types", tname, "modifies", pname)
                if pname not in self.params:
                    self.error(f"unknown parameter '{pname}'", path, did_you_mean(pname, self.params))
                    continue
                if isinstance(delta, dict) and set(delta) == {"set"}:
                    self.param_mods[pname][tname] = ("set", delta["set"])
                elif isinstance(delta, int) and not isinstance(delta, bool):
                    self.param_mods[pname][tname] = ("add", delta)
                else:
                    self.error("a modifier is a number (added) or {set: value}", path)

    def _copies(self):
        """Classes with `copies: FIELD` (a piece field): while such a piece is active, the modifiers of the
        piece its FIELD names count for its owner too, as its own (a tile that copies another tile)."""
        self.copy_col = {}
        for cname, cls in self.classes.items():
            f = cls.get("copies")
            if f is None:
                continue
            if f not in self.fields or self.fields[f][1] != "piece" or cname not in next(
                    (c for n, c, _, _ in self.field_defs if n == f), ()):
                self.error(f"copies must name a piece field of class {cname}", ("components", cname, "copies"),
                           did_you_mean(str(f), self.fields))
                continue
            for tname, c in self.types.items():
                if c == cname:
                    self.copy_col[tname] = self.fields[f][0]

    def param_type(self, name):
        return _value_type(self.params[name])

    def param_fn(self, name, pf):
        default = self.params[name]
        mods = self.param_mods[name]
        from .parameters import adjusted, compile_adjust
        adjust = compile_adjust(self, name, self.__dict__.setdefault("_adjusting", set()))
        if adjust is None:
            raise CompileError(f"parameter {name}: an adjustment's condition reads {name} itself", None)
        active = self.type_active
        fired = self.mod_fired
        copy_col = self.copy_col

        def f(s, e):
            pl = pf(s, e)
            cache = s.pcache
            if cache is not None:
                v = cache.get((name, pl))
                if v is not None:
                    return v
            v = default
            for x, t in self._modifying_pieces(s, pl, cache):
                m = mods.get(t)
                if m is not None:
                    act = active.get(t)
                    if act is None or act(s, [None, None, x]):
                        v = v + m[1] if m[0] == "add" else m[1]
                        key = (t, name)
                        fired[key] = fired.get(key, 0) + 1
                col = copy_col.get(t)
                if col is not None:
                    y = s.fields[col][x]
                    m = mods.get(s.types[y]) if y is not None else None
                    act = active.get(t)
                    if m is not None and (act is None or act(s, [None, None, x])):
                        v = v + m[1] if m[0] == "add" else m[1]
                        key = (t, name)
                        fired[key] = fired.get(key, 0) + 1
            if adjust:
                v = adjusted(name, adjust, s, pl, v)
            if cache is not None:
                cache[(name, pl)] = v
            return v
        return f

    def _modifying_pieces(self, s, pl, memo):
        """(piece, type) of player pl's pieces whose type modifies some parameter, in zone order: found
        once per menu (memo) for every parameter of that player, instead of once per parameter."""
        if memo is not None:
            hit = memo.get((_MODIFIERS, pl))
            if hit is not None:
                return hit
        modifying = self.modifying_types
        if modifying is None:
            # a type that copies another piece's modifiers (copies: FIELD) may modify any parameter too
            modifying = self.modifying_types = frozenset(
                [t for mods in self.param_mods.values() for t in mods] + list(self.copy_col))
        base = self.layout.G + pl * self.layout.PZ
        types = s.types
        # The pieces of a modifying type, found once per list of piece types (a list `become` replaces, never
        # changes): usually far fewer than the pieces in a player's zones, so those are checked, not the zones.
        known = self._modifier_ids
        if known is None or known[0] is not types:
            known = self._modifier_ids = (types, [x for x, tn in enumerate(types) if tn in modifying])
        loc, top = s.loc, base + self.layout.PZ
        mine = [x for x in known[1] if loc[x] is not None and base <= loc[x] < top]
        if len(mine) > 1:  # in zone order, as the zones list them
            zones = s.zones
            mine.sort(key=lambda x: (loc[x], zones[loc[x]].index(x)))
        out = [(x, types[x]) for x in mine]
        if memo is not None:
            memo[(_MODIFIERS, pl)] = out
        return out

    def _active(self):
        self.type_active = {}
        for cname, cls in self.classes.items():
            text = cls.get("active")
            if text is None:
                continue
            unit = Unit(player=False)
            sc = Scope(unit)
            sc.names["self"] = ("slot", 2, "piece")
            unit.n = 3
            x = self.compile_expr(text, ("components", cname, "active"), unit, sc, want="bool")
            if x is None:
                continue
            for tname, c in self.types.items():
                if c == cname:
                    self.type_active[tname] = x.f

    def _graphs(self):
        """Classes laid out as a graph: `graph: {id: PROP, edges: PROP}` (a space's number and the numbers
        of its neighbours). `neighbors(x)` and `region(x, prop)` use them, within x's own zone."""
        self.graph_adj = {}     # type -> (its id, frozenset of neighbour ids)
        self.graph_id = {}      # type -> its id
        self.zone_graphs = ZoneGraphs(self.graph_adj, self.graph_id, self.props)  # (filled below)
        for cname, cls in self.classes.items():
            g = cls.get("graph")
            if not isinstance(g, dict):
                continue
            idp, edp = g.get("id"), g.get("edges")
            for key, prop in (("id", idp), ("edges", edp)):
                if prop not in self.props and not (key == "id" and prop is None):  # no id: the type's name
                    self.error(f"graph {key} must name a property of class {cname}", ("components", cname, "graph", key),
                               did_you_mean(str(prop), self.props))
                    return
            for tname, c in self.types.items():
                if c == cname:
                    edges = self.props[edp].get(tname) or []
                    if not isinstance(edges, list):
                        self.error(f"type '{tname}': '{edp}' must be a list of {idp} values",
                                   ("components", cname, "types", tname, edp))
                        edges = []
                    self.graph_id[tname] = self.props[idp].get(tname) if idp is not None else tname
                    self.graph_adj[tname] = frozenset(edges)


    def neighbors(self, s, x):
        """The pieces of x's zone whose graph id is one of x's edges (graphs.py)."""
        return self.zone_graphs.neighbors(s, x)

    def region(self, s, x, prop):
        """x and every piece connected to it through neighbours with the same value of `prop` (graphs.py)."""
        return self.zone_graphs.region(s, x, prop)

    def is_active(self, s, x):
        act = self.type_active.get(s.types[x])
        return act is None or bool(act(s, [None, None, x]))

    def find(self, s, pl, tname, need_active):
        """Player pl's first piece of type tname (active only, if asked), or None."""
        if pl is None:
            return None
        act = self.type_active.get(tname) if need_active else None
        memo = s.pcache
        if memo is not None:  # within a menu: the player's pieces by type, in zone order, found once
            by_type = memo.get((_BY_TYPE, pl))
            if by_type is None:
                by_type = memo[(_BY_TYPE, pl)] = self._pieces_by_type(s, pl)
            for x in by_type.get(tname, ()):
                if act is None or act(s, [None, None, x]):
                    if need_active:
                        self.active_fired[tname] = self.active_fired.get(tname, 0) + 1
                    return x
            return None
        G, PZ = self.layout.G, self.layout.PZ
        types, zones = s.types, s.zones
        for z in range(G + pl * PZ, G + (pl + 1) * PZ):  # the same pieces in the same order, without a generator
            for x in zones[z]:
                if types[x] == tname and (act is None or act(s, [None, None, x])):
                    if need_active:
                        self.active_fired[tname] = self.active_fired.get(tname, 0) + 1
                    return x
        return None

    def _pieces_by_type(self, s, pl) -> dict:
        G, PZ = self.layout.G, self.layout.PZ
        types = s.types
        out: dict = {}
        for z in range(G + pl * PZ, G + (pl + 1) * PZ):
            for x in s.zones[z]:
                out.setdefault(types[x], []).append(x)
        return out

    # ------------------------------------------------------------ zones
    def capacity(self, s, z):
        G = self.layout.G
        cap = self.gcap[z] if z < G else self.pcap[(z - G) % self.layout.PZ]
        if cap is None:
            return 1 << 30
        return cap(s, [None, None]) if callable(cap) else cap

    def used(self, s, z):
        G = self.layout.G
        table = self.gsize[z] if z < G else self.psize[(z - G) % self.layout.PZ]
        zone = s.zones[z]
        if table is None:
            return len(zone)
        types = s.types
        return sum(table[types[x]] or 0 for x in zone)

    def move(self, s, x, z, pos):
        if x is None:
            raise RuleError("move: there is no piece to move (none)")
        if z is None:
            raise RuleError("move: no destination zone (none)")
        old = s.loc[x]
        pzs = self.piece_zone_rt
        if pzs.lo is not None and pzs.lo <= z < pzs.hi:
            pzs.check_into(s, x, z)
        if old == z and pos is None:
            return
        if s.faces and x in s.faces:  # a piece's own visibility lasts until it moves
            from ..engine.facing import forget
            forget(s, x)
        if old == z:
            s.zones[z].remove(x)
        else:
            G = self.layout.G
            cap = self.gcap[z] if z < G else self.pcap[(z - G) % self.layout.PZ]
            if cap is not None:
                table = self.gsize[z] if z < G else self.psize[(z - G) % self.layout.PZ]
                need = (table[s.types[x]] or 0) if table is not None else 1
                if self.used(s, z) + need > self.capacity(s, z):
                    raise RuleError(f"zone {self.zone_label(z)} is full: no room for {s.types[x]}")
            if old is not None:
                at = s.zones[old].index(x)
                del s.zones[old][at]
                if pzs.droppers and s.types[x] in pzs.droppers:
                    pzs.drop(s, x, old, at)
        if pos is None:
            s.zones[z].append(x)
        else:
            s.zones[z].insert(pos, x)
        s.loc[x] = z

    def zone_label(self, z):
        lay = self.layout
        if z < lay.G:
            return lay.gzone_names[z]
        pl = (z - lay.G) // lay.PZ
        return f"{lay.pzone_names[(z - lay.G) % lay.PZ]} of player {pl + 1}"

    def compile_zone_caps(self):
        for (scope, name), z in self.zone_defs.items():
            cap = z.get("capacity")
            if cap is None:
                continue
            x = self.compile_expr(cap, ("zones", scope, name, "capacity"))
            if x is None:
                continue
            if x.t not in ("int", "any") or x.c is not NOCONST and (type(x.c) is not int or x.c < 0):
                # A capacity naming a table is wrong where the table's value was written (an overlay's line).
                at = ("tables", cap) if isinstance(cap, str) and cap in self.tables else ("zones", scope, name,
                                                                                            "capacity")
                self.error(f"a capacity is a whole number, at least 0, not a {x.t}"
                           + (f" ({x.c!r})" if x.c is not NOCONST else ""), at)
                continue
            value = x.c if x.c is not NOCONST else x.f
            if scope == "global":
                self.gcap[self.gzones[name]] = value
            else:
                self.pcap[self.pzones[name]] = value
