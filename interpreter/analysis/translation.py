"""Translation coverage: which sections of a rulebook text no rule cites, and which citations name no section.

`meeple verify GAME --coverage-of RULEBOOK` reads a plain-text rulebook, collects every `source:` citation of
the definition that names that file, finds the text's sections (`rulebook_outline`: contents, numbering,
layout, and in unbroken text the citations themselves and a heading's shape; repeated copies counted once),
and matches them.

Citations. A source is split at `;`. A part naming a file (`name.txt`, `name.md`) sets the file for its
`§` references and for the following parts that start with `§`; a part naming another document (`reference
§2.6`) ends it. Each `§` reference loses its notes in parentheses; its words are read left to right, the
longest run of words that names a heading first: a run names a heading when, normalized (no punctuation,
spaces or section numbers; a heading's text before its first parenthesis and its last word also count), it
equals the heading's title, or when it is a section number that only one heading has (`§2.2`, `§I`). So
`§船长 装货条件` cites both sections and `§12 個灰色助手說明 午休軌` the section titled 12 個灰色助手說明. A
word that follows a named heading names a part of it: a heading at or after that one, the first of them
when several share a title (`§單人遊戲 遊戲設置`: the setup of the solo part, not the first 遊戲設置), and
otherwise the first heading with that title. A reference that names no heading may
name a term of a `term: value` line (`§玩家人数`), which names the section holding it.
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path

import attrs

from .rulebook_outline import CN_NUM, FOUND_BY, Section, norm, outline, sections  # noqa: F401 (re-exported)

FILE = re.compile(r"([\w.\-]+\.(?:txt|md))")
NUMBER_TOKEN = re.compile(r"[\d.]+|[" + CN_NUM + r"]+|[IVX]+|[A-Za-z]|\d+[a-z]")


def strip_notes(s: str) -> str:
    """The text without parenthesized notes that follow a space (nested ones too) or that are left open."""
    out, depth = [], 0
    prev = ""
    for ch in s:
        if ch in "((" and (depth or prev.isspace()):
            depth += 1
        elif ch in "))" and depth:
            depth -= 1
        elif not depth:
            out.append(ch)
        prev = ch
    return "".join(out)


@attrs.frozen
class Citation:
    ref: str          # the § reference as written
    source: str       # the whole source string
    path: str         # where in the definition (dotted)
    where: str        # file:line:col
    sections: tuple   # the Sections it names (empty: names none)
    hint: str = ""


def _refs(source: str, name: str) -> list:
    """The § references of a source string that name the file `name`."""
    out, current = [], None
    for part in str(source).split(";"):
        part = part.strip()
        m = FILE.search(part)
        if m and part.index(m.group(1)) < (part.index("§") if "§" in part else len(part)):
            current = m.group(1)
        elif not part.startswith("§"):
            current = None
        if current != name:
            continue
        for seg in part.split("§")[1:]:
            seg = seg.strip().rstrip(",,、").strip()
            if seg:
                out.append(seg)
    return out


MAX_WORDS = 12


def _words(ref: str) -> list:
    """A reference's words without notes; a range's dash dropped (`§A–§F` names A and F)."""
    return [w.rstrip("–-~") or w for w in strip_notes(ref).split()[:MAX_WORDS]]


def cited_titles(refs) -> tuple:
    """(titles the references name at their head, titles they name anywhere), normalized: the evidence that
    a short line of unbroken text is a heading."""
    heads, anywhere = set(), set()
    for ref in refs:
        words = _words(ref)
        for i in range(len(words)):
            for j in range(i + 1, len(words) + 1):
                key = norm(" ".join(words[i:j]))
                anywhere.add(key)
                if i == 0:
                    heads.add(key)
    return frozenset(heads - {""}), frozenset(anywhere - {""})


def _keys(span: list) -> list:
    """The index keys a run of a reference's words may name."""
    if len(span) == 1:
        t = span[0]
        if NUMBER_TOKEN.fullmatch(t.strip(".")):
            return ["#" + t.strip("."), norm(t)]
        if re.fullmatch(r"[((]\d+[))]", t):
            return [f"#({t[1:-1]})"]
        if re.fullmatch(r"[\d–\-#]+", t):
            return []
    return [norm(" ".join(span))]


def _resolve(words: list, index: dict) -> list:
    """The Sections a reference's words name, read left to right, the longest run first."""
    hits, anchor, i = [], None, 0
    while i < len(words):
        for j in range(len(words), i, -1):
            # after a heading, words name a part of it: a heading at or after it (the first of a shared title)
            found = [s for k in _keys(words[i:j]) for s in index.get(k, ()) if anchor is None or s.line >= anchor]
            if found:
                if found[0] not in hits:
                    hits.append(found[0])
                anchor, i = found[0].line, j
                break
        else:
            i += 1
    return hits


def _match(ref: str, index: dict, terms: dict) -> tuple:
    words = _words(ref)
    return tuple(_resolve(words, index) or _resolve(words, terms))


def walk_sources(sections_, prefix=()):
    """(path, source string) of every `source` in the definition's sections."""
    if isinstance(sections_, dict):
        for k, v in sections_.items():
            if k == "source" and isinstance(v, str):
                yield prefix, v
            else:
                yield from walk_sources(v, prefix + (k,))
    elif isinstance(sections_, list):
        for i, v in enumerate(sections_):
            yield from walk_sources(v, prefix + (i,))


def coverage_of(game, rulebook: Path) -> dict:
    """The rulebook's sections no citation names, and the citations of it that name no section."""
    text = Path(rulebook).read_text(encoding="utf-8")
    name = Path(rulebook).name
    definition = game.definition
    refs = [(path, src, ref) for path, src in walk_sources(definition.sections) for ref in _refs(src, name)]
    book = outline(text, cited_titles(ref for _, _, ref in refs))
    secs = book.sections
    index: dict = {}
    terms: dict = {}
    for s in secs:
        for a in s.aliases:
            index.setdefault(a, []).append(s)
        for t in s.terms:
            terms.setdefault(t, []).append(s)
    cites = []
    for path, src, ref in refs:
        hits = _match(ref, index, terms)
        hint = ""
        if not hits:
            close = difflib.get_close_matches(norm(strip_notes(ref)), list(index), n=1, cutoff=0.5)
            if close:
                hint = index[close[0]][0].title
        loc = definition.where(path + ("source",))
        cites.append(Citation(ref, src, ".".join(map(str, path)), str(loc) if loc else "", hits, hint))
    cited: dict = {}
    for c in cites:
        for s in c.sections:
            cited[s.line] = cited.get(s.line, 0) + 1
    other_files = sorted({m for _, src in walk_sources(definition.sections) for m in FILE.findall(src)} - {name})
    return {
        "rulebook": name, "sections": len(secs), "sections_with_text": sum(s.has_text for s in secs),
        "found_by": {how: sum(1 for s in secs if s.found_by == how) for how in FOUND_BY},
        "layout": "unbroken" if book.unbroken else "blank lines",
        "repeats": [attrs.asdict(r) for r in book.repeats],
        "headings": [{"title": s.title, "line": s.line, "number": s.number, "found_by": s.found_by,
                      "has_text": s.has_text, "citations": cited.get(s.line, 0)} for s in secs],
        "citations": len(cites), "matched": sum(1 for c in cites if c.sections),
        "uncited": [{"title": s.title, "line": s.line} for s in secs if s.has_text and s.line not in cited],
        "unknown": [{"ref": c.ref, "where": c.where, "path": c.path, "did_you_mean": c.hint}
                    for c in cites if not c.sections],
        "other_files_cited": other_files,
    }


FOUND_WORDS = {"contents": "named by the contents", "numbering": "numbered",
               "layout": "a short line after a blank line or first", "citation": "a short line a citation names",
               "shape": "a short line alone before text"}


def coverage_text(rep: dict, game_id: str) -> str:
    how = ", ".join(f"{n} {FOUND_WORDS[k]}" for k, n in rep.get("found_by", {}).items() if n)
    lines = [f"meeple verify {game_id} --coverage-of {rep['rulebook']}",
             f"rulebook: {rep['sections']} sections ({rep['sections_with_text']} with text); "
             f"{rep['citations']} citations of it in the definition, {rep['matched']} name a section",
             f"headings ({'no blank lines' if rep.get('layout') == 'unbroken' else 'laid out with blank lines'}): "
             f"{how or 'none'}"]
    for r in rep.get("repeats", ()):
        lines.append(f"  lines {r['first']}–{r['last']} repeat lines {r['of_first']}–{r['of_last']}: counted once")
    if not rep["citations"]:
        lines.append(f"  no rule cites {rep['rulebook']}; the definition cites: {', '.join(rep['other_files_cited']) or 'nothing'}")
    lines.append(f"sections no rule cites: {len(rep['uncited'])}")
    lines.extend(f"  line {u['line']}: {u['title']}" for u in rep["uncited"])
    lines.append(f"citations that name no section: {len(rep['unknown'])}")
    for u in rep["unknown"]:
        hint = f"; did you mean §{u['did_you_mean']}?" if u["did_you_mean"] else ""
        lines.append(f"  {u['where']}: §{u['ref']} ({u['path']}){hint}")
    return "\n".join(lines)
