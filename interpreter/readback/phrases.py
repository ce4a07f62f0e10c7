"""DSL trees in words: expressions and statements of a definition as English or Chinese sentences.

`Phrases(names, lang)` renders the Lark tree of an expression (`expr(text)`) or of a block of statements
(`stmts(text)`, nested lines) with the definition's own labels (`Names`): `player.doubloons += 1` reads
"add 1 to the player's doubloons" / "该玩家的杜布隆增加1". Every construct of grammar/dsl.lark has a template
in each language (interpreter/readback/phrase_templates.py), and so has every function of the vocabulary; a
call of a named definition (`defs`) stays a formula, *price*(the player, *b*), named by its label, which the
rules text defines once. Arithmetic is written with symbols in both languages. The structural language `dsl`
writes the DSL back (names as identifiers, every construct parenthesized), so a test can parse a rendering
again and find every operand. Nothing here reads a game's nouns: only labels.
"""

from __future__ import annotations

from lark import Token, Tree

from ..language.dsl import parse_expr, parse_stmts
from .phrase_templates import AGGREGATE_NAMES, FUNCTION_WORDS, STRUCTURAL, TEMPLATES, UNSAID

__all__ = ["AGGREGATE_NAMES", "FUNCTION_WORDS", "STRUCTURAL", "TEMPLATES", "UNSAID", "Names", "Phrases",
           "humanize", "lines_text"]

# Names the language itself gives (the template of the same key says them).
BUILTINS = ("player", "players", "player_count", "none", "true", "false", "game_ending", "pieces", "self", "event")


def humanize(name: str) -> str:
    return str(name).replace("_", " ")


class Names:
    """The labels a definition gives its names, in one language: a name's own `label`, else its entry in the
    `labels:` section, else the name itself (humanized in English, as code in Chinese, so that it shows).
    In the structural language every name is its identifier."""

    def __init__(self, definition, lang: str):
        self.lang = lang
        self.structural = lang == STRUCTURAL
        d = definition.sections
        self.extra = d.get("labels") or {}
        self.globals: dict = {}   # a name usable in expressions -> words
        self.attrs: dict = {}     # an attribute (player var, zone, parameter, field, property) -> words
        self.classes: dict = {}   # a component class -> words
        self.events: dict = {}    # an event -> words
        self.defs: dict = {}      # a named definition -> words
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
                lab = (v.get("labels") or {}).get(val)
                self.globals[str(val)] = self.text(lab, val) if lab else self.named(val)
        for cls, c in (d.get("components") or {}).items():
            c = c if isinstance(c, dict) else {}
            self.classes[cls] = self.label(c, cls)
            for t, tv in (c.get("types") or {}).items():
                self.globals[t] = self.label(tv, t)
            for f, fv in (c.get("fields") or {}).items():
                self.attrs.setdefault(f, self.label(fv, f))
            for prop in (c.get("properties") or {}):
                self.attrs.setdefault(prop, self.named(prop))
        for section in ("phases", "steps"):
            for k, v in (d.get(section) or {}).items():
                self.globals.setdefault(k, self.label(v, k))
        for k, v in (d.get("events") or {}).items():
            # an event's own label narrates each emission (with holes): its name here is in `labels:`
            lab = v.get("label") if isinstance(v, dict) else None
            self.events[k] = self.named(k) if k in self.extra or not lab else self.text(lab, k)
        for k, v in (((d.get("end") or {}).get("triggers")) or {}).items():
            self.globals[k] = self.label(v, k)
        for k, v in (d.get("scripted_seats") or {}).items():  # a scripted seat reads as its label
            self.globals[k] = self.label(v, k)
        self.options = {k: self.label(v, k) for k, v in (d.get("options") or {}).items()}
        for k in (d.get("defs") or {}):
            name = str(k).split("(")[0].strip()
            self.defs[name] = self.named(name)

    def text(self, value, fallback) -> str:
        if self.structural:
            return str(fallback)
        if isinstance(value, dict):
            return str(value.get(self.lang) or value.get("en") or self.plain(fallback))
        return str(value) if value else self.plain(fallback)

    def label(self, entry, fallback) -> str:
        lab = entry.get("label") if isinstance(entry, dict) else None
        return self.text(lab, fallback) if lab else self.named(fallback)

    def named(self, name) -> str:
        """A name by its entry in the `labels:` section, else as itself."""
        lab = self.extra.get(str(name))
        return self.text(lab, name) if lab else self.plain(name)

    def argument(self, name) -> str:
        """An event's argument (`event.NAME`): its label, or the label of what it is named after."""
        if name in self.extra or self.structural:
            return self.named(name)
        for table in (self.classes, self.globals, self.attrs):
            if name in table:
                return table[name]
        return self.plain(name)

    def plain(self, name) -> str:
        """A name no label explains: humanized in English, the identifier itself in Chinese (as code, so it
        shows; the lint names it) and in the structural language."""
        if self.structural:
            return str(name)
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
            return self.cap(self.t["emit"].format(a=self.n.events.get(str(name), self.n.named(name)),
                                                  b=self.t["sep"].join(self.x(a) for a in args)))
        if k == "pass_stmt":
            return self.cap(self.t["pass_stmt"])
        return self.cap(self.x(st.children[0]))

    def cap(self, s: str) -> str:
        return s if self.lang.startswith("zh") or self.n.structural else s[:1].upper() + s[1:]

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
            arg = self.t["arg.player"] if name == "player" else self.n.argument(name)
            return self.t["attr.event"].format(b=arg)
        if name == "type":
            return self.t["attr.type"].format(a=self.x(obj))
        words = self.n.attrs.get(name) or self.n.named(name)
        if not self.lang.startswith("zh") and not self.n.structural and words[:1].isupper() and not words[1:2].isupper():
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
        if raw in self.n.globals:  # a string naming something (a phase, a type) reads as its label
            return self.t["string.name"].format(a=self.n.globals[raw])
        return self.t["string"].format(a=self.n.named(raw) if raw.isidentifier() else raw)

    def x_name(self, n):
        name = str(n.children[0])
        if name in self.locals:
            return self.local(name)
        if name in BUILTINS:
            return self.t[name]
        if name in self.n.globals:
            return self.n.globals[name]
        if name in self.n.defs:
            return self.formula(name)
        return self.local(name)

    def local(self, name) -> str:
        return self.t["local"].format(a=name)

    def formula(self, name, args=None) -> str:
        """A named definition: by its label, as a formula (called with `args`, or named bare)."""
        words = self.n.defs.get(name, name)
        if args is None:
            return self.t["def"].format(a=words)
        return self.t["def.call"].format(a=words, b=", ".join(args))   # a formula: its arguments as in math

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
        parts = dict(x=self.local(var), coll=self.x(coll), e=self.x(e), default="",
                     cond=self.t["cond"].format(c=self.x(cond[0])) if cond else "")
        itself = isinstance(e, Tree) and e.data == "name" and str(e.children[0]) == str(var)
        if len(n.children) > 3 and n.children[3] is not None:  # min/max(..., default = V)
            parts["default"] = self.t["default"].format(v=self.x(n.children[3]))
        if name in self.n.defs or "agg." + name not in self.t:
            return self.formula(name, [self.t["genexp"].format(**parts)])
        key = "agg." + name
        if name == "count" and not cond and not itself:
            key = "agg.count.true"     # count(b for x in xs): the x for which b holds
        elif name == "first" and not itself:
            key = "agg.first.of"       # first(k + 1 for k in ...): the element, not the item
        elif name == "list" and itself:
            key = "agg.list.items"     # list(x for x in xs if c): the items themselves
        return self.t[key].format(**parts)

    def x_call_where(self, n):  # connected(x, where t: COND): the call's words, then the condition
        name, *args = n.children
        var, cond = args[-2], args[-1]
        self.locals.add(str(var))
        call = self.x_call(Tree("call", [name, *args[:-2]]))
        return self.t["call_where"].format(a=call, n=str(name), args=self.t["sep"].join(self.x(a) for a in args[:-2]),
                                           x=self.local(var), c=self.x(cond))

    def x_genexp(self, n):  # only inside call_gen, rendered there; kept for completeness
        e, var, coll, *cond = n.children
        return self.t["genexp"].format(e=self.x(e), x=self.local(var), coll=self.x(coll),
                                       cond=self.t["cond"].format(c=self.x(cond[0])) if cond else "")


def lines_text(lines, indent: int = 0) -> list[str]:
    """Nested lines as plain indented bullets (for tests and plain text)."""
    out = []
    for text, children in lines:
        out.append("  " * indent + "- " + text)
        out.extend(lines_text(children, indent + 1))
    return out
