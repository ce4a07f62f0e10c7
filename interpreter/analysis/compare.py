"""Balance comparison: a game and a variant of it, played on the same seeds by the same bots.

    base = load_game("some_game")
    variant = load_game("some_game", ["house_rule.yaml"])
    result = compare(base, variant, players=4, games=200, seed=1, bot="random")
    print(compare_text(result))

Game `i` of each side is seeded `seed + i`, and the bot of each seat is seeded from that game seed and the
seat (as `simulate` does), so the two sides differ only by their rules. Every function returns plain data
(JSON-able dicts) except `plot`, which writes a PNG with matplotlib (the optional extra `plot`).

Figures for each side: games completed and the games that raised; each seat's win rate (a shared win is
split) with its Wilson 95% interval; each seat's score, the game length in decisions, the score spread
(highest minus lowest score of a game) and the winning margin (winner minus runner-up), each as mean, standard deviation,
median, min, max and a 95% interval of the mean; the end reasons (`outcome()["ends"]`, one key per
combination of end triggers, "(flow ended)" for none) and how often each trigger fired. The change from
base to variant comes with 95% intervals: Newcombe's hybrid score interval for a difference of win rates,
a normal interval for a difference of means.

What the variant changed, in play: for every change `diff.rules_diff` finds, the usage counters that can
show it mattered (`changes.touched`: a component type as a chosen piece, its modifiers and abilities; an
action, hook or phase; the reads of a table, parameter, var or property, counted by a read meter compiled
into both sides' rules for the names the changes touch, see `Game.metered`), on each side: the games it
fired in, its uses per game and by seat, and how the seats that used it did (their win rate with a Wilson
interval, their mean score against the others'); and for a scoring item the change sets or feeds, the
points it gave each seat per game on each side, with the difference and its interval. The counters are
grouped in blocks by the changes they stand for, so a counter that several changes share is given once,
under all of them.
"""
from __future__ import annotations

import math
import statistics
from typing import Callable, Sequence

from .changes import Vocabulary, evidence, matching_keys, meter_names, touched
from .parallel import play_many
from ..engine.playout import MAX_DECISIONS, as_game
from .usage import item_points, summarize_usage

Z95 = 1.959963984540054
NO_TRIGGER = "(flow ended)"


# ------------------------------------------------------------------------------------- statistics

def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (successes may be fractional: shared wins)."""
    if n <= 0:
        return (0.0, 1.0)
    p = min(1.0, max(0.0, successes / n))
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def newcombe(p1: float, ci1: Sequence[float], p2: float, ci2: Sequence[float]) -> tuple[float, float]:
    """Newcombe's hybrid score interval of p2 - p1, from each proportion's Wilson interval."""
    (l1, u1), (l2, u2) = ci1, ci2
    d = p2 - p1
    lo = d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2)
    hi = d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)
    return (max(-1.0, lo), min(1.0, hi))


def describe(values: Sequence[float], z: float = Z95) -> dict:
    """Mean, stdev, median, min, max and a normal 95% interval of the mean of a sample."""
    n = len(values)
    if not n:
        return {"n": 0, "mean": None, "stdev": None, "median": None, "min": None, "max": None, "ci95": None}
    mean = statistics.fmean(values)
    sd = statistics.stdev(values) if n > 1 else 0.0
    half = z * sd / math.sqrt(n)
    return {"n": n, "mean": mean, "stdev": sd, "median": statistics.median(values), "min": min(values),
            "max": max(values), "ci95": [mean - half, mean + half]}


def mean_difference(a: dict, b: dict, z: float = Z95) -> dict:
    """b.mean - a.mean with a normal 95% interval (two independent samples, from `describe`)."""
    if not a["n"] or not b["n"]:
        return {"diff": None, "ci95": None}
    d = b["mean"] - a["mean"]
    half = z * math.sqrt(a["stdev"] ** 2 / a["n"] + b["stdev"] ** 2 / b["n"])
    return {"diff": d, "ci95": [d - half, d + half]}


# ----------------------------------------------------------------------------------------- playing

def play_side(game, players: int, games: int, seed: int = 1, bot: str | Sequence[str] = "random",
              options: dict | None = None, max_decisions: int = MAX_DECISIONS,
              progress: Callable[[], None] | None = None, jobs: int = 1, dask: str | None = None,
              usage: bool = False) -> list[dict]:
    """One record per game seeded seed, seed+1, ...: {seed, decisions, scores, winners, ends[, usage]}
    or {seed, error}; played serially, on `jobs` local processes or on the Dask scheduler `dask`."""
    tick = (lambda record: progress()) if progress is not None else None
    return play_many(game, players, range(seed, seed + games), bot, options, max_decisions, jobs=jobs,
                     dask=dask, progress=tick, usage=usage)


def summarize(records: list[dict], players: int) -> dict:
    """The figures of one side (see the module doc) from play_side's records."""
    done = [r for r in records if "error" not in r]
    n = len(done)
    wins = [0.0] * players
    for r in done:
        for seat in r["winners"]:
            wins[seat] += 1.0 / len(r["winners"])
    seats = []
    for seat in range(players):
        rate = wins[seat] / n if n else 0.0
        seats.append({"seat": seat + 1, "wins": wins[seat], "win_rate": rate, "ci95": list(wilson(wins[seat], n))})
    lengths = [r["decisions"] for r in done]
    spreads = [max(r["scores"]) - min(r["scores"]) for r in done if r["scores"]]
    margins = []
    for r in done:
        ranked = sorted(r["scores"], reverse=True)
        margins.append(ranked[0] - ranked[1] if len(ranked) > 1 else 0)
    ends: dict[str, int] = {}
    triggers: dict[str, int] = {}
    for r in done:
        key = ",".join(sorted(r["ends"])) or NO_TRIGGER
        ends[key] = ends.get(key, 0) + 1
        for t in r["ends"]:
            triggers[t] = triggers.get(t, 0) + 1
    score_mean = [statistics.fmean(r["scores"][s] for r in done) if n else 0.0 for s in range(players)]
    return {
        "games": len(records), "completed": n,
        "errors": [{"seed": r["seed"], "error": r["error"]} for r in records if "error" in r],
        "seats": seats, "score_mean": score_mean,
        "scores": [describe([r["scores"][s] for r in done]) for s in range(players)],
        "length": describe(lengths), "spread": describe(spreads), "margin": describe(margins),
        "ends": dict(sorted(ends.items(), key=lambda kv: (-kv[1], kv[0]))),
        "end_triggers": dict(sorted(triggers.items(), key=lambda kv: (-kv[1], kv[0]))),
        "per_game": {"seeds": [r["seed"] for r in done], "lengths": lengths, "spreads": spreads,
                     "margins": margins},
    }


def delta(base: dict, variant: dict) -> dict:
    """The change from base to variant, with 95% intervals."""
    seats = []
    for a, b in zip(base["seats"], variant["seats"]):
        lo, hi = newcombe(a["win_rate"], a["ci95"], b["win_rate"], b["ci95"])
        seats.append({"seat": a["seat"], "diff": b["win_rate"] - a["win_rate"], "ci95": [lo, hi]})
    return {"seats": seats,
            "scores": [mean_difference(a, b) for a, b in zip(base["scores"], variant["scores"])],
            "length": mean_difference(base["length"], variant["length"]),
            "spread": mean_difference(base["spread"], variant["spread"]),
            "margin": mean_difference(base["margin"], variant["margin"])}


def compare(base, variant, players: int, games: int, seed: int = 1, bot: str | Sequence[str] = "random",
            options: dict | None = None, max_decisions: int = MAX_DECISIONS,
            progress: Callable[[], None] | None = None, jobs: int = 1, dask: str | None = None) -> dict:
    """Play both games on the same seeds with the same bots; return both sides' figures and the change.
    `base` and `variant` are loaded games or names (see playout.as_game); each side's "seat" is numbered
    from 1, as the command line prints it (lists such as "score_mean" are indexed from 0). `jobs` and
    `dask` as for `play_side`: the figures do not depend on them."""
    base, variant = as_game(base), as_game(variant)
    things = changed_things(base, variant, players)
    names = meter_names(things)
    sides, records, metered = {}, {}, {}
    for name, game in (("base", base), ("variant", variant)):
        game, metered[name] = with_meter(game, names)
        records[name] = play_side(game, players, games, seed, bot, options, max_decisions, progress, jobs, dask,
                                  usage=True)
        sides[name] = summarize(records[name], players)
    return {"players": players, "games": games, "seed": seed,
            "bot": bot if isinstance(bot, str) else list(bot),
            "base": sides["base"], "variant": sides["variant"], "delta": delta(sides["base"], sides["variant"]),
            "metered": sorted([kind, n] for kind, n in names) if all(metered.values()) else [],
            "changed": changed_in_play(things, records, players)}


def changed_things(base, variant, players: int) -> list[dict]:
    """What each change of the variant touches in play (`changes.touched`); [] for games that are not
    loaded from a definition."""
    definitions = getattr(base, "definition", None), getattr(variant, "definition", None)
    if None in definitions:
        return []
    from .diff import rules_diff

    return touched(rules_diff(*definitions)["changes"], Vocabulary(base, variant), players)


def with_meter(game, names) -> tuple:
    """(the game compiled with a read meter of `names`, True), or (the game, False) when there is nothing to
    count or its rules cannot be compiled so (a name read where a constant is needed)."""
    if not names or not hasattr(game, "metered"):
        return game, not names
    from ..definition.problems import DefinitionError

    try:
        return game.metered(names), True
    except DefinitionError:
        return game, False


def changed_in_play(things: list[dict], records: dict, players: int) -> list[dict]:
    """The usage of what the variant changed, in blocks (see the module doc): [{"changes": [{"text",
    "path"}], "keys": [usage keys], "base": {key: usage}, "variant": {key: usage}, "points": [{"item",
    "base", "variant", "diff"}], "note"}], one block per set of changes that share their counters, in
    the order of the changes; a change no counter shows has a block of its own with a note."""
    seen = sorted({k for side in records.values() for r in side
                   for part in ("usage", "usage_setup", "usage_end") for k in r.get(part) or {}})
    stands_for: dict[str, list[int]] = {}  # counter -> the changes it stands for
    for i, thing in enumerate(things):
        keys = matching_keys(thing["match"], seen)
        shown = {evidence(k) for k in keys}
        keys += [k for k in thing["expect"] if evidence(k) not in shown]  # counted, never seen: "never"
        keys += [f"points:{item}" for item in thing["items"]]
        for key in keys:
            stands_for.setdefault(key, [])
            if i not in stands_for[key]:
                stands_for[key].append(i)
    groups: dict[tuple, list[str]] = {}
    for key, changes in stands_for.items():
        groups.setdefault(tuple(changes), []).append(key)
    for i, thing in enumerate(things):
        if not any(i in changes for changes in groups):
            groups[(i,)] = []
    out = []
    for changes in sorted(groups, key=lambda c: (c[0], len(c), c)):
        keys = sorted(k for k in groups[changes] if not k.startswith("points:"))
        items = sorted(k.partition(":")[2] for k in groups[changes] if k.startswith("points:"))
        usage = {name: summarize_usage(records[name], players, keys) for name in ("base", "variant")}
        for side in usage.values():
            for u in side.values():
                u["ci95"] = list(wilson(u["user_wins"], u["users"])) if u["users"] else None
        points = []
        for item in items:
            b, v = (item_points(records[name], players, item) for name in ("base", "variant"))
            for side in (b, v):
                side.update(describe(side.pop("per_seat")))
            points.append({"item": item, "base": b, "variant": v, "diff": mean_difference(b, v)})
        notes = [things[i]["note"] for i in changes if things[i]["note"]]
        out.append({"changes": [{"text": things[i]["text"], "path": things[i]["path"]} for i in changes],
                    "keys": keys, **usage, "points": points, "note": notes[0] if notes else None})
    return out


# --------------------------------------------------------------------------------------- rendering

def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _interval(ci, scale: float = 1.0, digits: int = 1, signed: bool = False) -> str:
    if ci is None:
        return ""
    f = f"{{:+.{digits}f}}" if signed else f"{{:.{digits}f}}"
    return "[" + f.format(ci[0] * scale) + ", " + f.format(ci[1] * scale) + "]"


def compare_text(result: dict, base_label: str = "base", variant_label: str = "variant") -> str:
    """The figures of `compare` as a table for people."""
    b, v, dl = result["base"], result["variant"], result["delta"]
    k = result["games"]
    seeds = f"seeds {result['seed']}..{result['seed'] + k - 1}"
    bot = result["bot"] if isinstance(result["bot"], str) else ", ".join(result["bot"])
    head = [f"base: {base_label}", f"variant: {variant_label}",
            f"{result['players']} players, {k} games each ({seeds}), bots: {bot}; the same seeds and bots on "
            f"both sides", ""]
    rows = [["", "base", "variant", "change (95% interval)"]]
    rows.append(["games completed", f"{b['completed']}/{b['games']}", f"{v['completed']}/{v['games']}", ""])
    for sb, sv, sd in zip(b["seats"], v["seats"], dl["seats"]):
        rows.append([f"seat {sb['seat']} win rate",
                     f"{_pct(sb['win_rate'])} {_interval(sb['ci95'], 100)}",
                     f"{_pct(sv['win_rate'])} {_interval(sv['ci95'], 100)}",
                     f"{100 * sd['diff']:+.1f} pts {_interval(sd['ci95'], 100, signed=True)}"])
    for key, name in (("length", "decisions per game"), ("spread", "score spread (max-min)"),
                      ("margin", "winning margin")):
        d = dl[key]
        change = f"{d['diff']:+.1f} {_interval(d['ci95'], signed=True)}" if d["diff"] is not None else ""
        rows.append([name, _stat(b[key]), _stat(v[key]), change])
    for seat, (sb, sv, d) in enumerate(zip(b["scores"], v["scores"], dl["scores"]), start=1):
        if sb["n"] and sv["n"]:
            rows.append([f"seat {seat} score", f"{sb['mean']:.1f} ± {sb['stdev']:.1f}",
                         f"{sv['mean']:.1f} ± {sv['stdev']:.1f}",
                         f"{d['diff']:+.1f} {_interval(d['ci95'], signed=True)}"])
    rows.append(["end reasons (games):", "", "", ""])
    keys = list(dict.fromkeys(list(b["ends"]) + list(v["ends"])))
    for key in keys:
        nb, nv = b["ends"].get(key, 0), v["ends"].get(key, 0)
        fb = f"{nb} ({_pct(nb / b['completed'])})" if b["completed"] else str(nb)
        fv = f"{nv} ({_pct(nv / v['completed'])})" if v["completed"] else str(nv)
        rows.append([f"  {key}", fb, fv, f"{nv - nb:+d}"])
    widths = [max(len(r[i]) for r in rows) + 2 for i in range(3)]
    lines = head + ["".join(c.ljust(w) for c, w in zip(r[:3], widths)) + r[3] for r in rows]
    lines = [line.rstrip() for line in lines]
    lines += changed_text(result.get("changed") or [], result["players"])
    for name, side in (("base", b), ("variant", v)):
        for e in side["errors"]:
            lines.append(f"ERROR {name} seed {e['seed']}: {e['error']}")
    return "\n".join(lines)


def changed_text(changed: list[dict], players: int) -> list[str]:
    """The usage of what the variant changed, base beside variant, as lines for people: each block once,
    under the changes it stands for."""
    if not changed:
        return []
    lines = ["", "What the variant changed, in play (games it fired in; uses per game; uses by seat; the "
                 "seats that used it: win rate [95%], mean score vs the other seats'):",
             "  (read: a rule that ran read the value; menu: menus that asked it, once per menu; points: what "
             "a scoring item gave a seat in a game, mean ± sd; a block under several changes, joined by +, "
             "stands for all of them)"]
    for block in changed:
        for i, change in enumerate(block["changes"]):
            lines.append(f"  {'+ ' if i else ''}{change['text']}")
        if not block["keys"] and not block["points"]:
            lines.append(f"      {block['note']}" if block.get("note") else
                         "      no counter shows its use (see the figures above)")
            continue
        for key in block["keys"]:
            lines.append(f"    {key}")
            for name in ("base", "variant"):
                u = block[name].get(key)
                lines.append(f"      {name + ':':<9}{_usage(u)}")
        for p in block["points"]:
            lines.append(f"    points:{p['item']}")
            lines.append(f"      {'base:':<9}{_points(p['base'])}")
            d = p["diff"]
            change = (f"; change {d['diff']:+.2f} {_interval(d['ci95'], digits=2, signed=True)}"
                      if d["diff"] is not None else "")
            lines.append(f"      {'variant:':<9}{_points(p['variant'])}{change}")
    return lines


def _usage(u: dict | None) -> str:
    if u is None or not u["games"]:
        return "never"
    who = ("; users won " + _pct(u["user_win_rate"]) + " " + _interval(u["ci95"], 100)
           if u["users"] else "")
    score = (f", score {u['user_score']:.1f} vs {u['others_score']:.1f}"
             if u["users"] and u["user_score"] is not None and u["others_score"] is not None else "")
    apart = [f"{u[k + '_per_game']:.2f} at the {k}" for k in ("setup", "end") if u.get(k + "_per_game")]
    apart = f" ({', '.join(apart)})" if apart else ""
    return (f"{u['games']}/{u['of']} games, {u['per_game']:.2f} per game{apart}, by seat "
            + "/".join(str(n) for n in u["by_seat"]) + f"{who}{score}")


def _points(p: dict) -> str:
    if not p["n"]:
        return "not a scoring item here"
    return (f"{p['mean']:.2f} ± {p['stdev']:.2f} per seat and game, by seat "
            + "/".join(f"{x:.2f}" for x in p["by_seat"]) + f" ({p['games']} games)")


def _stat(d: dict) -> str:
    if not d["n"]:
        return "-"
    return f"{d['mean']:.1f} ± {d['stdev']:.1f} (median {d['median']:g}, {d['min']:g}-{d['max']:g})"


def plot(result: dict, path, title: str = "", base_label: str = "base", variant_label: str = "variant") -> None:
    """Write the comparison as a PNG: seat win rates with their intervals, game lengths, score spreads
    and end reasons, base beside variant. ImportError without matplotlib."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    b, v = result["base"], result["variant"]
    colours = ("#4C72B0", "#DD8452")
    fig, axes = plt.subplots(2, 2, figsize=(12, 8.5))
    fig.suptitle(title or f"{base_label} vs {variant_label}: {result['players']} players, "
                 f"{result['games']} games each (same seeds and bots)")

    ax = axes[0][0]
    seats = list(range(result["players"]))
    width = 0.38
    for i, (side, label) in enumerate(((b, base_label), (v, variant_label))):
        rates = [s["win_rate"] * 100 for s in side["seats"]]
        low = [max(0.0, (s["win_rate"] - s["ci95"][0]) * 100) for s in side["seats"]]
        high = [max(0.0, (s["ci95"][1] - s["win_rate"]) * 100) for s in side["seats"]]
        ax.bar([x + (i - 0.5) * width for x in seats], rates, width, yerr=[low, high], capsize=4,
               color=colours[i], label=label)
    ax.axhline(100 / result["players"], color="grey", linestyle=":", linewidth=1, label="even share")
    ax.set_xticks(seats, [f"seat {s + 1}" for s in seats])
    ax.set_ylabel("win rate (%) with 95% Wilson interval")
    ax.set_title("Seat win rates")
    ax.legend(fontsize=8)

    for ax, key, name in ((axes[0][1], "lengths", "Decisions per game"),
                          (axes[1][0], "spreads", "Score spread (highest - lowest)")):
        data = [b["per_game"][key], v["per_game"][key]]
        flat = [x for d in data for x in d]
        if flat:
            lo, hi = min(flat), max(flat)
            bins = max(5, min(30, int(hi - lo) + 1))
            for i, (d, label) in enumerate(zip(data, (base_label, variant_label))):
                ax.hist(d, bins=bins, range=(lo, hi + 1e-9), alpha=0.55, color=colours[i], label=label)
                if d:
                    ax.axvline(statistics.fmean(d), color=colours[i], linestyle="--", linewidth=1.2)
        ax.set_title(name)
        ax.set_ylabel("games")
        ax.legend(fontsize=8)

    ax = axes[1][1]
    keys = list(dict.fromkeys(list(b["ends"]) + list(v["ends"])))
    xs = list(range(len(keys)))
    for i, (side, label) in enumerate(((b, base_label), (v, variant_label))):
        ax.bar([x + (i - 0.5) * width for x in xs], [side["ends"].get(k, 0) for k in keys], width,
               color=colours[i], label=label)
    ax.set_xticks(xs, [k.replace(",", " +\n") for k in keys], fontsize=8, rotation=30, ha="right")
    ax.set_ylabel("games")
    ax.set_title("End reasons")
    ax.legend(fontsize=8)

    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
