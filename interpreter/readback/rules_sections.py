"""The sections of the generated rulebook, as two mixins of `rules_text.Rulebook`: what is on the table
(components, setup) and what happens (the flow, phases, decisions, hooks, parameters, definitions, scoring,
the end, the options and disputed rules). Each method appends blocks with the helpers of `Rulebook`."""

from __future__ import annotations

import re

from .phrases import humanize
from .rules_words import _one_line, _text


class TableSections:
    """Components with their counts by player count, setup tables, starting values, the preparation."""

    def components(self):
        self.h(2, self.w["components"])
        res = self.d.get("resources") or {}
        if res:
            self.h(3, self.w["resources"])
            lines = []
            for k, v in res.items():
                extra = [f"{self.w['box']} {v['box']}"] if v.get("box") is not None else []
                extra += [self.w["conserved"]] if v.get("conserved") else []
                lines.append((self.label(v, k) + (f" ({', '.join(extra)})" if extra else ""),
                              self.marks(f"resources.{k}", v)))
            self.ul(lines)
        for cls, c in (self.d.get("components") or {}).items():
            c = c or {}
            self.h(3, self.label(c, cls))
            info = []
            if c.get("zone"):
                info.append((f"{self.w['zone']}: {self.names.globals.get(c['zone']) or self.names.attrs.get(c['zone']) or c['zone']}", []))
            if isinstance(c.get("board"), dict):  # a generated board: its size, not a row per space
                from ..language.boards import board_cells
                cells, _, problem = board_cells(c["board"])
                layout = c["board"].get("layout", "square")
                if problem is None:
                    info.append((self.w["board"].format(n=len(cells), layout=self.w["layout." + layout]), []))
            if c.get("active"):
                self.ph.locals = set()
                info.append((f"{self.w['active']}: {self.ph.expr(c['active'])}", []))
            if c.get("fields"):
                info.append((f"{self.w['fields']}: {', '.join(self.label(fv, f) for f, fv in c['fields'].items())}", []))
            info.extend(self.marks(f"components.{cls}", c))
            self.ul(info)
            defaults = c.get("properties") or {}
            rows = []
            for t, tv in (c.get("types") or {}).items():
                tv = tv or {}
                props = [f"{self.names.named(k)} {self.value(tv.get(k, v))}" for k, v in defaults.items()]
                mods = [f"{self.names.attrs.get(k, k)} " + (self.w["set_to"].format(v=self.value(v["set"]))
                                                            if isinstance(v, dict) else f"{v:+d}" if isinstance(v, int) and not isinstance(v, bool) else self.value(v))
                        for k, v in (tv.get("modifies") or {}).items()]
                if tv.get("becomes"):  # promotion.py: the types its pieces may turn into
                    to = tv["becomes"] if isinstance(tv["becomes"], list) else [tv["becomes"]]
                    mods.append(f"{self.w['may_become']} {', '.join(self.value(x) for x in to)}")
                notes = [_one_line(tv["source"])] if tv.get("source") else []
                if tv.get("provisional"):
                    notes.append(f"**{self.w['provisional']}**: {self.note(tv['provisional'])}")
                notes += [f"**{self.w['changed']}**: {text}" for cp, text in self.changed
                          if cp.startswith(f"components.{cls}.types.{t}")]
                rows.append([self.label(tv, t), self.count(tv.get("count", 1)), "; ".join(props),
                             "; ".join(mods), "; ".join(self.mentions(t)), " ".join(notes)])
            self.table([self.w["type"], self.w["count"], self.w["props"], self.w["mods"], self.w["mentions"],
                        self.w["source"]], rows)

    def count(self, c) -> str:
        if isinstance(c, dict) and "by_players" in c:
            return self.by_players(c["by_players"])
        if isinstance(c, str):
            t = (self.d.get("tables") or {}).get(c)
            val = t.get("value") if isinstance(t, dict) and "value" in t else t
            if isinstance(val, dict) and "by_players" in val:
                return self.by_players(val["by_players"])
            return self.value(val) if val is not None else c
        return self.value(c)

    def by_players(self, table) -> str:
        return "; ".join(f"{self.w['players_n'].format(n=n)}: {self.value(v)}" for n, v in table.items())

    def setup(self):
        self.h(2, self.w["setup"])
        tables = self.d.get("tables") or {}
        counts = list(self.g.player_counts)
        rows, other = [], []
        for k, t in tables.items():
            entry = t if isinstance(t, dict) and "value" in t else {"value": t}
            v = entry["value"]
            note = " ".join(text for text, _ in self.marks(f"tables.{k}", entry))
            if isinstance(v, dict) and "by_players" in v:
                rows.append([self.names.label(entry, k)] + [self.value(v["by_players"].get(n, "—")) for n in counts] + [note])
            else:
                other.append((f"{self.names.label(entry, k)}: {self.value(v)}", self.marks(f"tables.{k}", entry)))
        if rows:
            self.h(3, self.w["by_players"])
            self.table([self.w["tables"]] + [self.w["players_n"].format(n=n) for n in counts] + [self.w["source"]], rows)
        if other:
            self.h(3, self.w["other_tables"])
            self.ul(other)
        seats = self.d.get("scripted_seats") or {}
        if seats:  # interpreter/engine/scripted.py
            self.h(3, self.w["scripted"])
            self.p(self.w["scripted_what"])
            self.ul([(self.label(v or {}, k) + (f" (`{k}`)" if self.ids else "") + (
                f" — {self.w['scripted_when'].format(c=self.ph.expr(v['if']))}" if (v or {}).get("if") else ""),
                self.marks(f"scripted_seats.{k}", v or {})) for k, v in seats.items()])
        self.h(3, self.w["counters"])
        for scope in ("global", "player"):
            lines = []
            for k, v in (self.d["vars"].get(scope) or {}).items():
                v = v or {}
                init = v.get("init")
                what = self.label(v, k)
                if isinstance(init, dict):
                    start = "{" + self.ph.t["sep"].join(f"{self.value(a)}: {self.ph.expr(b)}" for a, b in init.items()) + "}"
                elif init is not None:
                    start = self.ph.expr(init) if isinstance(init, (str, int)) and not isinstance(init, bool) else self.value(init)
                if init is not None:
                    what += f" — {self.w['starts']} {start}"
                lines.append((what, self.marks(f"vars.{scope}.{k}", v)))
            for k, v in (self.d["zones"].get(scope) or {}).items():
                v = v or {}
                lines.append((f"{self.w['zones']}: {self.label(v, k)}" +
                              (f" ({v['visibility']})" if v.get("visibility") else "") +
                              (f" — {self.w['per']} {self.value(v['per'])}" if v.get("per") else ""),
                              self.marks(f"zones.{scope}.{k}", v)))
            for k, v in ((self.d["zones"].get("piece") or {}).items() if scope == "global" else ()):
                v = v or {}
                of = v.get("of")
                lines.append((f"{self.w['zones']}: {self.label(v, k)} — {self.w['held_by']} "
                              f"{', '.join(map(self.value, of if isinstance(of, list) else [of]))}; "
                              f"{self.w['carried'] if v.get('carry', True) else self.w['left']}",
                              self.marks(f"zones.piece.{k}", v)))
            if lines:
                self.p(f"**{self.w['global' if scope == 'global' else 'each']}**")
                self.ul(lines)
        if self.d.get("setup") is not None:
            self.h(3, self.w["setup_steps"])
            self.ul(self.ph.stmts(self.d["setup"]) + self.marks("setup", {}))


class RuleSections:
    """The flow as an outline, phases, decisions and actions, hooks, parameters, definitions, scoring, the
    end, options and disputed rules."""

    def flow_lines(self, node) -> list:
        w, ph = self.w, self.ph
        if node is None:
            return []
        if isinstance(node, list):
            return [line for item in node for line in self.flow_lines(item)]
        if not isinstance(node, dict):
            return [(f"`{node}`", [])]
        if "effect" in node:
            return ph.stmts(node["effect"])
        if "step" in node:
            sid = node["step"]
            return [(f"{w['step']}: “{self.label((self.d.get('steps') or {}).get(sid) or {}, sid)}”", [])]
        if "call" in node:
            target = node["call"]
            phases = self.d.get("phases") or {}
            if target in phases:
                return [(f"{w['phase']}: “{self.label(phases[target], target)}”", [])]
            return [(f"{w['phase']}: {w['call_expr']} {ph.expr(target)}", [])]
        if "if" in node:
            out = [(f"{ph.cap(ph.t['if_stmt'].format(a=ph.expr(node['if'])))}", self.flow_lines(node.get("then")))]
            if node.get("else") is not None:
                out.append((w["otherwise"], self.flow_lines(node["else"])))
            return out
        if "repeat" in node:
            parts = [w["repeat"]]
            if node.get("while") is not None:
                parts.append(f"{w['while']} {ph.expr(node['while'])}")
            if node.get("until") is not None:
                parts.append(f"{w['until']} {ph.expr(node['until'])}")
            if node.get("max") is not None:
                parts.append(f"({w['at_most'].format(n=node['max'])})")
            return [(" ".join(parts) + ":", self.flow_lines(node["repeat"]))]
        if "each_player" in node:
            parts = [w["each_player"]]
            if node.get("order") is not None:
                parts.append(f"{w['in_order']} {ph.expr(node['order'])}")
            if node.get("from") is not None:
                parts.append(f"{w['starting']} {ph.expr(node['from'])}")
            if node.get("direction"):
                parts.append(w.get(node["direction"], node["direction"]))
            if node.get("until") and node["until"] != "once":
                parts.append(w.get(node["until"], node["until"]))
            return [(", ".join(parts) + ":", self.flow_lines(node["each_player"]))]
        return [(f"`{node}`", [])]

    def flow(self):
        self.h(2, self.w["flow"])
        self.ul(self.flow_lines(self.d.get("flow")) + self.marks("flow", {}))
        phases = self.d.get("phases") or {}
        if phases:
            self.h(2, self.w["phases"])
        for k, v in phases.items():
            self.h(3, f"{self.w['phase']}: {self.label(v, k)}")
            self.ul(self.flow_lines(v.get("flow")) + self.marks(f"phases.{k}", v))

    def steps(self):
        steps = self.d.get("steps") or {}
        if steps:
            self.h(2, self.w["steps"])
        for sid, st in steps.items():
            st = st or {}
            self.h(3, f"{self.w['step']}: {self.label(st, sid)}")
            head = []
            if st.get("if") is not None:
                head.append((f"{self.w['step_if']}: {self.ph.expr(st['if'])}", []))
            if st.get("optional"):
                head.append((self.w["optional"], []))
            head.extend(self.marks(f"steps.{sid}", st))
            self.ul(head)
            lines = []
            for aid, a in (st.get("actions") or {}).items():
                a = a or {}
                params = list((a.get("choose") or {}).keys())
                sub = []
                for pname, spec in (a.get("choose") or {}).items():
                    src = spec.get("from") if isinstance(spec, dict) else spec
                    coll = self.ph.expr(src, params)
                    sub.append((f"{self.w['choose']} *{pname}* {self.w['from']} {coll}"
                                + (f" {self.w['distinct']}" if isinstance(spec, dict) and spec.get("distinct") else ""), []))
                if a.get("if") is not None:
                    sub.append((f"{self.w['if']}: {self.ph.expr(a['if'], params)}", []))
                if a.get("effect") is not None:
                    sub.append((f"{self.w['effect']}:", self.ph.stmts(a["effect"], params)))
                if a.get("pass"):
                    sub.append((self.w["pass_action"], []))
                sub.extend(self.marks(f"steps.{sid}.actions.{aid}", a))
                title = _text(a.get("label"), self.lang, humanize(aid))
                title = re.sub(r"\{([^{}]*)\}", lambda m: self.ph.expr(m.group(1), params), title)
                lines.append((f"**{title}**" + (f" (`{aid}`)" if self.ids else ""), sub))
            self.ul(lines)

    def hooks(self):
        hooks = self.d.get("hooks") or {}
        if hooks:
            self.h(2, self.w["hooks"])
        for k, v in hooks.items():
            v = v or {}
            head = self.w["when"].format(e=self.names.events.get(v.get("on"), self.names.named(v.get("on"))))
            if v.get("if") is not None:
                head += self.w["and_if"].format(c=self.ph.expr(v["if"]))
            sub = []
            if v.get("player") is not None:
                sub.append((self.w["acts"].format(p=self.ph.expr(v["player"])), []))
            sub.append((f"{self.w['hook_do']}:", self.flow_lines(v.get("do"))))
            sub.extend(self.marks(f"hooks.{k}", v))
            self.h(3, self.label(v, k))
            self.ul([(head + ":", sub)])

    def parameters(self):
        params = self.d.get("parameters") or {}
        if not params:
            return
        self.h(2, self.w["parameters"])
        lines = []
        for k, v in params.items():
            by = []
            for cls, c in (self.d.get("components") or {}).items():
                for t, tv in ((c or {}).get("types") or {}).items():
                    m = ((tv or {}).get("modifies") or {}).get(k)
                    if m is not None:
                        by.append(f"{self.label(tv, t)} " + (self.w["set_to"].format(v=self.value(m["set"]))
                                                             if isinstance(m, dict) else f"{m:+d}" if isinstance(m, int) and not isinstance(m, bool) else self.value(m)))
            text = f"{self.label(v, k)} ({self.w['param_default'].format(v=self.value(v.get('default')))}): " + (
                f"{self.w['changed_by']} " + ", ".join(by) if by else self.w["unchanged"])
            adjust = [self.w["adjust_add"].format(n=f"{a['add']:+d}", c=self.ph.expr(a.get("if", "true")))
                      if a.get("add") is not None else
                      self.w["adjust_set"].format(v=self.value(a.get("set")), c=self.ph.expr(a.get("if", "true")))
                      for a in (v.get("adjust") or []) if isinstance(a, dict)]
            if adjust:  # parameters.py: adjustments by the game's state, in order
                text += "; " + self.w["adjusted"].format(a="; ".join(adjust))
            lines.append((text, self.marks(f"parameters.{k}", v)))
        self.ul(lines)

    def defs(self):
        defs = self.d.get("defs") or {}
        if not defs:
            return
        self.h(2, self.w["defs"])
        lines = []
        for k, v in defs.items():
            name, _, rest = str(k).partition("(")
            params = [p.strip() for p in rest.rstrip(")").split(",") if p.strip()]
            head = self.ph.formula(name.strip(), [self.ph.local(p) for p in params] if rest else None)
            lines.append((f"{head}: {self.ph.expr(v, params)}", [(f"{self.w['formula']}: `{_one_line(v)}`", [])]
                          + self.marks(f"defs.{name}", {})))
        self.ul(lines)

    def procedures(self):
        procs = self.d.get("procedures") or {}
        if not procs:
            return
        self.h(2, self.w["procedures"])
        lines = []
        for k, v in procs.items():  # interpreter/language/procedures.py: name(param: type, ...)
            name, _, rest = str(k).partition("(")
            params = [p.split(":")[0].strip() for p in rest.rstrip(")").split(",") if p.strip()]
            head = self.ph.t["def.call"].format(a=self.names.named(name.strip()),
                                                b=", ".join(self.ph.local(p) for p in params))
            lines.append((f"{head}:", self.ph.stmts(v, params) + self.marks(f"procedures.{name.strip()}", {})))
        self.ul(lines)

    def scoring(self):
        sc = self.d.get("scoring") or {}
        self.h(2, self.w["scoring"])
        rows = []
        for k, v in (sc.get("items") or {}).items():
            note = " ".join(text for text, _ in self.marks(f"scoring.items.{k}", v))
            rule = self.ph.expr(v.get("expr", "0"))
            if v.get("divided_by") is not None:  # an exact share (exact.py)
                rule = f"{rule} {self.w['divided_by']} {self.ph.expr(v['divided_by'])} ({self.w['exact']})"
            rows.append([self.label(v, k), rule, note])
        self.table([self.w["item"], self.w["rule"], self.w["source"]], rows)
        self.p(self.w["order_low" if sc.get("order") == "low" else "order_high"])
        if sc.get("tiebreak"):
            self.p(self.w["ties_then"])
            self.ul([(self.ph.expr(e), []) for e in sc["tiebreak"]] + self.marks("scoring", sc))
        else:
            self.ul(self.marks("scoring", sc))
        self.p(self.w["shared"])
        self.ratings(sc.get("ratings"))
        end = self.d.get("end") or {}
        self.h(2, self.w["end"])
        self.p(self.w["game_ends_when"])
        lines = []
        for k, v in (end.get("triggers") or {}).items():
            by = [title for path, title, txts in self.rules if any(re.search(r"end_game\(\s*" + re.escape(k) + r"\s*\)", t) for t in txts)]
            at = "now" if isinstance(v, dict) and v.get("now") else (v or {}).get("at") if isinstance(v, dict) else None
            lines.append((self.label(v, k), ([(self.w[f"end_at_{at}"], [])] if at in ("now", "turn", "round") else [])
                          + ([(f"{self.w['set_by']}: " + "; ".join(by), [])] if by else [])
                          + self.marks(f"end.triggers.{k}", v)))
        self.ul(lines + (self.marks("end", end) if end else []))

    def ratings(self, ratings):
        """The rating table of a final score (interpreter/engine/ratings.py): each band from its `min`."""
        if not isinstance(ratings, dict) or not ratings.get("bands"):
            return
        self.h(3, self.w["ratings"])
        if ratings.get("if"):
            self.p(self.w["ratings_when"].format(c=self.ph.expr(ratings["if"])))
        bands = ratings["bands"]
        rows = []
        for i, b in enumerate(bands):
            lo = b.get("min")
            hi = bands[i + 1].get("min") - 1 if i + 1 < len(bands) and bands[i + 1].get("min") is not None else None
            if lo is None:
                score = self.w["band_to"].format(n=hi) if hi is not None else ""
            elif hi is None:
                score = self.w["band_from"].format(n=lo)
            else:
                score = self.w["band_range"].format(a=lo, b=hi)
            rows.append([score, _text(b.get("label"), self.lang, "")])
        self.table([self.w["score_band"], self.w["rating"]], rows)
        self.ul(self.marks("scoring.ratings", ratings))

    def options(self):
        opts = self.d.get("options") or {}
        if not opts:
            return
        self.h(2, self.w["options"])
        disputes = {d.option: d for d in self.g.disputes}
        for k, v in opts.items():
            v = v or {}
            dispute = disputes.get(k)
            self.h(3, f"{self.w['option']} " + (f"`{k}`: " if self.ids else "") + self.label(v, k))
            lines = [(f"{self.w['values']}: {', '.join(self.value(x) for x in v.get('values') or [])}; "
                      f"{self.w['default']}: {self.value(v.get('default'))}", [])]
            if v.get("description"):
                lines.append((_one_line(_text(v["description"], self.lang)), []))
            if dispute is not None:
                readings = []
                for a in dispute.alternatives:
                    sub = [(f"{self.w['source']}: {_one_line(a.source)}", [])]
                    if a.is_default:
                        sub.append((f"{self.w['why_default']}: {a.default_reason[self.lang]}", []))
                    value = f"`{k}={self.value(a.value)}`" if self.ids else self.value(a.value)
                    readings.append((value + (f" ({self.w['default']})" if a.is_default else "")
                                     + f": {a.says[self.lang]}", sub))
                lines.append((f"**{self.w['disputed']}** ({self.w['dispute_of']} {dispute.id}): {dispute.label[self.lang]}",
                               readings))
            lines.extend(self.marks(f"options.{k}", v))
            self.ul(lines)
