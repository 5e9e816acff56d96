"""Type stubs for the compiled double-dummy engine (solver/_engine.pyx).

Cards are ints 0..31 and sets of cards 32-bit masks in the public encoding
of :mod:`skatdd.core.cards`; games are ``int(skatdd.core.rules.Game)`` (0..5).
"""
from array import array
from collections.abc import Iterable, Sequence
from typing import Literal, Self, overload

from typing_extensions import Buffer

#: Search modes: what Q counts (see solver/search.pxi).
POINTS: int
DECLARER_TRICKS: int
DEFENDER_TRICKS: int
NULL_GAME: int
#: True when the engine was compiled with node and table statistics.
STATS_ENABLED: bool

class Engine:
    """A double-dummy search with its own transposition table of at most *tt_mb* MiB."""

    tt_mb: int
    def __new__(cls, tt_mb: int = 128) -> Self: ...
    def clear(self) -> None: ...
    def reset_stats(self) -> None: ...
    @property
    def nodes(self) -> int: ...
    def stats(self) -> dict[str, int]: ...
    def set_position(self, game: int, declarer: int, mode: int, hands: Sequence[int], leader: int = 0,
                     trick: Iterable[int] = ()) -> None: ...
    def to_move(self) -> int: ...
    def max_q(self) -> int: ...
    def search(self, alpha: int, beta: int) -> int: ...
    def at_least(self, target: int) -> bool: ...
    def exact(self, lo: int = 0, hi: int = -1) -> int: ...
    def legal_cards(self) -> list[int]: ...
    @overload
    def card_values(self, exact: Literal[True] = True, target: int = 1) -> dict[int, int]: ...
    @overload
    def card_values(self, exact: Literal[False], target: int = 1) -> dict[int, bool]: ...
    def card_values_many(self, game: int, declarer: int, mode: int, hands: Buffer, leader: int = 0,
                         trick: Iterable[int] = (), *, exact: bool = True, target: int = 1, base: int = 0,
                         skats: Buffer | None = None,
                         tables: Literal["auto", "clear", "keep"] = "auto") -> array[int]:
        """Every legal card's value in each of many worlds of one decision, in one call without the GIL.

        World w holds the hands ``hands[3w:3w+3]`` (card masks; any C-contiguous
        buffer of 32-bit unsigned ints: ``array('I')``, numpy ``uint32`` of
        shape (n, 3)) and, if *skats* is given (one mask a world), that skat;
        the worlds share *game*, *declarer*, *mode*, *leader* and *trick*, as
        in :meth:`set_position`.  Returns ``array('h')`` of 32 values a world,
        by card int, -1 for a card that is not legal.  *exact*: ``base`` + the
        skat's weight (its points in POINTS mode, 0 in the trick modes) + the
        exact Q after the card.  Otherwise 1 when the declarer gets his way
        after the card, else 0: Q >= target - base - the skat's weight when
        he maximises Q (POINTS, DECLARER_TRICKS), Q below it when the
        defenders do (NULL_GAME, DEFENDER_TRICKS); a lowered target <= 0
        needs no search.  *tables* between worlds: ``"auto"`` empties both
        tables only after a world that stored many entries or grew the
        exact table, ``"clear"`` before every world, ``"keep"`` never.
        Raises ValueError naming the first world that is not a position;
        afterwards the last world is the loaded position.
        """
    def line(self, target: int, exact: bool = True, stop_on_score: bool = False) -> list[int]: ...

def layout(game: int) -> tuple[list[int], list[int], list[int], int]: ...
def legal_cards(game: int, hand: int, led_card: int = -1) -> int: ...
def trick_winner(game: int, cards: Sequence[int]) -> int: ...
