"""Where the project's data folders (schemas/, grammar/, gamedefs/) are.

In a checkout they sit next to the package (`<repo>/schemas`); an installed package ships
them as package data (`interpreter/_data/schemas`).
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent  # interpreter/


def data_dir(name: str) -> Path:
    """The folder `name` (e.g. "schemas"): `<repo>/name` in a checkout, else the package's
    `_data/name`. Raises FileNotFoundError naming both places if neither exists."""
    repo = _PACKAGE.parent / name
    # When installed, the package's parent is site-packages, whose own `schemas` or
    # `grammar` folder (if any) belongs to somebody else.
    if repo.is_dir() and _PACKAGE.parent.name not in ("site-packages", "dist-packages"):
        return repo
    packaged = _PACKAGE / "_data" / name
    if packaged.is_dir():
        return packaged
    raise FileNotFoundError(f"data folder {name!r} not found: looked in {repo} and {packaged}")


def checkout_dir(start: Path | None = None) -> Path | None:
    """The meeple checkout the working directory is in (a folder with gamedefs/, schemas/ and
    interpreter/), or None. An author editing `gamedefs/GAME` there means that copy, not an installed one."""
    here = Path(start or Path.cwd()).resolve()
    for d in (here, *here.parents):
        if (d / "gamedefs").is_dir() and (d / "schemas").is_dir() and (d / "interpreter").is_dir():
            return d
    return None


def gamedefs_dirs() -> list[Path]:
    """Where a bare game name is looked up, in order: the checkout's gamedefs/ (when the working directory
    is inside one), then the package's own."""
    out = []
    co = checkout_dir()
    if co is not None:
        out.append(co / "gamedefs")
    try:
        own = data_dir("gamedefs")
        if not out or own.resolve() != out[0].resolve():
            out.append(own)
    except FileNotFoundError:
        pass
    return out
