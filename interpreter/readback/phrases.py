"""DSL trees in words: expressions and statements of a definition as English or Chinese sentences.

`Phrases(names, lang)` renders the Lark tree of an expression (`expr(text)`) or of a block of statements
(`stmts(text)`, nested lines) with the definition's own labels (`Names`): `player.doubloons += 1` reads
"add 1 to the player's doubloons" / "该玩家的杜布隆增加1". Every construct of grammar/dsl.lark has a template
in both languages (`TEMPLATES`), and so has every function of the vocabulary (`FUNCTION_WORDS`); a call of a
named definition (`defs`) stays a formula, `price(the player, b)`, which the rules text defines once.
Arithmetic is written with symbols in both languages. Nothing here reads a game's nouns: only labels.
"""

from __future__ import annotations

from lark import Token, Tree

from ..language.dsl import parse_expr, parse_stmts

TEMPLATES = {
    "en": {
        "or_": "{a} or {b}", "and_": "{a} and {b}", "not_": "not {a}", "ternary": "{a} if {c}, otherwise {b}",
        "compare.==": "{a} is {b}", "compare.!=": "{a} is not {b}", "compare.<": "{a} is less than {b}",
        "compare.<=": "{a} is at most {b}", "compare.>": "{a} is more than {b}", "compare.>=": "{a} is at least {b}",
        "in_": "{a} is in {b}", "not_in": "{a} is not in {b}",
        "binop.+": "{a} + {b}", "binop.-": "{a} − {b}", "binop.*": "{a} × {b}",
        "binop.//": "{a} ÷ {b} (rounded down)", "binop.%": "the remainder of {a} ÷ {b}", "neg": "−{a}",
        "attr": "{a}'s {b}", "attr.option": "the option “{b}”", "attr.event": "the event's {b}",
        "attr.type": "the type of {a}", "index": "{a} of {b}", "list_": "[{a}]", "number": "{a}",
        "string": "“{a}”", "name": "{a}", "call": "{a}({b})", "call_gen": "{a}", "genexp": "{a}",
        "assign": "set {a} to {b}", "assign.local": "let {a} be {b}", "augassign.+=": "add {b} to {a}",
        "augassign.-=": "subtract {b} from {a}", "emit": "announce the event “{a}” ({b})", "pass_stmt": "nothing",
        "expr_stmt": "{a}", "simple_stmt": "{a}", "if_stmt": "if {a}:", "elif_clause": "otherwise, if {a}:",
        "else_clause": "otherwise:", "for_stmt": "for each {a} in {b}:", "suite": "{a}", "start_expr": "{a}",
        "while_stmt": "while {a} (at most {b} times):", "call_where": "{a}, through each {x} where {c}",
        "start_stmts": "{a}",
        "cond": " where {c}",
        "agg.sum": "the sum of {e} for each {x} in {coll}{cond}", "agg.count": "the number of {x} in {coll}{cond}",
        "agg.any": "some {x} in {coll}{cond} has {e}", "agg.all": "every {x} in {coll}{cond} has {e}",
        "agg.min": "the least {e} of the {x} in {coll}{cond}", "agg.max": "the greatest {e} of the {x} in {coll}{cond}",
        "agg.first": "the first {x} in {coll}{cond}", "agg.list": "the {e} of each {x} in {coll}{cond}",
        "agg.sort_by": "the {x} in {coll}{cond}, ordered by {e}",
        "player": "the player", "players": "the players", "player_count": "the number of players",
        "none": "none", "true": "true", "false": "false", "game_ending": "the game is ending",
        "pieces": "all pieces", "self": "this piece", "event": "the event", "sep": ", ",
        "default": " (or {v} if there is none)",
    },
    "zh": {
        "or_": "{a}或{b}", "and_": "{a}且{b}", "not_": "并非{a}", "ternary": "若{c}则为{a},否则为{b}",
        "compare.==": "{a}为{b}", "compare.!=": "{a}不为{b}", "compare.<": "{a}小于{b}",
        "compare.<=": "{a}不超过{b}", "compare.>": "{a}大于{b}", "compare.>=": "{a}至少为{b}",
        "in_": "{a}在{b}中", "not_in": "{a}不在{b}中",
        "binop.+": "{a} + {b}", "binop.-": "{a} − {b}", "binop.*": "{a} × {b}",
        "binop.//": "{a} ÷ {b}(向下取整)", "binop.%": "{a} ÷ {b}的余数", "neg": "−{a}",
        "attr": "{a}的{b}", "attr.option": "选项“{b}”", "attr.event": "事件的{b}",
        "attr.type": "{a}的类型", "index": "{a}中的{b}", "list_": "[{a}]", "number": "{a}",
        "string": "“{a}”", "name": "{a}", "call": "{a}({b})", "call_gen": "{a}", "genexp": "{a}",
        "assign": "将{a}设为{b}", "assign.local": "令{a}为{b}", "augassign.+=": "{a}增加{b}",
        "augassign.-=": "{a}减少{b}", "emit": "触发事件“{a}”({b})", "pass_stmt": "不做任何事",
        "expr_stmt": "{a}", "simple_stmt": "{a}", "if_stmt": "如果{a}:", "elif_clause": "否则,如果{a}:",
        "else_clause": "否则:", "for_stmt": "对{b}中的每个{a}:", "suite": "{a}", "start_expr": "{a}",
        "while_stmt": "当{a}时重复(至多{b}次):", "call_where": "{a}(只经过满足{c}的{x})",
        "start_stmts": "{a}",
        "cond": "满足{c}的",
        "agg.sum": "{coll}中{cond}每个{x}的{e}之和", "agg.count": "{coll}中{cond}{x}的数量",
        "agg.any": "{coll}中有{cond}{x}满足{e}", "agg.all": "{coll}中{cond}每个{x}都满足{e}",
        "agg.min": "{coll}中{cond}{x}的{e}的最小值", "agg.max": "{coll}中{cond}{x}的{e}的最大值",
        "agg.first": "{coll}中第一个{cond}{x}", "agg.list": "{coll}中{cond}每个{x}的{e}",
        "agg.sort_by": "{coll}中{cond}{x},按{e}排序",
        "player": "该玩家", "players": "所有玩家", "player_count": "玩家人数",
        "none": "无", "true": "真", "false": "假", "game_ending": "游戏即将结束",
        "pieces": "所有配件", "self": "该配件", "event": "该事件", "sep": "、",
        "default": "（若没有则为{v}）",
    },
}

# Every function of the vocabulary registry, by arity where it matters ("name/2").
FUNCTION_WORDS = {
    "en": {
        "len": "the number of {0}", "count": "the number of {0}", "size": "the number of pieces in {0}",
        "values": "the values of {0}", "used": "the space used in {0}", "capacity": "the capacity of {0}",
        "free": "the free space in {0}", "top": "the top piece of {0}", "owner": "the owner of {0}",
        "zone_of": "the zone of {0}", "owns": "{0} owns {1}", "active": "{0} has an active {1}",
        "piece_of": "{0}'s {1}", "is_active": "{0} is active", "neighbors": "the neighbours of {0}",
        "region": "the region of {0} with the same {1}", "next_player/1": "the player after {0}",
        "next_player/2": "the player {1} seats after {0}", "range/1": "the numbers from 0 to {0} − 1",
        "range/2": "the numbers from {0} to {1} − 1", "total": "the total of {0}", "abs": "the size of {0}",
        "min": "the least of ({all})", "max": "the greatest of ({all})", "min/1": "the least of {0}",
        "max/1": "the greatest of {0}", "clamp": "{0}, kept between {1} and {2}",
        "random": "a random number from 0 to {0} − 1", "move/2": "move {0} to {1}",
        "move/3": "move {0} to place {2} of {1}", "draw": "draw the top piece of {0} into {1}",
        "shuffle": "shuffle {0}", "transfer": "move up to {0} from {1} to {2}",
        "end_game": "the game ends at the end of the round: {0}", "ended": "{0} has happened",
        "connected": "the spaces connected to {0}", "groups": "the connected groups of {0}",
        "distance": "the fewest steps from {0} to {1}", "neighbor": "the space next to {0} towards {1}",
        "directions": "the directions of {0}'s board", "append": "append {1} to {0}",
        "remove": "remove {1} from {0}", "index": "the place of {1} in {0}",
        "holder": "the piece that holds {0}", "become": "{0} becomes {1}",
        "reveal/1": "turn {0} face up for everyone", "reveal/2": "show {0} to {1}",
        "face_down": "turn {0} face down", "hide": "{0} follows its zone's visibility again",
        "sees": "{0} may see {1}",
        "tell/3": "tell {0} the {2} of {1}", "tell/4": "tell {0} whether the {2} of {1} is {3}",
        "knows": "{0} knows the {2} of {1}",
    },
    "zh": {
        "len": "{0}的数量", "count": "{0}的数量", "size": "{0}中的配件数", "values": "{0}的所有取值",
        "used": "{0}已用的空间", "capacity": "{0}的容量", "free": "{0}的空余空间", "top": "{0}最上面的配件",
        "owner": "{0}的拥有者", "zone_of": "{0}所在的区域", "owns": "{0}拥有{1}", "active": "{0}拥有生效的{1}",
        "piece_of": "{0}的{1}", "is_active": "{0}生效", "neighbors": "{0}的相邻格",
        "region": "{0}所在的同{1}区域", "next_player/1": "{0}的下一位玩家", "next_player/2": "{0}之后第{1}位玩家",
        "range/1": "从0到{0} − 1的数", "range/2": "从{0}到{1} − 1的数", "total": "{0}的总数",
        "abs": "{0}的绝对值", "min": "({all})中的最小值", "max": "({all})中的最大值", "min/1": "{0}中的最小值",
        "max/1": "{0}中的最大值", "clamp": "{0}(限制在{1}到{2}之间)", "random": "0到{0} − 1之间的随机数",
        "move/2": "将{0}移到{1}", "move/3": "将{0}移到{1}的第{2}位", "draw": "从{0}顶部抽取一个配件放入{1}",
        "shuffle": "洗混{0}", "transfer": "从{1}向{2}转移至多{0}", "end_game": "本轮结束时游戏结束:{0}",
        "ended": "{0}已发生",
        "connected": "与{0}相连的格", "groups": "{0}中相连的各个集团", "distance": "从{0}到{1}的最少步数",
        "neighbor": "{0}朝{1}方向的相邻格", "directions": "{0}所在棋盘的方向", "append": "将{1}加到{0}末尾",
        "remove": "从{0}中移除{1}", "index": "{1}在{0}中的位置",
        "holder": "承载{0}的配件", "become": "{0}变为{1}", "reveal/1": "将{0}向所有人翻开",
        "reveal/2": "将{0}展示给{1}", "face_down": "将{0}背面朝上", "hide": "{0}恢复其区域的可见性",
        "sees": "{0}能看到{1}",
        "tell/3": "告诉{0}{1}的{2}", "tell/4": "告诉{0}{1}的{2}是否为{3}", "knows": "{0}知道{1}的{2}",
    },
}
AGGREGATE_NAMES = ("sum", "count", "any", "all", "min", "max", "first", "list", "sort_by")


def humanize(name: str) -> str:
    return str(name).replace("_", " ")


class Names:
    """The labels a definition gives its names, in one language; names without a label read as themselves."""

    def __init__(self, definition, lang: str):
        self.lang = lang
        d = definition.sections
        self.globals: dict = {}   # a name usable in expressions -> words
        self.attrs: dict = {}     # an attribute (player var, zone, parameter) -> words
        self.defs: set = set()
        for scope in ("global", "player"):
            for section in ("vars", "zones"):
                for k, v in (d[section].get(scope) or {}).items():
                    (self.globals if scope == "global" else self.attrs)[k] = self.label(v, k)
        for k, v in (d["zones"].get("piece") or {}).items():  # x.NAME: the zone a piece holds
            self.attrs[k] = self.label(v, k)
        for k, v in (d.get("parameters") or {}).items():
            self.attrs[k] = self.label(v, k)
        for k, v in (d.get("tables") or {}).items():
            self.globals[k] = self.label(v, k)
        for k, v in (d.get("kinds") or {}).items():
            self.globals[k] = self.label(v, k)
            for val in (v.get("values") or []) if isinstance(v, dict) else []:
                self.globals[str(val)] = self.text((v.get("labels") or {}).get(val), val)
        for cls, c in (d.get("components") or {}).items():
            for t, tv in ((c or {}).get("types") or {}).items():
                self.globals[t] = self.label(tv, t)
        for section in ("phases", "steps", "events"):
            for k, v in (d.get(section) or {}).items():
                self.globals.setdefault(k, self.label(v, k))
        for k, v in (((d.get("end") or {}).get("triggers")) or {}).items():
            self.globals[k] = self.label(v, k)
        for k, v in (d.get("scripted_seats") or {}).items():  # a scripted seat reads as its label
            self.globals[k] = self.label(v, k)
        self.options = {k: self.label(v, k) for k, v in (d.get("options") or {}).items()}
        for k in (d.get("defs") or {}):
            self.defs.add(str(k).split("(")[0])

    def text(self, value, fallback) -> str:
        if isinstance(value, dict):
            return str(value.get(self.lang) or value.get("en") or fallback)
        return str(value) if value else self.plain(fallback)

    def label(self, entry, fallback) -> str:
        lab = entry.get("label") if isinstance(entry, dict) else None
        return self.text(lab, fallback) if lab else self.plain(fallback)

    def plain(self, name) -> str:
        """A name no label explains: humanized in English, the identifier itself in Chinese."""
        return humanize(name) if not self.lang.startswith("zh") else f"`{name}`"


class Phrases:
    """Renders DSL text in one language with a definition's labels."""

    def __init__(self, names: Names):
        self.n = names
        self.lang = names.lang
        self.t = TEMPLATES.get(self.lang, TEMPLATES["en"])
        self.f = FUNCTION_WORDS.get(self.lang, FUNCTION_WORDS["en"])
        self.locals: set = set()

    # ------------------------------------------------------------ public
    def expr(self, text, local=()) -> str:
        """An expression in words; the DSL text itself if it cannot be parsed."""
        self.locals = set(local)
        try:
            return self.x(parse_expr(str(text)))
        except Exception:
            return f"`{text}`"

    def stmts(self, text, local=()) -> list:
        """A block of statements as nested lines: [(sentence, [children...]), ...]."""
        self.locals = set(local)
        try:
            tree = parse_stmts(str(text))
        except Exception:
            return [(f"`{' '.join(str(text).split())}`", [])]
        return self.block(tree.children)

    # ------------------------------------------------------------ statements
    def block(self, items) -> list:
        out = []
        for st in items:
            if not isinstance(st, Tree):
                continue
            if st.data == "simple_stmt":
                out.extend((self.small(c), []) for c in st.children if isinstance(c, Tree))
            elif st.data == "if_stmt":
                cond, suite, *rest = st.children
                out.append((self.cap(self.t["if_stmt"].format(a=self.x(cond))), self.suite(suite)))
                for r in rest:
                    if r.data == "elif_clause":
                        out.append((self.cap(self.t["elif_clause"].format(a=self.x(r.children[0]))),
                                    self.suite(r.children[1])))
                    else:
                        out.append((self.cap(self.t["else_clause"]), self.suite(r.children[0])))
            elif st.data == "for_stmt":
                var, coll, suite = st.children
                self.locals.add(str(var))
                out.append((self.cap(self.t["for_stmt"].format(a=self.local(var), b=self.x(coll))), self.suite(suite)))
            elif st.data == "while_stmt":
                cond, most, suite = st.children
                out.append((self.cap(self.t["while_stmt"].format(a=self.x(cond), b=self.x(most))), self.suite(suite)))
            elif st.data == "suite":
                out.extend(self.suite(st))
        return out

    def suite(self, tree) -> list:
        return self.block(tree.children)

    def small(self, st) -> str:
        k = st.data
        if k == "assign":
            target, value = st.children
            local = isinstance(target, Tree) and target.data == "name" and (
                str(target.children[0]) in self.locals or str(target.children[0]) not in self.n.globals)
            if local:
                self.locals.add(str(target.children[0]))
            key = "assign.local" if local else "assign"
            return self.cap(self.t[key].format(a=self.x(target), b=self.x(value)))
        if k == "augassign":
            target, op, value = st.children
            return self.cap(self.t["augassign." + str(op)].format(a=self.x(target), b=self.x(value)))
        if k == "emit":
            name, *args = st.children
            return self.cap(self.t["emit"].format(a=self.n.globals.get(str(name), self.n.plain(name)),
                                                  b=self.t["sep"].join(self.x(a) for a in args)))
        if k == "pass_stmt":
            return self.cap(self.t["pass_stmt"])
        return self.cap(self.x(st.children[0]))

    def cap(self, s: str) -> str:
        return s[:1].upper() + s[1:] if not self.lang.startswith("zh") else s

    # ------------------------------------------------------------ expressions
    def x(self, node) -> str:
        if isinstance(node, Token):
            return str(node)
        return getattr(self, "x_" + node.data)(node)

    def paren(self, node, around=("or_", "and_", "ternary")) -> str:
        s = self.x(node)
        return f"({s})" if isinstance(node, Tree) and node.data in around else s

    def x_or_(self, n):
        return self.t["or_"].format(a=self.paren(n.children[0], ("and_", "ternary")),
                                    b=self.paren(n.children[1], ("and_", "ternary")))

    def x_and_(self, n):
        return self.t["and_"].format(a=self.paren(n.children[0], ("or_", "ternary")),
                                     b=self.paren(n.children[1], ("or_", "ternary")))

    def x_not_(self, n):
        return self.t["not_"].format(a=self.paren(n.children[0], ("or_", "and_", "ternary", "compare")))

    def x_ternary(self, n):
        a, c, b = n.children
        return self.t["ternary"].format(a=self.paren(a), c=self.paren(c, ("ternary",)), b=self.paren(b))

    def x_compare(self, n):
        a, op, b = n.children
        return self.t["compare." + str(op)].format(a=self.paren(a), b=self.paren(b))

    def x_in_(self, n):
        return self.t["in_"].format(a=self.x(n.children[0]), b=self.x(n.children[1]))

    def x_not_in(self, n):
        return self.t["not_in"].format(a=self.x(n.children[0]), b=self.x(n.children[1]))

    def x_binop(self, n):
        a, op, b = n.children
        tight = str(op) in ("*", "//", "%")
        wrap = ("or_", "and_", "ternary", "binop") if tight else ("or_", "and_", "ternary")
        right = wrap if str(op) != "+" else ("or_", "and_", "ternary")
        return self.t["binop." + str(op)].format(a=self.paren(a, wrap if tight else ("or_", "and_", "ternary")),
                                                 b=self.paren(b, right if not tight else wrap))

    def x_neg(self, n):
        return self.t["neg"].format(a=self.paren(n.children[0], ("binop", "or_", "and_", "ternary")))

    def x_attr(self, n):
        obj, name = n.children
        name = str(name)
        if isinstance(obj, Tree) and obj.data == "name" and str(obj.children[0]) == "option":
            return self.t["attr.option"].format(b=self.n.options.get(name, self.n.plain(name)))
        if isinstance(obj, Tree) and obj.data == "name" and str(obj.children[0]) == "event":
            return self.t["attr.event"].format(b=self.n.plain(name))
        if name == "type":
            return self.t["attr.type"].format(a=self.x(obj))
        words = self.n.attrs.get(name) or self.n.plain(name)
        if not self.lang.startswith("zh") and words[:1].isupper() and not words[1:2].isupper():
            words = words[:1].lower() + words[1:]
        return self.t["attr"].format(a=self.x(obj), b=words)

    def x_index(self, n):
        return self.t["index"].format(a=self.x(n.children[0]), b=self.x(n.children[1]))

    def x_list_(self, n):
        return self.t["list_"].format(a=self.t["sep"].join(self.x(c) for c in n.children))

    def x_number(self, n):
        return self.t["number"].format(a=str(n.children[0]))

    def x_string(self, n):
        raw = str(n.children[0])[1:-1]
        if raw in self.n.globals:
            return self.n.globals[raw]
        return self.t["string"].format(a=self.n.plain(raw) if raw.isidentifier() else raw)

    def x_name(self, n):
        name = str(n.children[0])
        if name in self.locals:
            return self.local(name)
        if name in self.t and name not in ("sep", "cond"):
            return self.t[name]
        if name in self.n.globals:
            return self.n.globals[name]
        if name in self.n.defs:
            return self.formula(name, [])
        return self.local(name)

    def local(self, name) -> str:
        return f"*{name}*"

    def formula(self, name, args) -> str:
        return f"*{name}*" + (f"({', '.join(args)})" if args else "")

    def x_call(self, n):
        name, *args = n.children
        name = str(name)
        words = [self.x(a) for a in args]
        if name in self.n.defs:
            return self.formula(name, words)
        key = f"{name}/{len(words)}"
        tpl = self.f.get(key) or self.f.get(name)
        if tpl is None:
            return self.t["call"].format(a=name, b=self.t["sep"].join(words))
        return tpl.format(*words, all=self.t["sep"].join(words))

    def x_call_gen(self, n):
        name, gen = n.children[:2]
        name = str(name)
        e, var, coll, *cond = gen.children
        self.locals.add(str(var))
        parts = dict(x=self.local(var), coll=self.x(coll), e=self.x(e),
                     cond=self.t["cond"].format(c=self.x(cond[0])) if cond else "")
        if name == "count" and not cond and not (isinstance(e, Tree) and e.data == "name" and str(e.children[0]) == str(var)):
            parts["cond"] = self.t["cond"].format(c=parts["e"])
        if name in self.n.defs or "agg." + name not in self.t:
            return self.formula(name, [self.t["genexp"].format(a=f"{parts['e']} for {parts['x']} in {parts['coll']}")])
        text = self.t["agg." + name].format(**parts)
        if len(n.children) > 3 and n.children[3] is not None:  # min/max(..., default = V)
            text += self.t["default"].format(v=self.x(n.children[3]))
        return text

    def x_call_where(self, n):  # connected(x, where t: COND): the call's words, then the condition
        name, *args = n.children
        var, cond = args[-2], args[-1]
        self.locals.add(str(var))
        call = self.x_call(Tree("call", [name, *args[:-2]]))
        return self.t["call_where"].format(a=call, x=self.local(var), c=self.x(cond))

    def x_genexp(self, n):  # only inside call_gen, rendered there; kept for completeness
        e, var, coll, *cond = n.children
        return self.t["genexp"].format(a=f"{self.x(e)} for {self.local(var)} in {self.x(coll)}")


def lines_text(lines, indent: int = 0) -> list[str]:
    """Nested lines as plain indented bullets (for tests and plain text)."""
    out = []
    for text, children in lines:
        out.append("  " * indent + "- " + text)
        out.extend(lines_text(children, indent + 1))
    return out
