"""Writing report pages to disk: one game to a file, or a file of games to a folder with ``index.html``.

:func:`write_game_page` writes the page of one analysis.  For a file of
games, :class:`ArchivePages` sits between ``analyse``'s line reader and its
output: :meth:`ArchivePages.lines` remembers each raw line as it is read,
:meth:`ArchivePages.emitter` writes a game's page as soon as its record
arrives (then passes the record on), and leaving the ``with`` block writes
``index.html`` -- also after an error or Ctrl-C, so the pages already written
are listed.  Page names are ``line-N-ID.html`` (N the line number, ID the
record's id reduced to letters, digits, ``-`` and ``_``), unique per file.

The index has one row per line of the file: analysed games link to their
page; records in which no game was played (passed) are listed as skipped,
and bad records as errors with their message.
"""
from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

from skatdd.analysis.analyse.api import GameAnalysis
from skatdd.core.errors import OutputError
from skatdd.core.rules import SEAT_NAMES
from skatdd.formats.iss import parse_iss
from skatdd.runner.lines import LineOutcome
from skatdd.runner.outputs import PARTIAL, names_a_folder

from .render import GameFacts, biggest_mistake, game_page, index_page

__all__ = ["ArchivePages", "page_name", "write_game_page", "write_text"]


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write *text* to *path* (UTF-8) through a temporary file, so a page is never left half written.

    Raises :class:`~skatdd.core.errors.OutputError` naming the path when it cannot be written.
    """
    target = Path(path)
    temp = target.with_name(target.name + PARTIAL)
    try:
        temp.write_text(text, encoding="utf-8")
        os.replace(temp, target)
    except OSError as exc:
        raise OutputError(f"cannot write the HTML report {str(target)[:80]!r}: {exc.strerror or exc}") from None


def write_game_page(analysis: GameAnalysis, path: str | os.PathLike[str], *, four_colour: bool = False) -> str:
    """Write the page of *analysis* to *path* (see :func:`skatdd.present.html.render.game_page`); return what was written.

    When *path* names a folder (an existing one, or a path ending in ``/``:
    created), the page goes into it with an ``index.html`` listing it (as
    for a file of games); the index's path is returned then.
    """
    if names_a_folder(str(path)):
        with ArchivePages(path, four_colour=four_colour) as pages:
            pages.add_analysis(analysis)
        return str(Path(path) / "index.html")
    write_text(path, game_page(analysis.to_json(), GameFacts.of_analysis(analysis), four_colour=four_colour))
    return str(path)


def page_name(line: int, ident: Any) -> str:
    """The file name of the page for line *line* of a file of games: ``line-7-8650652.html``."""
    slug = re.sub(r"[^A-Za-z0-9_-]+", "-", str(ident))[:40].strip("-") if ident is not None else ""
    return f"line-{line}-{slug}.html" if slug else f"line-{line}.html"


def _index_row(outcome: LineOutcome, facts: GameFacts | None, players: Sequence[str] | None,
               page: str | None) -> dict[str, Any]:
    """One row of the index: what the table shows and sorts by."""
    record = outcome.record
    row: dict[str, Any] = {"line": outcome.line, "id": record.get("id"), "page": page, "players": "",
                           "contract": "", "result": "", "score": None, "start_value": None, "mistake": None}
    if players is not None and any(players):
        row["players"] = ", ".join(name or "?" for name in players)
    if "error" in record:
        row["status"], row["message"] = "error", record["error"]
    elif "skipped" in record:
        row["status"], row["message"] = "skipped", record["skipped"]
    else:
        row["status"], row["message"] = "analysed", ""
        if facts is not None:
            row["contract"] = f"{facts.declaration}, {SEAT_NAMES[facts.declarer]}"
        result = record["result"]
        if result["score"] is None:
            row["result"] = "unfinished"
        else:
            row["result"] = "won" if result["declarer_wins"] else ("overbid" if result["overbid"] else "lost")
        row["score"] = result["score"]
        row["start_value"] = record["start_value"]
        row["null"] = record["game"] == "null"
        row["mistake"] = biggest_mistake(record)
    return row


class ArchivePages:
    """Pages for a file of games, written into *folder* as the records arrive (module docstring).

    Use as a context manager; the folder is created when missing.  Raises
    :class:`~skatdd.core.errors.OutputError` when the folder cannot be made or a
    page cannot be written.
    """

    def __init__(self, folder: str | os.PathLike[str], *, source: str = "", four_colour: bool = False) -> None:
        self.folder = Path(folder)
        self.source = source
        self.four_colour = four_colour
        self.rows: list[dict[str, Any]] = []
        self._raw: dict[int, str] = {}

    def __enter__(self) -> ArchivePages:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OutputError(f"cannot create the HTML folder {str(self.folder)[:80]!r}: {exc.strerror or exc}") from None
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.write_index()

    def lines(self, items: Iterable[tuple[int, bytes | str]]) -> Iterator[tuple[int, bytes | str]]:
        """Pass *items* through, remembering each raw line until its record is written."""
        for number, raw in items:
            # A line that is not UTF-8 becomes an error record and gets no page, so "replace" loses nothing.
            self._raw[number] = raw if isinstance(raw, str) else raw.decode("utf-8", "replace")
            yield number, raw

    def emitter(self, emit: Callable[[LineOutcome], None]) -> Callable[[LineOutcome], None]:
        """An *emit* for ``analyse_lines`` that writes the outcome's page, then calls *emit*."""
        def both(outcome: LineOutcome) -> None:
            self.add(outcome)
            emit(outcome)
        return both

    def add(self, outcome: LineOutcome) -> None:
        """Record one line's outcome and write its page when it is an analysed game."""
        raw = self._raw.pop(outcome.line, "")
        if "plays" in outcome.record:
            self._add_game(outcome, GameFacts.from_text(raw))
        elif "skipped" in outcome.record:
            players = parse_iss(raw).players  # a passed game: the record parses, but there is no game to show
            self.rows.append(_index_row(outcome, None, players, None))
        else:
            self.rows.append(_index_row(outcome, None, None, None))

    def add_analysis(self, analysis: GameAnalysis, line: int = 1) -> None:
        """Write the page of an analysis made in this process, listed as line *line*."""
        self._add_game(LineOutcome(line, analysis.to_json()), GameFacts.of_analysis(analysis))

    def _add_game(self, outcome: LineOutcome, facts: GameFacts) -> None:
        page = page_name(outcome.line, outcome.record.get("id"))
        write_text(self.folder / page, game_page(outcome.record, facts, four_colour=self.four_colour))
        self.rows.append(_index_row(outcome, facts, facts.players, page))

    def write_index(self) -> None:
        """Write ``index.html`` listing every line recorded so far, in input order."""
        rows = sorted(self.rows, key=lambda r: r["line"])
        write_text(self.folder / "index.html", index_page(rows, source=self.source))
