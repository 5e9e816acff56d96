"""Parsing ISS game records: :func:`parse_iss` for one line, :func:`iter_iss` for a file of them.

An ISS record is one line in an SGF-like format (docs/iss.md)::

    (;GM[Skat]PC[...]ID[541932]DT[...]P0[zoot]P1[kermit]P2[foo]MV[w HA.SK... 1 p 2 18 ...]R[d:2 loss v:-54 ...] ;)

:func:`parse_iss` splits the ``KEY[value]`` fields, parses ``R[...]`` into an
:class:`~skatdd.formats.iss.model.IssResult`, reads the moves
(:mod:`.moves`) and places every card the record reveals
(:mod:`.deal`), and returns an :class:`~skatdd.formats.iss.model.IssGame`.
Every error is an :class:`~skatdd.core.errors.ISSFormatError` quoting the
offending token.
"""
from __future__ import annotations

import re
from collections.abc import Iterator

from skatdd.core.cards import Card, Mask, cards_of, format_cards, mask_of
from skatdd.core.errors import ISSFormatError, quote

from .deal import DEAL_LOCATIONS, START_LOCATIONS, CardPlaces, ordered
from .model import IssGame, IssResult
from .moves import MoveReader

__all__ = ["iter_iss", "looks_like_iss", "parse_iss"]

_FIELD_RE = re.compile(r"([A-Za-z][A-Za-z0-9]*)\[((?:[^\]\\]|\\.)*)\]", re.S)


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
    """*text* (a value of result token *token*) as an integer; raises naming *token* and *what* it is."""
    if _INTEGER_RE.fullmatch(text) is None:
        raise ISSFormatError(f"bad result token {quote(token)}: {what} must be an integer of at most 9 digits")
    return int(text)


def _parse_flag(token: str, text: str) -> bool:
    """*text* (a value of result token *token*), ``0`` or ``1``, as a bool; raises naming *token*."""
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
    reader = MoveReader(fields["MV"])
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
    deal = CardPlaces()
    dealt = reader.deal
    for index, loc in enumerate(DEAL_LOCATIONS):
        deal.add(loc, mask_of(c for c in dealt[index * 10:index * 10 + (10 if index < 3 else 2)] if c is not None))
    if reader.skat_answer is not None:
        shown = mask_of(c for c in reader.skat_answer if c is not None)
        if deal.complete("X") and shown & ~deal.known["X"]:
            raise ISSFormatError(
                f"the skat shown to the declarer ({quote(format_cards(cards_of(shown)))}) is not the dealt skat "
                f"({quote(format_cards(cards_of(deal.known['X'])))})"
            )
        deal.add("X", shown & ~deal.placed(DEAL_LOCATIONS))
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
                if card is not None and not deal.placed(START_LOCATIONS) >> card & 1 and not deal.complete(loc):
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

    hands = [ordered(dealt[i * 10:i * 10 + 10], deal.known[f"H{i}"]) for i in range(3)]
    skat = ordered(dealt[30:32], deal.known["X"])
    discard: list[Card] | None = None
    start: list[Mask | None] = [None] * 4
    if reader.picked_up:
        discard = ordered(reader.discard or [], deal.known["K"])
    if declarer is not None and reader.declaration is not None:
        start = [deal.known[loc] if deal.complete(loc) else None for loc in START_LOCATIONS]
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
        hidden_cards=32 - sum(deal.known[loc].bit_count() for loc in DEAL_LOCATIONS),
        fields=fields,
        _start=start,
    )


