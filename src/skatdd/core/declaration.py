"""What the declarer declared: :class:`Declaration`, the contract and its announcements (ISkO 5.2).

The declaration normalises what the rules imply (ouvert in suit and grand is
hand and schwarz announced, schwarz implies schneider) and refuses what they
forbid (announcements without hand, schneider or schwarz in null).  The
calculator (:mod:`skatdd.core.scoring`) values a game from it; the ISS
parser, the readers and the players carry it.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .errors import ScoringError, quote
from .rules import Game, parse_game

__all__ = ["ANNOUNCEMENTS", "Declaration", "require_game"]

#: Announcement tokens, lowest level first (docs/cli.md, ``skatdd score --announce``).
ANNOUNCEMENTS = ("schneider", "schwarz", "ouvert")


def require_game(game: object, what: str = "game") -> Game:
    """*game* itself when it is a :class:`~skatdd.core.rules.Game`; a :class:`ScoringError` naming *what* otherwise."""
    if not isinstance(game, Game):
        raise ScoringError(f"{what} {quote(game)} is not a skatdd.core.rules.Game")
    return game


@dataclass(frozen=True)
class Declaration:
    """What the declarer declared: the contract and its announcements.

    Attributes:
        game: the contract (:class:`~skatdd.core.rules.Game`); null ouvert is
            ``Game.NULL`` with ``ouvert=True``.
        hand: a hand game (the skat was not picked up).
        schneider: schneider announced.
        schwarz: schwarz announced; implies schneider announced.
        ouvert: played open.  For suit and grand it implies hand, schneider
            and schwarz announced (ISkO 5.2.6); a null ouvert may be played
            after picking up the skat.

    Construction normalises the implied flags, so
    ``Declaration(Game.GRAND, ouvert=True)`` has ``hand``, ``schneider`` and
    ``schwarz`` all true.

    Raises:
        ScoringError: for schneider or schwarz announced in a suit or grand
            game without hand (ISkO 5.2.5: announcements are for hand games
            only; ouvert makes the game a hand game), and for schneider or
            schwarz in a null game.
    """

    game: Game
    hand: bool = False
    schneider: bool = False
    schwarz: bool = False
    ouvert: bool = False

    def __post_init__(self) -> None:
        game = require_game(self.game)
        hand, schneider, schwarz, ouvert = (bool(self.hand), bool(self.schneider), bool(self.schwarz), bool(self.ouvert))
        if game.is_null:
            if schneider or schwarz:
                level = "schwarz" if schwarz else "schneider"
                raise ScoringError(
                    f"{quote(level)} cannot be announced in a null game: only 'ouvert' (and hand) apply to null"
                )
        else:
            if ouvert:
                hand = schneider = schwarz = True
            if schwarz:
                schneider = True
            if schneider and not hand:
                level = "schwarz" if schwarz else "schneider"
                raise ScoringError(
                    f"{quote(level)} announced without hand: schneider and schwarz can only be announced "
                    f"in a hand game (ISkO 5.2.5); add hand, or ouvert which implies it"
                )
        object.__setattr__(self, "hand", hand)
        object.__setattr__(self, "schneider", schneider)
        object.__setattr__(self, "schwarz", schwarz)
        object.__setattr__(self, "ouvert", ouvert)

    @property
    def announce(self) -> list[str]:
        """Announced levels, implied ones included, in the order ``schneider``, ``schwarz``, ``ouvert``."""
        flags = (self.schneider, self.schwarz, self.ouvert)
        return [name for name, on in zip(ANNOUNCEMENTS, flags, strict=True) if on]

    def decided(self, declarer_tricks: int, defender_tricks: int) -> bool:
        """True once the tricks taken settle this game before its last card.

        A null declarer loses with his first trick; a declarer who announced
        schwarz (suit and grand ouvert included) loses with the defenders'
        first trick.  Schneider announced is never settled early: the
        declarer may still reach 90.  The server ends such a game at that
        trick, with no further move.
        """
        if self.game.is_null:
            return declarer_tricks > 0
        return self.schwarz and defender_tricks > 0

    @classmethod
    def from_options(
        cls, game: Game | str, *, hand: bool = False, announce: Iterable[str] = (), ouvert: bool = False,
    ) -> Declaration:
        """Build a declaration from command-line style options.

        *game* is a :class:`~skatdd.core.rules.Game` or any name
        :func:`~skatdd.core.rules.parse_game` accepts (``'null-ouvert'`` sets
        ouvert).  *announce* holds the tokens ``schneider``, ``schwarz`` and
        ``ouvert`` in any case; repeats are harmless.

        Raises:
            ScoringError: for an unknown announcement (the message quotes the
                token) and for the combinations :class:`Declaration` rejects.
            InvalidGameError: for an unknown game name.
        """
        if isinstance(announce, str):
            announce = [announce]
        if isinstance(game, Game):
            ouvert_game = False
        else:
            game, ouvert_game = parse_game(game)
        flags = {name: False for name in ANNOUNCEMENTS}
        for token in announce:
            key = str(token).strip().lower()
            if key not in flags:
                raise ScoringError(
                    f"unknown announcement {quote(str(token))}: expected schneider, schwarz or ouvert"
                )
            flags[key] = True
        return cls(
            game, hand=hand, schneider=flags["schneider"], schwarz=flags["schwarz"],
            ouvert=ouvert or ouvert_game or flags["ouvert"],
        )

    def __str__(self) -> str:
        """Readable form: ``'clubs hand schwarz announced'``, ``'grand ouvert'``, ``'null ouvert hand'``."""
        parts = [self.game.label]
        if self.game.is_null:
            if self.ouvert:
                parts.append("ouvert")
            if self.hand:
                parts.append("hand")
        elif self.ouvert:
            parts.append("ouvert")
        else:
            if self.hand:
                parts.append("hand")
            if self.schwarz:
                parts.append("schwarz announced")
            elif self.schneider:
                parts.append("schneider announced")
        return " ".join(parts)
