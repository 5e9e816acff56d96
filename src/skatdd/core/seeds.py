"""From a user's seed to the one random generator a run draws from.

``random.Random(n)`` seeds with ``abs(n)``: ``--seed 5`` and ``--seed -5``
would draw the same worlds and deals.  :func:`generator` keeps every
non-negative seed exactly as ``random.Random(seed)`` (so every output
published for one stays the same) and gives a negative seed a generator of
its own, seeded from its text: seeds that differ draw differently.

>>> generator(5).random() == random.Random(5).random()
True
>>> generator(-5).random() == generator(5).random()
False
"""
from __future__ import annotations

import random

__all__ = ["DEFAULT_SEED", "generator"]

#: The seed of every command and entry point that draws at random, when none is given (``--seed``, ``seed=``).
DEFAULT_SEED = 1


def generator(seed: int) -> random.Random:
    """The generator of *seed*: ``random.Random(seed)`` for ``seed >= 0``, one seeded from ``'skatdd seed -N'`` below 0.

    A string seed is hashed (SHA-512) into the generator's state, so a
    negative seed shares its draws with no seed a user would type.
    """
    if seed >= 0:
        return random.Random(seed)
    return random.Random(f"skatdd seed {seed}")
