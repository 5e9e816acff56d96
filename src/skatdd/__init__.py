"""skatdd: exact double-dummy solver and hand-analysis engine for Skat.

``import skatdd`` is enough for the common case; cards print as their codes:

>>> import skatdd
>>> spec = skatdd.parse_deal("CJ SJ HA HT HK DA DT D9 D8 D7 / CA CT CK CQ C9 SA ST SK SQ S9 / "
...                          "HJ DJ C8 C7 S8 S7 HQ H9 H8 H7 / DK DQ", game=skatdd.Game.DIAMONDS, declarer=0)
>>> pos = spec.position()
>>> solver = skatdd.Solver(tt_mb=16)
>>> {str(card): v.value for card, v in solver.card_values(pos).items() if v.value < 110}
{'DA': 96, 'DT': 97, 'D9': 107, 'D8': 107, 'D7': 107}
>>> pos.play("DA")            # a code, a Card or its int; returns the winner when the trick is complete
>>> pos.legal_moves()[:3], solver.card_values(pos)[skatdd.Card("CA")].value
([Card('S9'), Card('ST'), Card('SQ')], 96)

What it gives:

* cards: :class:`Card` (an int 0..31 that prints as its code),
  :class:`CardSet`, :func:`parse_card`, :func:`parse_cards`,
  :func:`card_name`, :func:`format_cards`;
* input: :func:`parse_deal` (text: deal text, a JSON object or an ISS
  record) and :func:`load_deal` (the same, or a path to a file holding one;
  ``-`` for standard input), both returning the validated :class:`GameSpec`;
  :class:`Position`, :class:`Game`, :class:`Declaration`,
  :func:`parse_game`, :func:`parse_seat`;
* solving: :class:`Solver`;
* the commands' logic: :func:`analyse` (one played game, every input
  kind), :func:`advise` (single-dummy card advice), :func:`odds` (a hand's
  chances), :func:`bid` (how high to bid), :func:`best` (the best contract
  of a deal), :func:`null_ouvert` (is a null ouvert unbeatable?),
  :func:`score` (the game value calculator), :func:`match` (two players on
  the same deals);
* :class:`SkatddError`, the base of every input error.

The cards, the positions and the solver are imported with the package;
the readers (``parse_deal``, ``load_deal``) and the commands' logic
(``advise``, ``odds``, ``bid``, ``null_ouvert``, ``match``) are imported on
first use (PEP 562), so ``import skatdd`` stays light.
"""
from __future__ import annotations

import importlib as _importlib
from typing import TYPE_CHECKING, Any

from .core import printable as _printable
from .core.cards import Card, CardSet, card_name, format_cards, parse_card, parse_cards
from .core.errors import SkatddError
from .core.position import Position
from .core.rules import Game, parse_game, parse_seat
from .core.scoring import Declaration
from .core.scoring import score_game as score
from .engine.solve import Solver
from .formats.spec import GameSpec
from .version import __version__

if TYPE_CHECKING:
    # Type checkers see the lazy entry points as the functions they are.

    from .analysis.advise.api import advise as advise
    from .analysis.analyse.api import analyse as analyse
    from .analysis.best.api import SeatReport
    from .analysis.bid.api import bid as bid
    from .analysis.odds.api import odds as odds
    from .engine.nullouvert import analyse as null_ouvert
    from .formats.deal_input import DealInput
    from .formats.readers import load_deal as load_deal
    from .play.match import match as match


__all__ = [
    "Card",
    "CardSet",
    "Declaration",
    "Game",
    "GameSpec",
    "Position",
    "SkatddError",
    "Solver",
    "__version__",
    "advise",
    "analyse",
    "best",
    "bid",
    "card_name",
    "format_cards",
    "load_deal",
    "match",
    "null_ouvert",
    "odds",
    "parse_card",
    "parse_cards",
    "parse_deal",
    "parse_game",
    "parse_seat",
    "score",
]


def parse_deal(text: str, *, game: Game | None = None, ouvert: bool = False, declarer: int | None = None) -> GameSpec:
    """The validated :class:`GameSpec` of a deal, position or game given as text (never a path: see :func:`load_deal`).

    *text* is deal text (four groups separated by ``/``), a JSON object or
    an ISS record (:func:`skatdd.formats.readers.parse_input`); *game*,
    *ouvert* and *declarer* override the input's own and are required for
    deal text, which names no contract.  Raises :class:`SkatddError`
    subclasses for bad input, each naming the offending token.
    """
    from .formats.readers import parse_input

    return parse_input(text, game=game, ouvert=ouvert, declarer=declarer).require_spec()


def best(deal: str | DealInput, *, declarer: int | None = None, bid: int | None = None,
         solver: Solver | None = None, all_lines: bool = False) -> list[SeatReport]:
    """``skatdd best`` for one deal: the best contract of each seat analysed.

    *deal* is text (deal text, a JSON object or an ISS record; never a path)
    or a :class:`~skatdd.formats.deal_input.DealInput`, and must show the
    hands and skat as dealt.  One :class:`~skatdd.analysis.best.api.SeatReport`
    for *declarer* (default: the input's own declarer), or one for each seat
    when there is none; *bid* defaults to the input's own.  *solver*
    (default: a new one) is reused when given; *all_lines* gives every
    option its line.  Raises :class:`SkatddError` subclasses for bad input.
    """
    from .analysis.best.api import best_all_seats
    from .formats.readers import parse_input

    found = parse_input(deal) if isinstance(deal, str) else deal
    hands, skat = found.require_dealt()
    seat = declarer if declarer is not None else found.declarer
    return best_all_seats(hands, skat, bid=bid if bid is not None else found.bid, solver=solver,
                          all_lines=all_lines, seats=[seat] if seat is not None else [0, 1, 2])


#: Name -> (module, function) of the entry points imported on first use.
_LAZY: dict[str, tuple[str, str]] = {
    "advise": ("skatdd.analysis.advise.api", "advise"),
    "analyse": ("skatdd.analysis.analyse.api", "analyse"),
    "bid": ("skatdd.analysis.bid.api", "bid"),
    "load_deal": ("skatdd.formats.readers", "load_deal"),
    "match": ("skatdd.play.match", "match"),
    "null_ouvert": ("skatdd.engine.nullouvert", "analyse"),
    "odds": ("skatdd.analysis.odds.api", "odds"),
}


#: The present module that renders the results of each result module (tests/test_present.py checks it is whole).
RENDERER_MODULES = {
    "skatdd.analysis.advise.results": "skatdd.present.advise",
    "skatdd.analysis.analyse.results": "skatdd.present.analyse",
    "skatdd.analysis.best.results": "skatdd.present.best",
    "skatdd.analysis.bid.results": "skatdd.present.bid",
    "skatdd.analysis.odds.results": "skatdd.present.odds",
    "skatdd.core.scoring": "skatdd.present.score",
    "skatdd.engine.nullouvert_results": "skatdd.present.null_ouvert",
    "skatdd.engine.solve": "skatdd.present.solve",
    "skatdd.play.summary": "skatdd.present.match",
}


def _load_renderer(cls: type) -> object:
    """Import the renderer of *cls* (see :mod:`skatdd.core.printable`): its own present module, else all of them.

    Importing every renderer (:mod:`skatdd.present.texts`) imports every
    command's logic: about a tenth of a second of CPU at a command's start.
    """
    for klass in cls.__mro__:
        if klass.__module__ in RENDERER_MODULES:
            return _importlib.import_module(RENDERER_MODULES[klass.__module__])
    return _importlib.import_module("skatdd.present.texts")


# The package root wires the layers: the results (analysis, engine, play) print through present's renderers,
# which a layer below present may not import; each is loaded on the first str() of a result of its class.
_printable.set_loader(_load_renderer)


def __dir__() -> list[str]:
    """The package's names, the entry points not imported yet among them (PEP 562: tab completion sees them)."""
    return sorted({*globals(), *_LAZY})


def __getattr__(name: str) -> Any:
    """The entry points not imported yet (PEP 562): imported now and kept as the package attribute."""
    if name in _LAZY:
        module, function = _LAZY[name]
        return globals().setdefault(name, getattr(_importlib.import_module(module), function))
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
