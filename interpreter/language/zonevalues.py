"""Zones as values: zone families indexed by a kind, zones held by pieces (stacks), zone-valued vars.

- A **zone family** is a zone entry with `per: KIND` (global or player): one zone per value of the kind,
  named `NAME[VALUE]` in states and views and read in rules as `NAME[k]` (`player.NAME[k]`), where `k` is
  any expression giving a value of the kind (a discard pile per suit: `move(c, discard[c.suit])`).
- A **piece zone** is declared under `zones: piece:` with `of: CLASS` (or a list of classes): every piece of
  those classes holds one such zone, read as `x.NAME` (a stack on a disc, the pieces on a board space). The
  zones are global zones of the layout, `NAME#R` for the R-th holding piece, so views, saves, bots and the
  leak checks treat them as any global zone. `carry: true` (the default): the held pieces go wherever their
  holder goes (they stay in its zone); `carry: false`: when the holder moves, what it held is left where
  the holder was, in its place. A piece can never hold itself, directly or through what holds it.
- A var or a procedure parameter of type `zone` holds a zone (its index in the state).

Rules read families and piece zones through the compiler; the primitives here find a piece's zone and a
zone's holder at run time.
"""

from __future__ import annotations

from .compiler import RuleError
from ..definition.problems import did_you_mean

PIECE_ZONE_MODES = ("public", "hidden")


def family_zone_name(name: str, value) -> str:
    return f"{name}[{value}]"


def declared_zones(w, scope: str) -> tuple[dict, dict]:
    """The zone entries of `scope` with every family expanded (name -> entry), and the families
    {name: (kind, first expanded name)}."""
    out, families = {}, {}
    for name, z in ((w.d["zones"].get(scope) or {}).items()):
        z = z if isinstance(z, dict) else {}
        kind = z.get("per")
        if kind is None:
            out[name] = z
            continue
        if kind not in w.kinds:
            w.error(f"unknown kind '{kind}'", ("zones", scope, name, "per"), did_you_mean(str(kind), w.kinds))
            out[name] = z
            continue
        entry = {k: v for k, v in z.items() if k != "per"}
        families[name] = (kind, family_zone_name(name, w.kinds[kind][0]) if w.kinds[kind] else None)
        for v in w.kinds[kind]:
            out[family_zone_name(name, v)] = dict(entry, label=_value_label(w, z, name, v))
    return out, families


def _value_label(w, z, name, value):
    lab = z.get("label")
    base = ({"en": lab, "zh": lab} if isinstance(lab, str) else dict(lab) if isinstance(lab, dict)
            else {"en": name.replace("_", " "), "zh": name})
    vl = w.kind_labels.get(str(value), {"en": str(value), "zh": str(value)})
    return {"en": f"{base.get('en', name)} ({vl['en']})", "zh": f"{base.get('zh', name)}（{vl['zh']}）"}


def piece_zone_entries(w) -> dict:
    """The zones held by pieces, expanded into global zone entries (name#rank -> entry); sets
    `w.piece_zones` {name: (classes, carry, first expanded name, how many)}."""
    w.piece_zones = {}
    out = {}
    for name, z in ((w.d["zones"].get("piece") or {}).items()):
        z = z if isinstance(z, dict) else {}
        path = ("zones", "piece", name)
        of = z.get("of")
        classes = [of] if isinstance(of, str) else list(of or [])
        bad = [c for c in classes if c not in w.classes]
        if not classes or bad:
            w.error(f"a piece zone names the classes of the pieces that hold it: of: CLASS"
                    + (f" (unknown class '{bad[0]}')" if bad else ""), path + ("of",),
                    did_you_mean(str(bad[0]), w.classes) if bad else None)
            continue
        if name in w.fields or name in w.props or name in ("type", "class"):
            w.error(f"piece zone '{name}' has the name of a piece field or property: x.{name} would mean both",
                    path)
            continue
        most = max((_holders(w, classes, n) for n in w.player_counts), default=0)
        entry = {k: v for k, v in z.items() if k not in ("of", "carry")}
        first = f"{name}#0"
        for r in range(most):
            out[f"{name}#{r}"] = entry
        w.piece_zones[name] = (frozenset(classes), bool(z.get("carry", True)), first, most)
    return out


def _holders(w, classes, n: int) -> int:
    """How many pieces of these classes a game of n players has (a player zone's class: n copies)."""
    total = 0
    for tname, cname in w.types.items():
        if cname not in classes:
            continue
        tdef = w.type_entries[tname]
        count = w.count_value(tdef.get("count", 1), ("components", cname, "types", tname, "count"))(n)
        start = tdef.get("zone", w.classes[cname].get("zone"))
        total += count * (n if start in (w.d["zones"].get("player") or {}) else 1)
    return total


class PieceZones:
    """The run-time side of piece zones: which zone a piece holds, which piece holds a zone."""

    def __init__(self, w):
        self.w = w
        self.zones = {name: (classes, carry, w.layout.gzones.get(first), most)
                      for name, (classes, carry, first, most) in w.piece_zones.items()}
        self._ranks: dict = {}  # (name, players, pieces) -> (rank of each piece or None, holder of each rank)
        spans = [(base, base + most, name) for name, (c, k, base, most) in self.zones.items() if base is not None]
        self.spans = sorted(spans)
        self.lo = min((a for a, b, n in spans), default=None)
        self.hi = max((b for a, b, n in spans), default=None)
        # the types whose pieces leave what they hold behind when they move (carry: false)
        self.droppers = {t: [n for n, (classes, carry, b, m) in self.zones.items() if c in classes and not carry]
                         for t, c in w.types.items()}
        self.droppers = {t: names for t, names in self.droppers.items() if names}

    def ranks(self, s, name):
        key = (name, s.n, len(s.types))  # the pieces' order is fixed by the player count
        hit = self._ranks.get(key)
        if hit is None:
            classes = self.zones[name][0]
            class_of = self.w.types
            rank, holders = [None] * len(s.types), []
            for x, t in enumerate(s.types):
                if class_of[t] in classes:
                    rank[x] = len(holders)
                    holders.append(x)
            hit = self._ranks[key] = (rank, holders)
        return hit

    def zone(self, s, x, name) -> int:
        """The zone named `name` that piece x holds."""
        if x is None:
            raise RuleError(f".{name}: there is no piece (none)")
        classes, carry, base, most = self.zones[name]
        r = self.ranks(s, name)[0][x]
        if r is None:
            raise RuleError(f"{s.types[x]} holds no zone '{name}' (only pieces of {', '.join(sorted(classes))} do)")
        return base + r

    def holder(self, s, z):
        """The piece that holds zone z, or None when z is not a piece zone."""
        if self.lo is None or not self.lo <= z < self.hi:
            return None
        for a, b, name in self.spans:
            if a <= z < b:
                holders = self.ranks(s, name)[1]
                return holders[z - a] if z - a < len(holders) else None
        return None

    def check_into(self, s, x, z):
        """Refuse to put x into a zone that x holds, directly or through the pieces it holds."""
        h = self.holder(s, z)
        while h is not None:
            if h == x:
                raise RuleError(f"{s.types[x]} cannot be put into a zone it holds (a piece never holds itself)")
            loc = s.loc[h]
            h = self.holder(s, loc) if loc is not None else None

    def drop(self, s, x, old, pos):
        """x (whose type leaves what it holds behind) moved out of zone `old`, where it was at `pos`: what it
        held takes its place there, in order."""
        for name in self.droppers.get(s.types[x], ()):
            z = self.zone(s, x, name)
            held = s.zones[z]
            if not held:
                continue
            s.zones[z] = []
            s.zones[old][pos:pos] = held
            for y in held:
                s.loc[y] = old
            if s.told:  # they changed zone: what seats were told of them is forgotten
                from ..engine.knowledge import forget
                forget(s, held)
