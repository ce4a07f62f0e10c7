"""The counts `.ci/run` prints after the suite: the browser tests and the plot tests, from pytest's JUnit XML.

    python tests/ci_counts.py RESULTS.xml --require-browser 1

Prints one line per group, `browser tests: passed N, failed N, skipped N` (worded so that no reader of CI
logs takes it for the suite's closing line); exits 1 when the browser tests are
required (where `.ci/run` can install Chromium) and not every one of them ran and passed, or when a plot
test did not run (matplotlib is a test extra). Not a test module: pytest does not collect it.
"""
from __future__ import annotations

import sys
import xml.etree.ElementTree as ET

GROUPS = {"browser tests": lambda c, n: c.endswith("test_browser"),
          "plot tests": lambda c, n: c.endswith("test_compare") and "plot" in n and "without" not in n}


def counts(path: str) -> dict:
    """{group: {"passed", "failed", "skipped"}} of the test cases in a JUnit XML file."""
    out = {g: {"passed": 0, "failed": 0, "skipped": 0} for g in GROUPS}
    for case in ET.parse(path).iter("testcase"):
        cls, name = case.get("classname", ""), case.get("name", "")
        for group, member in GROUPS.items():
            if member(cls, name):
                kind = ("failed" if case.find("failure") is not None or case.find("error") is not None
                        else "skipped" if case.find("skipped") is not None else "passed")
                out[group][kind] += 1
    return out


def main(argv: list[str]) -> int:
    path = argv[0]
    required = len(argv) > 2 and argv[1] == "--require-browser" and argv[2] == "1"
    found = counts(path)
    ok = True
    for group, c in found.items():
        print(f"{group}: passed {c['passed']}, failed {c['failed']}, skipped {c['skipped']}")
    b, p = found["browser tests"], found["plot tests"]
    if required and (b["passed"] == 0 or b["failed"] or b["skipped"]):
        print("ci_counts: the browser tests must all run and pass here (Chromium can be installed)")
        ok = False
    if p["passed"] == 0 or p["failed"] or p["skipped"]:
        print("ci_counts: the plot tests must all run and pass (matplotlib is a test extra)")
        ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
