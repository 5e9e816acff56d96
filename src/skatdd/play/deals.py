"""The deals a match is played on: :class:`MatchDeal`, from the generator, a JSON object or an ISS record.

A match deal fixes everything but the card play: the hands and skat as
dealt, the declarer, the declaration (game, hand game, announcements,
ouvert), the declarer's discard when he picked up the skat, and the
auction heard.  Both games of a duplicate deal start from the same first
lead (:meth:`MatchDeal.start_position`).

Sources:

* :func:`generated_deal`: deal *index* of seed *S* is
  :func:`skatdd.analysis.deals.realistic.realistic_deal` drawn from its own generator
  (seeded from S and the index, so a deal does not depend on how many
  there are or on which process makes it), with the generator's declarer,
  contract and discard, and the auction of :mod:`skatdd.play.auction`.
* :func:`deal_from_input` for a line of a file, read by
  :mod:`skatdd.formats.readers`:

  - a JSON object: ``id``, ``game``, ``declarer``, ``hands`` (the three
    hands as dealt), ``skat`` and, optionally, ``discard`` (the two cards
    the declarer put away after picking up the skat), ``hand``,
    ``announce``, ``bid`` and ``bids`` (the auction, a list of ``[seat,
    move]`` with the move a number said, ``"y"`` or ``"p"``).  Without
    ``discard`` a game that is not a hand game reads ``skat`` as the
    discard and ``hands`` as the hands after it, as every other skatdd
    command does; then the skat as dealt is reported as that discard.
  - an ISS record: its hands and skat as dealt, declarer, declaration,
    discard and auction, as recorded; the recorded card play is not used.

>>> deal = generated_deal(1, 1)
>>> deal.id, deal.game.label, deal.declarer, len(deal.bids) > 0
('1-1', 'grand', 0, True)
>>> deal_from_json_line(deal.to_json()) == deal
True
"""
from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from skatdd.analysis.deals.realistic import realistic_deal
from skatdd.analysis.inference.api import input_auction
from skatdd.core.cards import Mask, format_mask, mask_of, parse_cards
from skatdd.core.errors import DealFormatError, quote
from skatdd.core.position import Position
from skatdd.core.rules import Game
from skatdd.core.scoring import Declaration
from skatdd.formats.files import bounded_lines, count_games, game_lines
from skatdd.formats.json_text import json_text
from skatdd.formats.readers import DealInput, parse_input
from skatdd.runner.game_lines import game_line_id
from skatdd.runner.outcome import LineOutcome, line_text

from .auction import generated_auction
from .state import Bid

__all__ = ["Items", "MatchDeal", "deal_from_input", "deal_from_json_line", "deal_items", "derive_seed", "generated_deal",
           "generated_id"]


def derive_seed(*parts: object) -> int:
    """A 64-bit seed from *parts* (``derive_seed(seed, index, game)``): the same parts, the same seed, anywhere."""
    text = "/".join(str(part) for part in parts)
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


@dataclass(frozen=True)
class MatchDeal:
    """One deal of a match (module docstring).

    Attributes:
        id: echoed in the record (any JSON value).
        declarer: the declarer's seat.
        declaration: game, hand game, announcements, ouvert.
        hands: the three hands as dealt, by seat.
        skat: the skat as dealt.
        discard: the declarer's discard after picking up the skat; ``None`` in a hand game.
        bids: the auction, ``(seat, move)`` in order; empty when the deal carries none.
        bid: the highest bid, ``None`` when the deal carries none.
    """

    id: Any
    declarer: int
    declaration: Declaration
    hands: tuple[Mask, Mask, Mask]
    skat: Mask
    discard: Mask | None
    bids: tuple[Bid, ...] = ()
    bid: int | None = None

    @property
    def game(self) -> Game:
        """The contract for play."""
        return self.declaration.game

    @property
    def twelve(self) -> Mask:
        """The declarer's twelve cards: his hand as dealt and the skat (his matadors count over them)."""
        return self.hands[self.declarer] | self.skat

    def start_position(self) -> Position:
        """The first lead: the declarer's hand after his discard (his ten dealt cards in a hand game), forehand to lead.

        The position's skat is the discard, or the skat in a hand game: the two cards that count for the declarer.
        """
        hands = list(self.hands)
        put_away = self.skat if self.discard is None else self.discard
        hands[self.declarer] = self.twelve & ~put_away
        return Position(self.game, self.declarer, hands, put_away, leader=0)

    def to_json(self) -> dict[str, Any]:
        """``id, game, declarer, hand, announce, hands, skat, discard, bid, bids`` (what a match record starts with)."""
        return {
            "id": self.id,
            "game": self.game.label,
            "declarer": self.declarer,
            "hand": self.declaration.hand,
            "announce": self.declaration.announce,
            "hands": [format_mask(h) for h in self.hands],
            "skat": format_mask(self.skat),
            "discard": None if self.discard is None else format_mask(self.discard),
            "bid": self.bid,
            "bids": [[seat, move] for seat, move in self.bids],
        }


def generated_id(seed: int, index: int) -> str:
    """The id of generated deal *index* (from 1) of *seed*: ``'S-I'``."""
    return f"{seed}-{index}"


def generated_deal(seed: int, index: int) -> MatchDeal:
    """Realistic deal *index* (from 1) of *seed* (module docstring), with its derived auction."""
    pos, meta = realistic_deal(random.Random(derive_seed("deal", seed, index)))
    declarer = int(meta["declarer"])
    skat = mask_of(parse_cards(meta["skat"]))
    discard = mask_of(parse_cards(meta["discard"]))
    hands = list(pos.hands)
    hands[declarer] = mask_of(parse_cards(meta["declarer_hand12"])) & ~skat
    bids, bid = generated_auction(hands, skat, declarer, pos.game, meta["playable"])
    return MatchDeal(generated_id(seed, index), declarer, Declaration(pos.game), (hands[0], hands[1], hands[2]),
                     skat, discard, tuple(bids), bid)


def _from_json(found: DealInput, obj: dict[str, Any]) -> MatchDeal:
    spec = found.require_spec()
    hands, skat = found.require_dealt()
    declaration = spec.declaration()
    discard: Mask | None = None
    if obj.get("discard") is not None:
        if declaration.hand:
            raise DealFormatError("field 'discard': a hand game has no discard (the skat stays untouched)")
        if not isinstance(obj["discard"], (str, list)):
            raise DealFormatError(f"field 'discard' must be two cards such as 'ST SK', got {quote(obj['discard'])}")
        discard = mask_of(parse_cards(obj["discard"], count=2, what="field 'discard'"))
        twelve = hands[spec.declarer] | skat
        if discard & ~twelve:
            raise DealFormatError(f"field 'discard': {format_mask(discard & ~twelve)} is neither in the declarer's "
                                  f"hand nor in the skat")
    elif not declaration.hand:
        discard = skat  # the skat field is the discard, the hands those after it (every command reads it so)
    return MatchDeal(spec.id, spec.declarer, declaration, (hands[0], hands[1], hands[2]), skat, discard,
                     found.bids, spec.bid)


def _from_iss(found: DealInput) -> MatchDeal:
    record = found.record
    assert record is not None
    hands, skat = found.require_dealt()
    spec = found.require_spec()
    discard = None if record.discard is None else mask_of(record.discard)
    return MatchDeal(record.id, spec.declarer, spec.declaration(), (hands[0], hands[1], hands[2]), skat, discard,
                     tuple(record.bids), record.bid)


def deal_from_input(found: DealInput, obj: dict[str, Any] | None = None) -> MatchDeal:
    """The match deal of a JSON object (*obj*, its decoded fields, read into *found*) or of an ISS record.

    Raises a :class:`~skatdd.core.errors.SkatddError` naming the field when the
    input is no deal before play (a position after some cards, hidden
    cards) or a field is malformed, and when its auction is no auction (a
    bid that does not exceed the one before it): checked here, when the deal
    is read, so that it is the deal's error and not a player's failure.
    """
    if found.kind == "iss":
        deal = _from_iss(found)
    elif found.kind == "json" and obj is not None:
        deal = _from_json(found, obj)
    else:
        raise DealFormatError("a match deal must be a JSON object or an ISS record")
    try:
        input_auction(deal.bids)
    except DealFormatError as exc:
        raise DealFormatError(f"field 'bids': {exc}") from None
    return deal


def deal_from_json_line(obj: dict[str, Any] | str) -> MatchDeal:
    """The match deal of one JSON object (decoded or as text), e.g. :meth:`MatchDeal.to_json`'s."""
    text = obj if isinstance(obj, str) else json_text(obj)
    if not text.lstrip().startswith("{"):
        raise DealFormatError(f"a match deal in JSON must be an object, got {quote(text)}")
    found = parse_input(text)  # every malformed field is reported here
    return deal_from_input(found, json.loads(text))


Items = Iterable[tuple[int, "bytes | str"]]


def deal_items(deals: int | str | Iterable[Any], seed: int, *, generated: Callable[..., LineOutcome],
               from_file: Callable[..., LineOutcome], deal_type: type, dumps: Callable[[Any], str] = json_text,
               ) -> tuple[Items, Callable[..., LineOutcome], int | None, Callable[[bytes | str], Any]]:
    """The runner's view of *deals*: ``(items, handler, total, line_id)``, for ``match`` and ``match --full`` alike.

    *deals* is a number N of generated deals (handled by *generated*, each line the deal's index), a path to a file
    of deals (one a line, handled by *from_file*), or the deals themselves: *deal_type* objects (their
    ``to_json()``) and JSON objects written as lines by *dumps*, or the lines as text.
    """
    if isinstance(deals, bool):
        raise TypeError("deals must be a number of deals, a path or the deals themselves, not a bool")
    if isinstance(deals, int):
        if deals < 0:
            raise ValueError(f"deals must be a number of deals of at least 0, a path or the deals themselves, "
                             f"not {deals}")
        return (((i, str(i)) for i in range(1, deals + 1)), generated, deals,
                lambda raw: generated_id(seed, int(line_text(raw))))
    if isinstance(deals, str):
        path = deals
        total = count_games(path)

        def lines_of_file() -> Iterator[tuple[int, bytes | str]]:
            with open(path, "rb") as fh:
                yield from game_lines(bounded_lines(fh))

        return lines_of_file(), from_file, total, game_line_id
    lines: list[tuple[int, bytes | str]] = []
    for i, deal in enumerate(deals, start=1):
        if isinstance(deal, deal_type):
            lines.append((i, dumps(deal.to_json())))  # type: ignore[attr-defined]
        elif isinstance(deal, dict):
            lines.append((i, dumps(deal)))
        else:
            lines.append((i, str(deal)))
    return lines, from_file, len(lines), game_line_id
