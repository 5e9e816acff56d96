"""What a reader returns: :class:`DealInput`, the input as its format states it."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from skatdd.core.cards import Mask
from skatdd.core.errors import DealFormatError, SkatddError, with_context

from .spec import GameSpec

if TYPE_CHECKING:
    from .iss import IssGame

__all__ = ["DealInput"]


@dataclass
class DealInput:
    """One deal, position or game as read from deal text, a JSON object or an ISS record.

    Attributes:
        kind: ``"text"``, ``"json"`` or ``"iss"``.
        spec: the validated game to play, or ``None`` when the input does
            not name a contract and declarer (deal text without ``--game``,
            JSON without ``game``, an ISS record in which nobody played).
            Every field the input does give is validated all the same.
        dealt_hands, dealt_skat: the three ten-card hands and the skat as
            dealt, before any pick-up or card (what ``best`` analyses), or
            ``None`` when the input does not show them (a JSON position
            after play, an ISS view with hidden cards).
        declarer, bid: the input's own declarer and bid, ``None`` when it names none.
        record: the parsed ISS record (``kind == "iss"``).
        bids: the auction as the input states it, moves ``(seat, move)`` in
            order (a number as text, ``"y"`` hold, ``"p"`` pass): an ISS
            record's bidding, a JSON object's ``bids`` field; empty for deal
            text.  Checked for form only; whether each move is a legal bid
            is the inference's to say (:func:`skatdd.analysis.inference.api.input_auction`).
        path: the file the input came from, ``None`` for an argument.
        warnings: what is wrong with the input but does not stop it from
            being used, one line each (an ISS record whose ``v:`` or ``p:``
            disagrees with its replay, :func:`skatdd.formats.iss.replay_warnings`);
            commands print them on stderr, and ``analyse`` also in its JSON.
    """

    kind: str
    spec: GameSpec | None
    dealt_hands: list[Mask] | None
    dealt_skat: Mask | None
    declarer: int | None = None
    bid: int | None = None
    record: IssGame | None = None
    bids: tuple[tuple[int, str], ...] = ()
    path: str | None = None
    #: Why :attr:`spec` is ``None`` (the message :meth:`require_spec` raises).
    missing_spec: SkatddError | None = None
    #: Why :attr:`dealt_hands` is ``None`` (the message :meth:`require_dealt` raises).
    missing_dealt: SkatddError | None = None
    warnings: list[str] = field(default_factory=list)

    def _fail(self, exc: SkatddError | None, fallback: str) -> SkatddError:
        error = exc if exc is not None else DealFormatError(fallback)
        return with_context(error, self.path) if self.path is not None else error

    def require_spec(self) -> GameSpec:
        """The game to play; raises the reader's error (naming the file) when the input names none."""
        if self.spec is None:
            raise self._fail(self.missing_spec, "the input names no contract and declarer")
        return self.spec

    def require_dealt(self) -> tuple[list[Mask], Mask]:
        """``(hands, skat)`` as dealt; raises (naming the file) when the input does not show them."""
        if self.dealt_hands is None or self.dealt_skat is None:
            raise self._fail(self.missing_dealt, "the input does not show the hands and skat as dealt")
        return self.dealt_hands, self.dealt_skat
