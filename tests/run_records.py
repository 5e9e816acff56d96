"""Helpers for tests that compare the JSON lines of ``batch``/``analyse`` runs."""
from __future__ import annotations

import json
from typing import Any


def records(text: str) -> list[dict[str, Any]]:
    """The JSON object of every line of *text*."""
    return [json.loads(line) for line in text.splitlines()]


def strip_stats(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Records without the search effort (``nodes``, ``seconds``), which depends on what each worker's table saw."""
    out = []
    for row in rows:
        row = {k: v for k, v in row.items() if k not in ("nodes", "seconds")}
        if isinstance(row.get("contract_review"), dict):
            row["contract_review"] = {k: v for k, v in row["contract_review"].items() if k != "seconds"}
        out.append(row)
    return out
