"""JSON as skatdd writes it: strict JSON text that is valid UTF-8.

Every JSON skatdd writes -- ``--json`` reports, JSON lines on stdout or in
``-o FILE``, the data of HTML pages, table cells, the tasks sent to worker
processes -- is made by :func:`json_text`.  Python's json module writes the
floats ``nan`` and ``inf`` as ``NaN`` and ``Infinity``, which is not JSON and
which strict parsers reject; :func:`json_text` never does.  Input is held to
the same rule by :func:`skatdd.formats.json_object.load_json`, which refuses
such numbers, so no input can smuggle one into an output.
"""
from __future__ import annotations

import json
from typing import Any

__all__ = ["json_text"]


def json_text(value: Any, *, compact: bool = False) -> str:
    """*value* as one line of strict JSON (no newline) that always encodes to UTF-8.

    Non-ASCII text is written as is; a value holding a lone surrogate (an
    ``id`` of ``"\\ud800"``, which is valid JSON) is written with ``\\u``
    escapes instead.  *compact* leaves out the spaces after ``,`` and ``:``.

    Raises ``ValueError`` for a float that is not finite (``nan``, ``inf``):
    no input holds one, so it would be a bug to write one.

    >>> json_text({"id": "Skat ♣", "value": [61, 0.5]})
    '{"id": "Skat ♣", "value": [61, 0.5]}'
    >>> json_text({"id": 7}, compact=True)
    '{"id":7}'
    """
    separators = (",", ":") if compact else None
    text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=separators)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(value, allow_nan=False, separators=separators)
    return text
