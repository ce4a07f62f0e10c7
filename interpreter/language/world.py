"""The names of one game and the runtime primitives the compiled rules call.

`World` is built from a `Definition`: it assigns every var, zone and field its slot (the `Layout`), knows
every kind, component type, property and parameter, and provides the primitives that touch pieces
(move with capacity checks, find a player's piece of a type, evaluate parameters with their modifiers).
"""

from __future__ import annotations

from . import boards
from .components import Components
from .compiler import NOCONST, CompileError, Compiler, RuleError, Scope, Unit
from .declarations import Declarations
from .dsl import DslSyntaxError, parse_expr, parse_stmts
from ..definition.limits import LOOP_BUDGET, MAX_PLAYERS, text_over_limit
from ..definition.static_checks import option_problems
from ..definition.problems import Problem, did_you_mean
from .graphs import ZoneGraphs
from .meters import ReadMeter
from .modifiers import Modifiers

STEP_BUDGET = LOOP_BUDGET


class World(Declarations, Components, Modifiers):
    """One game's names and primitives (see the module doc). Its parts: `Declarations` (kinds, tables, vars,
    zones, defs), `Components` (classes, types, counts), `Modifiers` (parameters, activity, finding pieces);
    here the order of reading them, compiling, graphs and zones."""

    def __init__(self, d, problems: list[Problem], meter=None):
        self.d = d
        self.problems = problems
        # The reads of named values counted while playing (see meters): only when a caller asks for them.
        self.meter = ReadMeter(meter) if meter else None
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
        for i, n in enumerate(counts if isinstance(counts, list) else []):
            if type(n) is int and n > MAX_PLAYERS:  # before anything is made per player count
                self.error(f"a game takes at most {MAX_PLAYERS} players (MAX_PLAYERS), not {n}", ("game", "players", i))
        self.player_counts = [n for n in self.player_counts if n <= MAX_PLAYERS]
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
        if old != z and s.told and x in s.told:  # what a seat was told of it, it can no longer follow
            from ..engine.knowledge import forget as forget_told
            forget_told(s, (x,))
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
