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
    state, v = next_value(state)
    return state, (v * n) >> 64


def shuffle(state: int, items: list) -> int:
    """Shuffle `items` in place (Fisher-Yates); return the new state."""
    for i in range(len(items) - 1, 0, -1):
        state, j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state
