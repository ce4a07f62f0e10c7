"""Build step of the `meeple` distribution (the metadata lives in pyproject.toml).

The engine reads three top-level folders of the repository: `schemas/`, `grammar/` and `gamedefs/`.
In a checkout, `interpreter.definition.resources.data_dir(name)` finds them beside the package. An installed
wheel has no repository around it, so the build copies each folder into the package as
`interpreter/_data/<name>`, where `data_dir` looks next. The source distribution carries the folders
too, so a wheel built from it is complete.
"""
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

ROOT = Path(__file__).resolve().parent
DATA_FOLDERS = ("schemas", "grammar", "gamedefs")
IGNORE = shutil.ignore_patterns("__pycache__", "*.py[co]", ".*")


def _copy_folders(target: Path) -> None:
    for name in DATA_FOLDERS:
        source = ROOT / name
        if not source.is_dir():
            raise SystemExit(f"setup.py: the data folder {name}/ is missing beside setup.py")
        dest = target / name
        if dest.exists():
            shutil.rmtree(dest)
        shutil.copytree(source, dest, ignore=IGNORE)


class build_py_with_data(build_py):
    """build_py, then copy the data folders into <build_lib>/interpreter/_data/."""

    def run(self):
        editable = getattr(self, "editable_mode", False)
        if not editable:  # no stale module or data file of an earlier build in the wheel
            shutil.rmtree(Path(self.build_lib) / "interpreter", ignore_errors=True)
        super().run()
        if editable:
            return  # an editable install reads the folders of the checkout itself
        _copy_folders(Path(self.build_lib) / "interpreter" / "_data")


class sdist_with_data(sdist):
    """sdist, with the data folders in the release tree."""

    def make_release_tree(self, base_dir, files):
        super().make_release_tree(base_dir, files)
        _copy_folders(Path(base_dir))


setup(cmdclass={"build_py": build_py_with_data, "sdist": sdist_with_data})
