"""The whole game of Skat as a state machine: :class:`FullGame`, from the deal to the score (docs/game.md).

A game is dealt (from a seed, or given), then moves through the phases of
:class:`~skatdd.play.full.actions.Phase`: the auction, the declarer's pick-up
or hand game, his discard, his declaration, the card play and the end.  At
each step one seat (:attr:`FullGame.current_seat`) picks one of
:meth:`FullGame.legal_actions` and :meth:`FullGame.apply` makes it, as in
OpenSpiel or python-chess.  The rules followed (ISkO, as on the
International Skat Server; docs/game.md):

* **auction**: middlehand says bids to forehand, who holds or passes;
  rearhand then says bids to the survivor.  A bid is any value of
  :data:`~skatdd.play.full.actions.BIDS` above the last one (jump bids
  included).  When middlehand and rearhand pass without a bid, forehand
  may open or pass; when all three pass, the deal is passed in and scores 0
  for everybody.  No Ramsch, no Kontra/Re (the server has neither).
* **declarer**: hand game or pick-up; after a pick-up, two of his twelve
  cards put away; the game: a suit, grand or null, and the announcements
  (schneider and schwarz in hand games only; ouvert, which for a suit or
  grand is a hand game with schwarz announced).  A null worth less than the
  bid cannot be declared; a suit or grand can, and is overbid if its value
  after the play stays below the bid.
* **play**: by :class:`~skatdd.core.position.Position` (the rules module),
  forehand leading.  Like the server, the game stops as soon as the play
  has decided it: a null declarer's first trick, the defenders' first trick
  against announced schwarz (:meth:`~skatdd.core.scoring.Declaration.decided`).
* **score**: :func:`~skatdd.core.scoring.score_game` with the bid (overbid
  as ISkO 5.4.2), the list score and Seeger-Fabian points per seat
  (:class:`~skatdd.play.full.state.GameResult`).

Every finished game writes itself as an ISS record (:meth:`FullGame.to_iss`)
that :func:`skatdd.formats.iss.parse_iss` reads and :func:`skatdd.formats.iss.replay`
scores the same.

>>> game = FullGame(["CJ SJ HJ DJ CA CT CK CQ C9 C8", "SA ST SK SQ S9 S8 S7 HA HT HK",
...                  "C7 HQ H9 H8 H7 DA DT DK DQ D9"], "D8 D7")
>>> game.phase, game.current_seat, [str(a) for a in game.legal_actions()][:3]
(<Phase.AUCTION: 'auction'>, 1, ['18', '20', '22'])
>>> for move in ("p", "p", "18", "hand", "CH"):
...     game.apply(move)
>>> game.phase, game.current_seat, str(game.state_for(1).declaration)
(<Phase.PLAY: 'play'>, 0, 'clubs hand')
"""
from __future__ import annotations

import copy
import itertools
from collections.abc import Sequence

from skatdd.core.cards import CardSet, Mask, cards_of, format_mask, mask_of, points_of
from skatdd.core.dealing import random_deal
from skatdd.core.errors import CardCountError, DuplicateCardError, IllegalPlayError, SkatddError, quote
from skatdd.core.position import Cards, Position
from skatdd.core.rules import SCHNEIDER_POINTS, SCHNEIDERED_POINTS, Game
from skatdd.core.scoring import NULL_VALUES, Declaration, matadors, score_game
from skatdd.core.seeds import generator
from skatdd.formats.iss.write import deal_token, declaration_token, result_token, write_iss

from .actions import BIDS, Action, Declare, Discard, Hold, Pass, Phase, PickUp, Play, PlayHand, Say, parse_action
from .state import GameResult, SeatState

__all__ = ["FullGame"]

_FOREHAND, _MIDDLEHAND, _REARHAND = 0, 1, 2
_SUIT_AND_GRAND = (Game.GRAND, Game.CLUBS, Game.SPADES, Game.HEARTS, Game.DIAMONDS)


def _legal_declarations(hand: bool, bid: int) -> tuple[Declaration, ...]:
    """Every declaration the declarer may make after *bid*, hand game or not (module docstring)."""
    found: list[Declaration] = []
    for game in _SUIT_AND_GRAND:
        found.append(Declaration(game, hand=hand))
        if hand:
            found += [Declaration(game, hand=True, schneider=True), Declaration(game, hand=True, schwarz=True),
                      Declaration(game, ouvert=True)]
    for ouvert in (False, True):
        if NULL_VALUES[ouvert, hand] >= bid:  # a null's value is fixed: it must reach the bid when declared
            found.append(Declaration(Game.NULL, hand=hand, ouvert=ouvert))
    return tuple(found)


class FullGame:
    """One deal of Skat played from the auction to the score (module docstring).

    Construct it with the three dealt hands (index = seat, forehand first) and
    the skat, each as a mask, a card string or cards, or deal it with
    :meth:`from_seed`.  Raises :class:`~skatdd.core.errors.CardCountError` or
    :class:`~skatdd.core.errors.DuplicateCardError` for a deal that is not ten
    cards each and a skat of two, 32 different cards.
    """

    def __init__(self, hands: Sequence[Cards], skat: Cards) -> None:
        if len(hands) != 3:
            raise CardCountError(f"a deal has three hands, not {len(hands)}")
        masks = [CardSet(h).mask if not isinstance(h, int) else h for h in hands]
        skat_mask = CardSet(skat).mask if not isinstance(skat, int) else skat
        seen = 0
        for what, mask, size in [(f"hand of seat {s}", m, 10) for s, m in enumerate(masks)] + [("skat", skat_mask, 2)]:
            if mask.bit_count() != size:
                raise CardCountError(f"the {what} holds {mask.bit_count()} cards ({format_mask(mask)}): expected {size}")
            if seen & mask:
                raise DuplicateCardError(f"the {what} repeats {quote(format_mask(seen & mask))}, dealt elsewhere")
            seen |= mask
        self._hands: tuple[Mask, Mask, Mask] = (masks[0], masks[1], masks[2])
        self._skat = skat_mask
        self._history: list[tuple[int, Action]] = []
        self._phase = Phase.AUCTION
        # The auction: the seat saying bids, the one answering them, whose turn it is, and the stage
        # (1: middlehand to forehand, 2: rearhand to the survivor, 3: forehand alone after two passes).
        self._bids: list[tuple[int, str]] = []
        self._bid = 0
        self._stage = 1
        self._speaker: int = _MIDDLEHAND
        self._listener: int = _FOREHAND
        self._to_move: int | None = _MIDDLEHAND
        self._declarer: int | None = None
        self._picked_up: bool | None = None
        self._discard: Mask | None = None
        self._declaration: Declaration | None = None
        self._position: Position | None = None
        self._result: GameResult | None = None

    @classmethod
    def from_seed(cls, seed: int) -> FullGame:
        """A uniformly random deal from *seed*: :func:`~skatdd.core.dealing.random_deal` on `generator(seed)`."""
        hands, skat = random_deal(generator(seed))
        return cls(hands, skat)

    # -- what the referee sees
    @property
    def phase(self) -> Phase:
        """Where the game stands."""
        return self._phase

    @property
    def current_seat(self) -> int | None:
        """The seat to move; ``None`` once the game is over."""
        return self._to_move

    @property
    def is_over(self) -> bool:
        """The game is scored (passed in, played out or decided early)."""
        return self._phase is Phase.OVER

    @property
    def result(self) -> GameResult | None:
        """The scored game once it is over, else ``None``."""
        return self._result

    @property
    def dealt(self) -> tuple[tuple[Mask, Mask, Mask], Mask]:
        """The deal: the three hands as dealt (masks, index = seat) and the skat."""
        return self._hands, self._skat

    @property
    def history(self) -> tuple[tuple[int, Action], ...]:
        """Every action made so far, with the seat that made it, in order."""
        return tuple(self._history)

    @property
    def bids(self) -> tuple[tuple[int, str], ...]:
        """The auction so far as ISS writes it: ``(seat, '18' | 'y' | 'p')``."""
        return tuple(self._bids)

    @property
    def bid(self) -> int | None:
        """The highest bid said so far, ``None`` before the first."""
        return self._bid or None

    @property
    def declarer(self) -> int | None:
        """The auction's winner, ``None`` before it ends and when the deal is passed in."""
        return self._declarer

    @property
    def declaration(self) -> Declaration | None:
        """The declared game, ``None`` before the declaration."""
        return self._declaration

    @property
    def position(self) -> Position | None:
        """A copy of the card play's :class:`Position` (every hand: the referee's view), ``None`` before the play."""
        return None if self._position is None else self._position.copy()

    def clone(self) -> FullGame:
        """An independent copy: applying actions to it leaves this game as it is."""
        # Actions, declarations and results are immutable and shared; only the lists and the position are copied
        # (a deep copy cannot copy a CardSet, which refuses attribute assignment).
        other = copy.copy(self)
        other._history = list(self._history)
        other._bids = list(self._bids)
        other._position = None if self._position is None else self._position.copy()
        return other

    # -- the seats' cards
    def _twelve(self) -> Mask:
        assert self._declarer is not None
        return self._hands[self._declarer] | self._skat

    def _cards_of(self, seat: int) -> Mask:
        """The cards *seat* holds now."""
        if self._position is not None:
            return self._position.hands[seat]
        if seat == self._declarer and self._picked_up:
            return self._twelve() & ~(self._discard or 0)
        return self._hands[seat]

    # -- the choices
    def legal_actions(self) -> list[Action]:
        """The legal actions of :attr:`current_seat`, in a fixed order; empty once the game is over."""
        phase = self._phase
        if phase is Phase.AUCTION:
            if self._to_move == self._speaker:
                return [*(Say(v) for v in BIDS if v > self._bid), Pass()]
            return [Hold(), Pass()]
        if phase is Phase.PICK_UP:
            return [PickUp(), PlayHand()]
        if phase is Phase.DISCARD:
            return [Discard(CardSet(mask_of(pair))) for pair in itertools.combinations(cards_of(self._twelve()), 2)]
        if phase is Phase.DECLARE:
            return [Declare(d) for d in _legal_declarations(not self._picked_up, self._bid)]
        if phase is Phase.PLAY:
            assert self._position is not None
            return [Play(c) for c in self._position.legal_moves()]
        return []

    def apply(self, action: Action | str) -> None:
        """Make *action* for :attr:`current_seat`: an action object or its token (``'18'``, ``'y'``, ``'p'``,
        ``'s'``, ``'hand'``, ``'SA.ST'``, ``'CH'``, ``'HA'``; :func:`~skatdd.play.full.actions.parse_action`).

        Raises :class:`~skatdd.core.errors.IllegalPlayError` naming the action when it is not one of
        :meth:`legal_actions` (the game is left unchanged), and a
        :class:`~skatdd.core.errors.SkatddError` for a token that means nothing in this phase.
        """
        if isinstance(action, str):
            action = parse_action(action, self._phase)
        seat = self._to_move
        if seat is None:
            raise IllegalPlayError(f"the game is over: {quote(str(action))} cannot be played")
        if not self._is_legal(action):
            raise IllegalPlayError(f"{quote(str(action))} is not a legal {self._phase} move for seat {seat}")
        self._history.append((seat, action))
        if isinstance(action, (Say, Hold, Pass)):
            self._auction(seat, action)
        elif isinstance(action, PickUp):
            self._picked_up = True
            self._phase = Phase.DISCARD
        elif isinstance(action, PlayHand):
            self._picked_up = False
            self._phase = Phase.DECLARE
        elif isinstance(action, Discard):
            self._discard = action.cards.mask
            self._phase = Phase.DECLARE
        elif isinstance(action, Declare):
            self._start_play(action.declaration)
        else:
            self._play(action)

    def _is_legal(self, action: Action) -> bool:
        # One source of truth: an action is legal when legal_actions() lists it (at most 66 of them).
        if self._phase is Phase.PLAY:
            assert self._position is not None
            return isinstance(action, Play) and bool(self._position.legal_moves_mask() >> action.card & 1)
        return action in self.legal_actions()

    # -- the auction
    def _auction(self, seat: int, action: Say | Hold | Pass) -> None:
        if isinstance(action, Say):
            self._bids.append((seat, str(action.value)))
            self._bid = action.value
            if self._stage == 3:
                self._end_auction(_FOREHAND)
            else:
                self._to_move = self._listener
            return
        self._bids.append((seat, str(action)))
        if isinstance(action, Hold):
            self._to_move = self._speaker
            return
        # A pass: the other seat of this duel survives it.
        survivor = self._listener if seat == self._speaker else self._speaker
        if self._stage == 1:
            self._stage, self._listener, self._speaker = 2, survivor, _REARHAND
            self._to_move = _REARHAND
        elif self._stage == 2 and self._bid:
            self._end_auction(survivor)
        elif self._stage == 2:
            # Middlehand and rearhand passed without a bid: forehand may open himself.
            self._stage, self._speaker, self._to_move = 3, _FOREHAND, _FOREHAND
        else:
            self._end_auction(None)

    def _end_auction(self, declarer: int | None) -> None:
        self._declarer = declarer
        if declarer is None:
            self._finish_passed()
        else:
            self._phase, self._to_move = Phase.PICK_UP, declarer

    # -- the play
    def _start_play(self, declaration: Declaration) -> None:
        declarer = self._declarer
        assert declarer is not None
        self._declaration = declaration
        hands = list(self._hands)
        hands[declarer] = self._cards_of(declarer)
        skat = self._discard if self._picked_up and self._discard is not None else self._skat
        self._position = Position(declaration.game, declarer, hands, skat, leader=_FOREHAND)
        self._phase, self._to_move = Phase.PLAY, _FOREHAND

    def _play(self, action: Play) -> None:
        pos, declaration = self._position, self._declaration
        assert pos is not None and declaration is not None
        pos.play(action.card)
        if pos.is_over() or declaration.decided(pos.declarer_tricks, pos.defender_tricks):
            self._finish_played()
        else:
            self._to_move = pos.to_move

    def _finish_passed(self) -> None:
        self._phase, self._to_move = Phase.OVER, None
        self._result = GameResult(None, None, None, 0, 0, 0, None, False, False, False, (0, 0, 0), (0, 0, 0))

    def _finish_played(self) -> None:
        """Score the game as the server does (docs/iss.md, "Games that end early"; formats/iss/replay.py)."""
        pos, decl, declarer = self._position, self._declaration, self._declarer
        assert pos is not None and decl is not None and declarer is not None
        self._phase, self._to_move = Phase.OVER, None
        points = pos.declarer_points + points_of(pos.skat)  # ISS counts the skat in p:, in null too
        tricks = pos.declarer_tricks
        early = bool(pos.cards_left or pos.trick)
        if decl.game.is_null:
            mats = 0
            score = score_game(decl, tricks=tricks, bid=self._bid)
            schneider = schwarz = False
        else:
            mats = matadors(decl.game, self._twelve())
            # Stopped by the play, neither side is schwarz, whatever the tricks so far.
            score = score_game(decl, matadors=mats, points=points, tricks=None if early else tricks, bid=self._bid)
            if early:
                schneider, schwarz = points >= SCHNEIDER_POINTS, False
            else:
                schneider = points >= SCHNEIDER_POINTS or points <= SCHNEIDERED_POINTS
                schwarz = tricks in (0, 10)
        listed = [0, 0, 0]
        seeger = [score.seeger_defenders] * 3
        listed[declarer], seeger[declarer] = score.score, score.seeger
        self._result = GameResult(
            declarer, self._bid, decl, points, tricks, mats, score, early, schneider, schwarz,
            (listed[0], listed[1], listed[2]), (seeger[0], seeger[1], seeger[2]),
        )

    # -- what a seat knows
    def state_for(self, seat: int) -> SeatState:
        """Exactly what *seat* may know now (:class:`~skatdd.play.full.state.SeatState`; docs/game.md)."""
        if seat not in (0, 1, 2):
            raise SkatddError(f"unknown seat {quote(seat)}: expected 0, 1 or 2")
        declarer, pos, decl = self._declarer, self._position, self._declaration
        own_pick_up = seat == declarer and bool(self._picked_up)
        ouvert_defender = decl is not None and decl.ouvert and pos is not None and seat != declarer
        if self._phase is Phase.DISCARD and seat == declarer:
            hand = self._twelve()
        else:
            hand = self._cards_of(seat)
        return SeatState(
            seat=seat,
            phase=self._phase,
            to_move=self._to_move,
            hand=CardSet(hand),
            bids=tuple(self._bids),
            bid=self._bid or None,
            declarer=declarer,
            picked_up=self._picked_up,
            declaration=decl,
            skat=CardSet(self._skat) if own_pick_up else None,
            discard=CardSet(self._discard) if own_pick_up and self._discard is not None else None,
            open_hand=CardSet(pos.hands[declarer]) if ouvert_defender and pos is not None and declarer is not None else None,
            played=tuple(pos.history) if pos is not None else (),
            leader=pos.leader if pos is not None else _FOREHAND,
            trick=tuple(pos.trick) if pos is not None else (),
            declarer_points=pos.declarer_points if pos is not None else 0,
            declarer_tricks=pos.declarer_tricks if pos is not None else 0,
            defender_tricks=pos.defender_tricks if pos is not None else 0,
            legal=tuple(self.legal_actions()) if seat == self._to_move else (),
            result=self._result,
        )

    # -- the record
    def iss_moves(self) -> list[tuple[str, str]]:
        """The ``MV`` pairs of the game so far, as the server writes them (the deal first)."""
        moves: list[tuple[str, str]] = [("w", deal_token(self._hands, self._skat))]
        moves += [(str(seat), move) for seat, move in self._bids]
        declarer = self._declarer
        if declarer is None:
            return moves
        if self._picked_up:
            moves += [(str(declarer), "s"), ("w", ".".join(str(c) for c in cards_of(self._skat)))]
        if self._declaration is not None:
            discard = cards_of(self._discard) if self._picked_up and self._discard is not None else None
            moves.append((str(declarer), declaration_token(self._declaration, discard)))
        if self._position is not None:
            moves += [(str(seat), str(card)) for seat, card in self._position.history]
        return moves

    def to_iss(self, *, game_id: str = "", players: Sequence[str] = ("", "", ""), date: str = "") -> str:
        """The finished game as one ISS record line (docs/iss.md); raises :class:`SkatddError` before the end."""
        result = self._result
        if result is None:
            raise SkatddError(f"the game is not over ({self._phase}): only a finished game is written as an ISS record")
        if result.score is None:
            text = result_token(declarer=None)
        else:
            text = result_token(
                declarer=result.declarer, won=result.won, score=result.score.score, matadors=result.matadors,
                overbid=result.overbid, points=result.declarer_points, tricks=result.declarer_tricks,
                schneider=result.schneider, schwarz=result.schwarz,
            )
        return write_iss(self.iss_moves(), text, game_id=game_id, players=players, date=date)

    def __str__(self) -> str:
        """The deal and the moves so far (ISS tokens), then the result when over."""
        rows = [f"  {seat} {format_mask(mask)}" for seat, mask in enumerate(self._hands)]
        rows.append(f"  skat {format_mask(self._skat)}")
        rows.append("  moves " + (" ".join(f"{seat}:{action}" for seat, action in self._history) or "-"))
        rows.append(f"  {self._result}" if self._result is not None else f"  {self._phase}, seat {self._to_move} to move")
        return "FullGame\n" + "\n".join(rows)

    def __repr__(self) -> str:
        return f"<FullGame {self._phase}, {len(self._history)} moves>"
