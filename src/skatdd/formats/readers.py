"""Reading input: one module per format, one entry point for every command and the Python API.

Formats (each module documents its own):

* :mod:`~skatdd.formats.text`: deal text, four groups separated by ``/``;
* :mod:`~skatdd.formats.json_object`: a JSON deal or position object;
* :mod:`~skatdd.formats.iss.record`: an International Skat Server game record;
* :mod:`~skatdd.formats.files`: where the input comes from (an argument, a
  file, standard input) and files of many records, one a line.

Entry points: :func:`read_input` takes a command line's DEAL or GAME
argument (a path or the input itself) and returns a
:class:`~skatdd.formats.deal_input.DealInput`; :func:`parse_input` does the
same for text already read; :func:`load_deal` returns just the validated
:class:`~skatdd.formats.spec.GameSpec` to play.  Every problem raises a
:class:`~skatdd.core.errors.SkatddError` subclass whose message quotes the
offending token (at most about 80 characters of it) and, for a file, names
the file.

>>> from skatdd.core.rules import Game
>>> spec = load_deal("CJ SJ HA HT HK DA DT D9 D8 D7 / CA CT CK CQ C9 SA ST SK SQ S9 / "
...                  "HJ DJ C8 C7 S8 S7 HQ H9 H8 H7 / DK DQ", game=Game.DIAMONDS, declarer=0)
>>> spec.position().to_move, spec.position().skat_points
(0, 7)
"""
from __future__ import annotations

from skatdd.core.errors import DealFormatError, SkatddError, with_context
from skatdd.core.rules import Game

from .deal_input import DealInput
from .files import looks_like_path, missing_file, read_source, strip_comments
from .iss.record import deal_from_iss
from .json_object import deal_from_json, position_from_json
from .spec import GameSpec
from .text import deal_from_text, format_deal_text, parse_deal_text

__all__ = [
    "DealInput", "deal_from_iss", "deal_from_json", "deal_from_text", "format_deal_text", "load_deal",
    "parse_deal_text", "parse_input", "position_from_json", "read_input",
]


def parse_input(text: str, *, path: str | None = None, game: Game | None = None, ouvert: bool = False,
                declarer: int | None = None) -> DealInput:
    """Read one input given as text: a JSON object (``{`` first), an ISS record (``(;`` first) or deal text.

    Blank lines and lines starting with ``#`` are ignored.  *path* names
    the file the text came from (for messages); *game*, *ouvert* and
    *declarer* override the input's own (see each reader).  A lone word
    that is no deal, given as an argument, is reported as a missing file.
    """
    body = strip_comments(text).strip().lstrip("\ufeff")
    try:
        if not body:
            raise DealFormatError(
                "the deal is empty: expected four groups of cards separated by '/', a JSON object or an ISS record"
            )
        if body.startswith("{"):
            found = deal_from_json(body, game=game, ouvert=ouvert, declarer=declarer)
        elif body.startswith("(;"):
            found = deal_from_iss(body, game=game, ouvert=ouvert, declarer=declarer)
        else:
            try:
                found = deal_from_text(body, game=game, ouvert=ouvert, declarer=declarer)
            except SkatddError:
                if path is None and looks_like_path(body):
                    raise missing_file(body) from None
                raise
    except SkatddError as exc:
        if path is None:
            raise
        raise with_context(exc, path) from None
    found.path = path
    return found


def read_input(arg: str, *, game: Game | None = None, ouvert: bool = False, declarer: int | None = None) -> DealInput:
    """Read a command line's DEAL or GAME argument: a path to a file holding one input, ``-``, or the input itself.

    See :func:`parse_input`; errors found in a file name the file.
    """
    if not isinstance(arg, str):
        raise DealFormatError(f"a deal must be given as text or a path, got {type(arg).__name__}")
    text, path = read_source(arg)
    return parse_input(text, path=path, game=game, ouvert=ouvert, declarer=declarer)


def load_deal(arg: str, *, game: Game | None = None, ouvert: bool = False, declarer: int | None = None) -> GameSpec:
    """Read a command line's DEAL argument into the validated :class:`GameSpec` to play.

    *arg* is a path to a file holding a deal, or the deal itself: a JSON
    object, an ISS game record or deal text.

    * Deal text names no contract: *game* and *declarer* are required
      (:class:`DealFormatError` "... --game is required" otherwise).  The
      fourth group is the skat or the declarer's discard; every hand has ten
      cards.  *ouvert* marks null ouvert.
    * JSON: see :func:`~skatdd.formats.json_object.deal_from_json`;
      *game*/*ouvert* and *declarer*, when given, override the object's.
    * ISS: the record's deal from the first lead, its declarer, contract,
      skat or discard, declaration, bid and every card played (``played``),
      so :meth:`GameSpec.start_position` is the position before the first
      card.  *game*/*declarer*, when given, override the record's; when they
      change the contract for play or the declarer, the recorded plays are
      dropped.

    Raises only :class:`~skatdd.core.errors.SkatddError` subclasses for bad input.
    """
    return read_input(arg, game=game, ouvert=ouvert, declarer=declarer).require_spec()
