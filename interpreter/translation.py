"""Translation coverage: which sections of a rulebook text no rule cites, and which citations name no section.

`meeple verify GAME --coverage-of RULEBOOK` reads a plain-text rulebook, finds its sections, collects every
`source:` citation of the definition that names that file, and matches them.

Sections. A heading is a line that
- a table of contents names (a line `title.......page`), or
- starts with a section number: `一、`, `2、`/`2.1、`/`2.2:` followed by a title with a colon or ending the
  line, or `(2)` followed by a short title and a parenthesis or colon (`(2)航船牌片(蓝色):...`), or
- stands alone after a blank line: short, no sentence punctuation, not a list item, not ending in a colon.
A title that occurs more than once (a repeated "hint" or a page header) is not a section of its own. A
section's text runs to the next heading (contents lines are no text); a section without text is matched but
never reported as uncited.

Citations. A source is split at `;`. A part naming a file (`name.txt`, `name.md`) sets the file for its
`§` references and for the following parts that start with `§`; a part naming another document (`reference
§2.6`) ends it. Each `§` reference loses its notes in parentheses; it matches a section when its words,
normalized (no punctuation, spaces or section numbers; a heading's text before its first parenthesis also
counts), equal a heading's, or when one of its words does (`§船长 装货条件` cites both sections), or when it
is a section number that only one heading has (`§2.2`).
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path

import attrs

CN_NUM = "一二三四五六七八九十"
NUMBERED = re.compile(r"^(?P<num>[" + CN_NUM + r"]+)、(?P<title>.+)$"
                      r"|^(?P<num2>\d+(?:\.\d+)*)[、::.](?P<title2>.+)$"
                      r"|^[((](?P<num3>\d+)[))](?P<title3>.+)$")
TOC = re.compile(r"^(?P<title>.+?)\.{4,}\s*\d+\s*$")
SENTENCE = re.compile(r"[。,,;;!?!?]")
LIST_MARK = ("–", "-", "•", "*", "(", "(", "|")
FILE = re.compile(r"([\w.\-]+\.(?:txt|md))")


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


def norm(s: str) -> str:
    """A title reduced to its letters and digits, lower case, without a leading section number."""
    s = s.strip()
    m = NUMBERED.match(s)
    if m:
        s = m.group("title") or m.group("title2") or m.group("title3") or s
    return "".join(ch for ch in s if ch.isalnum()).lower()


@attrs.frozen
class Section:
    title: str
    line: int
    number: str
    aliases: tuple
    has_text: bool


@attrs.frozen
class Citation:
    ref: str          # the § reference as written
    source: str       # the whole source string
    path: str         # where in the definition (dotted)
    where: str        # file:line:col
    sections: tuple   # titles of the sections it names (empty: names none)
    hint: str = ""


def _heading(line: str, prev_blank: bool, toc: set):
    """(title, number) if the line is a heading, else None."""
    s = line.strip()
    if not s or TOC.match(s):
        return None
    m = NUMBERED.match(s)
    if norm(s.rstrip("::")) in toc:
        num = (m.group("num") or m.group("num2") or "") if m else ""
        return ((m.group("title") or m.group("title2")) if m and num else s).rstrip("::"), num
    if m:
        if m.group("num"):
            title = m.group("title").rstrip("::")
            return (title, m.group("num")) if len(title) <= 24 and not SENTENCE.search(title) else None
        if m.group("num2"):
            title = m.group("title2")
            head = re.split(r"[。,,;;]", title)[0]
            if ((":" in head or ":" in head) or (s.endswith((":", ":")) and not SENTENCE.search(title))) \
                    and len(head) <= 30:
                return title.rstrip("。::"), m.group("num2")
            return None
        title = m.group("title3")
        head = re.split(r"[((::]", title)[0]
        if len(head) <= 6 and len(head) < len(title) and not SENTENCE.search(head):
            return head, f"({m.group('num3')})"
        return None
    if (prev_blank and len(s) <= 30 and not SENTENCE.search(s) and not s.startswith(LIST_MARK)
            and not s.endswith((":", ":"))):
        return s, ""
    return None


def sections(text: str) -> list:
    """The sections of a rulebook text, in order."""
    lines = text.splitlines()
    toc = {norm(m.group("title")) for m in map(TOC.match, (ln.strip() for ln in lines)) if m}
    found = []   # (line index, title, number)
    prev_blank = True
    for i, ln in enumerate(lines):
        h = _heading(ln, prev_blank, toc)
        if h:
            found.append((i, h[0], h[1]))
        prev_blank = not ln.strip()
    counts: dict = {}
    for ln in lines:  # a title that stands on several lines is a repeated hint or a page header
        counts[norm(ln)] = counts.get(norm(ln), 0) + 1
    found = [f for f in found if counts.get(norm(f[1]), 1) <= 1 and norm(f[1])]
    numbers: dict = {}
    for _, _, num in found:
        if num:
            numbers[num] = numbers.get(num, 0) + 1
    out = []
    for k, (i, title, num) in enumerate(found):
        end = found[k + 1][0] if k + 1 < len(found) else len(lines)
        body = "".join("".join(ln for ln in lines[i + 1:end] if not TOC.match(ln.strip())).split())
        aliases = {norm(title), norm(re.split(r"[((]", title)[0])}
        words = title.split()
        if len(words) > 1:
            aliases.add(norm(words[-1]))
        if num and numbers[num] == 1:
            aliases.add("#" + num)
        out.append(Section(title, i + 1, num, tuple(sorted(a for a in aliases if a)), len(body) >= 10))
    return out


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


def _match(ref: str, index: dict) -> tuple:
    body = strip_notes(ref).strip()
    tokens = [t for t in body.split() if t]
    keys = [norm(body)] if len(tokens) > 1 else []
    for t in tokens:
        if re.fullmatch(r"[\d.]+|[" + CN_NUM + "]+", t):
            keys.append("#" + t.strip("."))
        elif re.fullmatch(r"[((]\d+[))]", t):
            keys.append(f"#({t[1:-1]})")
        elif not re.fullmatch(r"[\d–\-#]+", t):
            keys.append(norm(t))
    hits = []
    for k in keys:
        for s in index.get(k, ()):
            if s.title not in hits:
                hits.append(s.title)
        if k == keys[0] and hits and len(tokens) > 1:
            break
    return tuple(hits)


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
    secs = sections(text)
    index: dict = {}
    for s in secs:
        for a in s.aliases:
            index.setdefault(a, []).append(s)
    name = Path(rulebook).name
    cites = []
    definition = game.definition
    for path, src in walk_sources(definition.sections):
        for ref in _refs(src, name):
            hits = _match(ref, index)
            hint = ""
            if not hits:
                close = difflib.get_close_matches(norm(strip_notes(ref)), list(index), n=1, cutoff=0.5)
                if close:
                    hint = next(s.title for s in index[close[0]])
            loc = definition.where(path + ("source",))
            cites.append(Citation(ref, src, ".".join(map(str, path)), str(loc) if loc else "", hits, hint))
    cited = {t for c in cites for t in c.sections}
    other_files = sorted({m for _, src in walk_sources(definition.sections) for m in FILE.findall(src)} - {name})
    return {
        "rulebook": name, "sections": len(secs), "sections_with_text": sum(s.has_text for s in secs),
        "citations": len(cites), "matched": sum(1 for c in cites if c.sections),
        "uncited": [{"title": s.title, "line": s.line} for s in secs if s.has_text and s.title not in cited],
        "unknown": [{"ref": c.ref, "where": c.where, "path": c.path, "did_you_mean": c.hint}
                    for c in cites if not c.sections],
        "other_files_cited": other_files,
    }


def coverage_text(rep: dict, game_id: str) -> str:
    lines = [f"meeple verify {game_id} --coverage-of {rep['rulebook']}",
             f"rulebook: {rep['sections']} sections ({rep['sections_with_text']} with text); "
             f"{rep['citations']} citations of it in the definition, {rep['matched']} name a section"]
    if not rep["citations"]:
        lines.append(f"  no rule cites {rep['rulebook']}; the definition cites: {', '.join(rep['other_files_cited']) or 'nothing'}")
    lines.append(f"sections no rule cites: {len(rep['uncited'])}")
    lines.extend(f"  line {u['line']}: {u['title']}" for u in rep["uncited"])
    lines.append(f"citations that name no section: {len(rep['unknown'])}")
    for u in rep["unknown"]:
        hint = f"; did you mean §{u['did_you_mean']}?" if u["did_you_mean"] else ""
        lines.append(f"  {u['where']}: §{u['ref']} ({u['path']}){hint}")
    return "\n".join(lines)
