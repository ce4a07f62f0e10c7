"""The sections of a plain-text rulebook: which lines are headings, and which text is a repeated copy.

`outline(text, cited)` combines several signals, none of them tied to a game or a language's nouns:

- **contents**: a table of contents (`title.......page`) names a heading;
- **numbering**: `一、title`, `2、title:`/`2.1、title:`, `(2)title(…)`, and `I、`/`A、`/`1a、`/`1、` followed by a
  short title without sentence punctuation when body text follows and the line does not continue a list of
  consecutive numbers (`I、… II、… III、…` written one under another is an outline of what follows, not a heading);
- **layout**: in text laid out with blank lines, a short line without sentence punctuation that stands alone
  after a blank line (not a list item, not ending in a colon introducing a list);
- in **unbroken text** (almost no blank lines, where layout shows nothing) a short line without sentence
  punctuation, not a list item, not one of a run of similar lines (a list, a table, `key: value` lines), is a
  heading when
  - **a citation** names it (`cited`: the words the definition's citations use; a line ending in a colon
    must be named at the head of a citation, since such a line usually introduces a list), or
  - its **shape** leaves no doubt: at most 12 characters, no colon, no digit, after a finished sentence and
    before body text.

A title that recurs is a label (a hint box, a page header), not a section, unless the text is unbroken and a
citation names it (a rulebook that reuses "setup" in its solo part). A run of at least three lines that repeats
earlier lines word for word (a page pasted twice) is a **repeat**: reported once, its lines neither headings
nor text. A section's text runs to the next heading; a section without text is never reported as uncited.
"""

from __future__ import annotations

import re

import attrs

CN_NUM = "一二三四五六七八九十"
NUMBERED = re.compile(r"^(?P<num>[" + CN_NUM + r"]+)、(?P<title>.+)$"
                      r"|^(?P<num2>\d+(?:\.\d+)*)[、::.](?P<title2>.+)$"
                      r"|^[((](?P<num3>\d+)[))](?P<title3>.+)$"
                      r"|^(?P<num4>[IVX]+|[A-Za-z]|\d+[a-z])、(?P<title4>.+)$")
TOC = re.compile(r"^(?P<title>.+?)\.{4,}\s*\d+\s*$")
SENTENCE = re.compile(r"[。,,;;!?!?]")
LIST_MARK = ("–", "-", "•", "*", "(", "(", "|", "◎", "●", "○", "■", "□", "▪", "※", "·", ".", "【", "[")
LIST_ITEM = re.compile(r"^[A-Za-z0-9]{1,2}[))]")
KEY_VALUE = re.compile(r"^(?P<key>[^::]{1,12})[::]\s*\S")
ENDS_SENTENCE = ("。", "!", "?", "!", "?", ";", ";", ")", ")", "」", "”", ":", ":")
SHORT = 24
FOUND_BY = ("contents", "numbering", "layout", "citation", "shape")


def norm(s: str) -> str:
    """A title reduced to its letters and digits, lower case, without a leading section number."""
    s = s.strip()
    m = NUMBERED.match(s)
    if m:
        s = m.group("title") or m.group("title2") or m.group("title3") or m.group("title4") or s
    return "".join(ch for ch in s if ch.isalnum()).lower()


@attrs.frozen
class Section:
    title: str
    line: int
    number: str
    aliases: tuple
    has_text: bool
    found_by: str = "layout"
    terms: tuple = ()     # keys of its `key: value` lines (normalized)


@attrs.frozen
class Repeat:
    """Lines first..last (1-based) repeat lines of_first..of_last word for word."""
    first: int
    last: int
    of_first: int
    of_last: int


@attrs.frozen
class Outline:
    sections: tuple
    repeats: tuple
    unbroken: bool


def _seq(num: str):
    """(kind, position) of a section number, for telling a list of consecutive numbers."""
    if re.fullmatch(r"[IVX]+", num):
        val, prev = 0, 0
        for ch in reversed(num):
            v = {"I": 1, "V": 5, "X": 10}[ch]
            val, prev = (val - v, prev) if v < prev else (val + v, v)
        return "roman", val
    if re.fullmatch(r"[A-Za-z]", num):
        return ("upper" if num.isupper() else "lower"), ord(num.lower())
    if re.fullmatch(r"\d+[a-z]", num):
        return "sub" + num[:-1], ord(num[-1])
    if re.fullmatch(r"[\d.]+", num):
        parts = num.split(".")
        return "digit" + ".".join(parts[:-1]), int(parts[-1])
    return None


def _number(s: str):
    """(number, title) of a line numbered `I、`, `A、`, `1a、` or `1、` (the shapes checked for lists), else None."""
    m = NUMBERED.match(s)
    if m and m.group("num4"):
        return m.group("num4"), m.group("title4")
    if m and m.group("num2") and s[len(m.group("num2"))] == "、":
        return m.group("num2"), m.group("title2")
    return None


def _in_list(num: str, prev: str, nxt: str) -> bool:
    """Whether the numbered line continues or starts a list of consecutive numbers with its neighbours."""
    kind, pos = _seq(num) or (None, None)
    for other, step in ((prev, 1), (nxt, -1)):
        o = _number(other) if other else None
        if o and _seq(o[0]) and _seq(o[0])[0] == kind and pos - _seq(o[0])[1] == step:
            return True
    return False


def _is_body(s: str) -> bool:
    """Whether a line reads as running text: a sentence or a long line, not a numbered or listed item."""
    return (bool(s) and not NUMBERED.match(s) and not TOC.match(s) and not s.startswith(LIST_MARK)
            and (bool(SENTENCE.search(s)) or len(s) > SHORT))


def _numbered(s: str, prev: str, nxt: str, toc: set):
    """(title, number) if the line is a numbered heading, else None."""
    m = NUMBERED.match(s)
    if not m:
        return None
    if m.group("num"):
        title = m.group("title").rstrip("::")
        return (title, m.group("num")) if len(title) <= SHORT and not SENTENCE.search(title) else None
    if m.group("num3"):
        title = m.group("title3")
        head = re.split(r"[((::]", title)[0]
        if len(head) <= 6 and len(head) < len(title) and not SENTENCE.search(head):
            return head, f"({m.group('num3')})"
        return None
    if m.group("num2"):
        title = m.group("title2")
        head = re.split(r"[。,,;;]", title)[0]
        if ((":" in head or ":" in head) or (s.endswith((":", ":")) and not SENTENCE.search(title))) \
                and len(head) <= 30:
            return title.rstrip("。::"), m.group("num2")
    got = _number(s)
    if got:
        num, title = got
        if (len(title) <= SHORT and not SENTENCE.search(title) and ":" not in title and ":" not in title
                and _is_body(nxt) and not _in_list(num, prev, nxt)):
            return title.strip(), num
    return None


def _runs_with(s: str, other: str) -> bool:
    """Whether two neighbouring lines look like rows of one list or table."""
    if not other:
        return False
    if s[0].isdigit() and other[0].isdigit():
        return True
    return _row(s) and _row(other)


def _row(s: str) -> bool:
    """A short `key: value` line, like the rows of a game's facts."""
    return bool(KEY_VALUE.match(s)) and len(s) <= 30 and not SENTENCE.search(s) and not s.endswith((":", ":"))


def _standalone(s: str, prev: str, nxt: str, cited: tuple, unbroken: bool):
    """'citation' or 'shape' if the short line is a heading of unbroken text, else None."""
    title = s.rstrip(":: ")
    if (not unbroken or not title or len(title) > SHORT or SENTENCE.search(s) or s.startswith(LIST_MARK)
            or LIST_ITEM.match(s) or len(re.findall(r"\d+", s)) > 1 or not nxt
            or _runs_with(s, prev) or _runs_with(s, nxt)):
        return None
    heads, anywhere = cited
    key = norm(title)
    if key in heads or (key in anywhere and not s.endswith((":", ":"))):
        return "citation"
    if (len(title) <= 12 and title == s and not re.search(r"[\d::]", s) and _is_body(nxt)
            and (not prev or prev.endswith(ENDS_SENTENCE))):
        return "shape"
    return None


def _repeats(lines: list) -> list:
    """Runs of at least three non-blank lines that repeat earlier lines word for word, as Repeats."""
    rows = [(i, norm(ln)) for i, ln in enumerate(lines) if ln.strip()]
    seen: dict = {}
    out, p = [], 0
    while p < len(rows):
        key = rows[p][1]
        best = (0, 0)
        for q in seen.get(key, [])[-20:] if key else ():
            k = 0
            while p + k < len(rows) and q + k < p and rows[q + k][1] == rows[p + k][1] and rows[p + k][1]:
                k += 1
            best = max(best, (k, q))
        k, q = best
        if k >= 3 and sum(len(r[1]) for r in rows[p:p + k]) >= 20:
            out.append(Repeat(rows[p][0] + 1, rows[p + k - 1][0] + 1, rows[q][0] + 1, rows[q + k - 1][0] + 1))
            p += k
            continue
        if key:
            seen.setdefault(key, []).append(p)
        p += 1
    return out


def outline(text: str, cited: tuple = (frozenset(), frozenset())) -> Outline:
    """The sections and repeats of a rulebook text. `cited` = (normalized titles citations name at their head,
    normalized titles they name anywhere)."""
    lines = text.splitlines()
    blank = sum(1 for ln in lines if not ln.strip())
    unbroken = blank < 0.1 * len(lines)
    repeats = _repeats(lines)
    copied = {i - 1 for r in repeats for i in range(r.first, r.last + 1)}
    toc = {norm(m.group("title")) for m in map(TOC.match, (ln.strip() for ln in lines)) if m}
    rows = [(i, ln.strip()) for i, ln in enumerate(lines) if ln.strip() and i not in copied]
    found = []   # (line index, title, number, found_by)
    for k, (i, s) in enumerate(rows):
        if TOC.match(s):
            continue
        prev = rows[k - 1][1] if k else ""
        nxt = rows[k + 1][1] if k + 1 < len(rows) else ""
        prev_blank = i == 0 or not lines[i - 1].strip()
        m = NUMBERED.match(s)
        if norm(s.rstrip("::")) in toc:
            num = (m.group("num") or m.group("num2") or "") if m else ""
            title = ((m.group("title") or m.group("title2")) if m and num else s).rstrip("::")
            found.append((i, title, num, "contents"))
        elif m:
            h = _numbered(s, prev, nxt, toc)
            if h:
                found.append((i, h[0], h[1], "numbering"))
        elif (prev_blank and len(s) <= 30 and not SENTENCE.search(s) and not s.startswith(LIST_MARK)
                and not s.endswith((":", ":"))):
            found.append((i, s, "", "layout"))
        else:
            how = _standalone(s, prev, nxt, cited, unbroken)
            if how:
                found.append((i, s.rstrip("::"), "", how))
    counts: dict = {}
    for k, (i, s) in enumerate(rows):  # a title on several lines is a repeated hint or a page header ...
        got = _number(s)
        if got and _in_list(got[0], rows[k - 1][1] if k else "", rows[k + 1][1] if k + 1 < len(rows) else ""):
            continue  # ... but an outline's item announces the heading that repeats it
        counts[norm(s)] = counts.get(norm(s), 0) + 1
    found = [f for f in found if norm(f[1]) and (counts.get(norm(f[1]), 1) <= 1
                                                 or (unbroken and norm(f[1]) in cited[1]))]
    numbers: dict = {}
    for _, _, num, _ in found:
        if num:
            numbers[num] = numbers.get(num, 0) + 1
    out = []
    for k, (i, title, num, how) in enumerate(found):
        end = found[k + 1][0] if k + 1 < len(found) else len(lines)
        body = [ln for j, ln in enumerate(lines[i + 1:end], i + 1) if j not in copied and not TOC.match(ln.strip())]
        aliases = {norm(title), norm(re.split(r"[((]", title)[0])}
        words = title.split()
        if len(words) > 1:
            aliases.add(norm(words[-1]))
        if num and numbers[num] == 1:
            aliases.add("#" + num)
        terms = {norm(m.group("key")) for m in (KEY_VALUE.match(t.strip()) for t in [lines[i]] + body) if m}
        text_len = len("".join("".join(body).split()))
        out.append(Section(title, i + 1, num, tuple(sorted(a for a in aliases if a)), text_len >= 10, how,
                           tuple(sorted(t for t in terms if t))))
    return Outline(tuple(out), tuple(repeats), unbroken)


def sections(text: str, cited: tuple = (frozenset(), frozenset())) -> list:
    """The sections of a rulebook text, in order."""
    return list(outline(text, cited).sections)
