"""The ISS game record as data: :class:`IssGame`, its result :class:`IssResult` and its ending events.

:class:`IssGame` is what :func:`skatdd.formats.iss.parse.parse_iss` makes of one
record (docs/iss.md): the deal, the bidding, the declaration, the skat
pick-up and discard, the card plays, the early-ending events and the
server's ``R[...]`` result.  Per-player views may hide cards of the deal
(``??``); methods that need the hands raise :class:`ISSFormatError` when the
record does not reveal them.  :func:`play_through` plays a record's visible
cards through :class:`~skatdd.core.position.Position`, the check behind
:meth:`IssGame.check_plays` and :func:`skatdd.formats.iss.replay.replay`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from skatdd.core.cards import Card, Mask, card_name, cards_of, format_cards, mask_of
from skatdd.core.errors import IllegalPlayError, ISSFormatError, quote
from skatdd.core.position import Position
from skatdd.core.rules import Game
from skatdd.core.scoring import Declaration

__all__ = ["HIDDEN", "IssEvent", "IssGame", "IssResult", "play_through"]

#: The token ISS writes for a card hidden from this view.
HIDDEN = "??"


@dataclass
class IssResult:
    """The server's result ``R[...]``; every field is ``None`` when the record leaves it out.

    ``passed`` is true for ``R[passed]`` and for ``d:-1`` without ``penalty``
    (nobody played); a ``d:-1 penalty`` record (someone left during the
    bidding) has ``passed`` false, ``outcome == 'penalty'`` and no declarer.
    ``left`` and ``timed_out`` are ``None`` when the record says ``-1``.
    ``penalties`` holds ``p0:``, ``p1:``, ``p2:`` when all three are given.
    Unknown tokens are kept only in ``raw``.
    """

    declarer: int | None = None
    outcome: str | None = None
    passed: bool = False
    value: int | None = None
    matadors: int | None = None
    overbid: bool | None = None
    points: int | None = None
    tricks: int | None = None
    schneider: bool | None = None
    schwarz: bool | None = None
    resigned: bool | None = None
    left: int | None = None
    timed_out: int | None = None
    raw: str = ""
    penalties: list[int] | None = None


@dataclass(frozen=True)
class IssEvent:
    """A move that can end a game early.

    ``kind`` is ``'SC'`` (the declarer shows the cards: a claim), ``'RE'``
    (resign), ``'TI'`` (timeout) or ``'LE'`` (left the table); ``seat`` is the
    seat that made the move (``SC``, ``RE``) or that timed out or left (the
    ``n`` of ``TI.n``/``LE.n``); ``move`` is its MV move number; ``cards`` the
    cards shown with ``SC.cards``; ``token`` the move as written.
    """

    kind: str
    seat: int
    move: int
    cards: tuple[Card, ...] = ()
    token: str = ""


@dataclass
class IssGame:
    """One ISS game record (see :func:`parse_iss`).

    Attributes:
        id: ``ID[...]`` (``None`` when absent); ``players``: ``P0..P2`` names
            (``''`` when absent); ``date``: ``DT[...]``.
        hands: the three ten-card hands as dealt, index = seat, in deal order.
            In a per-player view a hand holds only the cards the record
            reveals (see ``hidden_cards``).
        skat: the two skat cards as dealt (same caveat).
        bids: every bidding move ``(seat, move)`` in order: a number as
            written, ``'y'`` (hold) or ``'p'`` (pass).
        bid: the highest bid reached, ``None`` when nobody bid.
        declarer: the seat that played the game (picked up the skat or
            declared; else the result's ``d:``), ``None`` when no game was played.
        declaration: the declared contract, ``None`` when none was declared.
        picked_up: the declarer took the skat (``s``).
        discard: the two cards put away after the pick-up, ``None`` in hand games.
        plays: every visible card play ``(seat, card)`` in order.
        ending: ``(kind, seat)`` of the first ``SC``/``RE``/``TI``/``LE``
            event (see :class:`IssEvent`), ``None`` when there is none.
        result: the parsed ``R[...]``.
        play_moves: the MV move number of each entry of ``plays``.
        hidden_plays: ``(seat, move)`` of trailing card plays logged as ``??``.
        events: every ``SC``/``RE``/``TI``/``LE`` event in order.
        ouvert_cards: cards the declarer showed with an ouvert declaration.
        hidden_cards: cards of the deal the record never reveals (0 for
            the server's archive records).
        fields: every ``KEY[value]`` of the record, as written.
    """

    id: str | None
    players: list[str]
    date: str | None
    hands: list[list[Card]]
    skat: list[Card]
    bids: list[tuple[int, str]]
    bid: int | None
    declarer: int | None
    declaration: Declaration | None
    picked_up: bool
    discard: list[Card] | None
    plays: list[tuple[int, Card]]
    ending: tuple[str, int] | None
    result: IssResult
    play_moves: list[int] = field(default_factory=list, repr=False)
    hidden_plays: list[tuple[int, int]] = field(default_factory=list, repr=False)
    events: list[IssEvent] = field(default_factory=list, repr=False)
    ouvert_cards: list[Card] | None = field(default=None, repr=False)
    hidden_cards: int = field(default=0, repr=False)
    fields: dict[str, str] = field(default_factory=dict, repr=False)
    # Start of play: masks of the three hands at the first lead and the skat
    # (hand game) or discard, or None where the record does not reveal them.
    _start: list[Mask | None] = field(default_factory=lambda: [None] * 4, repr=False, compare=False)

    @property
    def game(self) -> Game | None:
        """The contract for play (null ouvert is ``Game.NULL``), ``None`` when no game was declared."""
        return self.declaration.game if self.declaration is not None else None

    def require_game(self) -> tuple[int, Declaration]:
        """The declarer and the declaration; raises :class:`ISSFormatError` saying why when no game was played."""
        if self.declarer is None or self.declaration is None:
            if self.result.passed:
                why = "everyone passed"
            elif self.result.outcome == "penalty":
                why = "the bidding ended with a penalty"
            else:
                why = "the record holds no declaration"
            raise ISSFormatError(
                f"no game was played in ISS record {quote(self.id or '?', bare=True)}: {why} "
                f"(R[{quote(self.result.raw, bare=True)}])"
            )
        return self.declarer, self.declaration

    def _start_masks(self) -> list[Mask]:
        """The three hands and the skat (or discard) at the first lead; raises when the record hides one."""
        declarer, _ = self.require_game()
        missing = []
        for index, mask in enumerate(self._start):
            if mask is None:
                if index == 3:
                    missing.append("the discard" if self.picked_up else "the skat")
                else:
                    missing.append(f"the hand of seat {index}" + (" (declarer)" if index == declarer else ""))
        if missing:
            raise ISSFormatError(
                f"ISS record {quote(self.id or '?', bare=True)} does not reveal {', '.join(missing)} at the first lead "
                "(cards hidden as '??', or no discard given); it cannot be replayed"
            )
        return [m for m in self._start if m is not None]

    def declarer_cards(self) -> Mask:
        """Mask of the declarer's ten cards at the first lead (after pick-up and discard).

        Raises :class:`ISSFormatError` when no game was played or the record hides them.
        """
        declarer, _ = self.require_game()
        return self._start_masks()[declarer]

    def skat_for_declarer(self) -> Mask:
        """Mask of the two cards that count for the declarer: the discard after a pick-up, else the dealt skat.

        Raises :class:`ISSFormatError` when no game was played or the record hides them.
        """
        return self._start_masks()[3]

    def start_hands(self) -> list[Mask]:
        """Masks of the three hands at the first lead, index = seat.

        Raises :class:`ISSFormatError` when no game was played or the record hides them.
        """
        return self._start_masks()[:3]

    def start_position(self) -> Position:
        """The :class:`Position` before the first card: forehand (seat 0) leads.

        ``skat`` is :meth:`skat_for_declarer`; null ouvert plays as ``Game.NULL``.
        Raises :class:`ISSFormatError` when no game was played or the record hides cards.
        """
        declarer, declaration = self.require_game()
        masks = self._start_masks()
        return Position(declaration.game, declarer, masks[:3], masks[3], leader=0)

    def check_plays(self) -> Position:
        """Play every visible card through the rules and return the position after them.

        Raises :class:`ISSFormatError` naming the card and its MV move when a
        play is not held, illegal, out of turn or after the game was
        decided, or a claim shows cards the declarer no longer holds.  A
        trailing hidden play (``??``) is allowed where :func:`replay` allows it.
        """
        return play_through(self)

    def final_position(self) -> Position:
        """The position after every recorded card play, each checked to be legal.

        Raises :class:`ISSFormatError` naming the card and its MV move when a
        play is illegal, out of turn or after the game was decided, and when
        the record holds a hidden (``??``) play, after which the position is unknown.
        """
        position = play_through(self)
        if self.hidden_plays:
            seat, move = self.hidden_plays[0]
            raise ISSFormatError(
                f"card play '??' by seat {seat} at MV move {move} is hidden: the position after it is unknown"
            )
        return position




def play_through(game: IssGame) -> Position:
    """Play every visible card of *game* in MV order, checking claims; returns the position after them.

    Trailing hidden plays are checked for turn order and for not completing a trick.
    """
    position = game.start_position()
    declarer = position.declarer
    claims = [e for e in game.events if e.kind == "SC" and e.cards]
    steps = sorted(
        [(move, "play", index) for index, move in enumerate(game.play_moves)]
        + [(e.move, "claim", index) for index, e in enumerate(claims)]
    )
    for move, kind, index in steps:
        if kind == "claim":
            claim = claims[index]
            missing = mask_of(claim.cards) & ~position.hands[declarer]
            if missing:
                raise ISSFormatError(
                    f"claim {quote(claim.token)} at MV move {move} shows {quote(format_cards(cards_of(missing)))}, "
                    "which the declarer no longer holds"
                )
            continue
        seat, card = game.plays[index]
        name = card_name(card)
        if position.is_over():
            raise ISSFormatError(
                f"card play {quote(name)} by seat {seat} at MV move {move} comes after the game was decided"
            )
        if seat != position.to_move:
            raise ISSFormatError(
                f"card play {quote(name)} at MV move {move} is by seat {seat}, but seat {position.to_move} is to play"
            )
        try:
            position.play(card)
        except IllegalPlayError as exc:
            raise ISSFormatError(f"illegal card play {quote(name)} by seat {seat} at MV move {move}: {exc}") from None
    on_table = len(position.trick)
    for seat, move in game.hidden_plays:
        if position.is_over():
            raise ISSFormatError(f"card play '??' by seat {seat} at MV move {move} comes after the game was decided")
        expected = (position.leader + on_table) % 3
        if seat != expected:
            raise ISSFormatError(f"card play '??' at MV move {move} is by seat {seat}, but seat {expected} is to play")
        on_table += 1
        if on_table == 3:
            raise ISSFormatError(
                f"card play '??' by seat {seat} at MV move {move} is hidden and completes a trick: "
                "who won it is unknown, so the record cannot be replayed"
            )
    return position
