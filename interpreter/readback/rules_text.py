"""A rulebook generated from a definition alone: `meeple rules GAME --lang en|zh --format md|html`.

`rulebook(game, lang, base=None)` builds the document as blocks (headings, paragraphs, nested lists, tables)
from the definition: the game and its player counts, components and their counts by player count, setup
tables, the flow as an outline, the phases, every step and action with its condition and effect, hooks,
modifiers, named definitions, scoring, end triggers and tie-breakers, the options and disputed rules. Every
rule shows its source; provisional and disputed rules are marked, and with `base` (the game without the
variant) the rules the variant changes are marked too (interpreter/analysis/diff.py finds them). Expressions and
effects are put in words by interpreter/readback/phrases.py; interpreter/readback/rules_writers.py writes the blocks as
Markdown or HTML.
"""

from __future__ import annotations

import re

from ..definition.naming import text_in
from .phrases import Names, Phrases, humanize
from .rules_sections import RuleSections, TableSections
from .rules_words import WORDS, _one_line, _text

HOLE = re.compile(r"\{([^{}]*)\}")


class Rulebook(TableSections, RuleSections):
    """Builds the blocks of one game's generated rulebook in one language."""

    def __init__(self, game, lang="en", changed=()):
        self.g, self.d, self.lang = game, game.definition.sections, lang
        self.w = WORDS.get(lang, WORDS["en"])  # the words of the generated text; a language without them: English
        self.names = Names(game.definition, lang)
        self.ph = Phrases(self.names)
        self.ids = lang == "en"         # identifiers (action ids, option names) are shown in English only
        self.changed = list(changed)   # (path, text) of the variant's changes
        self.blocks: list = []
        self.rules = self._rule_texts()
        self.disputed = self._disputed_paths()
        self.provisional = self._provisional_names()

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

    def note(self, value) -> str:
        """A provisional note in the text's language (a note written as a plain string is English)."""
        return _one_line(text_in(value, self.lang))

    def marks(self, path, entry) -> list:
        """Source, provisional note, provisional values read, dispute and variant change of one rule, as lines."""
        out = []
        src = entry.get("source") if isinstance(entry, dict) else None
        if src:
            out.append((f"{self.w['source']}: {_one_line(src)}", []))
        if isinstance(entry, dict) and entry.get("provisional"):
            out.append((f"**{self.w['provisional']}**: {self.note(entry['provisional'])}", []))
        read = self.reads_provisional(path)
        if read:
            out.append((f"**{self.w['reads_provisional']}**: {', '.join(read)}", []))
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
            name = str(k).split("(")[0].strip()
            out.append((f"defs.{name}", f"{self.w['defs']}: *{self.names.defs.get(name, name)}*", list(texts(v))))
        for k, v in (d.get("hooks") or {}).items():
            out.append((f"hooks.{k}", f"{self.w['hooks']}: {self.label(v, k)}", list(texts(v))))
        for k, v in (d.get("phases") or {}).items():
            out.append((f"phases.{k}", f"{self.w['phase']} {self.label(v, k)}", list(texts(v.get("flow")))))
        for sid, st in (d.get("steps") or {}).items():
            for aid, a in ((st or {}).get("actions") or {}).items():
                out.append((f"steps.{sid}.actions.{aid}", f"{self.label(st, sid)}: {self.action_name(aid, a)}",
                            list(texts(a))))
        for k, v in (d.get("procedures") or {}).items():
            name = str(k).split("(")[0].strip()
            out.append((f"procedures.{name}", f"{self.w['procedures']}: *{self.names.named(name)}*", list(texts(v))))
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

    def action_name(self, aid, a) -> str:
        """An action by its label, its holes left open (…); without a label, by its name."""
        lab = (a or {}).get("label") if isinstance(a, dict) else None
        if lab:
            return HOLE.sub("…", _text(lab, self.lang, humanize(aid)))
        return self.names.named(aid)

    def _provisional_names(self) -> dict:
        """name -> label of every table, var, parameter and component type marked provisional."""
        d, out = self.d, {}
        for k, v in (d.get("tables") or {}).items():
            if isinstance(v, dict) and v.get("provisional"):
                out[k] = self.label(v, k)
        for scope in ("global", "player"):
            for k, v in ((d.get("vars") or {}).get(scope) or {}).items():
                if isinstance(v, dict) and v.get("provisional"):
                    out[k] = self.label(v, k)
        for k, v in (d.get("parameters") or {}).items():
            if isinstance(v, dict) and v.get("provisional"):
                out[k] = self.label(v, k)
        for cls, c in (d.get("components") or {}).items():
            for t, tv in ((c or {}).get("types") or {}).items():
                if isinstance(tv, dict) and (tv.get("provisional") or (c or {}).get("provisional")):
                    out[t] = self.label(tv, t)
        return out

    def reads_provisional(self, path) -> list:
        """The labels of the provisional values the rule at `path` names in its text."""
        texts = next((txts for p, _, txts in self.rules if p == path), None)
        if not texts or not self.provisional:
            return []
        words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", " ".join(texts)))
        return [label for name, label in self.provisional.items() if name in words]

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
            return self.ph.t["none"] if v == "none" else self.names.globals.get(v, v)
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
        self.procedures()
        self.scoring()
        self.options()
        return self.blocks


def rulebook(game, lang: str = "en", base=None) -> list:
    """The blocks of the generated rulebook; with `base` (the game without the variant), changed rules marked."""
    changed = []
    if base is not None:
        from ..analysis.diff import rules_diff
        report = rules_diff(base.definition, game.definition, lang=lang)
        changed = [(c["path"], c["text"]) for c in report["changes"]]
    return Rulebook(game, lang, changed).build()
