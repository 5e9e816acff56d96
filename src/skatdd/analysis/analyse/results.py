"""What ``skatdd analyse`` reports: the result classes of a game's analysis, each with its ``to_json()``.

:class:`GameAnalysis` holds everything for one game: the card-by-card
:class:`PlayLine` of :class:`CardAnalysis` (:mod:`skatdd.analysis.analyse.card_walk`
finds it), the :class:`Stake` of every position
(:mod:`skatdd.analysis.analyse.stakes`), the actual :class:`GameResult`, the judged
:class:`Claim` and the :class:`ContractReview`; :mod:`skatdd.analysis.analyse.api`
builds them and its docstring says what each number means.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from skatdd.analysis.best.results import SeatReport
from skatdd.core.cards import Card, card_name
from skatdd.core.position import Position
from skatdd.core.printable import Printable
from skatdd.core.rules import Game
from skatdd.core.scoring import Declaration

if TYPE_CHECKING:
    from skatdd.analysis.advise.results import SingleDummyGame


class DecisionsPart(Protocol):
    """The decisions review a :class:`GameAnalysis` may carry (:mod:`skatdd.analysis.review`, a family above)."""

    def to_json(self) -> dict[str, Any]: ...

__all__ = ["CardAnalysis", "Claim", "ContractReview", "GameAnalysis", "GameResult", "PlayLine", "Stake"]



@dataclass(frozen=True)
class CardAnalysis:
    """One card of the game, judged double-dummy (:mod:`skatdd.analysis.analyse.card_walk` says what each number means).

    Attributes:
        index: position in the game's plays, from 0.
        trick: the trick the card belongs to, from 1.
        seat: the seat that played it.
        card: the card.
        value_before, value_after: the value of the position before and after
            the card (suit/grand: declarer's final card points; null: 1 the
            declarer wins, 0 he loses).
        cost: what the card lost for its own side, ``>= 0``; 0 exactly when
            *card* is in *best*.
        best: every legal card of the position worth the best value for the
            player to move, in display order.
        declarer: the card was the declarer's.
    """

    index: int
    trick: int
    seat: int
    card: Card
    value_before: int
    value_after: int
    cost: int
    best: tuple[Card, ...]
    declarer: bool

    @property
    def optimal(self) -> bool:
        """The card kept the value (cost 0)."""
        return self.cost == 0

    def to_json(self) -> dict[str, Any]:
        """``{trick, seat, card, value_before, value_after, cost, best}`` with canonical codes."""
        return {
            "trick": self.trick,
            "seat": self.seat,
            "card": card_name(self.card),
            "value_before": self.value_before,
            "value_after": self.value_after,
            "cost": self.cost,
            "best": [card_name(c) for c in self.best],
        }


@dataclass
class PlayLine:
    """What :func:`~skatdd.analysis.analyse.card_walk.analyse_cards` finds: start value, a :class:`CardAnalysis` a card, effort.

    ``values[i]`` is the value of the position before card *i*
    (``values[len(plays)]`` the one after the last card), so
    ``plays[i].value_before == values[i]`` and ``plays[i].value_after ==
    values[i + 1]``.
    """

    start_value: int
    plays: list[CardAnalysis]
    values: list[int]
    nodes: int
    seconds: float


@dataclass(frozen=True)
class GameResult:
    """The game's actual result.

    ``declarer_points`` include the skat or discard (as ISS's ``p:``) and,
    for a game that ended early, what the ending gave; ``declarer_wins`` and
    ``score`` are ``None`` for a JSON game that stops before its end.
    ``complete``: every card was played (or a null declarer took a trick).
    ``game_value`` and ``overbid``: the declared game's value as played and
    whether it fell short of the bid (ISkO 5.4), ``None`` when unscored.
    """

    declarer_points: int
    declarer_tricks: int
    declarer_wins: bool | None
    score: int | None
    complete: bool
    game_value: int | None = None
    overbid: bool | None = None

    def to_json(self) -> dict[str, Any]:
        """``{declarer_points, declarer_tricks, declarer_wins, score, overbid}``."""
        return {
            "declarer_points": self.declarer_points,
            "declarer_tricks": self.declarer_tricks,
            "declarer_wins": self.declarer_wins,
            "score": self.score,
            "overbid": self.overbid,
        }


class Stake(NamedTuple):
    """The result at stake in a position: what the game's score would say after double-dummy play from there.

    ``wins``: the declarer wins as scored; ``schneider`` and ``schwarz``:
    ``'declarer'``, ``'defenders'`` or ``None`` as in :class:`~skatdd.core.scoring.Score`
    (always ``None`` in null).
    """

    wins: bool
    schneider: str | None
    schwarz: str | None


@dataclass(frozen=True)
class Claim:
    """The declarer's claim (``SC``) that ended an ISS game, judged double-dummy.

    Attributes:
        seat: the claimer (the declarer).
        correct: see :mod:`skatdd.analysis.analyse.api` ("Claims").
        index: cards played before the claim (the claim position is before ``plays[index]``).
        value: double-dummy value of the claim position.
    """

    seat: int
    correct: bool
    index: int
    value: int

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "correct": self.correct, "index": self.index, "value": self.value}


@dataclass
class ContractReview:
    """The declarer's best contract with the same twelve cards, beside the contract played.

    ``report`` is :func:`skatdd.analysis.best.api.best_contracts`'s answer; ``declaration``
    and ``discard`` (``None`` for a hand game) the contract played, ``score``
    its score (``None`` when the game is unfinished).
    """

    report: SeatReport
    declaration: Declaration
    discard: list[Card] | None
    score: int | None

    def to_json(self) -> dict[str, Any]:
        """The best option's fields at the top level (docs/cli.md: "as in best"), plus ``played``."""
        out = self.report.best.to_json()
        out["played"] = {
            "game": self.declaration.game.label,
            "hand": self.declaration.hand,
            "announce": list(self.declaration.announce),
            "discard": None if self.discard is None else [card_name(c) for c in self.discard],
            "score": self.score,
        }
        return out


@dataclass
class GameAnalysis(Printable):
    """Everything ``skatdd analyse`` reports for one game (see :meth:`to_json`); ``str()`` is its readable report.

    Attributes:
        id: the record's ``ID`` or the JSON ``id``.
        declaration: the contract played (game, hand, announcements).
        declarer: the declarer's seat.
        bid: the bid, when known.
        start: the position before the first card (for rendering; not in JSON).
        line: the card-by-card analysis.
        result: the actual result.
        costs: total cost per seat.
        stakes: the :class:`Stake` of every position, ``stakes[i]`` before
            card *i* (the last one after the last card).
        first_decisive, decisive_stake: see :mod:`skatdd.analysis.analyse.stakes`.
        claim: the judged claim, or ``None``.
        ending: ``(kind, seat, awarded)`` of an early ending (``SC``, ``RE``,
            ``TI``, ``LE``; *awarded* is the side given the rest), or ``None``.
        review: the contract review, or ``None`` when skipped.
        players: player names by seat (ISS), else empty strings.
        discard: the declarer's discard (picked-up games), else ``None``.
        source: ``'iss'`` or ``'json'``.
        date: the record's ``DT`` (ISS), else ``None``.
        nodes, seconds: search effort for the whole analysis, review included.
        single_dummy: every card judged from its player's view
            (:func:`skatdd.analysis.advise.api.single_dummy_game`), or ``None``; when set,
            :meth:`to_json` adds its ``sd_*`` fields.
        warnings: what is wrong with the record but did not stop the
            analysis (:func:`skatdd.formats.iss.replay_warnings`: a ``v:`` or ``p:``
            its moves do not give), one line each; in JSON only when there are any.
        dealt: the ten-card hands as dealt and the skat found (``None`` when unknown), for the decisions
            review; not in JSON.
        decisions: the review of the decisions before the first card (:mod:`skatdd.analysis.review`), or
            ``None``; when set, :meth:`to_json` adds ``decisions``.
    """

    id: Any
    declaration: Declaration
    declarer: int
    bid: int | None
    start: Position
    line: PlayLine
    result: GameResult
    costs: list[int]
    stakes: list[Stake]
    first_decisive: int | None
    decisive_stake: str | None
    claim: Claim | None
    ending: tuple[str, int, str | None] | None
    review: ContractReview | None
    players: list[str] = field(default_factory=lambda: ["", "", ""])
    discard: list[Card] | None = None
    source: str = "json"
    date: str | None = None
    nodes: int = 0
    seconds: float = 0.0
    single_dummy: SingleDummyGame | None = None
    warnings: list[str] = field(default_factory=list)
    bids: tuple[tuple[int, str], ...] = ()  # the input's auction (DealInput.bids), for the inference; not in JSON
    dealt: tuple[tuple[int, int, int], int] | None = None
    decisions: DecisionsPart | None = None

    @property
    def game(self) -> Game:
        return self.declaration.game

    @property
    def plays(self) -> list[CardAnalysis]:
        return self.line.plays

    @property
    def start_value(self) -> int:
        return self.line.start_value

    def to_json(self) -> dict[str, Any]:
        """The JSON object of ``skatdd analyse`` (docs/cli.md).

        Beside the documented fields: ``id``, ``date`` (ISS ``DT``, else
        ``null``), ``players`` (names by seat, ``""`` when unknown), ``hand``,
        ``bid``, ``decisive_stake`` and ``ending``; ``warnings`` only when
        there are any (so a record that agrees with itself keeps its output).
        """
        ending = None
        if self.ending is not None:
            kind, seat, awarded = self.ending
            ending = {"kind": kind, "seat": seat, "awarded": awarded}
        out = {
            "id": self.id,
            "date": self.date,
            "players": list(self.players),
            "game": self.game.label,
            "declarer": self.declarer,
            "hand": self.declaration.hand,
            "bid": self.bid,
            "start_value": self.start_value,
            "plays": [p.to_json() for p in self.plays],
            "result": self.result.to_json(),
            "summary": {
                "costs": list(self.costs),
                "first_decisive": self.first_decisive,
                "decisive_stake": self.decisive_stake,
                "claim": None if self.claim is None else self.claim.to_json(),
                "ending": ending,
            },
            "contract_review": None if self.review is None else self.review.to_json(),
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }
        if self.warnings:
            out["warnings"] = list(self.warnings)
        if self.single_dummy is not None:
            self.single_dummy.add_to(out)
        if self.decisions is not None:
            out["decisions"] = self.decisions.to_json()
        return out
