"""The per-game table of ``skatdd analyse --table FILE``: one row per analysed game, Parquet or CSV.

A row is a pure function of one ``analyse`` JSON record (:func:`table_row`),
so a resumed run rebuilds the rows of the games it skips from its output
file.  Lines that could not be analysed and games nobody played (records
with ``error`` or ``skipped``) get no row.  Columns (:data:`COLUMNS`):

==========================  ======================================================
``id``                      the record's id as text (a JSON id that is not a
                            string is written as JSON, e.g. ``7``)
``date``                    the ISS ``DT`` as a UTC timestamp (null for JSON deals)
``forehand`` ...            the three players' names (null when unknown)
``game``, ``declarer``      the contract played (``grand`` ... ``null``) and the
                            declarer's seat (0 forehand, 1 middlehand, 2 rearhand)
``hand``, ``bid``           hand game; the bid (null when unknown)
``start_value``             double-dummy value at the first card: the declarer's
                            card points with the skat (null: 1 win, 0 loss)
``card_points``, ``score``  what the declarer actually got (skat included) and
                            the game's score (null when unfinished)
``declarer_wins``           the actual result (null when unfinished)
``cost_forehand`` ...       each seat's total double-dummy cost
``first_decisive``          index (from 0) of the first decisive card, null if none
``first_decisive_card``,    that card and the seat that played it
``first_decisive_seat``
``best_contract``,          the contract review's best option (e.g. ``grand
``best_discard``,           hand``; its discard as ``"CJ SJ"``, null for a hand
``best_score``              game) and its score; null without a review
``bidding_cost_forehand``   the decisions review (``decisions``): each seat's
...                         bidding cost, the declarer's hand/pick-up and
``declaration_cost``,       declaration cost (expected list points) and the
``verdict``                 verdict; null without it (no auction, ``--no-review``)
==========================  ======================================================

Parquet needs pyarrow (``pip install 'skatdd[dask]'``); the file loads with
``pandas.read_parquet`` or ``dask.dataframe.read_parquet``.  Rows are
written in row groups as they come, and the file is closed (valid, with the
rows so far) even when the run is interrupted.
"""
from __future__ import annotations

import csv
import datetime as dt
import os
from types import TracebackType
from typing import IO, Any

from skatdd.core.errors import MissingDependencyError, SkatddError, quote
from skatdd.core.rules import SEAT_NAMES, parse_game
from skatdd.core.scoring import Declaration
from skatdd.formats.json_text import json_text
from skatdd.runner.outputs import PARTIAL

__all__ = ["COLUMNS", "GameTable", "table_format", "table_row"]

#: Column name and type (``str``, ``int``, ``float``, ``bool`` or ``timestamp``), in table order.
COLUMNS: tuple[tuple[str, str], ...] = (
    ("id", "str"), ("date", "timestamp"),
    *((name, "str") for name in SEAT_NAMES),
    ("game", "str"), ("declarer", "int"), ("hand", "bool"), ("bid", "int"),
    ("start_value", "int"), ("card_points", "int"), ("score", "int"), ("declarer_wins", "bool"),
    *((f"cost_{name}", "int") for name in SEAT_NAMES),
    ("first_decisive", "int"), ("first_decisive_card", "str"), ("first_decisive_seat", "int"),
    ("best_contract", "str"), ("best_discard", "str"), ("best_score", "int"),
    *((f"bidding_cost_{name}", "float") for name in SEAT_NAMES), ("declaration_cost", "float"), ("verdict", "str"),
)

#: Rows buffered before a Parquet row group is written.
ROW_GROUP = 4096


def _text(value: Any) -> str | None:
    """A JSON value as text that encodes to UTF-8 (lone surrogates escaped)."""
    if value is None:
        return None
    text = value if isinstance(value, str) else json_text(value)
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _date(value: Any) -> dt.datetime | None:
    """ISS ``DT`` (``2010-12-06/18:59:24/UTC``) as an aware UTC datetime; ``None`` when absent or unreadable."""
    if not isinstance(value, str):
        return None
    try:
        return dt.datetime.strptime(value[:19], "%Y-%m-%d/%H:%M:%S").replace(tzinfo=dt.UTC)
    except ValueError:
        return None


def _best(review: dict[str, Any] | None) -> tuple[str | None, str | None, int | None]:
    if not review:
        return None, None, None
    game, ouvert = parse_game(review["game"])
    label = str(Declaration.from_options(game, hand=review["hand"], announce=review.get("announce", ()),
                                         ouvert=ouvert))
    discard = " ".join(review["discard"]) if review.get("discard") else None
    return label, discard, review.get("score")


def _decision_costs(decisions: dict[str, Any] | None) -> dict[str, Any]:
    """The decisions review's columns (all null without one)."""
    seats = decisions["summary"]["seats"] if decisions else [{"bidding": None}] * 3
    declarer = decisions["declarer"] if decisions else None
    return {**{f"bidding_cost_{name}": s["bidding"] for name, s in zip(SEAT_NAMES, seats, strict=True)},
            "declaration_cost": seats[declarer]["declaration"] if declarer is not None else None,
            "verdict": decisions["summary"]["verdict"] if decisions else None}


def table_row(record: dict[str, Any]) -> dict[str, Any] | None:
    """The table row (column -> value) of one ``analyse`` JSON record; ``None`` for an error or a skipped game."""
    if "error" in record or "skipped" in record:
        return None
    result, summary = record["result"], record["summary"]
    players = record.get("players") or ["", "", ""]
    decisive = summary.get("first_decisive")
    play = record["plays"][decisive] if decisive is not None else None
    best_contract, best_discard, best_score = _best(record.get("contract_review"))
    row: dict[str, Any] = {
        "id": _text(record.get("id")), "date": _date(record.get("date")),
        **{name: _text(player) or None for name, player in zip(SEAT_NAMES, players, strict=True)},
        "game": record["game"], "declarer": record["declarer"], "hand": record.get("hand"), "bid": record.get("bid"),
        "start_value": record["start_value"], "card_points": result["declarer_points"], "score": result["score"],
        "declarer_wins": result["declarer_wins"],
        **{f"cost_{name}": cost for name, cost in zip(SEAT_NAMES, summary["costs"], strict=True)},
        "first_decisive": decisive,
        "first_decisive_card": play["card"] if play else None, "first_decisive_seat": play["seat"] if play else None,
        "best_contract": best_contract, "best_discard": best_discard, "best_score": best_score,
        **_decision_costs(record.get("decisions")),
    }
    return row


def table_format(path: str) -> str:
    """``"parquet"`` or ``"csv"``: the format *path*'s suffix asks for, checked before any row is made.

    Raises :class:`~skatdd.core.errors.SkatddError` for another suffix and
    :class:`~skatdd.core.errors.MissingDependencyError` for Parquet without pyarrow.
    """
    suffix = path.lower().rsplit(".", 1)[-1] if "." in path else ""
    if suffix == "csv":
        return "csv"
    if suffix not in ("parquet", "pq"):
        raise SkatddError(f"{quote(path)}: unknown table format {quote(suffix or '(none)')}: expected a file name "
                          "ending in .parquet or .csv")
    try:
        import pyarrow.parquet  # type: ignore[import-untyped]  # noqa: F401  (loaded now, used by GameTable)
    except ImportError:
        raise MissingDependencyError("--table FILE.parquet needs pyarrow: pip install 'skatdd[dask]' "
                                     "(or write FILE.csv)") from None
    return "parquet"


class GameTable:
    """Writes :func:`table_row` rows to *path*: Parquet for ``.parquet``/``.pq``, CSV for ``.csv``.

    Use as a context manager (or call :meth:`close`); :meth:`add` takes
    ``analyse`` records and keeps the ones with a row.  Rows go to a
    temporary file beside *path* that replaces it on :meth:`close`; leaving
    the context with an error (other than an exit or an interrupt, which
    keep the rows so far) discards it and leaves an older *path* as it was.
    Raises
    :class:`~skatdd.core.errors.SkatddError` for another suffix,
    :class:`~skatdd.core.errors.MissingDependencyError` for Parquet without
    pyarrow, and ``OSError`` when the file cannot be created.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self._partial = path + PARTIAL
        self.rows = 0
        self._buffer: list[dict[str, Any]] = []
        self._csv: csv.DictWriter[str] | None = None
        self._csv_file: IO[str] | None = None
        self._parquet: Any = None
        if table_format(path) == "parquet":
            self._open_parquet()
        else:
            self._csv_file = open(self._partial, "w", encoding="utf-8", newline="")
            self._csv = csv.DictWriter(self._csv_file, fieldnames=[name for name, _ in COLUMNS])
            self._csv.writeheader()

    def _open_parquet(self) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        types = {"str": pa.string(), "int": pa.int64(), "float": pa.float64(), "bool": pa.bool_(),
                 "timestamp": pa.timestamp("s", tz="UTC")}
        self._schema = pa.schema([(name, types[kind]) for name, kind in COLUMNS])
        self._parquet = pq.ParquetWriter(self._partial, self._schema)

    def add(self, record: dict[str, Any]) -> None:
        """Add the row of *record* (nothing for an error or a skipped game)."""
        row = table_row(record)
        if row is None:
            return
        self.rows += 1
        if self._csv is not None:
            self._csv.writerow({k: v.isoformat() if isinstance(v, dt.datetime) else v for k, v in row.items()})
            return
        self._buffer.append(row)
        if len(self._buffer) >= ROW_GROUP:
            self._flush()

    def _flush(self) -> None:
        if self._buffer and self._parquet is not None:
            import pyarrow as pa

            self._parquet.write_table(pa.Table.from_pylist(self._buffer, schema=self._schema))
            self._buffer = []

    def close(self, keep: bool = True) -> None:
        """Write what is buffered and close the file: *path* then holds a valid table of the rows so far.

        With *keep* false the rows are discarded and *path* is left alone.
        """
        if self._parquet is None and self._csv_file is None:
            return
        if self._parquet is not None:
            if keep:
                self._flush()
            self._parquet.close()
            self._parquet = None
        if self._csv_file is not None:
            self._csv_file.close()
            self._csv_file = None
        if keep:
            os.replace(self._partial, self.path)
        else:
            os.remove(self._partial)

    def __enter__(self) -> GameTable:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close(keep=kind is None or issubclass(kind, (SystemExit, KeyboardInterrupt)))
