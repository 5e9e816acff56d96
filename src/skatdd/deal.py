"""Deprecated: the deal readers' original home, kept so that ``skatdd.deal`` imports keep working.

Everything here now lives in :mod:`skatdd.formats.readers` (one module per input
format) and :mod:`skatdd.formats.spec` (:class:`GameSpec`); this module re-exports
the names the README documents: :func:`load_deal`, :class:`GameSpec`,
:func:`parse_deal_text`, :func:`format_deal_text`, :func:`position_from_json`.
"""
from __future__ import annotations

import warnings

from skatdd.formats.readers import format_deal_text, load_deal, parse_deal_text, position_from_json
from skatdd.formats.spec import ANNOUNCEMENTS, GameSpec

warnings.warn("skatdd.deal is deprecated: import skatdd.formats.readers and skatdd.formats.spec",
              DeprecationWarning, stacklevel=2)

__all__ = ["ANNOUNCEMENTS", "GameSpec", "format_deal_text", "load_deal", "parse_deal_text", "position_from_json"]
