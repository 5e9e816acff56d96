"""What one seat knows, and the worlds consistent with it.

A *view* is one seat's knowledge of a deal in play: its own cards, the cards
played so far and who played each, the voids those plays revealed, and any
other cards it can see (the skat it picked up, an ouvert declarer's open
hand).  A *world* is one assignment of every card the seat cannot see to the
other two hands and the skat that fits the hand sizes and the voids.

Every consistent world counts the same (no inference from the bidding or from
how the cards were played, only from what the rules force).  The worlds are
counted exactly, ranked, and so drawn uniformly without any rejection loop:

- the unseen cards fall into classes by the set of places (the other hands,
  the skat) that may hold them; a void removes a hand from the places of every
  card of that follow group;
- the number of worlds is a sum over how many cards of each class go to each
  place, of products of multinomial coefficients, computed once by dynamic
  programming over the classes (:func:`count_worlds`);
- :func:`world_at` maps every index ``0 <= i < count`` to a different world
  (unranking), so a uniform index is a uniform world, and
  :func:`choose_worlds` takes all of them when there are at most *n*, else
  *n* different ones uniformly at random.

The worlds a run solves are produced lazily (:class:`WorldDraw`): a hand has
42,678,636 worlds, about 9 GiB as a list, so they are enumerated or drawn a
chunk at a time as the solvers ask for them, and the memory a draw holds
does not grow with the number of worlds beyond one bit per consistent world
(:func:`sample_indices`).  A run that would solve more than
:data:`MAX_WORLDS` worlds for one decision is refused before any work
(:class:`WorldCountError`): it could not finish.

>>> from skatdd.core.cards import mask_of, parse_cards
>>> view = hand_view(0, mask_of(parse_cards("CJ SJ HJ DJ CA CT CK CQ C9 C8")))
>>> count_worlds(view)          # C(22,10) * C(12,10): the two other hands and the skat
42678636
>>> worlds, exact = choose_worlds(view, 3, random.Random(1))
>>> len(worlds), exact
(3, False)
"""
from __future__ import annotations

import functools
import math
import random
from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, islice
from math import comb, factorial
from typing import NamedTuple

from skatdd.core.cards import ALL_CARDS, Card, Mask, cards_of, format_mask
from skatdd.core.errors import DealFormatError, SkatddError, plural
from skatdd.core.position import Position
from skatdd.core.rules import Game, follow_group, group_mask

#: Index of the skat among a view's places (0..2 are the seats' hands).
SKAT = 3
SKAT_SIZE = 2

#: The most worlds a run solves for one decision (a hand in ``odds``, a position in ``advise``, a card in
#: ``analyse --worlds``).  A million worlds are hours of work on a core (``odds``: about 15-60 ms a world with
#: every option, ``advise``: a few ms); the 42,678,636 worlds of a hand would be weeks, so more is refused.
MAX_WORLDS = 1_000_000


class WorldCountError(SkatddError):
    """A run would solve more worlds than it could finish (:data:`MAX_WORLDS`)."""


class World(NamedTuple):
    """One lie of the cards: the three hands as held now and the skat (or discard)."""

    hands: tuple[Mask, Mask, Mask]
    skat: Mask

    def start_hands(self, view: View) -> tuple[Mask, Mask, Mask]:
        """The hands as they were before the view's played cards: each hand plus what its seat played."""
        hands = list(self.hands)
        for seat, card in view.played:
            hands[seat] |= 1 << card
        return hands[0], hands[1], hands[2]


@dataclass(frozen=True)
class View:
    """One seat's knowledge of a deal.

    Attributes:
        seat: the seat whose knowledge this is.
        sizes: how many cards each place holds now: the three hands by seat, then the skat.
        known: cards the seat knows to lie in each place (its own hand at least).
        banned: cards a place cannot hold, from revealed voids (the skat: none).
        unseen: the cards to distribute: every card in a place that the seat cannot see.
        played: every card played and by whom, in order (used to rebuild the starting hands).

    Raises :class:`~skatdd.core.errors.DealFormatError` when the fields contradict each other.
    """

    seat: int
    sizes: tuple[int, int, int, int]
    known: tuple[Mask, Mask, Mask, Mask]
    banned: tuple[Mask, Mask, Mask, Mask]
    unseen: Mask
    played: tuple[tuple[int, Card], ...] = ()

    def __post_init__(self) -> None:
        if self.seat not in (0, 1, 2):
            raise DealFormatError(f"a view needs a seat 0, 1 or 2, not {self.seat!r}")
        seen = 0
        for place, (size, known) in enumerate(zip(self.sizes, self.known, strict=True)):
            if known & seen or known & self.unseen:
                raise DealFormatError(f"card {format_mask(known & (seen | self.unseen))} is placed twice in the view")
            if known.bit_count() > size:
                raise DealFormatError(f"place {place} holds {plural(size, 'card')}, fewer than the {known.bit_count()} "
                                      "known there")
            if known & self.banned[place]:
                raise DealFormatError(f"place {place} holds {format_mask(known & self.banned[place])}, which it showed void in")
            seen |= known
        if self.known[self.seat].bit_count() != self.sizes[self.seat]:
            raise DealFormatError(f"seat {self.seat} must know all {self.sizes[self.seat]} of its own cards")
        missing = sum(self.sizes) - seen.bit_count()
        if missing != self.unseen.bit_count():
            raise DealFormatError(f"the view places {missing} unseen cards but has {self.unseen.bit_count()}")

    @property
    def needs(self) -> tuple[int, int, int, int]:
        """How many unseen cards each place still takes."""
        a, b, c, d = (size - known.bit_count() for size, known in zip(self.sizes, self.known, strict=True))
        return a, b, c, d


def _voids(game: Game, tricks: Sequence[Sequence[tuple[int, Card]]]) -> list[Mask]:
    """Cards each seat cannot hold because it did not follow a led group (jacks are trumps in suit and grand)."""
    banned = [0, 0, 0]
    for trick in tricks:
        led = group_mask(follow_group(trick[0][1], game), game)
        for seat, card in trick[1:]:
            if not led >> card & 1:
                banned[seat] |= led
    return banned


def _tricks(pos: Position) -> list[list[tuple[int, Card]]]:
    """The tricks seen in *pos*: the cards of its current trick when its history began, then its history."""
    if pos.history:
        first_leader, first_trick = pos._undo[0][0], pos._undo[0][1]
    else:
        first_leader, first_trick = pos.leader, pos.trick
    sequence = [((first_leader + i) % 3, card) for i, card in enumerate(first_trick)] + list(pos.history)
    return [sequence[i:i + 3] for i in range(0, len(sequence), 3)]


def view_of(pos: Position, seat: int | None = None, *, knows_skat: bool = False, open_seats: Sequence[int] = ()) -> View:
    """The view of *seat* (default: the player to move) in *pos*.

    The seat sees its own hand, every card out of play (played in this
    position's history or earlier), the skat when *knows_skat* (a declarer who
    picked it up), and the hands of *open_seats* (an ouvert declarer's hand,
    for a defender).  Voids come from the tricks in the position's history
    and its current trick.  When the position has no skat (a null game given
    without one) the skat is no place at all: it does not matter in null.
    """
    seat = pos.to_move if seat is None else seat
    skat_size = pos.skat.bit_count()
    known = [0, 0, 0, 0]
    known[seat] = pos.hands[seat]
    for other in open_seats:
        known[other] = pos.hands[other]
    if knows_skat:
        known[SKAT] = pos.skat
    held = pos.hands[0] | pos.hands[1] | pos.hands[2] | pos.skat
    unseen = held & ~(known[0] | known[1] | known[2] | known[SKAT])
    banned = _voids(pos.game, _tricks(pos))
    sizes = (pos.hands[0].bit_count(), pos.hands[1].bit_count(), pos.hands[2].bit_count(), skat_size)
    return View(
        seat, sizes, (known[0], known[1], known[2], known[3]),
        (banned[0], banned[1], banned[2], 0), unseen, tuple(pos.history),
    )


def hand_view(seat: int, hand: Mask, skat: Mask | None = None) -> View:
    """The view of *seat* holding the ten dealt cards *hand* before the first card: the skat known or not."""
    if hand.bit_count() != 10:
        raise DealFormatError(f"a dealt hand has 10 cards, not {hand.bit_count()} ({format_mask(hand)})")
    known = [0, 0, 0, 0]
    known[seat] = hand
    if skat is not None:
        if skat.bit_count() != SKAT_SIZE or skat & hand:
            raise DealFormatError(f"the skat must be two cards not in the hand, not {format_mask(skat)!r}")
        known[SKAT] = skat
    unseen = ALL_CARDS & ~(hand | (skat or 0))
    return View(seat, (10, 10, 10, SKAT_SIZE), (known[0], known[1], known[2], known[3]), (0, 0, 0, 0), unseen)


class _Class(NamedTuple):
    """Unseen cards that may lie in exactly the same places."""

    places: tuple[int, ...]
    cards: tuple[Card, ...]


def _splits(size: int, places: tuple[int, ...], needs: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every way to share *size* cards among *places* (a count per place, each within its need), in a fixed order."""
    if len(places) == 1:
        if size <= needs[places[0]]:
            yield (size,)
        return
    for first in range(min(size, needs[places[0]]), -1, -1):
        for rest in _splits(size - first, places[1:], needs):
            yield (first, *rest)


@functools.lru_cache(maxsize=4096)
def _multinomial(counts: tuple[int, ...]) -> int:
    result = factorial(sum(counts))
    for count in counts:
        result //= factorial(count)
    return result


def _minus(needs: tuple[int, ...], places: tuple[int, ...], split: tuple[int, ...]) -> tuple[int, ...]:
    left = list(needs)
    for place, count in zip(places, split, strict=True):
        left[place] -= count
    return tuple(left)


def _unrank_combination(cards: Sequence[Card], k: int, index: int) -> list[Card]:
    """The *index*-th (lexicographic) *k*-subset of *cards*."""
    chosen: list[Card] = []
    n, i = len(cards), 0
    while k:
        block = comb(n - i - 1, k - 1)  # the subsets whose first card left is cards[i]
        if index < block:
            chosen.append(cards[i])
            k -= 1
        else:
            index -= block
        i += 1
    return chosen


class WorldSpace:
    """The worlds consistent with a view, counted and ranked.

    ``len(space)`` is the exact number of worlds; ``space[i]`` is the *i*-th
    world, a different one for every ``0 <= i < len(space)``; iterating gives
    them all in index order.
    """

    def __init__(self, view: View) -> None:
        self.view = view
        needs = view.needs
        groups: dict[tuple[int, ...], list[Card]] = {}
        self._empty = False
        for card in cards_of(view.unseen):
            places = tuple(p for p in range(4) if needs[p] and not view.banned[p] >> card & 1)
            if not places:
                self._empty = True
            groups.setdefault(places, []).append(card)
        self._classes = [_Class(places, tuple(cards)) for places, cards in sorted(groups.items())]
        self._counts: dict[tuple[int, tuple[int, ...]], int] = {}
        self._options: dict[tuple[int, tuple[int, ...]], list[tuple[int, tuple[int, ...], tuple[int, ...]]]] = {}
        self._needs: tuple[int, ...] = needs
        self.size = 0 if self._empty else self._count(0, needs)

    def _count(self, i: int, needs: tuple[int, ...]) -> int:
        """Worlds that place classes i.. with exactly *needs* cards still to place."""
        if i == len(self._classes):
            return 0 if any(needs) else 1
        key = (i, needs)
        if key not in self._counts:
            cls = self._classes[i]
            self._counts[key] = sum(
                _multinomial(split) * self._count(i + 1, _minus(needs, cls.places, split))
                for split in _splits(len(cls.cards), cls.places, needs)
            )
        return self._counts[key]

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, index: int) -> World:
        if not 0 <= index < self.size:
            raise IndexError(f"world {index} of {self.size}")
        places = list(self.view.known)
        needs: tuple[int, ...] = self._needs
        for i, cls in enumerate(self._classes):
            options = self._split_options(i, needs)  # each split a block of worlds: the one holding *index*
            k = 0
            while index >= options[k][0]:
                k += 1
            _, split, left = options[k]
            inner, index = divmod(index - (options[k - 1][0] if k else 0), self._count(i + 1, left))
            self._place(cls, split, inner, places)
            needs = left
        return World((places[0], places[1], places[2]), places[SKAT])

    @staticmethod
    def _place(cls: _Class, split: tuple[int, ...], inner: int, places: list[Mask]) -> None:
        """Put the class's cards into its places, *split* cards each, the *inner*-th such way."""
        remaining: Sequence[Card] = cls.cards
        last = len(split) - 1
        for j, (place, count) in enumerate(zip(cls.places, split, strict=True)):
            if j == last:  # the last place takes every card left (one way: *inner* is 0 by now)
                for card in remaining:
                    places[place] |= 1 << card
                return
            if not count:  # one way to choose none: *inner* is unchanged
                continue
            pick, inner = divmod(inner, _multinomial(split[j + 1:]))
            chosen = 0
            for card in _unrank_combination(remaining, count, pick):
                chosen |= 1 << card
            places[place] |= chosen
            remaining = [c for c in remaining if not chosen >> c & 1]

    def draw(self, rng: random.Random) -> World:
        """One world drawn uniformly at random (with replacement: draws may repeat), faster than unranking one.

        Each class's split is drawn with the share of worlds it leads to,
        then its cards in a random order fill the split's places.
        """
        if not self.size:
            raise IndexError("a view without worlds")
        places = list(self.view.known)
        needs: tuple[int, ...] = self._needs
        for i, cls in enumerate(self._classes):
            options = self._split_options(i, needs)
            r = rng.randrange(options[-1][0])
            _, split, needs = next(option for option in options if r < option[0])
            # A random order of the class's cards: sorted by uniform keys (faster than rng.sample, just as uniform).
            rnd = rng.random
            order = [card for _, card in sorted([(rnd(), card) for card in cls.cards])] if len(split) > 1 else cls.cards
            k = 0
            for place, count in zip(cls.places, split, strict=True):
                for card in order[k:k + count]:
                    places[place] |= 1 << card
                k += count
        return World((places[0], places[1], places[2]), places[SKAT])

    def _split_options(self, i: int, needs: tuple[int, ...]) -> list[tuple[int, tuple[int, ...], tuple[int, ...]]]:
        """Class *i*'s splits under *needs* that lead to worlds, in _splits' order: ``(cumulative worlds, split, needs left)``.

        Cached per ``(i, needs)``: unranking and drawing ask for the same ones again and again.
        """
        cached = self._options.get((i, needs))
        if cached is not None:
            return cached
        options: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []
        total = 0
        for split in _splits(len(self._classes[i].cards), self._classes[i].places, needs):
            left = _minus(needs, self._classes[i].places, split)
            total += _multinomial(split) * self._count(i + 1, left)
            if total == (options[-1][0] if options else 0):
                continue  # a split no world takes
            options.append((total, split, left))
        self._options[(i, needs)] = options
        return options

    def __iter__(self) -> Iterator[World]:
        """Every world in index order (``space[0], space[1], ...``), enumerated directly rather than unranked."""
        if self.size:
            for places in self._enumerate(0, self._needs, list(self.view.known)):
                yield World((places[0], places[1], places[2]), places[SKAT])

    def _enumerate(self, i: int, needs: tuple[int, ...], places: list[Mask]) -> Iterator[list[Mask]]:
        """The places of every world that puts classes i.. into *needs* on top of *places*, in index order.

        The order is :meth:`__getitem__`'s: the class's split first, then its
        placement (each place's cards a lexicographic combination of what the
        places before it left), then the later classes.
        """
        if i == len(self._classes):
            if not any(needs):
                yield places
            return
        cls = self._classes[i]
        for split in _splits(len(cls.cards), cls.places, needs):
            left = _minus(needs, cls.places, split)
            if not self._count(i + 1, left):
                continue
            for placed in _placements(cls.cards, cls.places, split, places):
                yield from self._enumerate(i + 1, left, placed)


def _placements(cards: Sequence[Card], places: tuple[int, ...], split: tuple[int, ...],
                base: list[Mask]) -> Iterator[list[Mask]]:
    """*base* with *cards* put into *places*, ``split[j]`` into place j, every way in :meth:`WorldSpace._place`'s order."""
    if not places:
        yield base
        return
    for chosen in combinations(cards, split[0]):
        placed = list(base)
        for card in chosen:
            placed[places[0]] |= 1 << card
        rest = [c for c in cards if c not in chosen]
        yield from _placements(rest, places[1:], split[1:], placed)


def count_worlds(view: View) -> int:
    """The exact number of worlds consistent with *view*."""
    return len(WorldSpace(view))


def world_at(view: View, index: int) -> World:
    """The *index*-th world of *view* (``0 <= index < count_worlds(view)``)."""
    return WorldSpace(view)[index]


def _index_array(size: int) -> array[int]:
    """An array able to hold the indices ``0 .. size - 1``, four bytes each where they fit."""
    code = "I" if array("I").itemsize >= 4 and size <= 2**32 else "Q"
    return array(code)


def sample_indices(size: int, n: int, rng: random.Random) -> Iterator[int]:
    """``rng.sample(range(size), n)``, one index at a time: the same indices in the same order.

    ``random.Random.sample`` builds its whole answer (and, for a sample that
    is a large part of the population, a list of the population) before
    returning; this generator draws each index when it is asked for,
    consuming *rng* exactly as ``sample`` does (``randrange(m)`` is
    ``sample``'s ``_randbelow(m)``), so a seed gives the worlds it always
    gave.  It holds one bit per index of *size* (a bitmap of those already
    drawn), or, where ``sample`` keeps a pool because *size* is small next to
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
        self.space = WorldSpace(view)
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
        """The worlds in lists of *size* (the last one shorter)."""
        worlds = iter(self)
        while chunk := list(islice(worlds, size)):
            yield chunk


def choose_worlds(view: View, n: int, rng: random.Random) -> tuple[list[World], bool]:
    """Worlds to evaluate: all of them when there are at most *n* (``exact`` True), else *n* different ones.

    The sample is uniform: every set of *n* different consistent worlds is
    equally likely.  All randomness comes from *rng*, so a seeded generator
    gives the same worlds every time.  Returns ``(worlds, exact)``, every
    world in one list: a run streams them from :class:`WorldDraw` instead.
    """
    draw = WorldDraw(view, n, rng)
    return list(draw), draw.exact
