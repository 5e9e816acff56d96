"""Exceptions for bad input.

Every error skatdd raises for input it cannot accept is a subclass of
:class:`SkatddError`, itself a :class:`ValueError`.  Messages quote the
offending token and say what was expected, so the CLI can print them as one
line and exit with status 2.
"""


class SkatddError(ValueError):
    """Base class of every input error skatdd raises."""


class InvalidCardError(SkatddError):
    """A token is not a card (``'X9'``, ``'C1'``)."""


class DuplicateCardError(SkatddError):
    """A card appears twice where every card must be distinct."""


class CardCountError(SkatddError):
    """A hand, skat, trick or deal holds the wrong number of cards."""


class InvalidGameError(SkatddError):
    """A game name is unknown."""


class InvalidSeatError(SkatddError):
    """A seat name or number is unknown."""


class IllegalPlayError(SkatddError):
    """A card is played that the player does not hold or may not play."""


class DealFormatError(SkatddError):
    """A deal or position (text or JSON) is malformed."""


class ISSFormatError(SkatddError):
    """An International Skat Server game record is malformed."""


class ScoringError(SkatddError):
    """A declaration cannot be scored (schneider announced without hand, null below the bid...)."""


class MissingDependencyError(SkatddError):
    """An option needs an optional package that is not installed (``pip install 'skatdd[dask]'``)."""


class ResumeError(SkatddError):
    """An output file given to ``--resume`` does not continue the run asked for."""
