"""What one seat may know when it must play a card: :class:`PlayerState`.

The referee (:mod:`skatdd.play.match`) builds a state with :func:`state_for`
before every card and hands it to the player of the seat to move.  The state
holds exactly what that seat can know at the table, and nothing else:

* its seat, its own cards now and the legal ones among them;
* the game, the declarer, the declaration (hand game, announcements,
  ouvert) and the bids heard in the auction;
* every card played so far and who played it, the leader and the cards of
  the trick on the table, and the score so far (which those cards show);
* the skat only for a declarer who picked it up: the two cards he put away
  (his discard); in an ouvert game, for a defender, the declarer's cards;
* :attr:`PlayerState.view`: the same knowledge as a
  :class:`skatdd.analysis.worlds.space.View` (with the voids the play revealed), to count
  and draw the worlds the seat cannot tell apart; :meth:`PlayerState.position`
  turns such a world into a :class:`~skatdd.core.position.Position` the solvers take.

Two deals that look the same from the seat give equal states (the
information test in tests/test_match_state.py plays games, swaps the hidden
cards for every other consistent world, and checks exactly that).

>>> from skatdd.core.cards import mask_of, parse_cards
>>> from skatdd.core.rules import Game
>>> from skatdd.core.scoring import Declaration
>>> hands = [mask_of(parse_cards(h)) for h in ("CJ SJ HJ DJ CA CT CK CQ C9 C8",
...          "SA ST SK SQ S9 S8 S7 HA HT HK", "C7 HQ H9 H8 H7 DA DT DK DQ D9")]
>>> pos = Position(Game.CLUBS, 0, hands, mask_of(parse_cards("D8 D7")))
>>> state = state_for(pos, Declaration(Game.CLUBS))
>>> state.seat, str(state.skat), len(state.legal)
(0, 'D8 D7', 10)
>>> pos.play(parse_cards("CJ")[0])
>>> defender = state_for(pos, Declaration(Game.CLUBS))
>>> defender.seat, defender.skat, [card_name(c) for c in defender.trick]
(1, None, ['CJ'])
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from skatdd.analysis.advise.api import mover_view
from skatdd.analysis.worlds.space import View, World
from skatdd.core.cards import Card, CardSet, card_name, display_sorted, format_mask
from skatdd.core.position import Position
from skatdd.core.rules import Game
from skatdd.core.scoring import Declaration
from skatdd.formats.spec import replay_cards

__all__ = ["Bid", "PlayerState", "state_for"]

#: One move of the auction as the International Skat Server writes it: ``(seat, move)``, the move a
#: number said (``"18"``), ``"y"`` (hold) or ``"p"`` (pass).
Bid = tuple[int, str]


@dataclass(frozen=True)
class PlayerState:
    """Everything the seat to move may know (module docstring); built by :func:`state_for`.

    Attributes:
        seat: the seat to move, 0 forehand, 1 middlehand, 2 rearhand.
        hand: its cards now.
        legal: the cards of :attr:`hand` it may play, in display order
            (jacks first, then clubs, spades, hearts, diamonds, high to low).
        game: the contract for play (null ouvert is ``Game.NULL``).
        declarer: the declarer's seat.
        declaration: what the declarer declared: hand game, schneider or
            schwarz announced, ouvert.
        bids: every move of the auction, in order (:data:`Bid`); empty when
            the deal carries no auction.
        bid: the highest bid, ``None`` when the deal carries none.
        played: every card played so far with the seat that played it, in
            play order (the cards of the current trick last).
        leader: the seat that led the current trick (or leads it now).
        trick: the cards on the table in the current trick, leader first.
        declarer_points: card points in the declarer's completed tricks (the
            skat not included).
        declarer_tricks, defender_tricks: completed tricks each side won.
        skat: the declarer's discard, for a declarer who picked up the skat;
            ``None`` for everyone else (a defender, a hand game).
        open_hand: in an ouvert game, for a defender, the declarer's cards
            now; ``None`` otherwise.
        view: the same knowledge as a :class:`skatdd.analysis.worlds.space.View`, the
            voids included, for :func:`skatdd.analysis.worlds.draw.choose_worlds`.
    """

    seat: int
    hand: CardSet
    legal: tuple[Card, ...]
    game: Game
    declarer: int
    declaration: Declaration
    bids: tuple[Bid, ...]
    bid: int | None
    played: tuple[tuple[int, Card], ...]
    leader: int
    trick: tuple[Card, ...]
    declarer_points: int
    declarer_tricks: int
    defender_tricks: int
    skat: CardSet | None
    open_hand: CardSet | None
    view: View

    @property
    def is_declarer(self) -> bool:
        """The seat to move is the declarer."""
        return self.seat == self.declarer

    @property
    def trick_number(self) -> int:
        """The trick being played, from 1."""
        return len(self.played) // 3 + 1

    def position(self, world: World) -> Position:
        """The game now as it would stand in *world* (one of ``self.view``'s worlds), its history included.

        The hands are those of *world* before the played cards, the skat its
        skat, and every card of :attr:`played` is played again, so the
        position's own view (:func:`skatdd.analysis.advise.api.mover_view`) equals
        :attr:`view` and every solver and :func:`skatdd.analysis.advise.api.advise` take it.
        Raises :class:`~skatdd.core.errors.IllegalPlayError` for a world that does
        not fit the view.
        """
        start = Position(self.game, self.declarer, list(world.start_hands(self.view)), world.skat, leader=0)
        return replay_cards(start, [card for _, card in self.played])

    def to_json(self) -> dict[str, Any]:
        """The state as JSON (canonical card codes; the view left out), for logs and plug-ins in other languages."""
        return {
            "seat": self.seat,
            "hand": str(self.hand),
            "legal": [card_name(c) for c in self.legal],
            "game": self.game.label,
            "declarer": self.declarer,
            "hand_game": self.declaration.hand,
            "announce": self.declaration.announce,
            "bids": [[seat, move] for seat, move in self.bids],
            "bid": self.bid,
            "played": [[seat, card_name(card)] for seat, card in self.played],
            "leader": self.leader,
            "trick": [card_name(c) for c in self.trick],
            "declarer_points": self.declarer_points,
            "declarer_tricks": self.declarer_tricks,
            "defender_tricks": self.defender_tricks,
            "skat": None if self.skat is None else str(self.skat),
            "open_hand": None if self.open_hand is None else str(self.open_hand),
        }

    def __str__(self) -> str:
        """One line: seat, trick, cards on the table and the legal cards."""
        table = " ".join(card_name(c) for c in self.trick) or "-"
        return (f"seat {self.seat} ({'declarer' if self.is_declarer else 'defender'}), trick {self.trick_number}, "
                f"table {table}, hand {format_mask(self.hand.mask)}, legal {' '.join(card_name(c) for c in self.legal)}")


def state_for(pos: Position, declaration: Declaration, bids: Sequence[Bid] = (), bid: int | None = None) -> PlayerState:
    """The state of the seat to move in *pos*, a game in play whose ``history`` holds every card since the first.

    *declaration* says who knows the skat (a declarer who picked it up) and
    whose cards lie open (ouvert); *bids* and *bid* are the auction heard.
    Only what that seat can see is taken from *pos*.
    """
    seat = pos.to_move
    picked_up = seat == pos.declarer and not declaration.hand
    ouvert_defender = declaration.ouvert and seat != pos.declarer
    return PlayerState(
        seat=seat,
        hand=CardSet(pos.hands[seat]),
        legal=tuple(display_sorted(pos.legal_moves())),
        game=pos.game,
        declarer=pos.declarer,
        declaration=declaration,
        bids=tuple((int(s), str(move)) for s, move in bids),
        bid=bid,
        played=tuple(pos.history),
        leader=pos.leader,
        trick=tuple(pos.trick),
        declarer_points=pos.declarer_points,
        declarer_tricks=pos.declarer_tricks,
        defender_tricks=pos.defender_tricks,
        skat=CardSet(pos.skat) if picked_up else None,
        open_hand=CardSet(pos.hands[pos.declarer]) if ouvert_defender else None,
        view=mover_view(pos, declaration),
    )
