"""What a whole game shows: :class:`SeatState`, one seat's knowledge at a moment, and :class:`GameResult`.

:meth:`skatdd.play.full.game.FullGame.state_for` builds a :class:`SeatState`
for any seat at any moment of the game; it holds exactly what that seat may
know then (docs/game.md, "Who knows what"):

* its own cards now (twelve for a declarer between the pick-up and the discard);
* the auction heard, the highest bid, the declarer, whether he picked up
  the skat and what he declared, as soon as each is said;
* the dealt skat and the discard only for a declarer who picked up;
* in an ouvert game, for a defender, the declarer's cards now;
* every card played with its seat, the trick on the table and the score
  those cards show;
* its legal actions when it is the seat to move (empty otherwise), and the
  result once the game is over.

:class:`GameResult` is the scored game: the list score and the Seeger-Fabian
points of each seat, and the numbers an ISS record's ``R[...]`` gives.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from skatdd.core.cards import Card, CardSet, card_name
from skatdd.core.rules import SEAT_NAMES
from skatdd.core.scoring import Declaration, Score

from .actions import Action, Phase

__all__ = ["GameResult", "SeatState"]


def _signed(values: tuple[int, int, int]) -> str:
    return " ".join(f"{v:+d}" if v else "0" for v in values)


@dataclass(frozen=True)
class GameResult:
    """A finished game, scored (docs/game.md, "Scoring").

    Attributes:
        declarer: the declarer's seat, ``None`` when the game was passed in.
        bid: the bid the declarer won the auction with (``None`` when passed in).
        declaration: the game declared (``None`` when passed in).
        declarer_points: the declarer's card points with the skat or discard (in null too, as ISS counts ``p:``).
        declarer_tricks: the tricks he took.
        matadors: with (+N) or without (-N); 0 for null and when passed in.
        score: the calculator's :class:`~skatdd.core.scoring.Score` (``None`` when passed in).
        early: the play decided the game before the last card (a null declarer's trick, a trick against
            announced schwarz); the server stops there and so does the game.
        schneider, schwarz: one side reached that level, as ISS reports ``s:`` and ``z:``.
        list_points: the list score of each seat (the declarer's score, 0 for the defenders).
        seeger: the Seeger-Fabian points of each seat (won +value+50; lost -2*value-50 and +40 to each defender).
    """

    declarer: int | None
    bid: int | None
    declaration: Declaration | None
    declarer_points: int
    declarer_tricks: int
    matadors: int
    score: Score | None
    early: bool
    schneider: bool
    schwarz: bool
    list_points: tuple[int, int, int]
    seeger: tuple[int, int, int]

    @property
    def passed(self) -> bool:
        """Everybody passed: no game, 0 for every seat."""
        return self.declarer is None

    @property
    def won(self) -> bool:
        """The declarer won (false when passed in, and for an overbid game)."""
        return self.score is not None and self.score.declarer_wins

    @property
    def overbid(self) -> bool:
        """The game was worth less than the bid (ISkO 5.4.2)."""
        return self.score is not None and self.score.overbid

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict: declarer, bid, game, hand, announce, won, points, tricks, the two scores per seat."""
        decl = self.declaration
        return {
            "declarer": self.declarer,
            "bid": self.bid,
            "game": None if decl is None else decl.game.label,
            "hand": None if decl is None else decl.hand,
            "announce": [] if decl is None else decl.announce,
            "won": self.won,
            "overbid": self.overbid,
            "declarer_points": self.declarer_points,
            "declarer_tricks": self.declarer_tricks,
            "matadors": self.matadors,
            "value": None if self.score is None else self.score.score,
            "list": list(self.list_points),
            "tournament": list(self.seeger),
        }

    def __str__(self) -> str:
        """One line: ``'passed in: list 0 0 0, Seeger-Fabian 0 0 0'`` or the declarer, game, outcome and scores."""
        scores = f"list {_signed(self.list_points)}, Seeger-Fabian {_signed(self.seeger)}"
        if self.declarer is None or self.declaration is None or self.score is None:
            return f"passed in: {scores}"
        how = "won" if self.won else "lost (overbid)" if self.overbid else "lost"
        taken = (f"{self.declarer_tricks} tricks" if self.declaration.game.is_null
                 else f"{self.declarer_points} points")
        early = ", decided early" if self.early else ""
        return (f"seat {self.declarer} ({SEAT_NAMES[self.declarer]}) {self.declaration} at {self.bid}: {how} with "
                f"{taken}{early}, {self.score.score:+d}; {scores}")


@dataclass(frozen=True)
class SeatState:
    """Everything *seat* may know at one moment of a whole game (module docstring).

    Attributes:
        seat: whose state this is (0 forehand, 1 middlehand, 2 rearhand).
        phase: the game's phase (:class:`~skatdd.play.full.actions.Phase`).
        to_move: the seat to move, ``None`` when the game is over.
        hand: the seat's cards now.
        bids: the auction so far, ``(seat, move)`` as ISS writes it (``'18'``, ``'y'``, ``'p'``).
        bid: the highest bid said so far, ``None`` before the first.
        declarer: the auction's winner, ``None`` before the auction ends and when passed in.
        picked_up: whether the declarer took up the skat, ``None`` until he chose.
        declaration: what he declared, ``None`` until then.
        skat: the dealt skat, for a declarer who picked it up; ``None`` for everyone else.
        discard: the declarer's discard, for himself once made; ``None`` for everyone else.
        open_hand: in an ouvert game, for a defender, the declarer's cards now; ``None`` otherwise.
        played: every card played so far with its seat, in order.
        leader: the seat that leads (led) the current trick; forehand before the play.
        trick: the cards on the table, leader first.
        declarer_points: card points in the declarer's completed tricks (the skat not included).
        declarer_tricks, defender_tricks: completed tricks each side won.
        legal: the seat's legal actions when it is to move, else empty.
        result: the scored game once it is over, else ``None``.
    """

    seat: int
    phase: Phase
    to_move: int | None
    hand: CardSet
    bids: tuple[tuple[int, str], ...]
    bid: int | None
    declarer: int | None
    picked_up: bool | None
    declaration: Declaration | None
    skat: CardSet | None
    discard: CardSet | None
    open_hand: CardSet | None
    played: tuple[tuple[int, Card], ...]
    leader: int
    trick: tuple[Card, ...]
    declarer_points: int
    declarer_tricks: int
    defender_tricks: int
    legal: tuple[Action, ...]
    result: GameResult | None

    @property
    def is_declarer(self) -> bool:
        """This seat won the auction."""
        return self.declarer == self.seat

    @property
    def my_turn(self) -> bool:
        """This seat is to move."""
        return self.to_move == self.seat

    def to_json(self) -> dict[str, Any]:
        """The state as JSON (canonical card codes, actions as their ISS tokens), for logs and other languages."""
        decl = self.declaration
        return {
            "seat": self.seat,
            "phase": str(self.phase),
            "to_move": self.to_move,
            "hand": str(self.hand),
            "bids": [[seat, move] for seat, move in self.bids],
            "bid": self.bid,
            "declarer": self.declarer,
            "picked_up": self.picked_up,
            "game": None if decl is None else decl.game.label,
            "hand_game": None if decl is None else decl.hand,
            "announce": [] if decl is None else decl.announce,
            "skat": None if self.skat is None else str(self.skat),
            "discard": None if self.discard is None else str(self.discard),
            "open_hand": None if self.open_hand is None else str(self.open_hand),
            "played": [[seat, card_name(card)] for seat, card in self.played],
            "leader": self.leader,
            "trick": [card_name(c) for c in self.trick],
            "declarer_points": self.declarer_points,
            "declarer_tricks": self.declarer_tricks,
            "defender_tricks": self.defender_tricks,
            "legal": [str(a) for a in self.legal],
            "result": None if self.result is None else self.result.to_json(),
        }

    def __str__(self) -> str:
        """One line: the seat, the phase, its hand and, when it is to move, its choices."""
        who = "declarer" if self.is_declarer else "defender" if self.declarer is not None else "player"
        turn = f", to move: {' '.join(str(a) for a in self.legal[:12])}{' ...' if len(self.legal) > 12 else ''}"
        return (f"seat {self.seat} ({who}), {self.phase}, hand {self.hand or '-'}"
                + (turn if self.legal else ""))
