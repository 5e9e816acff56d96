"""What ``skatdd best`` answers: one :class:`Option` per declarable game, gathered in a :class:`SeatReport`.

The fields follow docs/cli.md and :mod:`skatdd.analysis.best.api`'s docstring
(how each is found, and the tie rules); :func:`best_index` is the rule that
picks :attr:`SeatReport.best`, :func:`option_position` the position an
option is played from.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from skatdd.core.cards import Card, Mask, card_name
from skatdd.core.position import Position
from skatdd.core.printable import Printable
from skatdd.core.rules import Game
from skatdd.core.scoring import Declaration

__all__ = ["GAME_ORDER", "Option", "SeatReport", "best_index", "option_position"]

#: Games in the order options are listed (null ouvert follows null).
GAME_ORDER = (Game.GRAND, Game.CLUBS, Game.SPADES, Game.HEARTS, Game.DIAMONDS, Game.NULL)


@dataclass
class Option:
    """One declarable game with its double-dummy result and score (a row of ``options``, docs/cli.md).

    Attributes:
        game: the contract for play (null ouvert is ``Game.NULL`` with ``'ouvert'`` in *announce*).
        hand: a hand game (skat not picked up).
        discard: the two cards put away (display order), ``None`` for a hand game.
        announce: announcements, implied levels included, from ``schneider``, ``schwarz``, ``ouvert``.
        value: the declarer's double-dummy card points, skat or discard included; ``None`` in null.
        declarer_wins: the declarer wins the game as scored (an overbid game is lost).
        schneider, schwarz: ``'declarer'``, ``'defenders'`` or ``None`` (see the module docstring).
        matadors: ``+N`` with / ``-N`` without N, 0 for null.
        game_value: the game value (before any overbid adjustment).
        score: the ISkO list score for the declarer, overbid included when a bid was given.
        line: a principal variation from the first lead, card by card (null:
            to the trick the declarer is forced to take); filled for the
            option :attr:`SeatReport.best` copies, empty for the others
            unless :func:`best_contracts` was asked for ``all_lines``.
    """

    game: Game
    hand: bool
    discard: list[Card] | None
    announce: list[str]
    value: int | None
    declarer_wins: bool
    schneider: str | None
    schwarz: str | None
    matadors: int
    game_value: int
    score: int
    line: list[Card] = field(default_factory=list)

    @property
    def ouvert(self) -> bool:
        """Ouvert declared (null ouvert, or a suit/grand ouvert hand game)."""
        return "ouvert" in self.announce

    @property
    def declaration(self) -> Declaration:
        """The :class:`~skatdd.core.scoring.Declaration` this option scores."""
        return Declaration.from_options(self.game, hand=self.hand, announce=self.announce)

    @property
    def label(self) -> str:
        """Readable contract: ``'clubs'``, ``'grand hand schneider announced'``, ``'null ouvert hand'``."""
        return str(self.declaration)

    def to_json(self) -> dict[str, Any]:
        """The option as its JSON object (docs/cli.md), with canonical card codes."""
        return {
            "game": self.game.label,
            "hand": self.hand,
            "discard": None if self.discard is None else [card_name(c) for c in self.discard],
            "announce": list(self.announce),
            "value": self.value,
            "declarer_wins": self.declarer_wins,
            "schneider": self.schneider,
            "schwarz": self.schwarz,
            "matadors": self.matadors,
            "game_value": self.game_value,
            "score": self.score,
            "line": [card_name(c) for c in self.line],
        }


@dataclass
class SeatReport(Printable):
    """Every option of one declarer seat, and the best (docs/cli.md, ``skatdd best``).

    ``str(report)`` is this seat's part of what ``skatdd best`` prints
    (:mod:`skatdd.present.best`), for which the deal is kept.

    Attributes:
        declarer: the seat analysed.
        bid: the bid the options were scored against, or ``None``.
        best: a copy of the option with the highest score (ties: first in *options*).
        options: every declarable option, in the order of :data:`GAME_ORDER`
            (null ouvert after null), picked up before hand.
        nodes: engine nodes searched for this report.
        seconds: wall time spent.
        hands, skat: the deal as dealt (masks), for the text; not in the JSON.
    """

    declarer: int
    bid: int | None
    best: Option
    options: list[Option]
    nodes: int
    seconds: float
    hands: list[Mask] | None = field(default=None, repr=False, compare=False)
    skat: Mask | None = field(default=None, repr=False, compare=False)

    @property
    def best_index(self) -> int:
        """Index in :attr:`options` of the option :attr:`best` copies."""
        return best_index(self.options)

    def to_json(self) -> dict[str, Any]:
        """``{declarer, bid, best, options, nodes, seconds}`` with canonical card codes."""
        return {
            "declarer": self.declarer,
            "bid": self.bid,
            "best": self.best.to_json(),
            "options": [o.to_json() for o in self.options],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }



def best_index(options: list[Option]) -> int:
    """The best option: highest score; among equal scores the first in the list."""
    return max(range(len(options)), key=lambda i: (options[i].score, -i))


def option_position(option: Option, hands: list[Mask], skat: Mask, declarer: int) -> Position:
    """The position before the first card when *declarer* plays *option* on the deal (*hands*, *skat* as dealt).

    Picked up: the declarer holds his twelve cards minus the discard, which
    becomes the position's skat; hand: the hands and skat as dealt.
    """
    hands = list(hands)
    if option.discard is not None:
        dmask = 1 << option.discard[0] | 1 << option.discard[1]
        hands[declarer] = (hands[declarer] | skat) & ~dmask
        skat = dmask
    return Position(option.game, declarer, hands, skat, leader=0)

