"""International Skat Server (ISS) game records: parser and replay.

An ISS record is one line in an SGF-like format (docs/iss.md)::

    (;GM[Skat]PC[...]ID[541932]DT[...]P0[zoot]P1[kermit]P2[foo]MV[w HA.SK... 1 p 2 18 ...]R[d:2 loss v:-54 ...] ;)

:func:`parse_iss` turns one record into an :class:`IssGame`: the deal, the
bidding, the declaration (a :class:`skatdd.core.scoring.Declaration`), the skat
pick-up and discard, the card plays, the first early-ending event and the
server's result (:class:`IssResult`).  :func:`replay` plays every recorded
card through :class:`skatdd.core.position.Position`, settles a game that ended
early the way the server does, and scores it with
:func:`skatdd.core.scoring.score_game`, so that a complete record reproduces its
``R[...]`` fields ``p: t: s: z: m: v:``, win/loss and ``bidok``/``overbid``;
:func:`replay_warnings` says when a record's ``v:`` or ``p:`` does not.

Server conventions followed by :func:`replay` (docs/iss.md, checked against
the fixture records):

* ``p:`` is the declarer's card points *including* the skat or discard, in
  null games too (a null ouvert that put away HA HQ and won shows ``p:14``).
* A game ends early when the declarer resigns (``RE``), when both defenders
  have resigned (usually after the declarer's claim ``SC``), or when a seat
  times out (``TI.n``) or leaves (``LE.n``).  The untaken tricks -- the trick
  in progress included -- then go to the side that did not give up: to the
  declarer when both defenders resigned or a defender timed out or left, to
  the defenders when the declarer resigned, timed out or left.  ``p:`` and
  ``t:`` include what the ending gave.  In a null game the tricks given to the
  declarer are tricks the defenders concede, so the declarer wins with the
  tricks actually taken (normally none); a null declarer who gives up loses.
  A lone claim (``SC``) without the defenders' resignation settles nothing:
  play continues.
* A trailing hidden card play (``??``, as the server logs the move of a seat
  that was cut off) is accepted when it does not complete a trick: the trick
  in progress is handed over whole by the ending, so its cards never change
  the numbers.  A hidden card anywhere else cannot be replayed.

Per-player views may hide cards of the deal (``??``).  The parser fills in
every card the rest of the record reveals (card plays, the skat shown to the
declarer, ouvert and claimed hands, and what is left over once the other
hands are known); :attr:`IssGame.hidden_cards` counts what stays unknown.
Methods that need the hands raise :class:`ISSFormatError` when the record
does not reveal them.

Every error is an :class:`~skatdd.core.errors.ISSFormatError` whose message quotes
the offending token and, for moves, its position ``MV move N`` (moves are the
``WHO MOVE`` pairs of ``MV[...]``, numbered from 1; the deal is move 1).
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from skatdd.core.cards import ALL_CARDS, CARD_NAMES, Card, Mask, card_name, cards_of, format_cards, mask_of, points_of
from skatdd.core.errors import IllegalPlayError, ISSFormatError, SkatddError, plural, quote
from skatdd.core.position import Position
from skatdd.core.rules import SCHNEIDER_POINTS, SCHNEIDERED_POINTS, Game
from skatdd.core.scoring import Declaration, Score, score_game
from skatdd.core.scoring import matadors as count_matadors

__all__ = [
    "HIDDEN", "IssEvent", "IssGame", "IssResult", "Replay", "iter_iss", "looks_like_iss", "parse_iss", "replay",
    "replay_warnings",
]

#: The token ISS writes for a card hidden from this view.
HIDDEN = "??"

_CARD_CODES: dict[str, Card] = {name: Card(i) for i, name in enumerate(CARD_NAMES)}
_GAME_LETTERS = {
    "G": Game.GRAND, "C": Game.CLUBS, "S": Game.SPADES, "H": Game.HEARTS, "D": Game.DIAMONDS, "N": Game.NULL,
}
_DECLARATION_RE = re.compile(r"([GCSHDN])([HOSZ]*)((?:\.[^.]*)*)")
_FIELD_RE = re.compile(r"([A-Za-z][A-Za-z0-9]*)\[((?:[^\]\\]|\\.)*)\]", re.S)
_SEAT_EVENT_RE = re.compile(r"(TI|LE)\.([0-2])")
_EXPECTED_CARD = "expected a card code like 'CJ', 'HT' or 'D7' (or '??' for a hidden card)"
_EVENT_KINDS = ("SC", "RE", "TI", "LE")


# --------------------------------------------------------------------------- data


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

    def _require_game(self) -> tuple[int, Declaration]:
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
        declarer, _ = self._require_game()
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
        declarer, _ = self._require_game()
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
        declarer, declaration = self._require_game()
        masks = self._start_masks()
        return Position(declaration.game, declarer, masks[:3], masks[3], leader=0)

    def check_plays(self) -> Position:
        """Play every visible card through the rules and return the position after them.

        Raises :class:`ISSFormatError` naming the card and its MV move when a
        play is not held, illegal, out of turn or after the game was
        decided, or a claim shows cards the declarer no longer holds.  A
        trailing hidden play (``??``) is allowed where :func:`replay` allows it.
        """
        return _play_through(self)

    def final_position(self) -> Position:
        """The position after every recorded card play, each checked to be legal.

        Raises :class:`ISSFormatError` naming the card and its MV move when a
        play is illegal, out of turn or after the game was decided, and when
        the record holds a hidden (``??``) play, after which the position is unknown.
        """
        position = _play_through(self)
        if self.hidden_plays:
            seat, move = self.hidden_plays[0]
            raise ISSFormatError(
                f"card play '??' by seat {seat} at MV move {move} is hidden: the position after it is unknown"
            )
        return position


@dataclass
class Replay:
    """The outcome of a replayed record (see :func:`replay`).

    Attributes:
        declarer_points: the declarer's card points including the skat or
            discard (ISS counts them in null too), with whatever an early
            ending gave.
        declarer_tricks: tricks the declarer took, with whatever an early ending gave.
        complete: all ten tricks were played, or the tricks taken decided the
            game before that (:meth:`~skatdd.core.scoring.Declaration.decided`: a
            null declarer took a trick, or the defenders took one against
            announced schwarz); then ``declarer_points`` and ``declarer_tricks``
            are what was taken.
        declarer_wins: the declarer won the game as scored (an overbid game is lost).
        matadors: "with" (positive) or "without" (negative) for suit and grand, 0 for null.
        score: :func:`skatdd.core.scoring.score_game` with the record's bid, overbid included.
        schneider, schwarz: one side reached that level (ISS ``s:``/``z:``); false in null.
        awarded: ``'declarer'`` or ``'defenders'``, the side an early ending gave
            the untaken tricks to; ``None`` for a complete game.
    """

    declarer_points: int
    declarer_tricks: int
    complete: bool
    declarer_wins: bool
    matadors: int
    score: Score
    schneider: bool = False
    schwarz: bool = False
    awarded: str | None = None


# --------------------------------------------------------------------------- record level


def looks_like_iss(text: str) -> bool:
    """Cheap check: does *text* start (after whitespace) like an ISS record, ``(;``?

    >>> looks_like_iss("  (;GM[Skat]PC[International Skat Server]...")
    True
    >>> looks_like_iss("CJ SJ HA / ...")
    False
    """
    return text.lstrip("\ufeff \t\r\n").startswith("(;")


def iter_iss(text: str) -> Iterator[tuple[int, IssGame | ISSFormatError]]:
    """Parse a file of ISS records, one per line.

    Yields ``(line_number, game_or_error)`` for every non-blank line; line
    numbers count every physical line of *text* from 1, so blank lines are
    skipped but keep the numbering.  A malformed line yields its
    :class:`ISSFormatError` instead of raising, so one bad record does not
    stop the rest.
    """
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            yield number, parse_iss(line)
        except ISSFormatError as exc:
            yield number, exc


def _split_fields(text: str) -> dict[str, str]:
    """Split ``(;KEY[value]KEY[value] ;)`` into a dict; raises on anything else."""
    body = text.strip().lstrip("\ufeff")
    if not body.startswith("(;"):
        raise ISSFormatError(f"not an ISS game record: expected '(;' at the start, got {body[:20]!r}")
    pos = 2
    fields: dict[str, str] = {}
    while True:
        while pos < len(body) and body[pos].isspace():
            pos += 1
        if pos >= len(body):
            raise ISSFormatError("ISS record is truncated: it does not end with ';)'")
        rest = body[pos:]
        if rest.rstrip() in (";)", ")"):
            break
        match = _FIELD_RE.match(body, pos)
        if match is None:
            head = re.match(r"[A-Za-z][A-Za-z0-9]*\[", rest)
            if head is not None:
                raise ISSFormatError(
                    f"field {quote(head.group(0)[:-1])} is not closed with ']': the record is truncated or malformed"
                )
            raise ISSFormatError(f"unexpected text {rest[:20]!r} in ISS record: expected KEY[value] or ';)'")
        key, value = match.group(1), re.sub(r"\\(.)", r"\1", match.group(2))
        if key in fields:
            raise ISSFormatError(f"field {quote(key)} appears twice in ISS record")
        fields[key] = value
        pos = match.end()
    return fields


#: An integer as ISS writes one: ASCII digits, at most 9 of them (scores, points, bids are far smaller).
_INTEGER_RE = re.compile(r"-?[0-9]{1,9}", re.ASCII)


def _parse_int(token: str, text: str, what: str) -> int:
    if _INTEGER_RE.fullmatch(text) is None:
        raise ISSFormatError(f"bad result token {quote(token)}: {what} must be an integer of at most 9 digits")
    return int(text)


def _parse_flag(token: str, text: str) -> bool:
    if text not in ("0", "1"):
        raise ISSFormatError(f"bad result token {quote(token)}: expected 0 or 1")
    return text == "1"


def _parse_result(raw: str) -> IssResult:
    """Parse the text of ``R[...]`` (see :class:`IssResult`)."""
    result = IssResult(raw=raw)
    penalties: dict[int, int] = {}
    for token in raw.split():
        key, colon, value = token.partition(":")
        if token == "passed":
            result.passed = True
        elif token in ("win", "loss", "penalty"):
            result.outcome = token
        elif token in ("bidok", "overbid"):
            result.overbid = token == "overbid"
        elif not colon:
            continue  # an unknown word: newer server versions may add some
        elif key == "d":
            match = re.fullmatch(r"(-?[0-9])(win|loss|penalty)?", value, re.ASCII)
            if match is None:
                raise ISSFormatError(f"bad result token {quote(token)}: expected d:SEAT with SEAT -1, 0, 1 or 2")
            seat = int(match.group(1))
            if seat not in (-1, 0, 1, 2):
                raise ISSFormatError(f"bad result token {quote(token)}: declarer seat must be -1, 0, 1 or 2")
            result.declarer = None if seat < 0 else seat
            if match.group(2):
                result.outcome = match.group(2)
            if seat < 0:
                result.passed = True  # revised below when the outcome is a penalty
        elif key == "v":
            result.value = _parse_int(token, value, "the score")
        elif key == "m":
            result.matadors = _parse_int(token, value, "matadors")
        elif key == "p":
            result.points = _parse_int(token, value, "the card points")
        elif key == "t":
            result.tricks = _parse_int(token, value, "the trick count")
        elif key == "s":
            result.schneider = _parse_flag(token, value)
        elif key == "z":
            result.schwarz = _parse_flag(token, value)
        elif key == "r":
            result.resigned = _parse_flag(token, value)
        elif key in ("l", "to"):
            seat = _parse_int(token, value, "the seat")
            if seat not in (-1, 0, 1, 2):
                raise ISSFormatError(f"bad result token {quote(token)}: seat must be -1, 0, 1 or 2")
            if key == "l":
                result.left = None if seat < 0 else seat
            else:
                result.timed_out = None if seat < 0 else seat
        elif key in ("p0", "p1", "p2"):
            penalties[int(key[1])] = _parse_int(token, value, "the penalty")
    if result.outcome == "penalty" and result.declarer is None and "passed" not in raw.split():
        result.passed = False
    if len(penalties) == 3:
        result.penalties = [penalties[0], penalties[1], penalties[2]]
    return result


# --------------------------------------------------------------------------- moves


def _card(token: str, where: str) -> Card | None:
    """One card code, or ``None`` for ``??``; raises naming *token* and *where*."""
    if token == HIDDEN:
        return None
    card = _CARD_CODES.get(token)
    if card is None:
        raise ISSFormatError(f"unknown card {quote(token)} in {where}: {_EXPECTED_CARD}")
    return card


def _card_list(text: str, where: str) -> list[Card | None]:
    """Cards joined by '.', each a code or '??'; known cards must be distinct."""
    out: list[Card | None] = []
    seen = 0
    for token in text.split("."):
        card = _card(token, where)
        if card is not None:
            if seen >> card & 1:
                raise ISSFormatError(f"card {quote(token)} appears twice in {where}")
            seen |= 1 << card
        out.append(card)
    return out


def _is_bid(move: str) -> bool:
    """A bid move: ASCII digits only (``'²'.isdigit()`` is true, but no bid)."""
    return move.isascii() and move.isdigit()


def _is_card_list(move: str) -> bool:
    parts = move.split(".")
    return len(parts) >= 2 and all(p == HIDDEN or p in _CARD_CODES for p in parts)


class _MoveReader:
    """Reads the ``WHO MOVE`` pairs of ``MV[...]`` in order, checking the phases of a game."""

    def __init__(self, moves: str) -> None:
        tokens = moves.split()
        if not tokens:
            raise ISSFormatError("MV[] is empty: expected the deal 'w CARD.CARD...' first")
        if len(tokens) % 2:
            raise ISSFormatError(
                f"MV ends with {quote(tokens[-1])} alone: expected 'WHO MOVE' pairs (the record is truncated?)"
            )
        self.pairs = [(tokens[i], tokens[i + 1]) for i in range(0, len(tokens), 2)]
        self.deal: list[Card | None] = []
        self.bids: list[tuple[int, str]] = []
        self.bid: int | None = None
        self.declarer: int | None = None
        self.picked_up = False
        self.skat_answer: list[Card | None] | None = None
        self.declaration: Declaration | None = None
        self.declaration_move = 0
        self.discard_move = 0
        self.discard: list[Card | None] | None = None
        self.ouvert_cards: list[Card | None] | None = None
        self.plays: list[tuple[int, Card]] = []
        self.play_moves: list[int] = []
        self.hidden_plays: list[tuple[int, int]] = []
        self.events: list[IssEvent] = []

    def read(self) -> None:
        for number, (who, move) in enumerate(self.pairs, start=1):
            if who not in ("w", "0", "1", "2"):
                raise ISSFormatError(f"unknown player {quote(who)} at MV move {number}: expected w, 0, 1 or 2")
            where = f"MV move {number} ({quote(who + ' ' + move)})"
            if number == 1:
                if who != "w":
                    raise ISSFormatError(f"{where}: expected the deal 'w CARD.CARD...' (32 cards) first")
                self._read_deal(move)
                continue
            if who == "w":
                self._read_server(move, number, where)
            else:
                self._read_seat(int(who), move, number, where)

    # -- server moves
    def _read_deal(self, move: str) -> None:
        # Archive records join all 32 cards with '.'; the live protocol separates the hands with '|'.
        cards = _card_list(move.replace("|", "."), "the deal at MV move 1")
        if len(cards) != 32:
            raise ISSFormatError(f"the deal {quote(move)} at MV move 1 has {plural(len(cards), 'card')}: "
                                 "expected 32 (10+10+10+2)")
        self.deal = cards

    def _read_server(self, move: str, number: int, where: str) -> None:
        event = _SEAT_EVENT_RE.fullmatch(move)
        if event is not None:
            self.events.append(IssEvent(event.group(1), int(event.group(2)), number, (), move))
            return
        if move in ("y", "p", "s", "RE") or move.startswith("SC") or _is_bid(move):
            raise ISSFormatError(f"{where}: the server 'w' cannot make the move {quote(move)}")
        if _is_card_list(move) and move.count(".") == 1:
            if not self.picked_up:
                raise ISSFormatError(f"{where}: the skat {quote(move)} is shown without a pick-up 's' before it")
            if self.skat_answer is not None:
                raise ISSFormatError(f"{where}: the skat {quote(move)} is shown twice")
            self.skat_answer = _card_list(move, f"the skat shown at {where}")
            return
        if move.startswith(("TI", "LE")):
            raise ISSFormatError(f"{where}: bad event {quote(move)}: expected TI.n or LE.n with n 0, 1 or 2")
        raise ISSFormatError(f"unknown move {quote(move)} by the server at {where}")

    # -- seat moves
    def _set_declarer(self, seat: int, move: str, where: str) -> None:
        if self.declarer is not None and self.declarer != seat:
            raise ISSFormatError(
                f"{where}: seat {seat} makes the declarer's move {quote(move)}, but seat {self.declarer} is declarer"
            )
        self.declarer = seat

    def _read_seat(self, seat: int, move: str, number: int, where: str) -> None:
        started = self.declaration is not None or self.picked_up
        if move in ("y", "p") or _is_bid(move):
            if started:
                raise ISSFormatError(f"{where}: bidding move {quote(move)} after the bidding ended")
            if _is_bid(move):
                if len(move) > 3:
                    raise ISSFormatError(f"{where}: bid {quote(move)} is too high: bids go up to 264")
                value = int(move)
                if self.bid is not None and value <= self.bid:
                    raise ISSFormatError(f"{where}: bid {quote(move)} does not exceed the previous bid {self.bid}")
                self.bid = value
            self.bids.append((seat, move))
            return
        if move == "s":
            if self.picked_up:
                raise ISSFormatError(f"{where}: the skat is picked up twice")
            if self.declaration is not None:
                raise ISSFormatError(f"{where}: pick-up 's' after the game was declared")
            self._set_declarer(seat, move, where)
            self.picked_up = True
            return
        if move == "RE":
            self.events.append(IssEvent("RE", seat, number, (), move))
            return
        if move == "SC" or move.startswith("SC."):
            if self.declaration is None:
                raise ISSFormatError(f"{where}: claim {quote(move)} before the game was declared")
            if seat != self.declarer:
                raise ISSFormatError(f"{where}: claim {quote(move)} by seat {seat}, who is not the declarer")
            cards = _card_list(move[3:], f"the claim at {where}") if move != "SC" else []
            if any(c is None for c in cards):
                raise ISSFormatError(f"{where}: claim {quote(move)} shows a hidden card '??'")
            self.events.append(IssEvent("SC", seat, number, tuple(c for c in cards if c is not None), move))
            return
        if move.startswith(("TI.", "LE.")):
            event = _SEAT_EVENT_RE.fullmatch(move)
            if event is None:
                raise ISSFormatError(f"{where}: bad event {quote(move)}: expected TI.n or LE.n with n 0, 1 or 2")
            self.events.append(IssEvent(event.group(1), int(event.group(2)), number, (), move))
            return
        if move == HIDDEN or move in _CARD_CODES:
            self._read_play(seat, move, number, where)
            return
        if _is_card_list(move):
            self._read_discard(seat, move, number, where)
            return
        match = _DECLARATION_RE.fullmatch(move)
        if match is not None:
            self._read_declaration(seat, move, match, number, where)
            return
        raise ISSFormatError(
            f"unknown move {quote(move)} by seat {seat} at {where}: expected a bid, y, p, s, a declaration, "
            "a card, SC, RE, TI.n or LE.n"
        )

    def _read_play(self, seat: int, move: str, number: int, where: str) -> None:
        if self.declaration is None:
            raise ISSFormatError(f"{where}: card play {quote(move)} before the game was declared")
        if move == HIDDEN:
            self.hidden_plays.append((seat, number))
            return
        if self.hidden_plays:
            hidden_seat, hidden_move = self.hidden_plays[0]
            raise ISSFormatError(
                f"{where}: card play {quote(move)} follows the hidden play '??' of seat {hidden_seat} at MV move "
                f"{hidden_move}; a record whose play continues after a hidden card cannot be replayed"
            )
        self.plays.append((seat, _CARD_CODES[move]))
        self.play_moves.append(number)

    def _read_discard(self, seat: int, move: str, number: int, where: str) -> None:
        if not self.picked_up or seat != self.declarer:
            raise ISSFormatError(f"{where}: cards {quote(move)} put away by seat {seat}, who did not pick up the skat")
        if self.discard is not None:
            raise ISSFormatError(f"{where}: discard {quote(move)} given twice")
        if self.plays or self.hidden_plays:
            raise ISSFormatError(f"{where}: discard {quote(move)} after the first card was played")
        cards = _card_list(move, f"the discard at {where}")
        if len(cards) != 2:
            raise ISSFormatError(f"{where}: discard {quote(move)} has {plural(len(cards), 'card')}: expected 2")
        self.discard = cards
        self.discard_move = number

    def _read_declaration(self, seat: int, move: str, match: re.Match[str], number: int, where: str) -> None:
        if self.declaration is not None:
            raise ISSFormatError(f"{where}: the game is declared twice ({quote(move)})")
        self._set_declarer(seat, move, where)
        game = _GAME_LETTERS[match.group(1)]
        mods = match.group(2)
        if len(set(mods)) != len(mods):
            raise ISSFormatError(f"{where}: declaration {quote(move)} repeats a modifier")
        ouvert = "O" in mods
        hand = "H" in mods or (ouvert and not game.is_null)
        if game.is_null and ("S" in mods or "Z" in mods):
            raise ISSFormatError(f"{where}: declaration {quote(move)}: null cannot announce schneider or schwarz")
        if hand and self.picked_up:
            raise ISSFormatError(f"{where}: hand declaration {quote(move)} after the skat was picked up")
        if not hand and not self.picked_up:
            raise ISSFormatError(
                f"{where}: declaration {quote(move)} is not a hand game, but the skat was not picked up ('s')"
            )
        if not hand and ("S" in mods or "Z" in mods):
            raise ISSFormatError(f"{where}: declaration {quote(move)} announces schneider or schwarz without hand")
        cards = _card_list(match.group(3)[1:], f"the declaration at {where}") if match.group(3) else []
        if not hand:
            if len(cards) == 1:
                raise ISSFormatError(f"{where}: declaration {quote(move)} lists one card: expected the two discarded cards")
            if cards:
                self.discard = cards[:2]
                self.discard_move = number
            shown = cards[2:]
        else:
            shown = cards
        if shown:
            if not ouvert:
                raise ISSFormatError(f"{where}: declaration {quote(move)} shows cards but is not ouvert")
            if len(shown) > 10:
                raise ISSFormatError(f"{where}: declaration {quote(move)} shows {len(shown)} cards: at most 10")
            self.ouvert_cards = shown
        try:
            self.declaration = Declaration(
                game=game, hand=hand, schneider="S" in mods or "Z" in mods, schwarz="Z" in mods, ouvert=ouvert,
            )
        except SkatddError as exc:
            raise ISSFormatError(f"{where}: declaration {quote(move)} is not valid: {exc}") from None
        self.declaration_move = number


# --------------------------------------------------------------------------- deal reconstruction


_DEAL_LOCATIONS = ("H0", "H1", "H2", "X")  # hands as dealt and the dealt skat
_START_LOCATIONS = ("S0", "S1", "S2", "K")  # hands at the first lead and the skat/discard
_CAPACITY = {"H0": 10, "H1": 10, "H2": 10, "X": 2, "S0": 10, "S1": 10, "S2": 10, "K": 2}


class _Deal:
    """What the record reveals about where each card lies, filled in as far as it goes.

    Two partitions of the 32 cards: as dealt (``H0 H1 H2 X``) and at the first
    lead (``S0 S1 S2 K``, K being the skat of a hand game or the discard).
    Rules: a defender's hand is the same in both; in a hand game so are the
    declarer's hand and the skat; after a pick-up the declarer's dealt hand
    plus skat equals the start hand plus discard; a partition with one
    incomplete location gives it the cards left over.
    """

    def __init__(self) -> None:
        self.known: dict[str, Mask] = {loc: 0 for loc in _DEAL_LOCATIONS + _START_LOCATIONS}

    def complete(self, loc: str) -> bool:
        return self.known[loc].bit_count() == _CAPACITY[loc]

    def placed(self, partition: tuple[str, ...]) -> Mask:
        """Cards already placed somewhere in *partition*."""
        out = 0
        for loc in partition:
            out |= self.known[loc]
        return out

    def add(self, loc: str, mask: Mask) -> bool:
        """Add *mask* to *loc*; returns whether it grew.  Raises when the record contradicts itself."""
        new = mask & ~self.known[loc]
        if not new:
            return False
        partition = _DEAL_LOCATIONS if loc in _DEAL_LOCATIONS else _START_LOCATIONS
        for other in partition:
            clash = new & self.known[other] if other != loc else 0
            if clash:
                raise ISSFormatError(
                    f"the record contradicts itself: {quote(format_cards(cards_of(clash)))} would lie in two places"
                )
        grown = self.known[loc] | new
        if grown.bit_count() > _CAPACITY[loc]:
            raise ISSFormatError(
                f"the record contradicts itself: more than {_CAPACITY[loc]} cards "
                f"({quote(format_cards(cards_of(grown)))}) for one {'hand' if _CAPACITY[loc] == 10 else 'skat'}"
            )
        self.known[loc] = grown
        return True

    def settle(self, declarer: int | None, picked_up: bool) -> None:
        """Apply the linking rules until nothing changes."""
        changed = True
        while changed:
            changed = False
            for partition in (_DEAL_LOCATIONS, _START_LOCATIONS):
                open_ = [loc for loc in partition if not self.complete(loc)]
                if len(open_) == 1:
                    rest = ALL_CARDS
                    for loc in partition:
                        if loc != open_[0]:
                            rest &= ~self.known[loc]
                    changed |= self.add(open_[0], rest)
            if declarer is None:
                continue
            for seat in range(3):
                if seat != declarer or not picked_up:
                    h, s = f"H{seat}", f"S{seat}"
                    changed |= self.add(s, self.known[h])
                    changed |= self.add(h, self.known[s])
            if not picked_up:
                changed |= self.add("K", self.known["X"])
                changed |= self.add("X", self.known["K"])
                continue
            h, s = f"H{declarer}", f"S{declarer}"
            twelve = self.known[h] | self.known["X"] | self.known[s] | self.known["K"]
            defenders = [d for d in range(3) if d != declarer]
            if all(self.complete(f"H{d}") for d in defenders):
                twelve = ALL_CARDS & ~self.known[f"H{defenders[0]}"] & ~self.known[f"H{defenders[1]}"]
            if twelve.bit_count() == 12:
                for a, b in ((h, "X"), (s, "K")):
                    if self.complete(a):
                        changed |= self.add(b, twelve & ~self.known[a])
                    if self.complete(b):
                        changed |= self.add(a, twelve & ~self.known[b])


def _ordered(first: list[Card | None], mask: Mask) -> list[Card]:
    """Cards of *mask*: those in *first* in its order, then the rest ascending."""
    head = [c for c in first if c is not None and mask >> c & 1]
    rest = mask & ~mask_of(head)
    return head + cards_of(rest)


# --------------------------------------------------------------------------- parse


def parse_iss(text: str) -> IssGame:
    """Parse one ISS game record.

    Checks the record's shape, every card code (each card at most once in the
    deal), the order of moves (deal, bidding, pick-up, declaration and
    discard, card plays) and that ``R[...]`` agrees with the moves about the
    declarer.  The legality of the card plays is checked by
    :meth:`IssGame.final_position` and :func:`replay`, not here.

    Raises :class:`ISSFormatError` quoting the offending token.
    """
    fields = _split_fields(text)
    if "GM" in fields and fields["GM"].strip().lower() != "skat":
        raise ISSFormatError(f"GM[{quote(fields['GM'], bare=True)}] is not a Skat record: expected GM[Skat]")
    if "MV" not in fields:
        raise ISSFormatError("ISS record has no MV[...] field with the moves")
    reader = _MoveReader(fields["MV"])
    reader.read()
    result = _parse_result(fields.get("R", ""))

    declarer = reader.declarer
    if declarer is None and reader.declaration is None and result.declarer is not None and not reader.picked_up:
        declarer = result.declarer
    if result.declarer is not None and reader.declarer is not None and result.declarer != reader.declarer:
        raise ISSFormatError(
            f"R[{quote(result.raw, bare=True)}] names declarer d:{result.declarer}, but seat {reader.declarer} declared in MV"
        )
    if (result.passed or (result.outcome == "penalty" and result.declarer is None)) and reader.declaration is not None:
        raise ISSFormatError(f"R[{quote(result.raw, bare=True)}] says no game was played, but MV declares one")
    if reader.declaration is not None and not reader.picked_up and reader.skat_answer is not None:
        raise ISSFormatError("the skat is shown to the declarer of a hand game")

    # Where the cards lie, as far as the record tells.
    deal = _Deal()
    dealt = reader.deal
    for index, loc in enumerate(_DEAL_LOCATIONS):
        deal.add(loc, mask_of(c for c in dealt[index * 10:index * 10 + (10 if index < 3 else 2)] if c is not None))
    if reader.skat_answer is not None:
        shown = mask_of(c for c in reader.skat_answer if c is not None)
        if deal.complete("X") and shown & ~deal.known["X"]:
            raise ISSFormatError(
                f"the skat shown to the declarer ({quote(format_cards(cards_of(shown)))}) is not the dealt skat "
                f"({quote(format_cards(cards_of(deal.known['X'])))})"
            )
        deal.add("X", shown & ~deal.placed(_DEAL_LOCATIONS))
    if declarer is not None and reader.declaration is not None:
        deal.settle(declarer, reader.picked_up)
        twelve = deal.known[f"H{declarer}"] | deal.known["X"]
        if reader.discard is not None and twelve.bit_count() == 12:
            foreign = mask_of(c for c in reader.discard if c is not None) & ~twelve
            if foreign:
                raise ISSFormatError(
                    f"MV move {reader.discard_move}: the discard puts away {quote(format_cards(cards_of(foreign)))}, "
                    "which the declarer does not hold"
                )
        facts: list[tuple[str, list[Card | None]]] = []
        if reader.discard is not None:
            facts.append(("K", reader.discard))
        if reader.ouvert_cards is not None:
            facts.append((f"S{declarer}", reader.ouvert_cards))
        for event in reader.events:
            if event.kind == "SC":
                facts.append((f"S{declarer}", list(event.cards)))
        for seat, played in reader.plays:
            facts.append((f"S{seat}", [played]))
        # Only new knowledge is added: a card the start partition already
        # places elsewhere is checked where it is played (replay), with a
        # message naming the move.
        for loc, cards in facts:
            for card in cards:
                if card is not None and not deal.placed(_START_LOCATIONS) >> card & 1 and not deal.complete(loc):
                    deal.add(loc, 1 << card)
        deal.settle(declarer, reader.picked_up)
        if reader.ouvert_cards is not None and deal.complete(f"S{declarer}"):
            shown = mask_of(c for c in reader.ouvert_cards if c is not None)
            if shown & ~deal.known[f"S{declarer}"]:
                wrong = cards_of(shown & ~deal.known[f"S{declarer}"])
                raise ISSFormatError(
                    f"MV move {reader.declaration_move}: the ouvert declaration shows {quote(format_cards(wrong))}, "
                    "which the declarer does not hold"
                )
    else:
        deal.settle(None, False)

    hands = [_ordered(dealt[i * 10:i * 10 + 10], deal.known[f"H{i}"]) for i in range(3)]
    skat = _ordered(dealt[30:32], deal.known["X"])
    discard: list[Card] | None = None
    start: list[Mask | None] = [None] * 4
    if reader.picked_up:
        discard = _ordered(reader.discard or [], deal.known["K"])
    if declarer is not None and reader.declaration is not None:
        start = [deal.known[loc] if deal.complete(loc) else None for loc in _START_LOCATIONS]
    players = [fields.get(f"P{i}", "") for i in range(3)]
    ending = (reader.events[0].kind, reader.events[0].seat) if reader.events else None
    return IssGame(
        id=fields.get("ID") or None,
        players=players,
        date=fields.get("DT") or None,
        hands=hands,
        skat=skat,
        bids=reader.bids,
        bid=reader.bid,
        declarer=declarer,
        declaration=reader.declaration,
        picked_up=reader.picked_up,
        discard=discard,
        plays=reader.plays,
        ending=ending,
        result=result,
        play_moves=reader.play_moves,
        hidden_plays=reader.hidden_plays,
        events=reader.events,
        ouvert_cards=[c for c in reader.ouvert_cards if c is not None] if reader.ouvert_cards is not None else None,
        hidden_cards=32 - sum(deal.known[loc].bit_count() for loc in _DEAL_LOCATIONS),
        fields=fields,
        _start=start,
    )


# --------------------------------------------------------------------------- replay


def _play_through(game: IssGame) -> Position:
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


def _awarded_side(game: IssGame, declarer: int) -> str | None:
    """The side an early ending gives the untaken tricks to, from the events in MV order."""
    resigned: set[int] = set()
    for event in game.events:
        if event.kind == "RE":
            if event.seat == declarer:
                return "defenders"
            resigned.add(event.seat)
            if len(resigned) == 2:
                return "declarer"
        elif event.kind in ("TI", "LE"):
            return "defenders" if event.seat == declarer else "declarer"
    return None


def replay(game: IssGame) -> Replay:
    """Replay *game* by the rules and score it as the server did.

    Every visible card is played through :class:`Position` (an unheld,
    illegal or out-of-turn card raises :class:`ISSFormatError` naming the card
    and its MV move).  A game that stops before its end is settled by the
    first event that decides it (module docstring): the untaken tricks go to
    the declarer or to the defenders.  The declared game is then valued with
    :func:`skatdd.core.scoring.score_game`, matadors from the declarer's twelve
    cards and the record's bid (so an overbid game is lost and valued as ISS
    does).  For a complete server record the result matches its ``R[...]``:
    ``declarer_points == p``, ``declarer_tricks == t``, ``score.score == v``,
    ``matadors == m``, ``score.overbid`` for ``overbid``, ``schneider == s``,
    ``schwarz == z`` and ``declarer_wins`` for ``win``.

    Raises :class:`ISSFormatError` when no game was played (passed or
    penalty records), when the record hides cards that matter, or when it
    stops early without an event that settles the rest.
    """
    declarer, declaration = game._require_game()
    position = _play_through(game)
    skat = position.skat
    points = position.declarer_points + points_of(skat)
    tricks = position.declarer_tricks
    # A game the tricks already settled (null, schwarz announced) ends at that trick on the server.
    decided = declaration.decided(position.declarer_tricks, position.defender_tricks) and not position.is_over()
    complete = position.is_over() or decided
    awarded = None
    if not complete:
        awarded = _awarded_side(game, declarer)
        if awarded is None:
            done = position.declarer_tricks + position.defender_tricks
            raise ISSFormatError(
                f"ISS record {quote(game.id or '?', bare=True)} stops after {done} of 10 tricks with no resignation, timeout "
                "or departure that settles the rest; its result cannot be replayed"
            )
        if awarded == "declarer" and not declaration.game.is_null:
            remaining = mask_of(position.trick)
            for hand in position.hands:
                remaining |= hand
            points += points_of(remaining)
            tricks = 10 - position.defender_tricks
    twelve = game.declarer_cards() | skat
    matadors = 0 if declaration.game.is_null else count_matadors(declaration.game, twelve)
    try:
        if declaration.game.is_null:
            # A null declarer who gives up loses although no trick was taken.
            scored_tricks = max(tricks, 1) if awarded == "defenders" else tricks
            score = score_game(declaration, matadors=0, tricks=scored_tricks, bid=game.bid)
        else:
            # Stopped early, neither side is schwarz, whatever the tricks so far.
            score = score_game(declaration, matadors=matadors, points=points, tricks=None if decided else tricks,
                               bid=game.bid)
    except SkatddError as exc:
        raise ISSFormatError(
            f"ISS record {quote(game.id or '?', bare=True)}: the declared game cannot be scored: {exc}"
        ) from None
    if declaration.game.is_null:
        schneider = schwarz = False
    elif decided:
        # The server reports what the play reached (s:0 z:0 after a lost first trick).
        schneider, schwarz = points >= SCHNEIDER_POINTS, False
    else:
        schneider = points >= SCHNEIDER_POINTS or points <= SCHNEIDERED_POINTS
        schwarz = tricks in (0, 10)
    return Replay(
        declarer_points=points,
        declarer_tricks=tricks,
        complete=complete,
        declarer_wins=bool(score.declarer_wins) and not score.overbid,
        matadors=matadors,
        score=score,
        schneider=schneider,
        schwarz=schwarz,
        awarded=awarded,
    )


def replay_warnings(game: IssGame, played: Replay | None = None) -> list[str]:
    """What the record's ``R[...]`` claims that its replay does not give: ``[]``, or one message naming it.

    Compared: ``v:`` (the score, :attr:`Replay.score`) and ``p:`` (the
    declarer's card points with the skat, :attr:`Replay.declarer_points`),
    each when the record gives it.  A disagreement does not stop the
    record from being read -- the cards are what is analysed, and they are
    checked card by card -- but it means the result was edited or the
    record comes from another source, so every reader of the record warns
    (where a ``d:`` that names another declarer is refused by
    :func:`parse_iss`).  *played* is the record's :func:`replay` when the
    caller has it.  A record that cannot be replayed (no game, hidden cards,
    stopped with nothing that settles the rest) gives ``[]``: it has no
    result of its own to compare.
    """
    if played is None:
        try:
            played = replay(game)
        except SkatddError:
            return []
    result = game.result
    found = []
    if result.value is not None and result.value != played.score.score:
        found.append(f"v:{result.value}, but the replay scores {played.score.score}")
    if result.points is not None and result.points != played.declarer_points:
        found.append(f"p:{result.points}, but the replay gives the declarer {played.declarer_points} card points "
                     "(skat included)")
    if not found:
        return []
    return [f"ISS record {quote(game.id or '?', bare=True)}: the result disagrees with the moves: R[...] says "
            + "; ".join(found)]
