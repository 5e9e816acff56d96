"""What one seat knows, and the worlds consistent with it, counted and ranked.

A *view* is one seat's knowledge of a deal in play: its own cards, the cards
played so far and who played each, the voids those plays revealed, and any
other cards it can see (the skat it picked up, an ouvert declarer's open
hand).  A *world* is one assignment of every card the seat cannot see to the
other two hands and the skat that fits the hand sizes and the voids.

Every consistent world counts the same (no inference from the bidding or from
how the cards were played, only from what the rules force).  The worlds are
counted exactly and ranked, so that :mod:`skatdd.analysis.worlds.draw` draws
them uniformly without any rejection loop:

- the unseen cards fall into classes by the set of places (the other hands,
  the skat) that may hold them; a void removes a hand from the places of every
  card of that follow group;
- the number of worlds is a sum over how many cards of each class go to each
  place, of products of multinomial coefficients, computed once by dynamic
  programming over the classes (:func:`count_worlds`);
- :func:`world_at` maps every index ``0 <= i < count`` to a different world
  (unranking), so a uniform index is a uniform world.

>>> from skatdd.core.cards import mask_of, parse_cards
>>> view = hand_view(0, mask_of(parse_cards("CJ SJ HJ DJ CA CT CK CQ C9 C8")))
>>> count_worlds(view)          # C(22,10) * C(12,10): the two other hands and the skat
42678636
>>> world_at(view, 0).hands[0] == view.known[0]
True
"""
from __future__ import annotations

import functools
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb, factorial
from typing import NamedTuple

from skatdd.core.cards import ALL_CARDS, Card, Mask, cards_of, format_mask
from skatdd.core.errors import DealFormatError, plural
from skatdd.core.position import Position
from skatdd.core.rules import Game, follow_group, group_mask

from ._unrank import unrank_many

#: Index of the skat among a view's places (0..2 are the seats' hands).
SKAT = 3
SKAT_SIZE = 2


class World(NamedTuple):
    """One lie of the cards: the three hands as held now and the skat (or discard)."""

    hands: tuple[Mask, Mask, Mask]
    skat: Mask

    def start_hands(self, view: View) -> tuple[Mask, Mask, Mask]:
        """The hands as they were before the view's played cards: each hand plus what its seat played."""
        a, b, c = view.played_masks
        return self.hands[0] | a, self.hands[1] | b, self.hands[2] | c


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

    @functools.cached_property
    def played_masks(self) -> tuple[Mask, Mask, Mask]:
        """The cards each seat has played, by seat (what :meth:`World.start_hands` adds back)."""
        played = [0, 0, 0]
        for seat, card in self.played:
            played[seat] |= 1 << card
        return played[0], played[1], played[2]

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

    def worlds_at(self, indices: Sequence[int]) -> list[World]:
        """``[space[i] for i in indices]``: the same worlds in the same order, unranked together in C.

        The indices share the class tree's walk (``_unrank.unrank_many``), so a
        pool of worlds costs a few microseconds each instead of tens.  Raises
        :class:`IndexError` for an index outside ``0 <= i < len(space)``.
        """
        indices = list(indices)
        for index in indices:
            if not 0 <= index < self.size:
                raise IndexError(f"world {index} of {self.size}")
        if self.size >= 1 << 63:  # beyond the kernel's 64-bit counts (no view has that many worlds)
            return [self[index] for index in indices]
        masks = unrank_many(self._classes, self._split_options, self._count, self._needs, self.view.known, indices)
        return [World((masks[i], masks[i + 1], masks[i + 2]), masks[i + 3]) for i in range(0, len(masks), 4)]

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


@functools.lru_cache(maxsize=32)
def space_of(view: View) -> WorldSpace:
    """``WorldSpace(view)``, built once for views asked for again (a player's decision counts, draws and unranks
    the worlds of one view in several places).  A space only fills its own tables as it is asked, with the
    same answers whoever asks first, so it is shared safely between threads."""
    return WorldSpace(view)


def count_worlds(view: View) -> int:
    """The exact number of worlds consistent with *view*."""
    return len(space_of(view))


def world_at(view: View, index: int) -> World:
    """The *index*-th world of *view* (``0 <= index < count_worlds(view)``)."""
    return space_of(view)[index]

