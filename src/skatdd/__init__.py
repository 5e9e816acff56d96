"""skatdd: exact double-dummy solver and hand-analysis engine for Skat."""
from typing import TYPE_CHECKING, Any

from .core.cards import CardSet, card_name, format_cards, parse_card, parse_cards
from .core.errors import SkatddError
from .core.position import Position
from .core.rules import Game, parse_game, parse_seat

if TYPE_CHECKING:
    from .play.match import match

__version__ = "0.1.0"

__all__ = [
    "CardSet",
    "Game",
    "Position",
    "SkatddError",
    "__version__",
    "card_name",
    "format_cards",
    "match",
    "parse_card",
    "parse_cards",
    "parse_game",
    "parse_seat",
]


def __getattr__(name: str) -> Any:
    """``skatdd.match`` (:func:`skatdd.play.match.match`), imported when first asked for: it loads the engine."""
    if name == "match":
        from .play.match import match

        return match
    raise AttributeError(f"module 'skatdd' has no attribute {name!r}")
