"""Determinization: full states sampled from what one seat may see.

A bot decides from its seat's view (`game.view(state, seat)`), never from the state. To look ahead it
needs a state to apply actions to, so it samples one consistent with the view:

    sampler = Determinizer.of(game, view)     # once per decision (cached per game, players, options)
    state = sampler.sample(random.Random(7))  # as many as it likes, each with a fresh random generator

What is hidden, and how it is filled (all from the definition, never from the true state):

- **pieces in hidden zones** (a face-down deck, another player's owner-only hand): the pieces no visible
  zone lists are dealt at random into the hidden zones, each zone getting exactly the number of pieces the
  view shows. A hidden zone takes only the piece types it was seen to hold when the definition was set up
  and played (a few seeded random games, learned once per game and player count), so a face-down stack of
  one kind of tile is refilled with that kind; a piece that fits no hidden zone so goes to any of them.
- **what the seat knows of hidden zones**: the pieces it knows to be in a hidden zone (a `contents` pile's,
  or pieces shown to it) stay in that zone, at random places (their order is what it does not know); a
  `top` pile keeps its top; a place the seat was told something of (`knowledge`: "red", "not 3") gets a
  piece that fits every fact, dealt first, and the sampled state's seat is told the same.
- **what the view leaves blank of an unseen piece** (its fields, `unseen`): each unseen piece keeps its
  id's type and takes its field values from the setup, so it is dealt whole, as a piece of the definition.
- **private vars** (another player's `visible: owner` var, a `visible: none` global var): an integer var
  that holds a conserved resource gets a random share of what of that resource the view does not account
  for (the resource's total is the same after every setup, so the total is known from the definition);
  any other hidden var gets its value at the start of the game.
- **the random generator**: reseeded from the caller's generator, so the future is a fresh sample.

The sampler knows no game. A stand-in game object (without a compiled `world`) can provide its own
`from_view(view, rng) -> state`.
"""
from __future__ import annotations

import contextlib
import random
import weakref
from itertools import chain
from typing import Any

from ..engine import knowledge as told_facts
from ..engine import rng as game_rng
from ..engine.invariants import resource_totals
from ..engine.state import from_json

LEARNING_GAMES = 2  # random games played to learn what each hidden zone can hold
LEARNING_SEEDS = (1, 2, 3)  # setups compared to find the resources whose total the definition fixes


def _counters(game) -> list[dict]:
    world = getattr(game, "world", None)
    found = [getattr(game, "fired", None), getattr(world, "mod_fired", None), getattr(world, "active_fired", None)]
    return [c for c in found if isinstance(c, dict)]


@contextlib.contextmanager
def unrecorded(game):
    """Actions applied inside are not counted in the game's coverage counters (`game.fired`, the
    modifiers and abilities that applied): what a bot tries in its head is not play. The counters are
    restored in place (compiled rules hold on to them)."""
    counters = _counters(game)
    saved = [dict(c) for c in counters]
    try:
        yield
    finally:
        for c, before in zip(counters, saved):
            c.clear()
            c.update(before)


class Knowledge:
    """What the definition says about hidden things, for one player count and options: the piece types
    each hidden zone can hold, the start value of every var, and the resources whose total is fixed."""

    def __init__(self, game, players: int, options: dict | None):
        self.game = game
        lay = game.layout
        w = game.world
        with unrecorded(game):
            starts = [game.new_game(players, seed=seed, options=options) for seed in LEARNING_SEEDS]
            self.start = starts[0]
            hidden = self.hidden_zone_indices(players, viewer=None)
            holds: dict[int, set] = {z: set() for z in hidden}

            def learn(s):
                for z in hidden:
                    for x in s.zones[z]:
                        holds[z].add(s.types[x])

            for s in starts:
                learn(s)
            r = random.Random(0)
            for seed in range(1, LEARNING_GAMES + 1):
                s = game.new_game(players, seed=seed, options=options)
                steps = 0
                while not game.is_over(s) and steps < 5000:
                    acts = game.legal_actions(s, labels=False)
                    if not acts:
                        break
                    s = game.apply(s, acts[r.randrange(len(acts))])
                    learn(s)
                    steps += 1
        # Zones of the same name (each player's hand) hold the same kinds of piece.
        by_name: dict[tuple, set] = {}
        for z, types in holds.items():
            by_name.setdefault(self._zone_key(z), set()).update(types)
        self.holds = {key: frozenset(types) for key, types in by_name.items()}
        totals = [resource_totals(game, s) for s in starts]
        self.fixed_totals = {r: t for r, t in totals[0].items()
                             if isinstance(t, int) and all(other.get(r) == t for other in totals[1:])}
        self.private = [name for name, v, t in w.var_defs["player"] if v.get("visible") == "owner"]
        self.secret = [name for name, v, t in w.var_defs["global"] if v.get("visible") == "none"]
        self.resource_of = {("player", name): v.get("resource") for name, v, t in w.var_defs["player"]}
        self.resource_of.update({("global", name): v.get("resource") for name, v, t in w.var_defs["global"]})
        self.layout = lay

    def _zone_key(self, z: int) -> tuple:
        lay = self.game.layout
        return ("global" if z < lay.G else "player", lay.zone_name(z))

    def hidden_zone_indices(self, players: int, viewer: int | None) -> list[int]:
        """The zones whose pieces `viewer` does not see (None: every zone any seat may not see)."""
        lay = self.game.layout
        vis = self.game.world.zone_visibility
        out = []
        for name, z in lay.gzones.items():
            if vis.get(("global", name)) in ("hidden", "owner", "top"):
                out.append(z)
        for pl in range(players):
            for name in lay.pzones:
                v = vis.get(("player", name))
                if v in ("hidden", "top") or (v == "owner" and pl != viewer) \
                        or (v == "others" and (viewer is None or pl == viewer)):
                    out.append(lay.zone_index(name, pl))
        return out

    def can_hold(self, z: int) -> frozenset:
        return self.holds.get(self._zone_key(z), frozenset())


_knowledge: "weakref.WeakKeyDictionary[Any, dict]" = weakref.WeakKeyDictionary()


def knowledge(game, players: int, options: dict | None) -> Knowledge:
    """The Knowledge of a game at a player count and options, learned once per process."""
    per_game = _knowledge.setdefault(game, {})
    key = (players, tuple(sorted((options or {}).items(), key=lambda kv: kv[0])).__repr__())
    k = per_game.get(key)
    if k is None:
        k = per_game[key] = Knowledge(game, players, options)
    return k


class Determinizer:
    """Samples full states consistent with one view (see the module doc)."""

    def __init__(self, game, view: dict):
        self.game = game
        self.view = view
        if not hasattr(game, "world"):
            self.template = None
            return
        players = view["players"]
        k = self.k = knowledge(game, players, view.get("options"))
        lay = game.layout
        viewer = view["viewer"]
        seen = set()
        # Every zone with pieces this seat does not see: its known pieces and None for each unknown one (a
        # hidden zone: the pieces revealed to the seat, then the rest; a zone it sees: its face-down pieces).
        self.slots: dict[int, list] = {}
        self.seen_in: dict[int, list] = {}  # a hidden zone: the pieces the seat knows are in it, not where
        for pl, row in [(None, view["zones"])] + list(enumerate(view["player_zones"])):
            for name, pieces in row.items():
                z = lay.zone_index(name) if pl is None else lay.zone_index(name, pl)
                if isinstance(pieces, dict):
                    known = list(pieces.get("seen", ()))
                    self.slots[z] = [None] * int(pieces["hidden"])
                    if known:
                        self.seen_in[z] = known
                elif None in pieces:
                    self.slots[z] = list(pieces)
                    known = pieces
                else:
                    known = pieces
                seen.update(known)
        seen.discard(None)  # (an unknown piece's place)
        ntypes = len(view["pieces"]["types"])
        self.unseen = [x for x in range(ntypes) if x not in seen]
        # What the seat was told of pieces it may not see, by place (`knowledge`): those places first.
        self.facts = {(lay.zone_index(e["zone"]) if e["player"] is None else lay.zone_index(e["zone"], e["player"]),
                       e["at"]): e["facts"] for e in view.get("known", ())}
        # Zones with unknown pieces and how many, the most particular first (they get first pick of the pieces).
        zones = [(z, slots.count(None) - len(self.seen_in.get(z, ()))) for z, slots in self.slots.items()]
        self.zones = sorted(((z, n, k.can_hold(z)) for z, n in zones),
                            key=lambda e: (len(e[2]) if e[2] else 1 << 30, e[0]))
        # Hidden vars: their slots, with start values; conserved ones share what the view leaves over.
        start = k.start
        data = _without_hidden_marks(view)
        data["pieces"] = self._unseen_filled(view, start)
        self.piece_data = data["pieces"]  # the values the places with facts are matched against
        hidden_vars = []  # (scope, player, slot, resource)
        for name in k.secret:
            slot = lay.gvars[name]
            data["vars"][name] = _plain(start.g[slot])
            hidden_vars.append(("global", None, slot, k.resource_of.get(("global", name))))
        for pl, row in enumerate(data["player_vars"]):
            if pl == viewer:
                continue
            for name in k.private:
                slot = lay.pvars[name]
                row[name] = _plain(start.p[pl][slot])
                hidden_vars.append(("player", pl, slot, k.resource_of.get(("player", name))))
        # The zones with unknown places hold only their known pieces in the template: every sample deals
        # each of them whole again (the unseen pieces have no place until then).
        fill = {z: [x for x in slots if x is not None] for z, slots in self.slots.items()}
        for z, pieces in fill.items():
            owner = lay.zone_owner(z)
            name = lay.zone_name(z)
            if owner is None:
                data["zones"][name] = pieces
            else:
                data["player_zones"][owner][name] = pieces
        data["rng"] = 0
        # where a zone the seat sees lists a face-down piece (`facing`; below the top of a pile that shows
        # its top only, the pile's own rule hides it)
        self.face_down = {z: [i for i, x in enumerate(slots) if x is None and i < self._shown(z)]
                          for z, slots in self.slots.items() if not self._hidden(view, z)}
        for key in VIEW_ONLY:  # what a view adds to a state's data (whose seat it is, who decides, labels)
            data.pop(key, None)
        self.template = from_json(data, lay, game.id)  # its shape is the view's: no further check
        _unseal(game, self.template)
        # Conserved int vars: the amount of each resource the visible holders do not account for.
        self.shares: list[tuple[list, int]] = []
        self.fixed_vars: list[tuple] = []
        pools: dict[str, list] = {}
        for scope, pl, slot, res in hidden_vars:
            value = start.g[slot] if scope == "global" else start.p[pl][slot]
            if res in k.fixed_totals and type(value) is int:
                pools.setdefault(res, []).append((scope, pl, slot))
        if pools:
            zeroed = self.template.copy(lay)
            for holders in pools.values():
                for scope, pl, slot in holders:
                    _set(zeroed, scope, pl, slot, 0)
            visible = resource_totals(game, zeroed, only=set(pools))
            for res, holders in pools.items():
                left = k.fixed_totals[res] - (visible.get(res, 0) if isinstance(visible.get(res, 0), int) else 0)
                self.shares.append((holders, max(0, left)))

    def _unseen_filled(self, view, start) -> dict:
        """The view's piece table with what it leaves blank of the pieces the seat does not see (their
        fields: `unseen`) taken from the setup, piece by piece: each such piece is dealt to a position with
        its own type and field values, so the unseen pieces are permuted among the unseen positions and a
        rule that reads a face-down piece's fields in the lookahead finds values."""
        lay = self.game.layout
        fields = {f: list(col) for f, col in view["pieces"]["fields"].items()}
        for f, col in fields.items():
            first = start.fields[lay.fields[f]]
            for x in self.unseen:
                if col[x] is None:
                    v = first[x]
                    if v is not None:
                        col[x] = dict(v) if isinstance(v, dict) else v
        return {"types": list(view["pieces"]["types"]), "fields": fields}

    def _shown(self, z) -> int:
        """How many places from the top of zone z its own rule shows (all but in a `top` pile)."""
        from ..engine.visibility import TOP, top_count, zone_mode
        return top_count(self.game, z) if zone_mode(self.game, z)[0] == TOP else 1 << 30

    def _hidden(self, view, z) -> bool:
        lay = self.game.layout
        owner, name = lay.zone_owner(z), lay.zone_name(z)
        row = view["zones"] if owner is None else view["player_zones"][owner]
        return isinstance(row[name], dict)

    @classmethod
    def of(cls, game, view: dict) -> "Determinizer":
        return cls(game, view)

    def _deal(self, r: random.Random) -> dict[int, list[int]]:
        """The pieces of every zone the seat does not see whole: the known ones kept, the pieces it knows
        to be in a hidden zone put in random places of it (their order is what it does not know), each
        place it was told something of given a piece that fits (`knowledge`), the rest dealt at random."""
        pool = self.unseen[:]
        # a uniformly random order: each piece keyed by a fresh draw (one C call each, where Random.shuffle
        # draws a bounded integer per piece)
        keys = {x: r.random() for x in pool}
        pool.sort(key=keys.__getitem__)
        types = self.view["pieces"]["types"]
        out = {z: list(slots) for z, slots in self.slots.items()}
        for z, known in self.seen_in.items():
            free = [i for i, x in enumerate(out[z]) if x is None and (z, i) not in self.facts]
            k = min(len(known), len(free))
            for x, i in zip(known, r.sample(free, k)):
                out[z][i] = x
        taken: set = set()
        for (z, i), facts in sorted(self.facts.items(), key=lambda e: len(e[1]), reverse=True):
            if z not in out or i >= len(out[z]) or out[z][i] is not None:
                continue
            holds = self.k.can_hold(z)
            fitting = [x for x in pool if x not in taken and self._fits(x, facts)]
            pick = next((x for x in fitting if not holds or types[x] in holds), fitting[0] if fitting else None)
            if pick is None:  # nothing fits (a field changed since the setup): any piece, its fields set
                pick = next((x for x in pool if x not in taken), None)
            if pick is not None:
                taken.add(pick)
                out[z][i] = pick
        # Zone by zone, the most particular first: the first pieces of the shuffled pool it can hold, then
        # any, as many as it has places left (the pool's pieces bucketed by type, in the pool's order).
        at = {x: i for i, x in enumerate(pool)}
        by_type: dict = {}
        for x in pool:
            if x not in taken:
                by_type.setdefault(types[x], []).append(x)
        for z, _, holds in self.zones:
            slots = out[z]
            n = slots.count(None)
            if not n:
                continue
            take: list = []
            if holds:
                fitting = [by_type[t] for t in holds if t in by_type]
                candidates = fitting[0] if len(fitting) == 1 else sorted(chain.from_iterable(fitting),
                                                                         key=at.__getitem__)
                for x in candidates:
                    if x not in taken:
                        take.append(x)
                        if len(take) == n:
                            break
            if len(take) < n:  # nothing learned fits: any unseen piece
                chosen = set(take)
                for x in pool:
                    if x not in taken and x not in chosen:
                        take.append(x)
                        if len(take) == n:
                            break
            taken.update(take)
            dealt = iter(take)
            out[z] = [next(dealt) if x is None else x for x in slots]
        return out

    def _fits(self, x, facts) -> bool:
        return all(told_facts.fits(fact, self._value(x, name)) for name, fact in facts.items())

    def _value(self, x, name):
        types = self.piece_data["types"]
        if name == "type":
            return types[x]
        col = self.piece_data["fields"].get(name)
        if col is not None:
            return col[x]
        return self.game.world.props.get(name, {}).get(types[x])

    def sample(self, r: random.Random):
        """A full state consistent with the view: hidden pieces dealt, hidden vars filled, a fresh
        random generator (drawn from `r`)."""
        if self.template is None:
            return self.game.from_view(self.view, r)
        s = self.template.copy(self.game.layout)
        faces = None
        for z, pieces in self._deal(r).items():
            s.zones[z] = pieces
            for x in pieces:
                s.loc[x] = z
            if z in self.face_down:  # the pieces dealt where the seat sees a face-down one stay face down
                faces = faces if faces is not None else {}
                for i in self.face_down[z]:
                    faces[pieces[i]] = ["down", []]
        if faces is not None:
            s.faces = faces
        if self.facts:
            self._told(s)
        for holders, left in self.shares:
            counts = [0] * len(holders)
            for _ in range(left):
                counts[r.randrange(len(holders))] += 1
            for (scope, pl, slot), n in zip(holders, counts):
                _set(s, scope, pl, slot, n)
        s.rng = game_rng.seed_state(r.getrandbits(62))
        return s


    def _told(self, s) -> None:
        """The sampled state's seat knows what the view says it knows, of the pieces dealt to those places
        (and a positive fact of a field holds in the sample, whatever the piece's setup value)."""
        viewer, lay = self.view["viewer"], self.game.layout
        told = {}
        for (z, i), facts in self.facts.items():
            if i >= len(s.zones[z]):
                continue
            x = s.zones[z][i]
            for name, fact in facts.items():
                col = lay.fields.get(name)
                if col is not None and told_facts.IS in fact and s.fields[col][x] != fact[told_facts.IS]:
                    s.fields[col][x] = fact[told_facts.IS]
            told[x] = {viewer: {name: dict(fact) for name, fact in facts.items()}}
        s.told = told


def sample_state(game, view: dict, r: random.Random):
    """One state consistent with `view` (a Determinizer used once)."""
    return Determinizer.of(game, view).sample(r)


VIEW_ONLY = ("viewer", "to_move", "known", "flow_labels")


def _unseal(game, s) -> None:
    """Other seats' sealed choices show in a view only as having been made: in a sampled state they are
    still to make (the search chooses them again), never a mark the rules cannot play."""
    from ..engine.simultaneous import CHOSEN, SIMUL
    for fr in s.flow:
        if game.nodes[fr[0]].kind == SIMUL and fr[5] is not None:
            fr[5] = [None if c == CHOSEN else c for c in fr[5]]


def _set(s, scope, pl, slot, value):
    if scope == "global":
        s.g[slot] = value
    else:
        s.p[pl][slot] = value


def _plain(v):
    return dict(v) if isinstance(v, dict) else v


def _without_hidden_marks(view: dict) -> dict:
    """A copy of the view's data that can be changed (the view itself is left alone)."""
    return {
        **view,
        "vars": dict(view["vars"]),
        "player_vars": [dict(row) for row in view["player_vars"]],
        "zones": dict(view["zones"]),
        "player_zones": [dict(row) for row in view["player_zones"]],
    }
