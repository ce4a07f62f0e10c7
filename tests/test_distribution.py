"""The distribution ships the whole engine: every subpackage of interpreter/ is listed in pyproject.toml.

A folder missing from the list is missing from the wheel: the checkout's tests pass, the installed command
fails to import (that happened once, when `interpreter/commands/` was added).
"""
import tomllib
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent


def test_every_subpackage_of_the_engine_is_in_the_wheel():
    listed = set(tomllib.loads((TOP / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    on_disk = {".".join(p.parent.relative_to(TOP).parts) for p in (TOP / "interpreter").rglob("__init__.py")
               if "_data" not in p.parts}
    assert on_disk - listed == set(), "add these packages to [tool.setuptools] packages"
    assert listed - on_disk == set(), "these listed packages do not exist"
