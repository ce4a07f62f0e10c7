"""A game's declarations read into the `World`: kinds and their values, tables, vars and zones (their slots in
the state's `Layout`), defs, and the check that no two of them share a name. A mixin of `world.World`, run
once at load."""

from __future__ import annotations

from . import lists
from .dsl import DslSyntaxError, parse_expr
from .entries import label_of, unwrap
from ..definition.problems import Problem, did_you_mean
from ..definition.static_checks import integer_problems, table_problems
from ..engine.state import Layout


VAR_TYPES = {"int", "bool", "player", "piece", "str", "zone"}


class Declarations:
    """Part of `World` (see the module doc)."""

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
        for message, path in integer_problems(self.d.sections):
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
        self.zone_top = {}  # a pile that shows its top pieces only: how many
        for (scope, name), z in self.zone_defs.items():
            vis = z.get("visibility", "public")
            self.zone_visibility[(scope, name)] = vis
            if z.get("top") is not None:
                if vis != "top":
                    self.error(f"zone {name}: 'top' is how many pieces of a pile show, with visibility: top",
                               ("zones", scope, name, "top"))
                elif type(z["top"]) is not int or z["top"] < 1:
                    self.error(f"zone {name}: 'top' is how many pieces show, a whole number from 1",
                               ("zones", scope, name, "top"))
                else:
                    self.zone_top[(scope, name)] = z["top"]
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
