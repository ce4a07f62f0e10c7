"""The flow compiled at load: phases, steps, actions, hooks and events of a definition turned into the node
table the turn-and-phase machine runs (`flow`), with every condition, domain and effect compiled once and
each action's menu planned (`menuplan`)."""

from __future__ import annotations

from .flow import (CALL, DEFAULT_MAX, EACH, EFFECT, END, IF, REPEAT, SEQ, SIMUL, STEP, Action, Node, Step, sig_col,
                   sig_slow)
from ..language.compiler import Scope, Unit
from ..language.entries import label_of
from ..language.menuplan import hoister, invariant, nested_loop, plan, shared, single_loop
from ..table.words import Texts, say

class FlowCompiler:
    """Compiles the `flow`, `phases`, `steps` and `hooks` sections into the node table."""

    def __init__(self, world):
        self.w = world
        self.nodes: list[Node] = []
        self.phase_root: dict[str, int] = {}
        self.steps: dict[tuple, Step] = {}
        self.hooks: dict[str, list] = {}
        self.step_defs = world.d["steps"]
        self._sig_col = None  # sig_col(), made once for every action
        self._sig_slow = None  # sig_slow(), likewise

    def add(self, node: Node) -> int:
        node.id = len(self.nodes)
        self.nodes.append(node)
        return node.id

    def compile_all(self):
        w = self.w
        d = w.d
        # phases first get ids so calls can refer to them in any order
        pending = []
        for name, ph in d["phases"].items():
            holder = Node(SEQ, ("phases", name))
            holder.label = label_of(ph, name)
            holder.phase = name
            if "{" in str(holder.label):
                u = Unit(player=True)
                holder.tmpl = self.template(ph, name, u, Scope(u), ("phases", name))
                holder.nslots = u.n
            self.phase_root[name] = self.add(holder)
            pending.append((name, ph, holder))
        for name, ph, holder in pending:
            body = ph.get("flow") if isinstance(ph, dict) else None
            if body is None:
                w.error(f"phase '{name}' has no flow", ("phases", name))
                continue
            child = self.node(body, ("phases", name, "flow"), None)
            holder.children = (child,) if child is not None else ()
        root = self.node(d["flow"], ("flow",), None) if d["flow"] is not None else None
        if root is None and d["flow"] is None and d.docs:  # no file loaded: its own error says why
            w.error("the game has no flow", ("game",), "add a top-level 'flow:' section")
        self.root = root
        self.event_notes = {}
        for ev, raw in d["events"].items():
            if isinstance(raw, dict) and "label" in raw and ev in w.events:
                # an event with a label is narrated each time it is emitted
                note = Node(SEQ, ("events", ev))
                u = Unit(player=True, event=w.events[ev])
                note.tmpl = self.template(raw, ev, u, Scope(u), ("events", ev))
                note.nslots = u.n
                self.event_notes[ev] = self.add(note)
        for hid, h in d["hooks"].items():
            self.hook(hid, h)
        self.end_node = None  # where a game ends at the end of a turn or round (outcomes.place_end)
        if any(isinstance(t, dict) and t.get("at") in ("turn", "round") for t in w.end_triggers.values()):
            self.end_node = self.add(Node(END, ("end", "triggers")))
        for sid in self.step_defs:
            if not any(k[0] == sid for k in self.steps):
                self.step(sid, None, ("steps", sid))  # compile unused steps too: their mistakes matter
        return root

    # ------------------------------------------------------------ flow nodes
    def unit(self, event):
        return Unit(player=True, event=self.w.events.get(event) if event else None, effects=True)

    def expr(self, text, path, event, want=None):
        u = Unit(player=True, event=self.w.events.get(event) if event else None)
        x = self.w.compile_expr(text, path, u, want=want)
        return (x.f, u.n) if x is not None else (None, 2)

    def node(self, raw, path, event) -> int | None:
        w = self.w
        if isinstance(raw, list):
            n = Node(SEQ, path)
            kids = [self.node(c, path + (i,), event) for i, c in enumerate(raw)]
            n.children = tuple(k for k in kids if k is not None)
            return self.add(n)
        if not isinstance(raw, dict):
            w.error("a flow node is a list or a mapping (effect, step, call, if, repeat, each_player)", path)
            return None
        keys = set(raw) - {"label", "source", "provisional", "note"}
        if "effect" in keys:
            n = Node(EFFECT, path)
            u = self.unit(event)
            sc = Scope(u)
            n.fn = w.compile_stmts(raw["effect"], path + ("effect",), u, sc)
            n.label = label_of(raw, "") if "label" in raw else None
            if "label" in raw:
                # told after the effect ran; its holes may read the effect's own local names
                u.effects = False
                n.tmpl = self.template(raw, "", u, sc, path)
            n.nslots = u.n
            return self.add(n)
        if "step" in keys:
            n = Node(STEP, path)
            sid = raw["step"]
            if sid not in self.step_defs:
                from ..definition.problems import did_you_mean
                w.error(f"unknown step '{sid}'", path + ("step",), did_you_mean(sid, self.step_defs))
                return None
            n.step = self.step(sid, event, ("steps", sid))
            return self.add(n)
        if "simultaneous" in keys:
            from . import simultaneous
            n = simultaneous.compile_node(self, raw, path, event, Node(SIMUL, path))
            return self.add(n) if n is not None else None
        if "call" in keys:
            n = Node(CALL, path)
            target = raw["call"]
            if isinstance(target, str) and target in self.phase_root:
                n.extra = self.phase_root[target]
            else:
                n.cond, n.cond_n = self.expr(target, path + ("call",), event)
            return self.add(n)
        if "if" in keys:
            n = Node(IF, path)
            n.cond, n.cond_n = self.expr(raw["if"], path + ("if",), event, want="bool")
            t = self.node(raw["then"], path + ("then",), event) if "then" in raw else None
            e = self.node(raw["else"], path + ("else",), event) if "else" in raw else None
            n.children = (t, e)
            return self.add(n)
        if "repeat" in keys:
            n = Node(REPEAT, path)
            body = self.node(raw["repeat"], path + ("repeat",), event)
            n.children = (body,)
            until = self.expr(raw["until"], path + ("until",), event, "bool") if "until" in raw else (None, 2)
            whl = self.expr(raw["while"], path + ("while",), event, "bool") if "while" in raw else (None, 2)
            n.extra = (until, whl, int(raw.get("max", DEFAULT_MAX)))
            if "label" in raw:
                # A repeat's label is told at the start of every pass ("Round {round}").
                u = Unit(player=True, event=self.w.events.get(event) if event else None)
                n.label = self.template(raw, "", u, Scope(u), path)
                n.nslots = u.n
            return self.add(n)
        if "each_player" in keys:
            n = Node(EACH, path)
            body = self.node(raw["each_player"], path + ("each_player",), event)
            n.children = (body,)
            frm = self.expr(raw["from"], path + ("from",), event) if "from" in raw else (None, 2)
            order = self.expr(raw["order"], path + ("order",), event) if "order" in raw else (None, 2)
            if "order" in raw and "from" in raw:
                w.error("each_player takes from (clockwise from a player) or order (a list), not both",
                        path + ("order",))
            direction = raw.get("direction", "clockwise")
            if direction not in ("clockwise", "counterclockwise"):
                w.error(f"direction must be clockwise or counterclockwise, not '{direction}'",
                        path + ("direction",))
            mode = raw.get("until", "once")
            if mode not in ("once", "all_pass", "one_left"):
                w.error(f"each_player until must be once, all_pass or one_left, not '{mode}'", path + ("until",))
            n.extra = (frm, 1 if direction == "clockwise" else -1, mode, int(raw.get("max", DEFAULT_MAX)), order)
            return self.add(n)
        w.error("a flow node needs one of: effect, step, simultaneous, call, if, repeat, each_player", path)
        return None

    # ------------------------------------------------------------ steps and actions
    def step(self, sid, event, path) -> Step:
        key = (sid, event)
        if key in self.steps:
            return self.steps[key]
        raw = self.step_defs[sid] or {}
        st = Step()
        st.id = sid
        st.path = path
        st.loc = self._loc(path + ("if",))  # where a failing condition is reported
        st.label = label_of(raw, sid)
        st.tmpl, st.tmpl_n = None, 2
        if "{" in str(st.label):
            u = Unit(player=True, event=self.w.events.get(event) if event else None)
            st.tmpl, st.tmpl_n = self.template(raw, sid, u, Scope(u), path), u.n
        st.optional = bool(raw.get("optional", False))
        st.ask = raw.get("optional") == "always"  # pass offered alone too: whether a seat can act is not told
        self.steps[key] = st
        st.cond, st.cond_n = self.expr(raw["if"], path + ("if",), event, "bool") if "if" in raw else (None, 2)
        st.actions = []
        for aid, araw in (raw.get("actions") or {}).items():
            a = self.action(sid, aid, araw or {}, event, path + ("actions", aid))
            if a is not None:
                st.actions.append(a)
        from .stepmenu import step_menu
        st.gen = step_menu(self.w.compiler.pool, st.actions)  # the walk over the actions, written out
        st.pass_action = None
        if st.optional:
            p = Action()
            p.name, p.step, p.params, p.cond, p.effect, p.nslots = "pass", sid, [], None, None, 2
            words = self.w.d["words"] if isinstance(self.w.d["words"], dict) else {}
            p.label = Texts((lang, [(say("pass", lang), None, None)]) for lang in ("en", "zh", *words))
            p.is_pass, p.cond_text, p.path, p.sig_cols, p.piece_params = True, None, path, {}, []
            p.ptypes = ()
            p.loc = st.loc
            p.sig_maps = frozenset()
            p.sig_col = {}
            p.sig_slow = {}
            p.fired_key = ("action", sid, "pass")
            p.direct = True
            p.idfmt, p.pnames, p.plan, p.loop = "pass", (), None, None
            st.pass_action = p
        return st

    def _loc(self, path) -> str | None:
        loc = self.w.d.where(path)
        return str(loc) if loc is not None and loc.line > 0 else None

    def action(self, sid, aid, raw, event, path):
        w = self.w
        a = Action()
        a.name, a.step, a.path = str(aid), sid, path
        a.loc = self._loc(path + ("if",))
        a.is_pass = bool(raw.get("pass", False))
        a.sig_cols, a.sig_maps = w.sig_cols, w.sig_maps
        if self._sig_col is None:
            self._sig_col = sig_col(w.sig_cols, w.sig_maps)
        a.sig_col = self._sig_col
        if self._sig_slow is None:
            self._sig_slow = sig_slow(w.sig_cols, w.sig_maps, {c: ft for c, ft in w.fields.values()})
        a.sig_slow = self._sig_slow
        a.fired_key = ("action", sid, a.name)  # what Game._play counts
        u = self.unit(event)
        u.effects = False  # choices and conditions only look; the effect may change the state
        sc = Scope(u)
        a.params = []
        a.piece_params = []
        ptypes = []
        for pname, dom in (raw.get("choose") or {}).items():
            distinct = False
            if isinstance(dom, dict):
                distinct = bool(dom.get("distinct", False))
                dom = dom.get("from")
            # a later choice's domain may share work across the values of the earlier ones (shared_filter)
            w.compiler.menu_choices = (u, [(p[1], p[2]) for p in a.params]) if a.params else None
            try:
                x = w.compile_expr(dom, path + ("choose", pname), u, sc)
            finally:
                w.compiler.menu_choices = None
            if x is None:
                continue
            from ..language.compiler import elem_type
            et = elem_type(x.t)
            if et is None:
                w.error(f"a choice ranges over a zone or a list, not a {x.t}", path + ("choose", pname))
                continue
            slot = sc.bind(str(pname), et)
            if et == "piece":
                a.piece_params.append(len(a.params))
            dom_f = x.f
            if x.t == "zone":  # the zone's pieces, as one generated function
                dom_f = w.compiler.pool.function(f"s.zones[{w.compiler.src(x)}]")
            elif not a.params and invariant(x) and x._src is not None:
                # A first choice that reads no other: its values are found once per menu, for every
                # action that offers the same choice (see menuplan.shared)
                dom_f = shared(w.compiler.pool, x)
            a.params.append((str(pname), slot, dom_f, distinct))
            ptypes.append(et)
        a.pnames = tuple(p[0] for p in a.params)
        # the choices sit in the slots right after the player and the event: an effect's environment is
        # [player, event, *values] and the rest
        a.direct = [p[1] for p in a.params] == list(range(2, 2 + len(a.params)))
        a.ptypes = tuple(ptypes)  # each parameter's value type, for checking scenarios
        # "load(k=%s,s=%s)" % values: the action's id, made without building anything else
        a.idfmt = (a.name.replace("%", "%%") + "(" + ",".join(f"{p}=%s" for p in a.pnames) + ")"
                   if a.params else a.name.replace("%", "%%"))
        a.cond_text = raw.get("if")
        a.plan = None
        cx = None
        if "if" in raw:
            comp = w.compiler
            comp.hoist = hoister(comp.pool) if a.params else None  # parts that read no choice: once a menu
            try:
                cx = w.compile_expr(raw["if"], path + ("if",), u, sc, want="bool")
                if cx is not None and a.params:
                    a.plan = plan(comp, cx, [p[1] for p in a.params])
            finally:
                comp.hoist = None
        a.cond = cx.f if cx is not None else None
        a.loop = None
        # Generated loops, unless a check runs between the choices (menuplan's levels: the recursion)
        if a.params and ("if" not in raw or cx is not None) and (
                len(a.params) == 1 or a.plan is None or not any(a.plan.levels)):
            cond_src = (a.plan.rest_src if a.plan is not None else w.compiler.src(cx) if cx is not None else None)
            a.loop = (single_loop if len(a.params) == 1 else nested_loop)(w.compiler, a, cond_src)
        u.effects = True
        a.effect = w.compile_stmts(raw["effect"], path + ("effect",), u, sc.child()) if "effect" in raw else None
        u.effects = False
        a.label = self.template(raw, a.name, u, sc, path)
        a.nslots = u.n
        return a

    def template(self, raw, default, unit, sc, path):
        """A label with {expr} holes, compiled and checked (narration.compile_label)."""
        from ..language.labels import compile_label
        return compile_label(self.w, raw, default, unit, sc, path)

    # ------------------------------------------------------------ hooks
    def hook(self, hid, h):
        w = self.w
        path = ("hooks", hid)
        if not isinstance(h, dict):
            w.error("a hook is a mapping with on, if, player, do", path)
            return
        ev = h.get("on")
        if ev not in w.events:
            from ..definition.problems import did_you_mean
            w.error(f"unknown event '{ev}'", path + ("on",), did_you_mean(str(ev), w.events))
            return
        cond = self.expr(h["if"], path + ("if",), ev, "bool") if "if" in h else (None, 2)
        if "player" in h:
            pl = self.expr(h["player"], path + ("player",), ev)
        else:
            names, types = w.events[ev]
            idx = types.index("player") if "player" in types else None
            pl = ((lambda i: lambda s, e: e[1][i])(idx), 2) if idx is not None else (None, 2)
        body = self.node(h.get("do", []), path + ("do",), ev)
        if "label" in h:
            # a hook with a label is narrated when it fires: a sequence that tells it, then runs the body
            told = Node(SEQ, path)
            u = Unit(player=True, event=w.events.get(ev))
            told.tmpl = self.template(h, hid, u, Scope(u), path)
            told.nslots = u.n
            told.children = (body,) if body is not None else ()
            body = self.add(told)
        self.hooks.setdefault(ev, []).append((hid, cond, pl, body))


# ---------------------------------------------------------------- running
