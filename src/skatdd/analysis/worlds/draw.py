"""The worlds a run solves for one view: all of them, or *n* different ones drawn uniformly.

The worlds consistent with a view are counted and ranked by
:class:`~skatdd.analysis.worlds.space.WorldSpace`, so a uniform index is a
uniform world: :func:`choose_worlds` takes all of them when there are at
most *n*, else *n* different ones uniformly at random, without any
rejection loop.

The worlds a run solves are produced lazily (:class:`WorldDraw`): a hand has
42,678,636 worlds, about 9 GiB as a list, so they are enumerated or drawn a
chunk at a time as the solvers ask for them, and the memory a draw holds
does not grow with the number of worlds beyond one bit per consistent world
(:func:`sample_indices`).  A run that would solve more than
:data:`MAX_WORLDS` worlds for one decision is refused before any work
(:class:`WorldCountError`): it could not finish.

>>> from skatdd.core.cards import mask_of, parse_cards
>>> from skatdd.analysis.worlds.space import hand_view
>>> view = hand_view(0, mask_of(parse_cards("CJ SJ HJ DJ CA CT CK CQ C9 C8")))
>>> worlds, exact = choose_worlds(view, 3, random.Random(1))
>>> len(worlds), exact
(3, False)
"""
from __future__ import annotations

import math
import random
from array import array
from collections.abc import Iterable, Iterator
from itertools import islice

from skatdd.core.errors import DealFormatError, SkatddError

from .space import View, World, WorldSpace, space_of

#: The most worlds a run solves for one decision (a hand in ``odds``, a position in ``advise``, a card in
#: ``analyse --worlds``).  A million worlds are hours of work on a core (``odds``: about 15-60 ms a world with
#: every option, ``advise``: a few ms); the 42,678,636 worlds of a hand would be weeks, so more is refused.
MAX_WORLDS = 1_000_000


class WorldCountError(SkatddError):
    """A run would solve more worlds than it could finish (:data:`MAX_WORLDS`)."""


def _index_array(size: int) -> array[int]:
    """An array able to hold the indices ``0 .. size - 1``, four bytes each where they fit."""
    code = "I" if array("I").itemsize >= 4 and size <= 2**32 else "Q"
    return array(code)


#: An upper estimate of the bytes a set of drawn indices takes per index (its table slots and the int objects).
_SET_BYTES = 128


def sample_indices(size: int, n: int, rng: random.Random) -> Iterator[int]:
    """``rng.sample(range(size), n)``, one index at a time: the same indices in the same order.

    ``random.Random.sample`` builds its whole answer (and, for a sample that
    is a large part of the population, a list of the population) before
    returning; this generator draws each index when it is asked for,
    consuming *rng* exactly as ``sample`` does (``randrange(m)`` is
    ``sample``'s ``_randbelow(m)``), so a seed gives the worlds it always
    gave.  It holds one bit per index of *size* (a bitmap of those already
    drawn), or a set of those drawn where that is smaller (*n* small next to
    *size*), or, where ``sample`` keeps a pool because *size* is small next to
    *n*, four bytes per index of the pool.  tests/test_memory_bounds.py
    checks it against ``sample`` itself.
    """
    if not 0 <= n <= size:
        raise ValueError(f"a sample of {n} from {size}")
    setsize = 21  # sample's own rule for a pool or a set of the chosen ones
    if n > 5:
        setsize += 4 ** math.ceil(math.log(n * 3, 4))
    if size <= setsize:
        pool = _index_array(size)
        pool.extend(range(size))
        for i in range(n):
            j = rng.randrange(size - i)
            yield pool[j]
            pool[j] = pool[size - i - 1]
        return
    if n * _SET_BYTES <= size // 8:
        # Few of many (a decision's worlds of a hand): a set of those drawn, as ``sample`` keeps, is smaller than
        # the bitmap and costs nothing to start, where zeroing the bitmap took longer than drawing the worlds.
        chosen: set[int] = set()
        for _ in range(n):
            j = rng.randrange(size)
            while j in chosen:
                j = rng.randrange(size)
            chosen.add(j)
            yield j
        return
    drawn = bytearray((size + 7) // 8)
    for _ in range(n):
        j = rng.randrange(size)
        while drawn[j >> 3] >> (j & 7) & 1:
            j = rng.randrange(size)
        drawn[j >> 3] |= 1 << (j & 7)
        yield j


def check_world_count(n: int, consistent: int, limit: int = MAX_WORLDS, rule: str = "") -> None:
    """Raise :class:`WorldCountError` when a decision asking *n* worlds of *consistent* would solve more than *limit*.

    *rule* names the limit in the message (default: the one of :data:`MAX_WORLDS`).
    """
    if min(n, consistent) > limit:
        rule = rule or f"a run solves at most {limit:,} for one decision"
        raise WorldCountError(
            f"--worlds {n}: this decision has {consistent:,} consistent worlds and {rule} "
            f"(more could not finish: docs/cli.md); ask for at most {limit:,}"
        )


class WorldDraw:
    """The worlds a run solves for one view, produced lazily: all of them when at most *n*, else *n* drawn.

    ``exact`` says whether every consistent world is taken, ``consistent``
    how many there are, ``len(draw)`` how many it yields.  The worlds come
    in the order :func:`choose_worlds` returns them (index order when exact,
    else ``rng.sample``'s order), one at a time (:meth:`__iter__`) or in
    lists (:meth:`chunks`), drawing from *rng* only as they are taken; a
    draw can be taken once.  Raises :class:`~skatdd.core.errors.DealFormatError`
    for *n* < 1 and :class:`WorldCountError` beyond *limit* worlds (*rule*
    names that limit in the message).

    :meth:`of_indices` makes one from world indices chosen otherwise (a
    condition on the worlds).
    """

    def __init__(self, view: View, n: int, rng: random.Random, *, limit: int = MAX_WORLDS, rule: str = "") -> None:
        if n < 1:
            raise DealFormatError(f"the number of worlds must be at least 1, not {n}")
        self.space = space_of(view)
        self.consistent = len(self.space)
        check_world_count(n, self.consistent, limit, rule)
        self.exact = self.consistent <= n
        self.count = self.consistent if self.exact else n
        self._indices: Iterable[int] | None = (
            range(self.consistent) if self.exact else sample_indices(self.consistent, n, rng))

    @classmethod
    def of_indices(cls, space: WorldSpace, indices: Iterable[int], count: int, *, exact: bool) -> WorldDraw:
        """The *count* worlds of *space* at *indices*, in that order (*exact*: they are all the run asks for)."""
        draw = cls.__new__(cls)
        draw.space, draw.consistent, draw.exact, draw.count = space, len(space), exact, count
        draw._indices = indices
        return draw

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[World]:
        # One at a time, each index drawn when its world is asked for (a caller may use rng in between).
        indices, self._indices = self._indices, None
        if indices is None:
            raise RuntimeError("a WorldDraw yields its worlds once")
        space = self.space
        if isinstance(indices, range) and indices == range(len(space)):
            yield from space  # every world in index order: enumerated, several times cheaper than unranking each
            return
        for index in indices:
            yield space[index]

    def chunks(self, size: int) -> Iterator[list[World]]:
        """The worlds in lists of *size* (the last one shorter).

        Drawn worlds are unranked a list at a time (:meth:`WorldSpace.worlds_at`,
        the same worlds as one by one); the indices of a list are drawn from
        *rng* before its worlds are unranked, as they always were.
        """
        indices, self._indices = self._indices, None
        if indices is None:
            raise RuntimeError("a WorldDraw yields its worlds once")
        space = self.space
        if isinstance(indices, range) and indices == range(len(space)):
            worlds = iter(space)  # every world in index order: enumerated, several times cheaper than unranking each
            while chunk := list(islice(worlds, size)):
                yield chunk
            return
        remaining = iter(indices)
        while batch := list(islice(remaining, size)):
            yield space.worlds_at(batch)


def choose_worlds(view: View, n: int, rng: random.Random) -> tuple[list[World], bool]:
    """Worlds to evaluate: all of them when there are at most *n* (``exact`` True), else *n* different ones.

    The sample is uniform: every set of *n* different consistent worlds is
    equally likely.  All randomness comes from *rng*, so a seeded generator
    gives the same worlds every time.  Returns ``(worlds, exact)``, every
    world in one list: a run streams them from :class:`WorldDraw` instead.
    """
    draw = WorldDraw(view, n, rng)
    return [world for chunk in draw.chunks(max(draw.count, 1)) for world in chunk], draw.exact
