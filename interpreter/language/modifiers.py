"""Parameters and what changes them: defaults, the modifiers of a player's active pieces (and of the pieces
those copy), adjustments by the state; activity (`active`), and finding a player's piece of a type. A mixin
of `world.World`: compiled at load, called by the rules in play."""

from __future__ import annotations

from .codegen import _value_type
from .compiler import CompileError, Scope, Unit
from ..definition.problems import did_you_mean


# Keys of what a menu computes once (s.pcache): private objects, so no name of a game can collide with them.
_MODIFIERS, _BY_TYPE = object(), object()


class Modifiers:
    """Part of `World` (see the module doc)."""

    def _params(self):
        self.params = {}
        self.param_mods = {}
        self.modifying_types = None  # the types that modify some parameter (known once param_mods is)
        self._modifier_ids = None  # (a list of piece types, the pieces of a modifying type in it)
        self._type_pieces = None  # (a list of piece types, type -> the pieces of that type in it)
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

    def param_fn(self, name, pf, slot=None):
        """f(s, e): parameter `name` of the player pf gives. With `slot` (the player is e[slot]), f is what
        the compiler calls after its own look-up in the menu's memo missed (see names.py): it does not
        look again."""
        default = self.params[name]
        mods = self.param_mods[name]
        from .parameters import compile_adjust
        adjust = compile_adjust(self, name, self.__dict__.setdefault("_adjusting", set()))
        if adjust is None:
            raise CompileError(f"parameter {name}: an adjustment's condition reads {name} itself", None)
        active = self.type_active
        fired = self.mod_fired
        copy_col = self.copy_col
        if not copy_col and (len(mods) == 1 or all(m[0] == "add" for m in mods.values())):
            # The modifiers of this parameter alone, in any order (one type, or additions only): each
            # modifying type's pieces that lie in the player's zones, not every modifying piece in zone order.
            return self._cached_param(name, pf, self._param_by_type(name, default, mods), adjust, slot)

        def compute(s, pl, cache):
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
            return v
        return self._cached_param(name, pf, compute, adjust, slot)

    @staticmethod
    def _cached_param(name, pf, compute, adjust, slot=None):
        """f(s, e): parameter `name` of the player pf gives, `compute(s, pl, menu memo)` then its
        adjustments; within a menu computed once per player (see param_fn for `slot`)."""
        from .parameters import adjusted

        # (missed and f each compute, adjust and keep the value themselves: a shared helper costs a call
        # per miss, 0.6% of Burgundy's instructions)
        if slot is not None:
            def missed(s, e):
                pl = e[slot]
                cache = s.pcache
                v = compute(s, pl, cache)
                if adjust:
                    v = adjusted(name, adjust, s, pl, v)
                if cache is not None:
                    cache[(name, pl)] = v
                return v
            return missed

        def f(s, e):
            pl = pf(s, e)
            cache = s.pcache
            if cache is not None:
                v = cache.get((name, pl))
                if v is not None:
                    return v
            v = compute(s, pl, cache)
            if adjust:
                v = adjusted(name, adjust, s, pl, v)
            if cache is not None:
                cache[(name, pl)] = v
            return v
        return f

    def _param_by_type(self, name, default, mods):
        """compute(s, pl, memo) for a parameter whose modifiers apply in any order and no piece copies
        another's."""
        active, fired, layout = self.type_active, self.mod_fired, self.layout
        G, PZ = layout.G, layout.PZ
        order = [(t, m[0] == "add", m[1], (t, name)) for t, m in mods.items()]
        known = [None, ()]  # (a list of piece types, its modifying pieces: (piece, add, value, key, active))

        def modifying(types):
            pieces = self._pieces_of_type(types)
            known[1] = tuple((x, add, m, key, active.get(t)) for t, add, m, key in order for x in pieces.get(t, ()))
            known[0] = types
            return known[1]

        def compute(s, pl, cache):
            v = default
            base = G + pl * PZ  # (a player that is none fails here, as in the general case)
            types = s.types
            found = known[1] if known[0] is types else modifying(types)
            if found:
                loc = s.loc
                top = base + PZ
                for x, add, m, key, act in found:
                    z = loc[x]
                    if z is not None and base <= z < top and (act is None or act(s, [None, None, x])):
                        v = v + m if add else m
                        fired[key] = fired.get(key, 0) + 1
            return v
        return compute

    def _pieces_of_type(self, types) -> dict:
        """type -> the pieces of that type, for a list of piece types (kept while the list is the same:
        `become` replaces the list, never changes it)."""
        known = self._type_pieces
        if known is not None and known[0] is not types and known[0] == types:
            # the same types in another list (a state sampled from a view, beside the game's own): kept
            known = self._type_pieces = (types, known[1])
        if known is None or known[0] is not types:
            by_type: dict = {}
            for x, tn in enumerate(types):
                by_type.setdefault(tn, []).append(x)
            known = self._type_pieces = (types, by_type)
        return known[1]

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
        if known is not None and known[0] is not types and known[0] == types:  # (as in _pieces_of_type)
            known = self._modifier_ids = (types, known[1])
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
            for x in self._menu_pieces_by_type(s, pl, memo).get(tname, ()):
                if act is None or act(s, [None, None, x]):
                    if need_active:
                        self.active_fired[tname] = self.active_fired.get(tname, 0) + 1
                    return x
            return None
        # The pieces of that type (found once per list of piece types) are usually far fewer than the
        # pieces in the player's zones: those are checked, then put in zone order.
        base = self.layout.G + pl * self.layout.PZ
        top = base + self.layout.PZ
        loc = s.loc
        of_type = self._pieces_of_type(s.types).get(tname, ())
        if len(of_type) == 1:  # (the common case: one piece of the type in the game)
            z = loc[of_type[0]]
            mine = of_type if z is not None and base <= z < top else ()
        else:
            mine = [x for x in of_type if loc[x] is not None and base <= loc[x] < top]
        if len(mine) > 1:
            zones = s.zones
            mine.sort(key=lambda x: (loc[x], zones[loc[x]].index(x)))
        for x in mine:
            if act is None or act(s, [None, None, x]):
                if need_active:
                    self.active_fired[tname] = self.active_fired.get(tname, 0) + 1
                return x
        return None

    def owns(self, s, pl, tname) -> bool:
        """Whether player pl has a piece of type tname (`find(s, pl, tname, False) is not None`)."""
        memo = s.pcache
        if memo is None or pl is None:
            return self.find(s, pl, tname, False) is not None
        return tname in self._menu_pieces_by_type(s, pl, memo)

    def _menu_pieces_by_type(self, s, pl, memo) -> dict:
        """_pieces_by_type, found once per menu (`memo`: s.pcache)."""
        by_type = memo.get((_BY_TYPE, pl))
        if by_type is None:
            by_type = memo[(_BY_TYPE, pl)] = self._pieces_by_type(s, pl)
        return by_type

    def _pieces_by_type(self, s, pl) -> dict:
        G, PZ = self.layout.G, self.layout.PZ
        types = s.types
        out: dict = {}
        for z in range(G + pl * PZ, G + (pl + 1) * PZ):
            for x in s.zones[z]:
                out.setdefault(types[x], []).append(x)
        return out
