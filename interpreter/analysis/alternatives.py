"""Playing every reading of the disputed rules: `meeple verify GAME --alternatives`.

For each dispute of a game (interpreter/definition/disputes.py) and each of its alternatives, the game's scenarios run
with the dispute's option forced to the alternative's value (over the scenario's own options), and seeded
random play runs with that option. A scenario that passes under some readings and fails under others tells
them apart; a dispute that no scenario tells apart is named, since its readings are then untested.

`run_alternatives` returns plain data (one dict per dispute); `alternatives_text` renders it. A scenario that
fails under a reading other than the default is not a failure of the definition: it shows what the reading
changes. Random play that breaks an invariant or a rule under any reading is.
"""

from __future__ import annotations

from ..definition.disputes import _show
from .scenario import run_game_scenarios


def run_alternatives(game, root, files, play, default_play=None) -> list[dict]:
    """Scenarios and random play under every alternative of every dispute of `game`.

    `files` are the scenario files (None: the game's own); `play(options)` plays the verifier's random games
    with those options and returns (summary by player count, violations); `default_play` is that pair for
    the default options, when the verifier has it already (reused for each default alternative)."""
    out = []
    for d in game.disputes:
        rows = []
        for alt in d.alternatives:
            options = {d.option: alt.value}
            results = run_game_scenarios(game, root, files, options=options)
            row = {"value": alt.value, "default": alt.is_default,
                   "scenarios": {r.name: r.passed for r in results},
                   "passed": sum(r.passed for r in results), "total": len(results)}
            if alt.is_default and default_play is not None:
                row["random_play"], row["violations"] = default_play
            else:
                row["random_play"], row["violations"] = play(options)
            rows.append(row)
        names = list(rows[0]["scenarios"]) if rows else []
        apart = []
        for name in names:
            passes = [r["value"] for r in rows if r["scenarios"].get(name)]
            if 0 < len(passes) < len(rows):
                apart.append({"scenario": name, "passes_under": passes})
        out.append({"dispute": d.id, "option": d.option, "label": d.label, "alternatives": rows,
                    "told_apart_by": apart})
    return out


def alternatives_failed(results) -> bool:
    """Whether random play broke a rule or an invariant under some reading."""
    return any(row["violations"] for entry in results for row in entry["alternatives"])


def alternatives_text(results, lang: str = "en") -> list[str]:
    lines = [f"alternatives: every reading of {len(results)} dispute(s), scenarios and random play"]
    for entry in results:
        lines.append(f"  {entry['dispute']} (option {entry['option']}): {entry['label'][lang]}")
        for row in entry["alternatives"]:
            play = row["random_play"] or {}
            games = sum(v["games"] for v in play.values())
            done = sum(v["completed"] for v in play.values())
            means = [v["decisions"]["mean"] for v in play.values() if v["decisions"]["mean"] is not None]
            head = f"    {entry['option']}={_show(row['value'])}" + (" [default]" if row["default"] else "")
            text = f"{head}: scenarios {row['passed']}/{row['total']} passed"
            if games:
                text += (f"; random play {done}/{games} completed, {len(row['violations'])} violation(s)"
                         + (f", decisions mean {sum(means) / len(means):.1f}" if means else ""))
            lines.append(text)
            for v in row["violations"][:5]:
                lines.append("      VIOLATION " + v)
        if entry["told_apart_by"]:
            lines.append("    told apart by:")
            for t in entry["told_apart_by"]:
                under = ", ".join(_show(v) for v in t["passes_under"])
                lines.append(f"      {t['scenario']} (passes only under {entry['option']}={under})")
        else:
            lines.append("    told apart by: no scenario (every scenario passes or fails alike under each reading)")
    return lines
