"""The public API: load a game, start one, list and apply decisions, score, view, save and load.

    game = load_game("examples/market_day")   # a directory, or a name under gamedefs/
    s = game.new_game(players=4, seed=1)
    while not game.is_over(s):
        s = game.apply(s, game.legal_actions(s)[0])
    game.outcome(s)

States are values: `apply` returns a new state and never changes the one it was given.
"""

from __future__ import annotations

import functools
from pathlib import Path

from .engine import facing

from .engine import rng

from .engine import simultaneous

from .engine import unseen
from .definition.cache import load_cached
from .language.compiler import NOCONST, RuleError, Scope, Unit
from .engine.consistency import state_problem
from .engine.state_types import restore_number_keys, type_problem
from .definition.display import check_display
from .definition.disputes import read_disputes
from .definition.fingerprint import content_hash
from .engine.flow import BLANK, EACH, SIMUL, FlowCompiler, advance, fire_events, mark_acted, new_decision, push, run_effect
from .definition.limits import piece_count_problems, recursion_room
from .definition.model import load_definition
from .definition.problems import DefinitionError, InputError, Problem, did_you_mean, sort_problems
from .engine.ratings import compile_ratings
from .definition.resources import data_dir
from .engine.scripted import seat_label
from .engine.state import State, StateFormatError, from_json, map_index, to_json
from .definition.static_checks import check_uncalled_defs, same_value
from .engine.visibility import sees, var_modes
from .table.words import extend as extend_words, say
from .language.entries import label_of
from .language.world import World


MAX_ACTION_ID = 2_000  # characters: longer text is no action id (and did-you-mean on it would be slow)


class IllegalAction(Exception):
    """An action that is not legal in the given state; the message says why."""


class GameSetupError(ValueError):
    """Bad arguments to new_game (player count, options)."""


def find_game(name_or_path) -> Path:
    """The directory of a game given by name (under gamedefs/) or by path."""
    p = Path(name_or_path)
    if p.is_dir():
        return _short(p)
    if p.is_file():
        return _short(p.parent)
    from .definition.resources import gamedefs_dirs
    for root in gamedefs_dirs():  # the checkout's copy first: the one an author edits
        q = root / str(name_or_path)
        if q.is_dir():
            return _short(q)
    known = sorted({x.name for root in gamedefs_dirs() if root.is_dir() for x in root.iterdir() if x.is_dir()})
    hint = did_you_mean(str(name_or_path), known)
    raise InputError([Problem(f"no game '{name_or_path}' (known games: {', '.join(known) or 'none'})", None, hint)])


def _short(p: Path) -> Path:
    """The path relative to the working directory when it lies below it (shorter messages)."""
    try:
        return p.resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        return p


def load_game(name_or_path, variant=None) -> "Game":
    """Load, check and compile a game, with overlay files (`variant`: a path or a list of paths) applied
    in order; raise DefinitionError listing every problem."""
    overlays = [variant] if isinstance(variant, (str, Path)) else list(variant or [])
    for f in overlays:
        if not Path(f).is_file():
            raise InputError([Problem(f"no overlay file at '{f}'")])
    root = find_game(name_or_path)
    game = load_cached(root, overlays, Game)  # from the per-user cache when the files are unchanged
    # Where it came from, so that another process (a worker) can load the same game again.
    game.origin = (Path(root).resolve(), tuple(Path(f).resolve() for f in overlays))
    return game


class Game:
    def __init__(self, definition):
        problems: list[Problem] = list(getattr(definition, "problems", []))
        try:
            with recursion_room():
                self._compile(definition, problems)
        except DefinitionError:
            raise
        except Exception as ex:  # bad input must never end in a traceback: report what we know
            if not problems:
                where = definition.where(("game",)) if definition.docs else None
                problems.append(Problem(f"cannot compile this definition ({type(ex).__name__}: {ex})", where,
                                        "this is a bug of meeple when no other problem is reported"))
        if problems and getattr(definition, "overlays", None):
            from .definition.overlay import blame_overlays
            problems = blame_overlays(definition, problems)
        if problems:
            unique, seen = [], set()
            for p in problems:  # a step compiled for two contexts reports its mistakes once
                if str(p) not in seen:
                    seen.add(str(p))
                    unique.append(p)
            raise DefinitionError(sort_problems(unique))

    origin = None  # (game directory, overlay files) when loaded from files by load_game
    load_source = None  # "cache" or "files" when loaded by load_game (see cache)

    @functools.cached_property
    def content_hash(self) -> str:
        """The hash of the text of every file of the definition (see `fingerprint`)."""
        return content_hash(self.definition)

    def _compile(self, definition, problems):
        self.definition = d = definition
        w = self.world = World(d, problems)
        for lang, word, why in extend_words(d["words"] if isinstance(d["words"], dict) else {}):
            w.error(f"words: {why}", ("words", lang) + ((word,) if word is not None else ()))
        self.layout = w.layout
        self.id = w.game_id
        game = d["game"] or {}
        self.name = label_of({"label": game.get("name")} if game.get("name") else {}, self.id)
        self.player_counts = w.player_counts
        self.options = w.options
        self.disputes = read_disputes(d, w.options, problems)
        self.fired: dict = {}
        self.component_keys = {t: ("component", t) for t in w.types}  # the keys of `fired` _play counts
        w.compile_zone_caps()
        self._compile_inits()
        self._compile_pieces()
        fc = FlowCompiler(w)
        self.root = fc.compile_all()
        w.procedures.compile_all()  # unused ones too: their mistakes matter
        self.nodes = fc.nodes
        self.each_nodes = bytes([n.kind == EACH for n in fc.nodes])  # for mark_acted
        self.phase_root = fc.phase_root
        self.hooks = fc.hooks
        self.event_notes = fc.event_notes
        self.steps = fc.steps
        su = Unit(player=False, effects=True)
        self.setup_fn = w.compile_stmts(d["setup"], ("setup",), su) if d["setup"] is not None else None
        self.setup_n = su.n
        self._compile_scoring()
        check_display(w)
        # What the rules themselves read and write (scenarios compiled later must not count).
        check_uncalled_defs(w)
        self.static_reads = frozenset(w.reads)
        w.compiler.loaded()
        self.static_writes = frozenset(w.writes)

    # ------------------------------------------------------------ compile
    def _compile_inits(self):
        w = self.world
        self.ginit, self.pinit = [], []
        for scope, out in (("global", self.ginit), ("player", self.pinit)):
            for name, v, t in w.var_defs[scope]:
                path = ("vars", scope, name)
                u = Unit(player=(scope == "player"))
                init = v.get("init")
                if t == "map":
                    kinds = w.kinds.get(v.get("of"), [])
                    if isinstance(init, dict):
                        fns = {}
                        for k, x in init.items():
                            if k not in kinds:
                                w.error(f"'{k}' is not a value of kind {v.get('of')}", path + ("init", k),
                                        did_you_mean(str(k), kinds))
                                continue
                            cx = w.compile_expr(x, path + ("init", k), u)
                            fns[k] = cx.f if cx else None
                        out.append((t, [(k, fns.get(k)) for k in kinds], u.n))
                    else:
                        cx = w.compile_expr(init if init is not None else 0, path + ("init",), u)
                        out.append((t, [(k, cx.f if cx else None) for k in kinds], u.n))
                else:
                    default = {"int": 0, "bool": False}.get(t, "[]" if t.startswith("list:") else None)
                    cx = w.compile_expr(init if init is not None else default, path + ("init",), u)
                    if cx is not None and cx.t not in ("any", "none", t) and {cx.t, t} not in (
                            {"int", "bool"}, {"int", "player"}) and not (t[:5] == cx.t[:5] == "list:"):
                        hint = None
                        if isinstance(init, str) and init.strip() in w.tables:
                            hint = f"table '{init.strip()}' is written at {self._table_where(init.strip())}"
                        w.error(f"var '{name}' is a {t}, but its init gives a {cx.t}"
                                + (f" ({cx.c!r})" if cx.c is not NOCONST else ""), path + ("init",), hint)
                    out.append((t, cx.f if cx else None, u.n))

    def _table_where(self, name):
        """Where a table's value was last written (an overlay's line, when one set it)."""
        d = self.definition
        best = d.where(("tables", name))
        for path, (doc, dpath) in d._origin.items():
            if path[:2] == ("tables", name) and doc in d.overlays:
                best = doc.key_where(dpath)
        return best

    def _compile_pieces(self):
        w = self.world
        self.piece_plan = []   # (type, count fn, zone index or player-zone offset, per player?)
        for tname, cname in w.types.items():
            tdef = w.type_entries[tname]
            cls = w.classes[cname]
            zone = tdef.get("zone", cls.get("zone"))
            path = ("components", cname, "types", tname)
            if zone is None:
                w.error(f"pieces of '{tname}' have no starting zone", path,
                        f"give class {cname} (or the type) a 'zone:' naming a zone")
                continue
            count = w.count_value(tdef.get("count", 1), path + ("count",))
            if zone in w.gzones:
                self.piece_plan.append((tname, count, w.gzones[zone], False))
            elif zone in w.pzones:
                # A player zone: every player gets `count` pieces of this type (their own board).
                self.piece_plan.append((tname, count, w.pzones[zone], True))
            else:
                w.error(f"unknown zone '{zone}'", path + ("zone",),
                        did_you_mean(str(zone), list(w.gzones) + list(w.pzones)))
        for message, tname in piece_count_problems(self.piece_plan, w.player_counts):
            w.error(message, ("components", w.types[tname], "types", tname, "count"))
        self.field_init = []
        for fname, classes, fdef, is_map in w.field_defs:
            if is_map:
                kinds = w.kinds.get(fdef.get("of"), [])
                self.field_init.append((classes, ("map", kinds)))
            else:
                init = fdef.get("init", {"int": 0, "bool": False}.get(str(fdef.get("type", "int"))))
                init = None if init == "none" else init
                self.field_init.append((classes, ("value", init)))

    def _compile_scoring(self):
        w = self.world
        sc = w.d["scoring"] or {}
        self.score_items = []
        for iid, item in (sc.get("items") or {}).items():
            item = item if isinstance(item, dict) else {"expr": item}
            u = Unit(player=True)
            x = w.compile_expr(item.get("expr", 0), ("scoring", "items", iid, "expr"), u)
            if x is not None and x.t not in ("int", "bool", "any"):
                w.error(f"a scoring item is a number, not a {x.t}", ("scoring", "items", iid, "expr"))
            elif x is not None:
                self.score_items.append((iid, label_of(item, iid), x.f, u.n))
        self.tiebreaks = []
        for i, t in enumerate(sc.get("tiebreak") or []):
            u = Unit(player=True)
            x = w.compile_expr(t if not isinstance(t, dict) else t.get("expr"), ("scoring", "tiebreak", i), u)
            if x is not None and x.t not in ("int", "bool", "any"):
                w.error(f"a tiebreak is a number, not a {x.t}", ("scoring", "tiebreak", i))
            elif x is not None:
                self.tiebreaks.append((x.f, u.n))
        self.score_order = sc.get("order", "high")
        from .engine.exact import compile_divisors
        self.score_divisors = compile_divisors(w, sc.get("items"))  # exact shares (`divided_by`)
        self.rate = compile_ratings(w, sc)
        from .engine.outcomes import Outcomes
        self.outcomes = Outcomes(w, sc)

    # ------------------------------------------------------------ new game
    def new_game(self, players: int, seed: int = 0, options: dict | None = None, log: list | None = None) -> State:
        """A new game at its first decision (`log`, if given, receives the narration up to it)."""
        if type(seed) is not int:
            raise GameSetupError(f"a seed is a whole number, not {seed!r:.40}")
        if players not in self.player_counts:
            raise GameSetupError(f"{self.id} is for {', '.join(map(str, self.player_counts))} players, not {players}")
        opts = {k: v.get("default") for k, v in self.options.items()}
        for k, v in (options or {}).items():
            if k not in self.options:
                raise GameSetupError(f"unknown option '{k}'" + (f"; {h}" if (h := did_you_mean(k, self.options)) else ""))
            allowed = self.options[k].get("values")
            if allowed is not None and not any(same_value(v, a) for a in allowed):
                raise GameSetupError(f"option {k} must be one of {allowed}, not {v!r}")
            opts[k] = v
        w = self.world
        lay = self.layout
        s = State.__new__(State)
        s.n = players
        s.opts = opts
        s.rng = rng.seed_state(seed)
        s.decisions = 0
        s.ends = []
        s.faces = {}
        s.menu = None
        s.ids = None
        s.pcache = None
        s.ev = []
        s.budget = 0
        new_decision()
        s.flow = []
        s.g = [None] * len(lay.gvars)
        seats = players + w.scripted.count(players, opts)  # the players, then the scripted seats present
        s.p = [[None] * len(lay.pvars) for _ in range(seats)]
        s.zones = [[] for _ in range(lay.G + seats * lay.PZ)]
        types = []
        for tname, count, z, per_player in self.piece_plan:
            for zi in ([lay.G + pl * lay.PZ + z for pl in range(seats)] if per_player else [z]):
                for _ in range(count(players)):
                    s.zones[zi].append(len(types))
                    types.append(tname)
        s.types = types
        s.loc = [None] * len(types)
        for zi, zone in enumerate(s.zones):
            for x in zone:
                s.loc[x] = zi
        cls = [w.types[t] for t in types]
        s.fields = []
        for classes, (kind, init) in self.field_init:
            if kind == "map":
                s.fields.append([{k: 0 for k in init} if c in classes else None for c in cls])
            else:
                s.fields.append([init if c in classes else None for c in cls])
        s.mapidx = map_index(s, lay)
        try:
            for i, (t, f, n) in enumerate(self.ginit):
                s.g[i] = self._init_value(s, t, f, n, None)
            for pl in range(seats):
                for i, (t, f, n) in enumerate(self.pinit):
                    s.p[pl][i] = self._init_value(s, t, f, n, pl)
            if self.setup_fn is not None:
                run_effect(self, s, self.setup_fn, self.setup_n, None, None)
            if self.root is not None:
                push(s, self.root, None, None)
            advance(self, s, log)
        except RuleError as ex:
            raise RuleError(f"during setup: {ex}") from None
        except (TypeError, KeyError, IndexError, AttributeError, ValueError) as ex:
            # an init expression that fails (e.g. a table without that key): a rule error, not a crash
            raise RuleError(f"during setup: {type(ex).__name__}: {ex}") from None
        return s

    @staticmethod
    def _init_value(s, t, f, n, pl):
        e = [pl, None] + [None] * (n - 2)
        if t == "map":
            return {k: (g(s, e) if g is not None else 0) for k, g in f}
        return f(s, e) if f is not None else None

    # ------------------------------------------------------------ decisions
    def is_over(self, s: State) -> bool:
        return not s.flow

    def current_player(self, s: State):
        """The seat that decides now, or None when the game is over (in a simultaneous decision: the first
        seat that has not chosen yet; `pending_players` lists them all)."""
        if not s.flow:
            return None
        fr = s.flow[-1]
        if fr[4] is not None and self.nodes[fr[0]].kind == SIMUL:
            return next(iter(simultaneous.pending(fr)), None)
        return fr[1]

    def pending_players(self, s: State) -> list:
        """The seats that may decide now: several in a simultaneous decision, else the current player."""
        if s.flow and self.nodes[s.flow[-1][0]].kind == SIMUL and s.flow[-1][4] is not None:
            return simultaneous.pending(s.flow[-1])
        p = self.current_player(s)
        return [] if p is None else [p]

    def is_simultaneous(self, s: State) -> bool:
        """Is the decision now one of a simultaneous step (choices hidden until all are in)?"""
        return bool(s.flow) and self.nodes[s.flow[-1][0]].kind == SIMUL

    def conceal(self, s: State, seat: int) -> State:
        """A copy of `s` without the pending simultaneous choices of seats other than `seat`."""
        return simultaneous.conceal(self, s, seat)

    def _frame_for(self, s, player):
        """The top frame as seen by the deciding `player` (its player slot is the seat that decides)."""
        fr = s.flow[-1]
        if self.nodes[fr[0]].kind != SIMUL:
            if player is not None and player != fr[1]:
                raise IllegalAction(f"player {player + 1} has no decision now "
                                    f"(player {fr[1] + 1 if fr[1] is not None else '-'} decides)")
            return fr
        seats = simultaneous.pending(fr)
        p = seats[0] if player is None and seats else player
        if p not in seats:
            raise IllegalAction(f"player {p + 1 if p is not None else '-'} has no choice to make now "
                                f"(still to choose: {', '.join(str(x + 1) for x in seats) or 'nobody'})")
        return [fr[0], p, fr[2]] + fr[3:]

    def _menu(self, s, player=None):
        if player is not None and s.flow and player != self.current_player(s):
            fr = self._frame_for(s, player)
            return self.nodes[fr[0]].step.menu(s, fr[1], fr[2])
        if s.menu is None:
            if not s.flow:
                return []
            fr = self._frame_for(s, None)
            node = self.nodes[fr[0]]
            s.menu = node.step.menu(s, fr[1], fr[2]) if node.step is not None else []
        return s.menu

    @staticmethod
    def action_id(act, vals) -> str:
        return act.idfmt % vals if vals else act.idfmt

    def legal_actions(self, s: State, labels: bool = True, player: int | None = None) -> list[dict]:
        """Every legal decision now, as JSON objects {id, step, action, args[, label]}: the current
        player's, or (in a simultaneous decision) those of `player`, a seat still to choose."""
        out = []
        if player is not None and s.flow and player != self.current_player(s):
            menu = self._menu(s, player)
            fr = self._frame_for(s, player)
            return [dict({"id": self.action_id(a, v), "step": a.step, "action": a.name,
                          "args": dict(zip(a.pnames, v))}, **({"label": self.render(s, a, v, fr)} if labels else {}))
                    for a, v in menu]
        menu = self._menu(s)
        fr = self._frame_for(s, None) if s.flow else None
        ids = {}
        for entry in menu:
            act, vals = entry
            aid = act.idfmt % vals if vals else act.idfmt
            ids[aid] = entry
            a = {"id": aid, "step": act.step, "action": act.name, "args": dict(zip(act.pnames, vals))}
            if labels:
                a["label"] = self.render(s, act, vals, fr)
            out.append(a)
        s.ids = ids
        return out

    def render(self, s, act, vals, fr):
        """An action's label as the deciding seat sees it (another seat's private values stay hidden)."""
        e = [fr[1], fr[2]] + [None] * (act.nslots - 2)
        for p, v in zip(act.params, vals):
            e[p[1]] = v
        return self.render_template(s, act.label, e, viewer=fr[1])

    def render_template(self, s, label, e, viewer=None):
        """A compiled label ({en, zh} lists of parts) as text, its holes evaluated in env e: every value
        shown, or (given a seat as `viewer`) only what that seat may see."""
        from .language.labels import EVERYONE, render
        return render(self, s, label, e, EVERYONE if viewer is None else viewer)

    def value_text(self, v, t, lang="en", s=None):
        """A value as text for people: pieces and kind values by their labels, players as seats."""
        w = self.world
        if v is None:
            return "-"
        if t == "piece" and isinstance(v, int) and s is not None and 0 <= v < len(s.types):
            return (w.type_labels.get(s.types[v]) or {}).get(lang, str(v))
        if t == "player" and isinstance(v, int):
            if s is not None and v >= s.n:  # a scripted seat: by its label
                return seat_label(self, s.n, s.opts, v, lang) or str(v)
            return say("player", lang, n=v + 1)
        if isinstance(v, str):
            lab = w.kind_labels.get(v) or w.type_labels.get(v)
            if lab is None and v in self.phase_root:
                lab = self.nodes[self.phase_root[v]].label
            return lab[lang] if lab else v
        if isinstance(v, bool):
            return say("yes" if v else "no", lang)
        return str(v)

    def _find(self, s, action, player=None):
        if player is not None and s.flow and player != self.current_player(s):
            menu = self._menu(s, player)
            aid = action.get("id") if isinstance(action, dict) else action
            for act, vals in menu:
                if self.action_id(act, vals) == aid or (isinstance(action, dict) and aid is None and act.name ==
                        action.get("action") and dict(zip(act.pnames, vals)) == (action.get("args") or {})):
                    return act, vals
            raise IllegalAction(f"illegal action '{aid}' for player {player + 1}: not among its "
                                f"{len(menu)} legal choices")
        menu = self._menu(s)
        if isinstance(action, dict):
            aid = action.get("id")
            if aid is None:
                name = action.get("action")
                args = action.get("args") or {}
                if type(name) is not str or type(args) is not dict or not all(type(k) is str for k in args):
                    raise IllegalAction("an action object has an 'id' string, or an 'action' name with "
                                        "'args' mapping parameter names to values")
                for act, vals in menu:
                    if act.name == name and {p[0]: v for p, v in zip(act.params, vals)} == args:
                        return act, vals
                aid = name + ("(" + ",".join(f"{k}={v}" for k, v in args.items()) + ")" if args else "")
        elif isinstance(action, str):
            aid = action
        else:
            raise IllegalAction(f"an action is a dict from legal_actions or its id, not {type(action).__name__}")
        if type(aid) is not str or len(aid) > MAX_ACTION_ID:
            raise IllegalAction(f"an action id is a string of at most {MAX_ACTION_ID} characters, "
                                f"not {type(aid).__name__}" + (f" of {len(aid)}" if isinstance(aid, str) else ""))
        if s.ids is not None:
            entry = s.ids.get(aid)
            if entry is not None:
                return entry
        else:
            for act, vals in menu:
                if self.action_id(act, vals) == aid:
                    return act, vals
        raise IllegalAction(self._why(s, aid, menu))

    def _why(self, s, aid, menu) -> str:
        if not s.flow:
            return f"illegal action '{aid}': the game is over"
        fr = self._frame_for(s, None)
        step = self.nodes[fr[0]].step
        who = f"player {fr[1] + 1}" if fr[1] is not None else "nobody"
        name = aid.split("(", 1)[0]
        names = [a.name for a in step.actions] + (["pass"] if step.optional else [])
        if name not in names:
            hint = did_you_mean(name, names)
            return (f"illegal action '{aid}': step '{step.id}' ({who} to decide) offers "
                    f"{', '.join(sorted(set(names)))}" + (f"; {hint}" if hint else ""))
        act = next(a for a in step.actions if a.name == name) if name != "pass" else None
        same = [self.action_id(a, v) for a, v in menu if a.name == name]
        legal = (f"; legal {name} choices: {', '.join(same[:12])}" + (" ..." if len(same) > 12 else "")
                 if same else f"; no {name} is legal now")
        why = (f"; its condition is `{' '.join(str(act.cond_text).split())}`"
               if act is not None and act.cond_text else "")
        return (f"illegal action '{aid}': not among the {len(menu)} legal choices of step '{step.id}' "
                f"for {who}{why}{legal}")

    def apply(self, s: State, action, log: list | None = None, player: int | None = None) -> State:
        """The state after `action` (a dict from legal_actions or its id); `s` is left untouched.
        In a simultaneous decision `player` names the seat that chooses (default: the current player).

        Raises IllegalAction, with the reason, for anything that is not a legal decision now."""
        act, vals = self._find(s, action, player)
        return self._play(s, s.copy(self.layout), act, vals, log, player)

    def _play(self, s: State, t: State, act, vals, log, player: int | None = None) -> State:
        """Play the menu entry (act, vals) of `s` on `t`: a copy of `s`, or `s` itself when its owner
        gives it up (the fast path); return `t`. In a simultaneous decision the entry is `player`'s
        (default: the current player's) sealed choice."""
        new_decision()
        if self.nodes[t.flow[-1][0]].kind == SIMUL:
            seat = self.current_player(s) if player is None else player
            simultaneous.choose(self, t, t.flow[-1], act, vals, seat, log)
            t.decisions += 1
            advance(self, t, log)
            return t
        fr = t.flow.pop()
        player, event = fr[1], fr[2]
        told = None
        if log is not None:
            e = [player, event] + [None] * (act.nslots - 2)
            for p, v in zip(act.params, vals):
                e[p[1]] = v
            if player is not None:
                told = (e, len(log))  # told once the effect ran: a piece is named where it went
            else:
                lab = self.render(s, act, vals, fr)
                log.append({"player": player, **{lang: say("game_acts", lang, what=text) for lang, text in lab.items()}})
        fired = self.fired
        key = act.fired_key  # ("action", step, name)
        fired[key] = fired.get(key, 0) + 1
        if act.piece_params:
            keys = self.component_keys
            for i in act.piece_params:  # a piece chosen by a player: its component is in play
                key = keys[s.types[vals[i]]]
                fired[key] = fired.get(key, 0) + 1
        if act.effect is not None:
            if act.direct:
                e = [player, event, *vals, *BLANK[act.nslots - 2 - len(vals)]]
            else:
                e = [player, event, *BLANK[act.nslots - 2]]
                for p, v in zip(act.params, vals):
                    e[p[1]] = v
            t.ev = []
            t.budget = 0
            try:
                act.effect(t, e)
                if t.ev or t.ends:  # events, or an end trigger that ends the game now
                    fire_events(self, t)
            except (TypeError, KeyError, IndexError, AttributeError, ValueError) as ex:
                raise RuleError(f"{type(ex).__name__}: {ex}", f"step {act.step}, action {act.name}") from None
        if told is not None:
            from .language.labels import entry
            log.insert(told[1], entry(self, s, act.label, told[0], who=player, after=t))
        if not act.is_pass:
            mark_acted(self, t)
        t.decisions += 1
        advance(self, t, log)
        return t

    # ------------------------------------------------------------ scores
    def score_breakdown(self, s: State) -> list[dict]:
        out = []
        s.budget = 0  # the loop budget counts per reading of the scores
        for pl in range(s.n):
            row = {}
            for iid, lab, f, n in self.score_items:
                try:
                    v = f(s, [pl, None] + [None] * (n - 2))
                except (TypeError, KeyError, IndexError, AttributeError, ValueError) as ex:
                    raise RuleError(f"{type(ex).__name__}: {ex}", f"scoring item {iid}") from None
                if type(v) not in (int, bool):
                    raise RuleError(f"scoring item {iid} gave {v!r}, not a number")
                row[iid] = int(v)
                if iid in self.score_divisors:
                    row[iid] = self._share(s, pl, iid, row[iid])
            out.append(row)
        return out

    def _share(self, s, pl, iid, v):
        from .engine.exact import share
        f, n = self.score_divisors[iid]
        try:
            return share(iid, v, f(s, [pl, None] + [None] * (n - 2)))
        except (TypeError, KeyError, IndexError, AttributeError, ValueError) as ex:
            raise RuleError(f"{type(ex).__name__}: {ex}", f"scoring item {iid} (divided_by)") from None

    def scores(self, s: State) -> list:
        """Each seat's total: an int, or an exact Fraction where a scoring item is `divided_by`."""
        return [self._total(row) for row in self.score_breakdown(s)]

    def _total(self, row):
        if not self.score_divisors:
            return sum(row.values())
        from .engine.exact import tidy
        return tidy(sum(row.values()))

    def outcome(self, s: State) -> dict:
        bd = self.score_breakdown(s)
        scores = [self._total(r) for r in bd]
        try:
            tb = [[f(s, [pl, None] + [None] * (n - 2)) for f, n in self.tiebreaks] for pl in range(s.n)]
        except (TypeError, KeyError, IndexError, AttributeError, ValueError) as ex:
            raise RuleError(f"{type(ex).__name__}: {ex}", "scoring tiebreak") from None
        for row in tb:
            for v in row:
                if type(v) not in (int, bool):
                    raise RuleError(f"a tiebreak gave {v!r}, not a number")
        sign = 1 if self.score_order == "high" else -1
        keys = [(sign * scores[pl],) + tuple(tb[pl]) for pl in range(s.n)]
        best = max(keys)
        out = {"scores": scores, "breakdown": bd, "tiebreak": tb,
               "winners": [pl for pl in range(s.n) if keys[pl] == best], "over": self.is_over(s),
               "ends": list(s.ends)}
        self.outcomes.decide(s, out, sign)
        ratings = self.rate(s, scores) if self.rate is not None else None
        if ratings is not None:
            out["ratings"] = ratings
        return out

    # ------------------------------------------------------------ inspection
    def evaluate(self, s: State, text: str, player: int | None = None):
        """The value of a DSL expression in state `s` (with `player` bound if given): for tools, tests
        and the curious. Compiled once per text; mistakes raise DefinitionError, failures RuleError."""
        if player is not None and not (type(player) is int and 0 <= player < s.n):
            raise ValueError(f"player {player!r}: seats are 0 to {s.n - 1}")  # -1 would wrap to the last seat
        key = (text, player is not None)
        cache = self.__dict__.setdefault("_evaluated", {})
        hit = cache.get(key)
        if hit is None:
            from .language.compiler import CompileError
            from .language.dsl import DslSyntaxError, parse_expr
            u = Unit(player=player is not None)
            try:
                x = self.world.compiler.expr(parse_expr(text), Scope(u))
            except (CompileError, DslSyntaxError) as ex:
                raise DefinitionError([Problem(f"{text!r}: {ex.message}", None, getattr(ex, "hint", None))]) from None
            hit = cache[key] = (x.f, u.n)
        f, n = hit
        s.budget = 0
        try:
            return f(s, [player, None] + [None] * (n - 2))
        except (TypeError, KeyError, IndexError, AttributeError, ValueError) as ex:
            raise RuleError(f"{type(ex).__name__}: {ex}", repr(text)) from None

    # ------------------------------------------------------------ views and persistence
    def to_json(self, s: State) -> dict:
        return to_json(s, self.layout, self.id)

    def from_json(self, d: dict) -> State:
        """A state from `to_json` data; StateFormatError for anything that is not a consistent state."""
        s = from_json(d, self.layout, self.id)
        restore_number_keys(self.world, s)
        if s.n not in self.player_counts:
            raise StateFormatError(f"{s.n} players is not a supported count")
        if len(s.p) != s.n + self.world.scripted.count(s.n, s.opts):
            raise StateFormatError("player_vars and player_zones must have one entry per seat (the players, "
                                   "then the scripted seats at the table)")
        problem = type_problem(self, s) or state_problem(self, s)
        if problem:
            raise StateFormatError(f"not a state of {self.id}: {problem}")
        return s

    def view(self, s: State, player: int) -> dict:
        """What `player` may see: hidden zones show only their size, others' private vars are hidden, and
        the random generator's state is withheld (it would tell the future)."""
        if not (type(player) is int and 0 <= player < s.n):
            raise ValueError(f"player {player!r}: seats are 0 to {s.n - 1}")
        d = self.to_json(s)
        d.pop("rng", None)
        w = self.world
        for name in list(d["zones"]):
            if not sees(w.zone_visibility.get(("global", name)), None, player):
                d["zones"][name] = {"hidden": len(d["zones"][name])}
        for pl, row in enumerate(d["player_zones"]):
            for name in list(row):
                if not sees(w.zone_visibility.get(("player", name)), pl, player):
                    row[name] = {"hidden": len(row[name])}
        private = var_modes(w, "player")
        for pl, row in enumerate(d["player_vars"]):
            for name, mode in private.items():
                if not sees(mode, pl, player):
                    row[name] = "hidden"
        for name, mode in var_modes(w, "global").items():
            if not sees(mode, None, player):
                d["vars"][name] = "hidden"
        unseen.redact(self, s, d, player)  # the fields of pieces it may not see (and their ids' types)
        facing.redact(self, s, d, player)
        simultaneous.redact(self, d["flow"], player)
        d["viewer"] = player
        d["to_move"] = self.current_player(s)
        return d

    def describe(self, s: State, lang: str = "en", viewer: int | None = None) -> str:
        """A few lines on the position: where the flow is, then each player's vars (seen by `viewer`:
        other players' private vars are not shown; None shows everything)."""
        lines = []
        from .language.labels import EVERYONE, render
        seat = EVERYONE if viewer is None else viewer  # no viewer: everything, as for the vars below

        def told(tmpl, n, fr, static):
            if tmpl is None:
                return static[lang]
            return render(self, s, tmpl, [fr[1], fr[2]] + [None] * (n - 2), seat)[lang]
        path = [told(self.nodes[fr[0]].tmpl, self.nodes[fr[0]].nslots, fr, self.nodes[fr[0]].label)
                for fr in s.flow if self.nodes[fr[0]].phase is not None]
        if s.flow:
            step = self.nodes[s.flow[-1][0]].step
            if step is not None:
                path.append(told(step.tmpl, step.tmpl_n, self._frame_for(s, None), step.label))
            who = self.current_player(s)
            lines.append(" / ".join(path) + (f" — {self.value_text(who, 'player', lang)}" if who is not None else ""))
        else:
            lines.append("game over" if lang == "en" else say("game_over", lang))
        private = var_modes(self.world, "player")
        for pl in range(len(s.p)):  # the players, then the scripted seats
            parts = []
            for name, (slot, t) in self.world.pvars.items():
                if viewer is not None and name in private and not sees(private[name], pl, viewer):
                    continue
                v = s.p[pl][slot]
                if isinstance(v, dict):
                    v = " ".join(f"{self.value_text(k, 'str', lang)}:{n}" for k, n in v.items() if n)
                    if not v:
                        continue
                elif not v:
                    continue
                parts.append(f"{name}={v}")
            lines.append(f"  {self.value_text(pl, 'player', lang, s)}: " + ", ".join(parts))
        return "\n".join(lines)
