"""A position as the commands take it: an input (deal, JSON, ISS record) plus the cards played after it.

``skatdd solve`` and ``skatdd advise`` read their DEAL / POSITION argument
(:func:`read_position`) and play ``--played`` on it (:func:`apply_played`;
advise's ``--after`` first: :func:`advice_position`); the server's JSON API
reads its request bodies the same way, with the same functions.  Nothing here prints:
the input's warnings come back in :attr:`PositionInput.warnings` for the
caller to show.
"""
from __future__ import annotations

from typing import NamedTuple

from skatdd.core.cards import parse_cards, split_card_tokens
from skatdd.core.errors import IllegalPlayError, InvalidCardError, quote
from skatdd.core.position import Position
from skatdd.core.rules import Game

from .readers import read_input
from .spec import GameSpec, replay_cards

__all__ = ["PositionInput", "advice_position", "apply_played", "read_position"]


class PositionInput(NamedTuple):
    """What an argument was read into: its validated ``spec``, the ``position`` to work on, the input's ``warnings``.

    ``bids`` is the auction the input states (:attr:`skatdd.formats.deal_input.DealInput.bids`).
    """

    spec: GameSpec
    position: Position
    warnings: list[str]
    bids: tuple[tuple[int, str], ...] = ()


def apply_played(pos: Position, played: str) -> Position:
    """Play the cards of *played* (a card string) on *pos* in place and return it.

    Raises :class:`~skatdd.core.errors.InvalidCardError` /
    :class:`~skatdd.core.errors.DuplicateCardError` for a bad token and
    :class:`~skatdd.core.errors.IllegalPlayError` naming the card and its place in
    ``--played`` when it is not held by the seat to move, does not follow
    suit, or comes after the end of play (every card played, or a null
    declarer has taken a trick).
    """
    tokens = split_card_tokens(played)
    try:
        cards = parse_cards(tokens, what="--played")
    except InvalidCardError as exc:
        raise InvalidCardError(f"--played: {exc}") from None
    return replay_cards(pos, cards, where=lambda i, _card: f"--played card {i + 1} {quote(tokens[i])}")


def read_position(deal: str, *, game: tuple[Game, bool] | None, declarer: int | None) -> PositionInput:
    """Read DEAL (a path or the input itself) into the position ``skatdd solve`` starts from.

    *game* is ``(game, ouvert)`` as ``--game`` gives it.  An ISS record
    starts at its first lead (its recorded play is not replayed), any other
    input where it stands.  Raises :class:`~skatdd.core.errors.SkatddError`
    subclasses for bad input.
    """
    the_game, ouvert = game if game is not None else (None, False)
    found = read_input(deal, game=the_game, ouvert=ouvert, declarer=declarer)
    spec = found.require_spec()
    pos = spec.start_position() if found.kind == "iss" else spec.position()
    return PositionInput(spec, pos, list(found.warnings), found.bids)


def advice_position(read: PositionInput, *, played: str | None, after: int | None) -> Position:
    """The position ``skatdd advise`` advises on, from its POSITION as read (:func:`read_position`).

    *after* takes the first K cards of the recorded play (an ISS record's
    or a JSON object's ``played``) from the first lead instead of the
    position as given; then *played* is played on it (:func:`apply_played`).
    The declaration is ``read.spec.declaration()``.  Raises
    :class:`~skatdd.core.errors.SkatddError` subclasses for bad input
    (:class:`~skatdd.core.errors.IllegalPlayError` for an *after* beyond the
    recorded play).
    """
    spec, pos = read.spec, read.position
    if after is not None:
        if after > len(spec.played):
            raise IllegalPlayError(
                f"--after {after}: the game records only {len(spec.played)} card"
                f"{'s' if len(spec.played) != 1 else ''} played")
        pos = spec.start_position()
        for card in spec.played[:after]:
            pos.play(card)
    if played:
        apply_played(pos, played)
    return pos
