"""How a value model judges a position: what a seat plays for (`Objective`, from the definition's outcome
rules) and the heads of a model computed without building feature rows (`Evaluator`, what
`ValueModel.bind` returns): per zone name and piece type the weight a piece adds is summed once, so a
position costs about one look-up per piece, and the result equals the dot product of the weights with the
seat's `features.FeatureSpace` row (a test checks it on every shipped game).
"""
from __future__ import annotations

import copy

from ..engine.facing import piece_seen
from ..engine.visibility import sees
from .features import FeatureSpace, phases, zone_sight
from .zoneweights import NONE, SEAT_BLOCKS, TableZone, ZoneWeights, kept, table_sums, zone_sums

CACHED_ZONE_SIZE = 8      # a zone of this many pieces or more has its type sums kept per list of pieces
CACHED_ZONES_KEPT = 4096  # lists kept at most (per list of piece types), then forgotten


class Objective:
    """What a seat plays for, from the definition's outcome rules:

    - compete (the default): its score against the best other score, in the score order (with an
      evaluator's `win`, its worth: the score and its chance to win weighed in);
    - teams (`scoring.teams`): its team's total against the best other team's;
    - cooperate (every end trigger that decides gives a shared result, or one player alone): the shared
      result first — a loss for all is worse than any score — then the score.
    """

    def __init__(self, game):
        self.sign = -1 if getattr(game, "score_order", "high") == "low" else 1
        outcomes = getattr(game, "outcomes", None)
        rules = list(getattr(outcomes, "by_trigger", {}).values())
        self.cooperative = bool(rules) and all(r[0] == "shared" for r in rules)
        self.team = getattr(outcomes, "team", None)
        self.game = game

    def mode(self, players: int) -> str:
        if self.cooperative or players == 1:
            return "cooperate"
        return "teams" if self.team is not None else "compete"

    def utilities(self, s, scores: list[float], results: list[float] | None, scale: float) -> list[float]:
        """Each player's utility given the predicted final scores (and results)."""
        n = s.n
        sign = self.sign
        keyed = [sign * v for v in scores]
        mode = self.mode(n)
        if mode == "cooperate":
            weight = 10.0 * max(scale, 1.0)
            return [keyed[p] + (weight * results[p] if results is not None else 0.0) for p in range(n)]
        if mode == "teams":
            f, k = self.team
            teams = [f(s, [pl, None] + [None] * (k - 2)) for pl in range(n)]
            totals: dict = {}
            for pl, tm in enumerate(teams):
                totals[tm] = totals.get(tm, 0.0) + keyed[pl]
            out = []
            for pl in range(n):
                mine = totals[teams[pl]]
                best = max((v for tm, v in totals.items() if tm != teams[pl]), default=0.0)
                out.append(mine - best)
            return out
        out = []
        for p in range(n):
            best = max((keyed[o] for o in range(n) if o != p), default=0.0)
            out.append(keyed[p] - best)
        return out


WORTH = "worth"  # the head `aiming` adds: the score head plus `win` × the model's scale × the result head


class Evaluator:
    """A model bound to a game: each head computed for every seat at once (see the module doc). `win`:
    the weight of the result head in a seat's utility where seats compete (see `utilities`; `aiming`)."""

    win = 0.0

    def __init__(self, game, model):
        self.game, self.model = game, model
        fs = self.space = FeatureSpace.of(game)
        self.objective = Objective(game)
        self.unknown = {}
        self.dense = {}
        for h, w in model.heads.items():
            dense = [0.0] * len(fs.names)
            missing = 0
            for name, v in w.items():
                i = fs.index.get(name)
                if i is None:
                    missing += 1
                else:
                    dense[i] = v
            self.dense[h] = dense
            self.unknown[h] = missing
        self.compiled = {h: self._compile(d) for h, d in self.dense.items()}
        self._aimed: dict = {self.win: self}  # win -> this evaluator aiming so (`aiming`), made once per weight
        # Per head, a large zone's weights by piece type and field summed once per list of pieces and their
        # field values (see _seat, _table): kept while the pieces' types are the same list (a sampled state
        # shares its decision's list).
        self._memo_types, self._memo = None, {}

    def _compile(self, w):
        """The weights of one head arranged for `head`: zones, vars, scores and the table's parts."""
        fs, lay, off = self.space, self.space.layout, self.space.offsets
        vis = fs.world.zone_visibility
        zones = []
        for name, shape in fs.pzone_shapes.items():
            key = ("player", name)
            zw = ZoneWeights(shape, w, off, lay.pzones[name], zone_sight(fs.world, key, 0, 0),
                              zone_sight(fs.world, key, 0, 1))
            if zw.used:
                zones.append(zw)
        own_hidden = fs_hidden_slots(fs, 0, 0)
        other_hidden = fs_hidden_slots(fs, 0, 1)
        pvars = []
        for slot, key, i in fs.pvar_feats:
            ws = tuple(0.0 if slot in (other_hidden if b == "others" else own_hidden) else w[off[b] + i]
                       for b in SEAT_BLOCKS)
            if any(ws):
                pvars.append((slot, key, ws))
        refs = []  # player piece vars: (slot, weights, visible to the holder, visible to the others)
        for name, slot, shape in fs.pvar_pieces:
            mode = fs.private.get(name)
            zw = ZoneWeights(shape, w, off, None, None, None)
            if zw.used:
                refs.append((slot, zw, sees(mode, 0, 0), sees(mode, 0, 1)))
        who = []  # player player vars: (slot, set weights, self weights)
        for name, slot, i_set, i_self in fs.pvar_players:
            mode = fs.private.get(name)
            ok = [sees(mode, 0, 1) if b == "others" else sees(mode, 0, 0) for b in SEAT_BLOCKS]
            ws = tuple(w[off[b] + i_set] if k else 0.0 for b, k in zip(SEAT_BLOCKS, ok))
            wm = tuple(w[off[b] + i_self] if k else 0.0 for b, k in zip(SEAT_BLOCKS, ok))
            if any(ws) or any(wm):
                who.append((slot, ws, wm))
        use = [fs.scores_public if b == "others" else fs.own_scores_public for b in SEAT_BLOCKS]
        items = {iid: tuple(w[off[b] + i] if u else 0.0 for b, u in zip(SEAT_BLOCKS, use))
                 for iid, i in fs.item_index.items()}
        total = tuple(w[off[b] + fs.total_index] if u else 0.0 for b, u in zip(SEAT_BLOCKS, use))
        T = off["table"]
        secret = fs_secret_slots(fs)
        gvars = [(slot, key, w[T + i]) for slot, key, i in fs.gvar_feats if w[T + i] and slot not in secret]
        gzones = [TableZone(shape, w, T, lay.gzones[name], zone_sight(fs.world, ("global", name), None, 0))
                  for name, shape in fs.gzone_shapes.items()]
        gzones = [z for z in gzones if z.size or z.by_type is not None or z.fields]
        steps = {sid: w[T + i] for sid, i in fs.step_index.items() if w[T + i]}
        repeats = {node: w[T + i] for node, i in fs.repeat_index.items() if w[T + i]}
        triggers = {t: w[T + i] for t, i in fs.trigger_index.items() if w[T + i]}
        turns = [w[T + fs.turn_base + k] for k in range(fs.max_seats)]
        gpieces = []  # global piece vars: (slot, weights)
        for name, slot, shape in fs.gvar_pieces:
            if sees(fs.secret.get(name), None, 0):
                tz = TableZone(shape, w, T, None, None)
                if tz.size or tz.by_type is not None or tz.fields:
                    gpieces.append((slot, tz))
        gwho = [(slot, w[T + i_set], w[T + i_me]) for name, slot, i_set, i_me in fs.gvar_players
                if sees(fs.secret.get(name), None, 0) and (w[T + i_set] or w[T + i_me])]
        gmine = []  # a global player var naming the seat: (slot, [(number slot, weight)], [(piece slot, weights)])
        for name, slot, nums, shapes in fs.gvar_mine:
            if not sees(fs.secret.get(name), None, 0):
                continue
            ns = [(xslot, w[T + i]) for xname, xslot, i in nums if w[T + i] and sees(fs.secret.get(xname), None, 0)]
            ps = []
            for pname, pslot, shape in shapes:
                tz = TableZone(shape, w, T, None, None)
                if sees(fs.secret.get(pname), None, 0) and (tz.size or tz.by_type is not None or tz.fields):
                    ps.append((pslot, tz))
            if ns or ps:
                gmine.append((slot, ns, ps))
        return {"zones": zones, "pvars": pvars, "refs": refs, "who": who, "gpieces": gpieces, "gwho": gwho,
                "gmine": gmine,
                "items": items, "total": total, "gvars": gvars, "gzones": gzones,
                "steps": steps, "repeats": repeats, "triggers": triggers, "turns": turns,
                "turn_none": w[T + fs.turn_none], "bias": w[T + fs.bias], "remaining": w[T + fs.remaining_index],
                "dense": w}

    def length(self, players: int) -> float:
        m = self.model.length
        if players in m:
            return m[players]
        return sum(m.values()) / len(m) if m else 1.0

    def remaining(self, s) -> float:
        return max(0.0, 1.0 - s.decisions / max(1.0, self.length(s.n)))

    def head(self, s, name: str = "score", scores=None) -> list[float]:
        """Each player's prediction by head `name` (see the module doc)."""
        c = self.compiled.get(name)
        if c is None:
            return [0.0] * s.n
        game, fs = self.game, self.space
        if scores is None:
            scores = game.score_breakdown(s)
        r = self.remaining(s)
        if s.faces:  # a piece shown to some seats only: the exact rows (rare)
            w = c["dense"]
            return [sum(w[i] * v for i, v in fs.extract(s, p, r, scores).items()) for p in range(s.n)]
        seats = len(s.p)
        fe, fm, fl = phases(r)
        own, seen = [], []
        for p in range(seats):
            e, m, l, others = self._seat(s, p, c, scores)
            own.append(e * fe + m * fm + l * fl)
            seen.append(others)
        total_others = sum(seen)
        table = self._table(s, c) + c["remaining"] * r
        who = game.current_player(s) if s.flow else None
        turns, last = c["turns"], fs.max_seats - 1
        out = []
        for p in range(s.n):
            others = (total_others - seen[p]) / (seats - 1) if seats > 1 else 0.0
            turn = c["turn_none"] if who is None else turns[min((who - p) % seats, last)]
            mine = self._table_seat(s, c, p) if c["gwho"] or c["gpieces"] or c["gmine"] else 0.0
            out.append(own[p] + others + table + turn + mine)
        return out

    def _seat(self, s, pl, c, scores):
        """(early, middle, late, others): seat `pl`'s quantities weighed by the four blocks (the first three
        as the seat sees itself, `others` as the other seats see it)."""
        e = m = l = o = 0.0
        row = s.p[pl]
        for slot, key, (a, b, d, x) in c["pvars"]:
            v = row[slot] if key is None else row[slot].get(key, 0)
            if v:
                e += a * v
                m += b * v
                l += d * v
                o += x * v
        for slot, ws, wm in c["who"]:
            q = row[slot]
            if q is not None:
                a, b, d, x = ws
                e, m, l, o = e + a, m + b, l + d, o + x
                if q == pl:
                    a, b, d, x = wm
                    e, m, l, o = e + a, m + b, l + d, o + x
        for slot, zw, own_ok, other_ok in c["refs"]:
            x = row[slot]
            if x is not None:
                a, b, d, y = self._reference(s, x, zw, pl, own_ok, other_ok)
                e, m, l, o = e + a, m + b, l + d, o + y
        lay = self.space.layout
        zbase = lay.G + pl * lay.PZ
        zones, types, ti, fields = s.zones, s.types, self.space.type_index, s.fields
        memo = self._sums_memo(types, c)
        for zw in c["zones"]:
            pieces = zones[zbase + zw.offset]
            if not pieces:
                continue
            n = len(pieces)
            a, b, d, x = zw.size
            e += a * n
            m += b * n
            l += d * n
            o += x * n
            own_seen, other_seen = zw.own_seen, zw.other_seen
            if own_seen is False and other_seen is False:
                continue
            if own_seen is not True and own_seen is not False:  # a `top` pile: its top N, for everyone
                pieces = pieces[:own_seen]
                own_seen = other_seen = True
            if zw.by_type is None and not zw.fields:
                continue
            if n < CACHED_ZONE_SIZE:
                a, b, d, x = zone_sums(pieces, zw, ti, types, fields, own_seen, other_seen)
            else:  # a board of spaces: the same pieces (and field values), decision after decision
                a, b, d, x = kept(memo, (zw.offset, own_seen, other_seen), pieces, zw.fields, fields,
                                   zone_sums, pieces, zw, ti, types, fields, own_seen, other_seen)
            e, m, l, o = e + a, m + b, l + d, o + x
        if pl < len(scores):
            t = 0
            items = c["items"]
            for iid, v in scores[pl].items():
                if v:
                    a, b, d, x = items[iid]
                    e += a * v
                    m += b * v
                    l += d * v
                    o += x * v
                    t += v
            if t:
                a, b, d, x = c["total"]
                e += a * t
                m += b * t
                l += d * t
                o += x * t
        return e, m, l, o

    def _sums_memo(self, types, c) -> dict:
        """Head `c`'s large zones' sums, by their pieces and field values (kept while the pieces' types
        are the same list, at most CACHED_ZONES_KEPT of them)."""
        if types is not self._memo_types:
            self._memo_types, self._memo = types, {}
        memo = self._memo.get(id(c))
        if memo is None or len(memo) > CACHED_ZONES_KEPT:
            memo = self._memo[id(c)] = {}
        return memo

    def _reference(self, s, x, zw, pl, own_ok, other_ok):
        """(early, middle, late, others) of the piece x a player var of seat `pl` holds."""
        game, ti = self.game, self.space.type_index
        own = own_ok and piece_seen(game, s, x, pl)
        other = other_ok and piece_seen(game, s, x, _another(pl, len(s.p)))
        a, b, d, y = zw.size
        e, m, l = (a, b, d) if own_ok else (0.0, 0.0, 0.0)
        o = y if other_ok else 0.0
        t = ti[s.types[x]]
        if zw.by_type is not None:
            a, b, d, y = zw.by_type[t]
            if own:
                e, m, l = e + a, m + b, l + d
            if other:
                o += y
        for col, kind, weights in zw.fields:
            v = s.fields[col][x]
            if v is None or v is False:
                continue
            if kind == "text":
                a, b, d, y = weights.get(v, NONE) if type(v) is str else NONE
                v = 1
            else:
                v = v if kind == "int" else sum(v.values()) if kind == "map" else 1
                a, b, d, y = weights[t]
            if own:
                e, m, l = e + a * v, m + b * v, l + d * v
            if other:
                o += y * v
        return e, m, l, o

    def _table_seat(self, s, c, seat) -> float:
        """What of the table's value depends on the seat that sees it: a player var naming it, a piece
        var's piece it may or may not see."""
        total = 0.0
        g = s.g
        for slot, w_set, w_me in c["gwho"]:
            q = g[slot]
            if q is not None:
                total += w_set + (w_me if q == seat else 0.0)
        for slot, tz in c["gpieces"]:
            x = g[slot]
            if x is not None:
                total += self._table_piece(s, x, tz, seat)
        for slot, nums, pieces in c["gmine"]:
            if g[slot] != seat:
                continue
            for xslot, wi in nums:
                v = g[xslot]
                if v:
                    total += wi * v
            for pslot, tz in pieces:
                x = g[pslot]
                if x is not None:
                    total += self._table_piece(s, x, tz, seat)
        return total

    def _table_piece(self, s, x, tz, seat) -> float:
        """What the piece x of a global piece var adds, as `seat` sees it."""
        total = tz.size
        if not piece_seen(self.game, s, x, seat):
            return total
        t = self.space.type_index[s.types[x]]
        if tz.by_type is not None:
            total += tz.by_type[t]
        for col, kind, weights in tz.fields:
            v = s.fields[col][x]
            if v is None or v is False:
                continue
            if kind == "text":
                total += weights.get(v, 0.0) if type(v) is str else 0.0
                continue
            total += weights[t] * (v if kind == "int" else sum(v.values()) if kind == "map" else 1)
        return total

    def _table(self, s, c) -> float:
        total = c["bias"]
        g = s.g
        for slot, key, wi in c["gvars"]:
            v = g[slot] if key is None else g[slot].get(key, 0)
            if v:
                total += wi * v
        zones, types, ti, fields = s.zones, s.types, self.space.type_index, s.fields
        memo = None
        for tz in c["gzones"]:
            pieces = zones[tz.zone]
            if not pieces:
                continue
            total += tz.size * len(pieces)
            if tz.seen is False:
                continue
            if tz.seen is not True:  # a `top` pile
                pieces = pieces[:tz.seen]
            if tz.by_type is None and not tz.fields:
                continue
            if len(pieces) < CACHED_ZONE_SIZE:
                total += table_sums(pieces, tz, ti, types, fields)
                continue
            if memo is None:
                memo = self._sums_memo(types, c)
            total += kept(memo, (-1 - tz.zone,), pieces, tz.fields, fields,  # (apart from the seats' zones)
                           table_sums, pieces, tz, ti, types, fields)
        if s.flow:
            nodes = self.game.nodes
            step = nodes[s.flow[-1][0]].step
            if step is not None:
                total += c["steps"].get(step.id, 0.0)
            repeats = c["repeats"]
            if repeats:
                for fr in s.flow:
                    wi = repeats.get(fr[0])
                    if wi and fr[3]:
                        total += wi * fr[3]
        if s.ends:
            triggers = c["triggers"]
            for t in s.ends:
                total += triggers.get(t, 0.0)
        return total

    def scores(self, s) -> list[float]:
        return self.head(s, "score")

    def aiming(self, win: float) -> "Evaluator":
        """This evaluator with the result head weighed by `win` where seats compete: a shallow copy (the
        same compiled heads) with one more, the seat's worth (`WORTH`), compiled once per weight (its
        copies share what they made: every bot of a game asks for the same one)."""
        other = self._aimed.get(win)
        if other is not None:
            return other
        other = self._aimed[win] = copy.copy(self)
        other.win = win
        other.compiled = dict(self.compiled)
        other.compiled.pop(WORTH, None)
        if win and "result" in self.dense:
            k = self.objective.sign * win * self.model.scale  # (where the lowest score wins, a win lowers it)
            other.compiled[WORTH] = self._compile([a + k * b for a, b in zip(self.dense["score"],
                                                                              self.dense["result"])])
        return other

    def utilities(self, s, scores=None) -> list[float]:
        """Each player's utility of `s`: the objective applied to the predicted scores and results, or to
        the game's outcome once it is over (a last move is judged by what it ends with, not a prediction).
        Where seats compete and `win` is set, a seat's worth is its predicted score plus `win` × the model's
        score scale × its chance to win (the result head: 1 a win, 0 a loss; one head, `WORTH`, whose
        weights are the two heads' so summed), and its utility its worth against the best other seat's:
        it plays to come out ahead, not only to widen its margin (ending a game it leads, taking what
        breaks a tie). At the end, the outcome's scores and shares are weighed the same way."""
        worth = WORTH in self.compiled and self.objective.mode(s.n) == "compete"
        if self.game.is_over(s):
            out = self.game.outcome(s)
            results = [result_share(out, p) for p in range(s.n)]
            scores = [float(v) for v in out["scores"]]
            if worth:
                k = self.objective.sign * self.win * self.model.scale
                scores = [v + k * r for v, r in zip(scores, results)]
            return self.objective.utilities(s, scores, results if self.objective.mode(s.n) == "cooperate" else None,
                                            self.model.scale)
        if scores is None:
            scores = self.game.score_breakdown(s)
        predicted = self.head(s, WORTH if worth else "score", scores)
        results = (self.head(s, "result", scores) if "result" in self.compiled
                   and self.objective.mode(s.n) == "cooperate" else None)
        return self.objective.utilities(s, predicted, results, self.model.scale)

    def utility(self, s, seat: int) -> float:
        return self.utilities(s)[seat]


def result_share(outcome: dict, seat: int) -> float:
    """A seat's result in 0..1: 1 for a win everyone shares (a cooperative game won), a tie's share
    otherwise, 0 for a loss."""
    winners = outcome["winners"]
    if seat not in winners:
        return 0.0
    return 1.0 if outcome.get("shared") == "win" else 1.0 / len(winners)


def _another(seat: int, seats: int) -> int:
    """A seat other than `seat` (what any other seat sees of it: visibility modes treat all others alike)."""
    return (seat + 1) % seats if seats > 1 else seat


def fs_hidden_slots(fs, pl, viewer) -> frozenset:
    """The player-var slots of seat `pl` that `viewer` may not see."""
    key = (pl == viewer,)
    cache = fs.__dict__.setdefault("_hidden_slots", {})
    if key not in cache:
        cache[key] = frozenset(fs.layout.pvars[name] for name, mode in fs.private.items()
                               if not sees(mode, 0 if pl == viewer else 1, 0))
    return cache[key]


def fs_secret_slots(fs) -> frozenset:
    """The global-var slots no seat may see."""
    cache = fs.__dict__.get("_secret_slots")
    if cache is None:
        cache = fs.__dict__["_secret_slots"] = frozenset(fs.layout.gvars[name] for name, mode in fs.secret.items()
                                                         if not sees(mode, None, 0))
    return cache
