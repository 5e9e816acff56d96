"""Exceptions for bad input.

Every error skatdd raises for input it cannot accept is a subclass of
:class:`SkatddError`, itself a :class:`ValueError`.  Messages quote the
offending token and say what was expected, so the CLI can print them as one
line and exit with status 2.
"""
from __future__ import annotations

import re


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


#: Longest piece of an offending token an error message quotes.
QUOTE_LIMIT = 80


def quote(token: object, limit: int = QUOTE_LIMIT, *, bare: bool = False) -> str:
    """``repr`` of *token* for an error message, cut to about *limit* characters.

    A hostile input can be a megabyte of one "card"; the message names it by
    its start and end and says how long it was, so it stays one short line.
    Non-strings (numbers) and *bare* strings are written without quotes.

    >>> quote("CJ")
    "'CJ'"
    >>> quote("C9" * 500)
    "'C9C9C9C9C9C9C9C9C9C9C9C9C9C9C9C9C9C...9C9C9C9C9C9C9C9C9C9C9C9C9C9C9C9C9C9' (1000 characters)"
    """
    text = token if isinstance(token, str) else str(token)
    plain = bare or not isinstance(token, str)
    if len(text) <= limit:
        return text if plain else repr(text)
    half = (limit - 10) // 2
    shown = f"{text[:half]}...{text[-half:]}"
    return (shown if plain else repr(shown)) + f" ({len(text)} characters)"


def plural(count: int, noun: str) -> str:
    """*count* and *noun*, the noun in the plural unless *count* is 1 (messages: "1 card", "0 cards", "3 cards").

    >>> plural(1, "card"), plural(2, "card"), plural(0, "line")
    ('1 card', '2 cards', '0 lines')
    """
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def shorten_quoted(message: str, limit: int = QUOTE_LIMIT) -> str:
    """*message* with every quoted token longer than *limit* cut as :func:`quote` cuts it.

    For messages skatdd does not write itself (Click's, for a 5000-digit
    ``--bid``), so they stay one short line too.
    """
    return re.sub(f"'([^'\\s]{{{limit + 1},}})'", lambda match: quote(match.group(1), limit), message)


def with_context(exc: SkatddError, context: str) -> SkatddError:
    """An error of *exc*'s class whose message puts *context* (a file, a field) in front: ``raise with_context(...)``."""
    return type(exc)(f"{context}: {exc}")


class OutputError(SkatddError):
    """An output file or folder cannot be written (a report page, its folder)."""


class MissingDependencyError(SkatddError):
    """An option needs an optional package that is not installed (``pip install 'skatdd[dask]'``)."""


class ResumeError(SkatddError):
    """An output file given to ``--resume`` does not continue the run asked for."""
