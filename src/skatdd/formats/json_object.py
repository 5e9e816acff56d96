"""JSON deal and position objects (the fields the README's "A deal or position as JSON" lists).

:func:`deal_from_json` reads one object (decoded, or its text) into a
:class:`~skatdd.formats.readers.DealInput`; :func:`position_from_json` is the same
for callers that need the game to play and returns its
:class:`~skatdd.formats.spec.GameSpec`.  Every field that is present is checked,
whether or not the caller needs it, so ``best`` refuses what ``solve``
refuses.  Hostile JSON (nesting deeper than Python's recursion limit,
numbers of thousands of digits) is answered with
:class:`~skatdd.core.errors.DealFormatError` like any other malformed input.

:func:`load_json` is the one place JSON input is decoded (deals, positions,
the ``id`` of a line in a file of many, an output file read back by
``--resume``).  It is strict: ``NaN``, ``Infinity``, ``-Infinity`` and
numbers too large for a float (``1e400``), which Python's json module reads
as non-finite floats and would write back as ``NaN``/``Infinity``, are
refused, so a result never echoes what strict parsers reject.
"""
from __future__ import annotations

import json
import math
from typing import Any, NoReturn

from skatdd.core.cards import Card, mask_of, split_card_tokens
from skatdd.core.errors import DealFormatError, InvalidSeatError, SkatddError, quote, with_context
from skatdd.core.rules import SEAT_NAMES, Game, parse_game, parse_seat

from .deal_input import DealInput
from .spec import GameSpec, kept_announcements, normalise_announce
from .text import CardLedger, parse_tokens

__all__ = ["deal_from_json", "load_json", "position_from_json"]

#: Integers beyond this size are no count, points or bid of a Skat game; refusing them keeps messages short.
_MAX_INTEGER = 10**9


def _json_type(value: Any) -> str:
    """JSON name of *value*'s type, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple)):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def _describe(value: Any) -> str:
    """Short description of a JSON value: ``number 3``, ``string 'x'``, ``array``..."""
    kind = _json_type(value)
    if kind == "boolean":
        return f"{kind} {'true' if value else 'false'}"
    if kind == "number":
        return f"{kind} {quote(value)}"
    if kind == "string":
        return f"{kind} {quote(value)}"
    return kind


class _NotFinite(ValueError):
    """A number in the JSON text that is no finite float (raised by the decoder's hooks)."""


def _refuse_constant(token: str) -> NoReturn:
    raise _NotFinite(f"{token} is not JSON (expected a finite number)")


def _finite_float(token: str) -> float:
    value = float(token)
    if not math.isfinite(value):
        raise _NotFinite(f"number {quote(token, bare=True)} is too large: expected a finite number")
    return value


def load_json(text: str | bytes | bytearray) -> Any:
    """Strict ``json.loads``: every failure, and any number that is not finite, is one-line :class:`DealFormatError`.

    ``NaN``, ``Infinity`` and ``-Infinity`` (no JSON at all) and numbers
    beyond a float's range such as ``1e400`` are refused wherever they
    appear, so nothing read can be written back as invalid JSON.
    """
    try:
        return json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
    except _NotFinite as exc:
        raise DealFormatError(f"malformed JSON: {exc}") from None
    except json.JSONDecodeError as exc:
        hint = ": one deal per input expected (use 'skatdd batch' for many)" if exc.msg == "Extra data" else ""
        raise DealFormatError(f"malformed JSON: {exc}{hint}") from None
    except RecursionError:
        raise DealFormatError("malformed JSON: nested too deeply (a deal is one flat object)") from None
    except (UnicodeDecodeError, ValueError) as exc:
        # Among others Python's limit on integer digits: 'Exceeds the limit (4300 digits) ...'.
        raise DealFormatError(f"malformed JSON: {quote(str(exc))}") from None


def _card_field(value: Any, name: str, label: str | None, ledger: CardLedger | None) -> list[Card]:
    """Cards of JSON field *name* given as one string or a list of card strings; *label* describes it."""
    place = f"field '{name}'" + (f" ({label})" if label else "")
    if value is None:
        return []
    if isinstance(value, str):
        tokens = split_card_tokens(value)
    elif isinstance(value, list):
        tokens = []
        for i, token in enumerate(value):
            if not isinstance(token, str):
                raise DealFormatError(f"field '{name}[{i}]' must be a card string such as 'CJ', got {_describe(token)}")
            tokens.append(token)
    else:
        raise DealFormatError(f"{place} must be a string of cards or a list of card strings, got {_describe(value)}")
    return parse_tokens(tokens, place, ledger)


def _seat_field(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise DealFormatError(
            f"field '{name}' must be a seat 0/1/2 or F/M/R or forehand/middlehand/rearhand, got {_describe(value)}"
        )
    try:
        return parse_seat(value)
    except InvalidSeatError as exc:
        raise with_context(exc, f"field '{name}'") from None


def _int_field(obj: dict[str, Any], name: str, default: int | None) -> int | None:
    value = obj.get(name)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        raise DealFormatError(f"field '{name}' must be an integer, got {_describe(value)}")
    if abs(value) > _MAX_INTEGER:
        raise DealFormatError(f"field '{name}' is out of range: got {_describe(value)}")
    return value


def _bids_field(value: Any) -> tuple[tuple[int, str], ...]:
    """The ``bids`` field: a list of ``[seat, move]`` pairs, a move a number as text, ``"y"`` or ``"p"``."""
    if value is None:
        return ()
    if not isinstance(value, list):
        raise DealFormatError(f"field 'bids' must be a list of [seat, move] pairs like [1, \"18\"], got {_describe(value)}")
    out = []
    for i, item in enumerate(value):
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[1], str)):
            raise DealFormatError(f"field 'bids[{i}]' must be a pair [seat, move] like [1, \"18\"], got {quote(item)}")
        seat = _seat_field(item[0], f"bids[{i}]")
        move = item[1]
        if not (move in ("y", "p") or (move.isascii() and move.isdigit())):
            raise DealFormatError(f"field 'bids[{i}]': move {quote(move)} is not a bid: expected a number, 'y' or 'p'")
        out.append((seat, move))
    return tuple(out)


def _announce_field(obj: dict[str, Any]) -> list[Any]:
    value = obj.get("announce")
    if value is None:
        return []
    if isinstance(value, str):
        return list(split_card_tokens(value))
    if isinstance(value, list):
        return value
    raise DealFormatError(f"field 'announce' must be a list of schneider/schwarz/ouvert, got {_describe(value)}")


def _game_field(obj: dict[str, Any]) -> tuple[Game, bool] | None:
    value = obj.get("game")
    if value is None:
        return None
    if not isinstance(value, str):
        raise DealFormatError(f"field 'game' must be a string such as 'grand', got {_describe(value)}")
    try:
        return parse_game(value)
    except SkatddError as exc:
        raise with_context(exc, "field 'game'") from None


def deal_from_json(
    obj: dict[str, Any] | str | bytes, *, game: Game | None = None, ouvert: bool = False, declarer: int | None = None,
) -> DealInput:
    """Read a deal or position from its JSON object (or the object's text) into a :class:`DealInput`.

    Fields: ``id`` (any), ``game`` (a contract name, ``null-ouvert``/``NO``
    included), ``declarer`` (0/1/2 or F/M/R/forehand/...), ``hands`` (three
    card strings or lists, index = seat), ``skat``, ``played``, ``leader``,
    ``trick`` (card strings or lists), ``declarer_points``,
    ``declarer_tricks``, ``defender_tricks`` (integers), ``hand`` (boolean),
    ``announce`` (list of ``schneider``/``schwarz``/``ouvert``, or one string
    of them), ``bid`` (integer), ``bids`` (the auction: ``[seat, move]``
    pairs, as ``skatdd match`` deals write it).  A null field counts as absent; unknown
    fields are ignored.  ``hands`` is required; ``game: "null"`` with
    ``"ouvert"`` announced is null ouvert.

    Keyword arguments override the object: *game* (with *ouvert*) replaces
    the contract (the object's announcements stay as
    :func:`~skatdd.formats.spec.kept_announcements` says: not ``ouvert``, and for a
    null neither ``schneider`` nor ``schwarz``),
    *declarer* the declarer.  Without a ``game`` or ``declarer`` from either
    side the result has no ``spec`` (``require_spec()`` names the missing
    field).  An object without play (no ``played``, no ``trick``: a deal
    before play, what ``best`` reads) is still validated, as a grand by
    forehand would be (a null without a skat): the card counts do not depend
    on the game, and no game allows an announcement a grand refuses.  Play
    needs the game and the declarer to be checked (the legality of each
    card, who took which trick), so with ``played`` or ``trick`` the missing
    field is raised at once.
    ``dealt_hands`` are the hands when they are ten cards each with a
    two-card skat, no ``played`` and no ``trick``.

    The declaration is validated with the deal (see
    :meth:`~skatdd.formats.spec.GameSpec.validate`): schneider or schwarz announced
    without ``hand`` is refused here, whatever the command.

    Raises :class:`DealFormatError` (malformed JSON, a field of the wrong
    type or out of range), :class:`InvalidCardError`,
    :class:`DuplicateCardError`, :class:`CardCountError`,
    :class:`InvalidGameError`, :class:`InvalidSeatError`,
    :class:`IllegalPlayError` or :class:`ScoringError` (a declaration the
    rules forbid), each naming the field and token.
    """
    if isinstance(obj, (str, bytes, bytearray)):
        obj = load_json(obj)
    if not isinstance(obj, dict):
        raise DealFormatError(f"a deal in JSON must be an object with 'game', 'declarer' and 'hands', got {_describe(obj)}")

    announce = normalise_announce(_announce_field(obj), "field 'announce'")
    bids = _bids_field(obj.get("bids"))
    own_game = _game_field(obj)
    own_declarer = None if obj.get("declarer") is None else _seat_field(obj["declarer"], "declarer")
    missing: SkatddError | None = None
    if game is not None:
        the_game, the_ouvert = game, ouvert
        announce = kept_announcements(announce, game)
    elif own_game is not None:
        the_game, the_ouvert = own_game
    else:
        # Checked as a grand, or as a null when there is no skat (only null may lack one).
        the_game, the_ouvert = (Game.NULL if obj.get("skat") in (None, "", []) else Game.GRAND), False
        missing = DealFormatError(
            "field 'game' is missing: expected grand, clubs, spades, hearts, diamonds, null or null-ouvert"
        )
    the_declarer = declarer if declarer is not None else own_declarer
    if the_declarer is None:
        the_declarer = 0
        missing = missing or DealFormatError("field 'declarer' is missing: expected a seat 0, 1 or 2")
    leader = 0 if obj.get("leader") is None else _seat_field(obj["leader"], "leader")
    hand = obj.get("hand")
    if hand is None:
        hand = False
    elif not isinstance(hand, bool):
        raise DealFormatError(f"field 'hand' must be true or false, got {_describe(hand)}")

    hands_value = obj.get("hands")
    if hands_value is None:
        raise DealFormatError("field 'hands' is missing: expected three card strings (forehand, middlehand, rearhand)")
    if not isinstance(hands_value, list) or len(hands_value) != 3:
        got = f"{len(hands_value)} items" if isinstance(hands_value, list) else _describe(hands_value)
        raise DealFormatError(
            f"field 'hands' must be a list of three hands (forehand, middlehand, rearhand), got {got}"
        )
    ledger = CardLedger()
    for seat in range(3):
        if hands_value[seat] is None:
            raise DealFormatError(f"field 'hands[{seat}]' is null: expected the cards of {SEAT_NAMES[seat]}")
    hands = [_card_field(hands_value[seat], f"hands[{seat}]", SEAT_NAMES[seat], ledger) for seat in range(3)]
    skat = _card_field(obj.get("skat"), "skat", None, ledger)
    trick = _card_field(obj.get("trick"), "trick", None, ledger)
    played = _card_field(obj.get("played"), "played", None, None)

    points = _int_field(obj, "declarer_points", 0)
    assert points is not None
    spec = GameSpec(
        id=obj.get("id"), game=the_game, ouvert=the_ouvert, declarer=the_declarer,
        hands=[mask_of(h) for h in hands], skat=mask_of(skat), leader=leader, trick=trick,
        declarer_points=points,
        declarer_tricks=_int_field(obj, "declarer_tricks", None),
        defender_tricks=_int_field(obj, "defender_tricks", None),
        played=played, hand=hand, announce=announce, bid=_int_field(obj, "bid", None),
    )
    if missing is not None and (played or trick):
        # Whether a card may be played, and who won which trick, depend on the game and the declarer:
        # checked in a guessed game, the play would be reported for a fault the guess made up.
        raise missing
    spec.validate()
    before_play = not played and not trick and all(len(h) == 10 for h in hands) and len(skat) == 2
    return DealInput(
        kind="json", spec=spec if missing is None else None, missing_spec=missing,
        dealt_hands=list(spec.hands) if before_play else None, dealt_skat=spec.skat if before_play else None,
        missing_dealt=None if before_play else DealFormatError(
            "the JSON deal is not a deal before play: expected ten-card 'hands', a two-card 'skat', "
            "and no 'played' or 'trick'"
        ),
        declarer=declarer if declarer is not None else own_declarer, bid=spec.bid, bids=bids,
    )


def position_from_json(
    obj: dict[str, Any] | str | bytes, *, game: Game | None = None, ouvert: bool = False, declarer: int | None = None,
) -> GameSpec:
    """The validated :class:`~skatdd.formats.spec.GameSpec` of a JSON object (see :func:`deal_from_json`).

    ``game`` and ``declarer`` are required here (in the object, or as the
    keyword overrides): :class:`DealFormatError` names the missing field.
    """
    return deal_from_json(obj, game=game, ouvert=ouvert, declarer=declarer).require_spec()
