"""Writers of the generated rulebook's blocks: Markdown and one HTML page.

Blocks are ("h", level, text), ("p", text), ("ul", [(text, [children...]), ...]) and ("table", header, rows);
text may hold Markdown emphasis (`*x*`, `**x**`) and code (`` `x` ``), which the HTML writer turns into tags
after escaping everything the definition says.
"""

from __future__ import annotations

import html
import re

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
    out = [f'<!DOCTYPE html>\n<html lang="{"zh-Hans" if lang == "zh" else lang}">\n<head><meta charset="utf-8">'
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
