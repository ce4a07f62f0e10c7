"""A rulebook generated from a definition alone: `meeple rules GAME --lang en|zh --format md|html`.

`rulebook(game, lang, base=None)` builds the document as blocks (headings, paragraphs, nested lists, tables)
from the definition: the game and its player counts, components and their counts by player count, setup
tables, the flow as an outline, the phases, every step and action with its condition and effect, hooks,
modifiers, named definitions, scoring, end triggers and tie-breakers, the options and disputed rules. Every
rule shows its source; provisional and disputed rules are marked, and with `base` (the game without the
variant) the rules the variant changes are marked too (interpreter/diff.py finds them). Expressions and
effects are put in words by interpreter/phrases.py. `to_markdown` and `to_html` write the blocks.
"""

from __future__ import annotations

import html
import re

from .phrases import Names, Phrases, humanize

WORDS = {
    "en": {
        "generated": "Generated from the definition by `meeple rules`; every rule cites its source.",
        "players": "Players", "source": "Source", "provisional": "Provisional", "disputed": "Disputed",
        "changed": "Changed by the variant", "contents": "Contents", "components": "Components",
        "resources": "Finite supplies", "box": "in the box", "conserved": "conserved", "setup": "Setup",
        "tables": "Setup tables", "by_players": "By player count", "other_tables": "Constants",
        "counters": "Counters and their starting values", "global": "On the table", "each": "Each player",
        "zones": "Places", "starts": "starts at", "setup_steps": "Preparing the game", "flow": "The course of the game",
        "phases": "Phases", "steps": "Decisions and actions", "hooks": "When something happens",
        "parameters": "Rule parameters and their modifiers", "defs": "Definitions used by the rules",
        "scoring": "Scoring", "end": "The end of the game", "tiebreak": "Ties", "options": "Options and disputed rules",
        "type": "Type", "count": "Count", "props": "Properties", "mods": "Modifies", "mentions": "Rules that name it",
        "zone": "Pieces start in", "active": "Active when", "fields": "Each piece records",
        "optional": "The player may pass instead.", "step_if": "Offered only if", "choose": "choose",
        "from": "from", "distinct": "(identical pieces offered once)", "if": "Allowed if", "effect": "Effect",
        "pass_action": "Passing with it does not count as acting.", "phase": "Phase", "call_expr": "the phase given by",
        "step": "Decision", "repeat": "Repeat", "until": "until", "while": "while", "at_most": "at most {n} times",
        "each_player": "Each player in turn", "starting": "starting with", "clockwise": "clockwise",
        "counterclockwise": "counterclockwise", "in_order": "in the order", "once": "once",
        "all_pass": "around the table until a full round where nobody acts",
        "one_left": "around the table; a player who passes is out, until one is left",
        "otherwise": "Otherwise:", "when": "When the event “{e}” is announced", "and_if": ", if {c}",
        "acts": "The player who acts: {p}.", "default": "default", "values": "values", "none": "none",
        "set_to": "set to {v}", "param_default": "default {v}", "changed_by": "changed by", "unchanged": "no piece changes it",
        "item": "Item", "rule": "Rule", "order_high": "The player with the most points wins.",
        "order_low": "The player with the fewest points wins.", "ties_then": "Ties are broken by, in order (the higher value wins):",
        "shared": "Players still tied share the victory.", "trigger": "Trigger", "set_by": "set by",
        "game_ends_when": "The game ends when the flow ends; an end trigger makes the flow stop where it reads the ending.",
        "option": "Option", "reading": "Reading", "why_default": "why the default", "dispute_of": "dispute",
        "default_reading": "default reading", "other_readings": "other readings", "players_n": "{n} players",
        "hook_do": "Then", "formula": "formula", "no_source": "no source given",
    },
    "zh": {
        "generated": "由 `meeple rules` 根据定义生成;每条规则均注明出处。",
        "players": "玩家人数", "source": "出处", "provisional": "暂定", "disputed": "有争议",
        "changed": "变体修改", "contents": "目录", "components": "配件", "resources": "有限的供应",
        "box": "盒中数量", "conserved": "守恒", "setup": "准备", "tables": "准备表", "by_players": "按玩家人数",
        "other_tables": "常量", "counters": "计数及其初始值", "global": "公共区域", "each": "每位玩家",
        "zones": "区域", "starts": "初始为", "setup_steps": "游戏准备", "flow": "游戏流程", "phases": "阶段",
        "steps": "决策与行动", "hooks": "事件发生时", "parameters": "规则参数及其修正", "defs": "规则所用的定义",
        "scoring": "计分", "end": "游戏结束", "tiebreak": "平手", "options": "选项与有争议的规则",
        "type": "类型", "count": "数量", "props": "属性", "mods": "修正", "mentions": "提到它的规则",
        "zone": "配件初始位置", "active": "生效条件", "fields": "每个配件记录",
        "optional": "玩家也可以放弃。", "step_if": "仅当以下条件成立时提供", "choose": "选择",
        "from": "来自", "distinct": "(相同的配件只列出一次)", "if": "条件", "effect": "效果",
        "pass_action": "以此放弃不算作行动。", "phase": "阶段", "call_expr": "由以下决定的阶段:",
        "step": "决策", "repeat": "重复", "until": "直到", "while": "当", "at_most": "至多{n}次",
        "each_player": "每位玩家依次", "starting": "从以下玩家开始:", "clockwise": "顺时针",
        "counterclockwise": "逆时针", "in_order": "顺序为", "once": "一次",
        "all_pass": "围绕桌子进行,直到一整圈无人行动", "one_left": "围绕桌子进行;放弃的玩家出局,直到只剩一人",
        "otherwise": "否则:", "when": "当事件“{e}”被触发时", "and_if": ",若{c}",
        "acts": "行动的玩家:{p}。", "default": "默认", "values": "取值", "none": "无",
        "set_to": "设为{v}", "param_default": "默认{v}", "changed_by": "修正来源", "unchanged": "没有配件修正它",
        "item": "项目", "rule": "规则", "order_high": "分数最高的玩家获胜。", "order_low": "分数最低的玩家获胜。",
        "ties_then": "平手时依次比较(数值高者胜):", "shared": "仍然平手的玩家共享胜利。", "trigger": "触发条件", "set_by": "设定于",
        "game_ends_when": "流程结束时游戏结束;结束条件使流程在检查结束的地方停止。",
        "option": "选项", "reading": "解读", "why_default": "默认的理由", "dispute_of": "争议",
        "default_reading": "默认解读", "other_readings": "其他解读", "players_n": "{n}人",
        "hook_do": "则", "formula": "公式", "no_source": "未给出出处",
    },
}


def _text(value, lang, fallback=""):
    if isinstance(value, dict):
        return str(value.get(lang) or value.get("en") or fallback)
    return str(value) if value not in (None, "") else fallback


def _one_line(s) -> str:
    return " ".join(str(s).split())


class Rulebook:
    """Builds the blocks of one game's generated rulebook in one language."""

    def __init__(self, game, lang="en", changed=()):
        self.g, self.d, self.lang = game, game.definition.sections, lang
        self.w = WORDS[lang]
        self.names = Names(game.definition, lang)
        self.ph = Phrases(self.names)
        self.changed = list(changed)   # (path, text) of the variant's changes
        self.blocks: list = []
        self.rules = self._rule_texts()
        self.disputed = self._disputed_paths()

    # ------------------------------------------------------------ helpers
    def h(self, level, text):
        self.blocks.append(("h", level, text))

    def p(self, text):
        self.blocks.append(("p", text))

    def ul(self, lines):
        if lines:
            self.blocks.append(("ul", lines))

    def table(self, header, rows):
        if rows:
            self.blocks.append(("table", header, rows))

    def label(self, entry, key):
        return self.names.label(entry, key)

    def marks(self, path, entry) -> list:
        """Source, provisional note, dispute and variant change of one rule, as lines."""
        out = []
        src = entry.get("source") if isinstance(entry, dict) else None
        if src:
            out.append((f"{self.w['source']}: {_one_line(src)}", []))
        if isinstance(entry, dict) and entry.get("provisional"):
            out.append((f"**{self.w['provisional']}**: {_one_line(entry['provisional'])}", []))
        for dispute in self.disputed.get(path, ()):
            out.append((f"**{self.w['disputed']}** ({self.w['dispute_of']} {dispute.id}): {dispute.label[self.lang]}; "
                        f"{self.w['default_reading']}: {dispute.default.says[self.lang]}", []))
        for cpath, text in self.changed:
            if cpath == path or cpath.startswith(path + "."):
                out.append((f"**{self.w['changed']}**: {text}", []))
        return out

    def _rule_texts(self) -> list:
        """(path, title, DSL texts) of every rule, for cross references."""
        out = []

        def texts(node):
            if isinstance(node, str):
                yield node
            elif isinstance(node, dict):
                for k, v in node.items():
                    if k not in ("label", "source", "provisional", "description"):
                        yield from texts(v)
            elif isinstance(node, list):
                for v in node:
                    yield from texts(v)

        d = self.d
        for k, v in (d.get("defs") or {}).items():
            out.append((f"defs.{str(k).split('(')[0]}", f"{self.w['defs']}: *{str(k).split('(')[0]}*", list(texts(v))))
        for k, v in (d.get("hooks") or {}).items():
            out.append((f"hooks.{k}", f"{self.w['hooks']}: {self.label(v, k)}", list(texts(v))))
        for k, v in (d.get("phases") or {}).items():
            out.append((f"phases.{k}", f"{self.w['phase']} {self.label(v, k)}", list(texts(v.get("flow")))))
        for sid, st in (d.get("steps") or {}).items():
            for aid, a in ((st or {}).get("actions") or {}).items():
                out.append((f"steps.{sid}.actions.{aid}", f"{self.label(st, sid)}: {humanize(aid)}", list(texts(a))))
        for k, v in (((d.get("scoring") or {}).get("items")) or {}).items():
            out.append((f"scoring.items.{k}", f"{self.w['scoring']}: {self.label(v, k)}", list(texts(v))))
        if d.get("flow") is not None:
            out.append(("flow", self.w["flow"], list(texts(d["flow"]))))
        if d.get("setup") is not None:
            out.append(("setup", self.w["setup_steps"], list(texts(d["setup"]))))
        return out

    def mentions(self, name) -> list:
        """The rules whose text names `name`, and through a definition that names it, the rules using that."""
        def hits(n):
            pat = re.compile(r"(?<![A-Za-z0-9_])" + re.escape(n) + r"(?![A-Za-z0-9_])")
            return [(path, title) for path, title, txts in self.rules if any(pat.search(t) for t in txts)]
        out = []
        for path, title in hits(name):
            out.append(title)
            if path.startswith("defs."):
                out.extend(t for _, t in hits(path[5:]) if t not in out)
        return list(dict.fromkeys(out))

    def _disputed_paths(self) -> dict:
        out: dict = {}
        for dispute in self.g.disputes:
            paths = set(dispute.rules)
            pat = re.compile(r"option\s*\.\s*" + re.escape(dispute.option) + r"(?![A-Za-z0-9_])")
            paths.update(path for path, _, txts in self.rules if any(pat.search(t) for t in txts))
            for path in paths:
                out.setdefault(path, []).append(dispute)
        return out

    def value(self, v) -> str:
        if isinstance(v, bool):
            return self.ph.t["true" if v else "false"]
        if isinstance(v, str):
            return self.names.globals.get(v, v)
        if isinstance(v, list):
            return "[" + self.ph.t["sep"].join(self.value(x) for x in v) + "]"
        if isinstance(v, dict):
            return "{" + self.ph.t["sep"].join(f"{self.value(k)}: {self.value(x)}" for k, x in v.items()) + "}"
        return str(v)

    # ------------------------------------------------------------ the document
    def build(self):
        game = self.d.get("game") or {}
        self.h(1, _text(game.get("name"), self.lang, self.g.id))
        self.p(self.w["generated"])
        self.p(f"{self.w['players']}: {', '.join(map(str, self.g.player_counts))}. "
               f"{self.w['source']}: {_one_line(game.get('source') or self.w['no_source'])}")
        self.components()
        self.setup()
        self.flow()
        self.steps()
        self.hooks()
        self.parameters()
        self.defs()
        self.scoring()
        self.options()
        return self.blocks

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
            if c.get("active"):
                self.ph.locals = set()
                info.append((f"{self.w['active']}: {self.ph.expr(c['active'], ('self',))}", []))
            if c.get("fields"):
                info.append((f"{self.w['fields']}: {', '.join(self.names.plain(f) for f in c['fields'])}", []))
            info.extend(self.marks(f"components.{cls}", c))
            self.ul(info)
            defaults = c.get("properties") or {}
            rows = []
            for t, tv in (c.get("types") or {}).items():
                tv = tv or {}
                props = [f"{self.names.plain(k)} {self.value(tv.get(k, v))}" for k, v in defaults.items()]
                mods = [f"{self.names.attrs.get(k, k)} " + (self.w["set_to"].format(v=self.value(v["set"]))
                                                            if isinstance(v, dict) else f"{v:+d}" if isinstance(v, int) and not isinstance(v, bool) else self.value(v))
                        for k, v in (tv.get("modifies") or {}).items()]
                notes = [_one_line(tv["source"])] if tv.get("source") else []
                if tv.get("provisional"):
                    notes.append(f"**{self.w['provisional']}**: {_one_line(tv['provisional'])}")
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
                              (f" ({v['visibility']})" if v.get("visibility") else ""), self.marks(f"zones.{scope}.{k}", v)))
            if lines:
                self.p(f"**{self.w['global' if scope == 'global' else 'each']}**")
                self.ul(lines)
        if self.d.get("setup") is not None:
            self.h(3, self.w["setup_steps"])
            self.ul(self.ph.stmts(self.d["setup"]) + self.marks("setup", {}))

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
                lines.append((f"**{title}** (`{aid}`)", sub))
            self.ul(lines)

    def hooks(self):
        hooks = self.d.get("hooks") or {}
        if hooks:
            self.h(2, self.w["hooks"])
        for k, v in hooks.items():
            v = v or {}
            head = self.w["when"].format(e=self.names.globals.get(v.get("on"), v.get("on")))
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
            head = f"*{name}*" + (f"({', '.join('*' + p + '*' for p in params)})" if rest else "")
            lines.append((f"{head}: {self.ph.expr(v, params)}", [(f"{self.w['formula']}: `{_one_line(v)}`", [])]
                          + self.marks(f"defs.{name}", {})))
        self.ul(lines)

    def scoring(self):
        sc = self.d.get("scoring") or {}
        self.h(2, self.w["scoring"])
        rows = []
        for k, v in (sc.get("items") or {}).items():
            note = " ".join(text for text, _ in self.marks(f"scoring.items.{k}", v))
            rows.append([self.label(v, k), self.ph.expr(v.get("expr", "0")), note])
        self.table([self.w["item"], self.w["rule"], self.w["source"]], rows)
        self.p(self.w["order_low" if sc.get("order") == "low" else "order_high"])
        if sc.get("tiebreak"):
            self.p(self.w["ties_then"])
            self.ul([(self.ph.expr(e), []) for e in sc["tiebreak"]] + self.marks("scoring.tiebreak", {}))
        self.p(self.w["shared"])
        end = self.d.get("end") or {}
        self.h(2, self.w["end"])
        self.p(self.w["game_ends_when"])
        lines = []
        for k, v in (end.get("triggers") or {}).items():
            by = [title for path, title, txts in self.rules if any(re.search(r"end_game\(\s*" + re.escape(k) + r"\s*\)", t) for t in txts)]
            lines.append((self.label(v, k), ([(f"{self.w['set_by']}: " + "; ".join(by), [])] if by else [])
                          + self.marks(f"end.triggers.{k}", v)))
        self.ul(lines + (self.marks("end", end) if end else []))

    def options(self):
        opts = self.d.get("options") or {}
        if not opts:
            return
        self.h(2, self.w["options"])
        disputes = {d.option: d for d in self.g.disputes}
        for k, v in opts.items():
            v = v or {}
            dispute = disputes.get(k)
            self.h(3, f"{self.w['option']} `{k}`: {self.label(v, k)}")
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
                    readings.append((f"`{k}={self.value(a.value)}`" + (f" ({self.w['default']})" if a.is_default else "")
                                     + f": {a.says[self.lang]}", sub))
                lines.append((f"**{self.w['disputed']}** ({self.w['dispute_of']} {dispute.id}): {dispute.label[self.lang]}",
                               readings))
            lines.extend(self.marks(f"options.{k}", v))
            self.ul(lines)


def rulebook(game, lang: str = "en", base=None) -> list:
    """The blocks of the generated rulebook; with `base` (the game without the variant), changed rules marked."""
    changed = []
    if base is not None:
        from .diff import rules_diff
        report = rules_diff(base.definition, game.definition, lang=lang)
        changed = [(c["path"], c["text"]) for c in report["changes"]]
    return Rulebook(game, lang, changed).build()


# ---------------------------------------------------------------- writers
def _md_lines(lines, depth=0) -> list:
    out = []
    for text, children in lines:
        out.append("  " * depth + "- " + text)
        out.extend(_md_lines(children, depth + 1))
    return out


def _cell(s) -> str:
    return str(s).replace("|", "\\|").replace("\n", " ")


def to_markdown(blocks) -> str:
    out = []
    for b in blocks:
        if b[0] == "h":
            out += ["#" * b[1] + " " + b[2], ""]
        elif b[0] == "p":
            out += [b[1], ""]
        elif b[0] == "ul":
            out += _md_lines(b[1]) + [""]
        elif b[0] == "table":
            out.append("| " + " | ".join(_cell(h) for h in b[1]) + " |")
            out.append("|" + "---|" * len(b[1]))
            out += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in b[2]]
            out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def _inline(s: str) -> str:
    """Markdown emphasis and code of a line as HTML (the text escaped first)."""
    s = html.escape(str(s), quote=False)
    s = re.sub(r"`([^`]+)`", r"<code>\1</code>", s)
    s = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", s)
    s = re.sub(r"\*([^*]+)\*", r"<em>\1</em>", s)
    return s.replace("<strong>Changed by the variant</strong>", "<mark>Changed by the variant</mark>").replace(
        "<strong>变体修改</strong>", "<mark>变体修改</mark>")


def _html_lines(lines) -> str:
    items = []
    for text, children in lines:
        items.append("<li>" + _inline(text) + (_html_lines(children) if children else "") + "</li>")
    return "<ul>" + "".join(items) + "</ul>"


def to_html(blocks, lang: str = "en") -> str:
    title = next((b[2] for b in blocks if b[0] == "h"), "")
    out = [f'<!DOCTYPE html>\n<html lang="{"zh-Hans" if lang == "zh" else "en"}">\n<head><meta charset="utf-8">'
           f"<title>{html.escape(title)}</title>\n<style>body{{font-family:sans-serif;max-width:60em;margin:auto}}"
           "table{border-collapse:collapse}td,th{border:1px solid #999;padding:2px 6px;vertical-align:top}"
           "mark{background:#fd6}</style></head>\n<body>"]
    for b in blocks:
        if b[0] == "h":
            out.append(f"<h{b[1]}>{_inline(b[2])}</h{b[1]}>")
        elif b[0] == "p":
            out.append(f"<p>{_inline(b[1])}</p>")
        elif b[0] == "ul":
            out.append(_html_lines(b[1]))
        elif b[0] == "table":
            head = "".join(f"<th>{_inline(h)}</th>" for h in b[1])
            rows = "".join("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in row) + "</tr>" for row in b[2])
            out.append(f"<table><tr>{head}</tr>{rows}</table>")
    out.append("</body>\n</html>")
    return "\n".join(out) + "\n"
