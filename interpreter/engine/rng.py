"""A deterministic random generator whose whole state is one integer.

The state of a game must be plain data, so the generator is SplitMix64: the state is a 64-bit integer
that the game state stores as it is, and every draw returns the next integer state with the value.
"""

MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15


def seed_state(seed: int) -> int:
    """The generator state for a user seed (any integer)."""
    return mix((seed * GAMMA + 0x632BE59BD9B4E019) & MASK)


def mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def next_value(state: int) -> tuple[int, int]:
    """(new state, a uniform 64-bit value)."""
    state = (state + GAMMA) & MASK
    return state, mix(state)


def below(state: int, n: int) -> tuple[int, int]:
    """(new state, a uniform integer in 0..n-1); n must be positive.

    Multiply-high keeps the bias below n / 2**64, far beneath anything a game can notice.
    """
    if type(state) is dict:
        return _take(state, n)
    state, v = next_value(state)
    return state, (v * n) >> 64


def shuffle(state: int, items: list, types=None) -> int:
    """Shuffle `items` in place (Fisher-Yates); return the new state."""
    if type(state) is dict:
        return _arrange(state, items, types)
    for i in range(len(items) - 1, 0, -1):
        state, j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state


# ------------------------------------------------------------------ fixed outcomes (scenarios)
# A scenario may fix the outcomes of the next draws: the state is then {"fixed": [...], "then": state},
# still plain data. Each draw takes the first outcome; when none is left the generator goes on from `then`.

def fix(state, outcomes: list):
    """A generator state whose next draws give `outcomes` in order: an int for a `random(n)` (0..n-1), a
    list of piece type names for a shuffle (those pieces on top in that order, the others below)."""
    if type(state) is dict:  # fixing again appends
        return {"fixed": list(state["fixed"]) + list(outcomes), "then": state["then"]}
    return {"fixed": list(outcomes), "then": state} if outcomes else state


def _rest(state):
    rest = state["fixed"][1:]
    return {"fixed": rest, "then": state["then"]} if rest else state["then"]


def _take(state, n):
    v = state["fixed"][0]
    if type(v) is not int:
        raise ValueError(f"the next fixed random outcome is {v!r}, but the rules draw random({n}) "
                         f"(a number 0..{n - 1})")
    if not 0 <= v < n:
        raise ValueError(f"the next fixed random outcome is {v}, but random({n}) gives 0..{n - 1}")
    return _rest(state), v


def _arrange(state, items, types):
    want = state["fixed"][0]
    if not isinstance(want, list):
        raise ValueError(f"the next fixed random outcome is {want!r}, but the rules shuffle a zone "
                         "(give a list of piece types, top first)")
    rest = list(items)
    top = []
    for name in want:
        x = next((x for x in rest if types is not None and types[x] == name), None)
        if x is None:
            raise ValueError(f"a fixed shuffle puts {name!r} on top, but the zone shuffled holds no "
                             f"(more) piece of that type")
        rest.remove(x)
        top.append(x)
    items[:] = top + rest
    return _rest(state)
