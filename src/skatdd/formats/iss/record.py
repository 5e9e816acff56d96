"""One ISS game record as a deal: :func:`deal_from_iss`.

The record is parsed by :func:`skatdd.formats.iss.parse_iss` and every visible card
play is checked (held, legal, in turn, not after the game was decided)
before anything else is done with it, so no command works on a record with
a revoke or an extra card.  The game to play is the recorded one from the
first lead: the hands after pick-up and discard, the skat or discard, the
declaration, the bid and every card played.  A record in which nobody
played still gives the hands as dealt (``best`` can say who should have
played) but no game.
"""
from __future__ import annotations

from skatdd.core.cards import mask_of
from skatdd.core.errors import ISSFormatError, SkatddError, plural, quote
from skatdd.core.rules import Game

from ..deal_input import DealInput
from ..spec import GameSpec, kept_announcements
from . import IssGame, parse_iss, replay_warnings

__all__ = ["deal_from_iss", "spec_from_record"]


def spec_from_record(record: IssGame, *, game: Game | None = None, ouvert: bool = False,
                     declarer: int | None = None) -> GameSpec:
    """The recorded game as a validated :class:`GameSpec`; *game*/*declarer* override the record's.

    When an override changes the contract for play or the declarer, the
    recorded plays (which belong to the recorded game) are dropped and
    ``played`` is empty; a new contract keeps the announcements
    :func:`~skatdd.formats.spec.kept_announcements` says.  Raises :class:`ISSFormatError` when no game was
    played or the record hides cards of the hands at the first lead.
    """
    hands = record.start_hands()  # raises for a passed game or hidden cards
    skat = record.skat_for_declarer()
    declaration = record.declaration
    assert declaration is not None and record.declarer is not None  # start_hands() checked both
    the_game, the_ouvert, the_declarer = declaration.game, declaration.ouvert, record.declarer
    announce = list(declaration.announce)
    if game is not None and (game, ouvert) != (the_game, the_ouvert):
        the_game, the_ouvert = game, ouvert
        announce = kept_announcements(announce, game)
    if declarer is not None:
        the_declarer = declarer
    own_contract = (the_game, the_declarer) == (declaration.game, record.declarer)
    spec = GameSpec(
        id=record.id, game=the_game, ouvert=the_ouvert, declarer=the_declarer,
        hands=list(hands), skat=skat, played=[card for _, card in record.plays] if own_contract else [],
        hand=declaration.hand, announce=announce, bid=record.bid,
    )
    spec.validate()
    return spec


def deal_from_iss(text: str | IssGame, *, game: Game | None = None, ouvert: bool = False,
                  declarer: int | None = None) -> DealInput:
    """Read one ISS game record (its text, one line, or a parsed :class:`IssGame`) into a :class:`DealInput`.

    ``spec`` is :func:`spec_from_record`'s (``None`` when nobody played);
    ``dealt_hands``/``dealt_skat`` are the hands and skat as dealt (``None``
    when the record hides some); ``declarer`` and ``bid`` the record's;
    ``warnings`` :func:`~skatdd.formats.iss.replay_warnings`'s (a ``v:`` or ``p:``
    that the moves do not give).
    Raises :class:`ISSFormatError` for a malformed record, more than one
    record, or a card play that is not held, not legal, out of turn or
    after the game was decided.
    """
    if isinstance(text, IssGame):
        record = text
    else:
        records = [line for line in text.splitlines() if line.lstrip().startswith("(;")]
        if len(records) > 1:
            raise ISSFormatError(f"the input holds {len(records)} ISS records: expected one")
        record = parse_iss(text)
    spec: GameSpec | None = None
    missing: SkatddError | None = None
    warnings: list[str] = []
    if record.declaration is None:
        try:
            record.start_hands()  # the "no game was played" message
        except ISSFormatError as exc:
            missing = exc
    else:
        record.check_plays()
        spec = spec_from_record(record, game=game, ouvert=ouvert, declarer=declarer)
        warnings = replay_warnings(record)
    dealt = record.hidden_cards == 0
    return DealInput(
        kind="iss", spec=spec, missing_spec=missing,
        dealt_hands=[mask_of(hand) for hand in record.hands] if dealt else None,
        dealt_skat=mask_of(record.skat) if dealt else None,
        missing_dealt=None if dealt else ISSFormatError(
            f"ISS record {quote(record.id or '?', bare=True)} hides {plural(record.hidden_cards, 'card')} of the deal ('??'): "
            "the hands and skat as dealt are unknown"
        ),
        declarer=record.declarer if declarer is None else declarer, bid=record.bid, record=record,
        bids=tuple(record.bids),
        warnings=warnings,
    )
