"""The deal readers' original home, kept so that ``skatdd.deal`` imports keep working.

Everything here now lives in :mod:`skatdd.readers` (one module per input
format) and :mod:`skatdd.spec` (:class:`GameSpec`); this module re-exports
the names the README documents: :func:`load_deal`, :class:`GameSpec`,
:func:`parse_deal_text`, :func:`format_deal_text`, :func:`position_from_json`.

>>> from skatdd.rules import Game
>>> spec = load_deal("CJ SJ HA HT HK DA DT D9 D8 D7 / CA CT CK CQ C9 SA ST SK SQ S9 / "
...                  "HJ DJ C8 C7 S8 S7 HQ H9 H8 H7 / DK DQ", game=Game.DIAMONDS, declarer=0)
>>> spec.position().to_move, spec.position().skat_points
(0, 7)
"""
from __future__ import annotations

from .readers import format_deal_text, load_deal, parse_deal_text, position_from_json
from .spec import ANNOUNCEMENTS, GameSpec

__all__ = ["ANNOUNCEMENTS", "GameSpec", "format_deal_text", "load_deal", "parse_deal_text", "position_from_json"]
