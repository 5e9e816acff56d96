"""skatdd: exact double-dummy solver and hand-analysis engine for Skat."""
from .cards import CardSet, card_name, format_cards, parse_card, parse_cards
from .errors import SkatddError
from .position import Position
from .rules import Game, parse_game, parse_seat

__version__ = "0.1.0"

__all__ = [
    "CardSet",
    "Game",
    "Position",
    "SkatddError",
    "__version__",
    "card_name",
    "format_cards",
    "parse_card",
    "parse_cards",
    "parse_game",
    "parse_seat",
]
