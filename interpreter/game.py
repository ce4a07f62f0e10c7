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
import gc
from pathlib import Path

from .definition.cache import load_cached
from .definition.display import check_display
from .definition.disputes import read_disputes
from .definition.fingerprint import content_hash
from .definition.limits import recursion_room
from .definition.problems import DefinitionError, InputError, Problem, did_you_mean, sort_problems
from .definition.static_checks import check_uncalled_defs
from .engine import facing, knowledge, simultaneous, unseen
from .engine.consistency import state_problem
from .engine.decisions import Decisions
from .engine.errors import MAX_ACTION_ID, GameSetupError, IllegalAction
from .engine.flow import EACH
from .engine.flowcompiler import FlowCompiler
from .engine.scoring import Scoring
from .engine.scripted import seat_label
from .engine.setup import Setup
from .engine.state import State, StateFormatError, from_json, to_json
from .engine.state_types import restore_number_keys, type_problem
from .engine.visibility import sees, var_modes, zone_view
from .language.compiler import RuleError, Scope, Unit
from .language.entries import label_of
from .language.world import World
from .table.words import extend as extend_words, say

# The public API (the errors a caller catches are defined in engine.errors, the rest here).
__all__ = ["MAX_ACTION_ID", "Game", "GameSetupError", "IllegalAction", "StateFormatError", "find_game", "load_game"]



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
    # A load makes some 10^5 objects that live as long as the game: the collector's passes during it
    # only walk them (about a tenth of a load from the cache), so it is paused until the load is done.
    collecting = gc.isenabled()
    gc.disable()
    try:
        game = load_cached(root, overlays, Game)  # from the per-user cache when the files are unchanged
    finally:
        if collecting:
            gc.enable()
    # Where it came from, so that another process (a worker) can load the same game again.
    game.origin = (Path(root).resolve(), tuple(Path(f).resolve() for f in overlays))
    return game


class Game(Setup, Decisions, Scoring):
    def __init__(self, definition, meter=None):
        problems: list[Problem] = list(getattr(definition, "problems", []))
        try:
            with recursion_room():
                self._compile(definition, problems, meter)
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
    meter_names: frozenset = frozenset()  # the (kind, name) whose reads its rules count (see metered)

    def metered(self, names) -> "Game":
        """This game compiled again with a read meter (`language.meters`): its rules count their reads of
        `names`, (kind, name) pairs with kind table, param, var or prop, in `world.meter.counts`. The
        game itself is left as it is (an unmetered game runs no meter code)."""
        game = Game(self.definition, meter=names)
        game.origin, game.load_source = self.origin, self.load_source
        game.meter_names = frozenset(names)
        return game

    @functools.cached_property
    def content_hash(self) -> str:
        """The hash of the text of every file of the definition (see `fingerprint`)."""
        return content_hash(self.definition)

    def _compile(self, definition, problems, meter=None):
        self.definition = d = definition
        w = self.world = World(d, problems, meter)
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
        self.end_node = fc.end_node
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
        lay = self.layout
        for name in d["zones"]:
            d["zones"][name] = zone_view(self, s, lay.zone_index(name), player)
        for pl, row in enumerate(d["player_zones"]):
            for name in row:
                row[name] = zone_view(self, s, lay.zone_index(name, pl), player)
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
        d.pop("told", None)
        known = knowledge.known_places(self, s, player)  # what it was told of pieces it may not see, by place
        if known:
            d["known"] = known
        simultaneous.redact(self, d["flow"], player)
        d["viewer"] = player
        d["to_move"] = self.current_player(s)
        d["flow_labels"] = self.flow_labels(s, player)  # where the flow is, its labels' holes filled for the seat
        return d

    def flow_labels(self, s: State, viewer=None) -> list:
        """The labels of where the flow is, outermost first: each phase it is in, then the step being
        decided; each a dict of languages with its {holes} filled as `viewer` (a seat, None for the table,
        labels.EVERYONE for tools) may read them."""
        from .language.labels import render

        def told(tmpl, n, fr, static):
            if tmpl is None:
                return dict(static)
            return dict(render(self, s, tmpl, [fr[1], fr[2]] + [None] * (n - 2), viewer))
        out = [told(self.nodes[fr[0]].tmpl, self.nodes[fr[0]].nslots, fr, self.nodes[fr[0]].label)
               for fr in s.flow if self.nodes[fr[0]].phase is not None and self.nodes[fr[0]].label]
        if s.flow:
            step = self.nodes[s.flow[-1][0]].step
            if step is not None:
                out.append(told(step.tmpl, step.tmpl_n, self._frame_for(s, None), step.label or {"en": step.id}))
        return out

    def describe(self, s: State, lang: str = "en", viewer: int | None = None) -> str:
        """A few lines on the position: where the flow is, then each player's vars (seen by `viewer`:
        other players' private vars are not shown; None shows everything)."""
        lines = []
        from .language.labels import EVERYONE
        seat = EVERYONE if viewer is None else viewer  # no viewer: everything, as for the vars below
        path = [texts.get(lang) or texts.get("en", "") for texts in self.flow_labels(s, seat)]
        if s.flow:
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
