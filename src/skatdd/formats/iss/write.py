"""Writing ISS game records: :func:`write_iss`, one record line from a game's moves and result.

The inverse of :func:`skatdd.formats.iss.parse.parse_iss` for the games skatdd
plays itself (:mod:`skatdd.play.full.game`): the deal, the auction, the
pick-up with the skat the server shows, the declaration with the discard,
the card plays and ``R[...]``, in the shape of the server's archive records
(docs/iss.md).  Tokens are written as the server writes them:

>>> from skatdd.core.rules import Game
>>> from skatdd.core.scoring import Declaration
>>> from skatdd.core.cards import parse_cards
>>> declaration_token(Declaration(Game.GRAND), parse_cards("S8 C9"))
'G.S8.C9'
>>> declaration_token(Declaration(Game.CLUBS, hand=True, schwarz=True)), declaration_token(Declaration(Game.GRAND, ouvert=True))
('CHZ', 'GO')
>>> declaration_token(Declaration(Game.NULL, hand=True, ouvert=True))
'NOH'
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from skatdd.core.cards import Mask, card_name, cards_of, display_sorted
from skatdd.core.errors import ISSFormatError, quote
from skatdd.core.rules import Game
from skatdd.core.scoring import Declaration

__all__ = ["deal_token", "declaration_token", "result_token", "write_iss"]

_GAME_LETTERS = {
    Game.GRAND: "G", Game.CLUBS: "C", Game.SPADES: "S", Game.HEARTS: "H", Game.DIAMONDS: "D", Game.NULL: "N",
}
# Characters that would end or break a KEY[value] field; escaped with a backslash as the parser reads them.
_ESCAPED = ("\\", "]")


def declaration_token(declaration: Declaration, discard: Sequence[int] | None = None) -> str:
    """The declaration move as ISS writes it: ``TYPE[MODS][.DISCARD]`` (``'G.S8.C9'``, ``'CHZ'``, ``'GO'``).

    MODS are ``H`` hand (left out for suit and grand ouvert, which imply it), ``O`` ouvert, ``S``
    schneider announced, ``Z`` schwarz announced (``Z`` alone, it implies ``S``; both left out for
    suit and grand ouvert).  *discard*, the two cards put away after a pick-up, follows the type.
    """
    mods = ""
    game = declaration.game
    if game.is_null:
        mods = ("O" if declaration.ouvert else "") + ("H" if declaration.hand else "")
    elif declaration.ouvert:
        mods = "O"
    else:
        mods = ("H" if declaration.hand else "") + ("Z" if declaration.schwarz else "S" if declaration.schneider else "")
    token = _GAME_LETTERS[game] + mods
    if discard is not None:
        if len(discard) != 2:
            raise ISSFormatError(f"a discard holds two cards, not {len(discard)}")
        token += "".join("." + card_name(c) for c in discard)
    return token


def deal_token(hands: Sequence[Mask], skat: Mask) -> str:
    """The deal move's 32 cards: forehand's ten, middlehand's, rearhand's, the skat, joined by ``'.'``.

    Each hand is written in display order (jacks, then clubs, spades, hearts, diamonds, high to low).
    """
    cards = [c for mask in (*hands, skat) for c in display_sorted(cards_of(mask))]
    if len(cards) != 32 or len(set(cards)) != 32:
        raise ISSFormatError(f"a deal holds 32 different cards, not {quote(' '.join(card_name(c) for c in cards))}")
    return ".".join(card_name(c) for c in cards)


def result_token(*, declarer: int | None, won: bool = False, score: int = 0, matadors: int = 0,
                 overbid: bool = False, points: int = 0, tricks: int = 0, schneider: bool = False,
                 schwarz: bool = False) -> str:
    """The text of ``R[...]``: ``'passed'`` when *declarer* is ``None``, else the server's tokens in its order.

    ``d:`` declarer, ``win``/``loss``, ``v:`` the score (already doubled when lost), ``m:`` matadors,
    ``bidok``/``overbid``, ``p:`` card points with the skat, ``t:`` tricks, ``s:``/``z:`` schneider and
    schwarz reached, then no penalties, nobody left or timed out and no resignation.
    """
    if declarer is None:
        return "passed"
    return (f"d:{declarer} {'win' if won else 'loss'} v:{score} m:{matadors} {'overbid' if overbid else 'bidok'} "
            f"p:{points} t:{tricks} s:{int(schneider)} z:{int(schwarz)} p0:0 p1:0 p2:0 l:-1 to:-1 r:0")


def _field(key: str, value: str) -> str:
    for char in _ESCAPED:
        value = value.replace(char, "\\" + char)
    return f"{key}[{value}]"


def write_iss(moves: Iterable[tuple[str, str]], result: str, *, game_id: str = "", players: Sequence[str] = ("", "", ""),
              date: str = "", place: str = "skatdd") -> str:
    """One ISS record line (no newline): ``(;GM[Skat]PC[...]...MV[...]R[...] ;)``.

    *moves* are the ``(WHO, MOVE)`` pairs of ``MV`` in order, the deal first (``('w', deal_token(...))``);
    *result* the text of ``R`` (:func:`result_token`).  Player names and the id are escaped as the
    parser reads them.
    """
    if len(players) != 3:
        raise ISSFormatError(f"an ISS record names three players, not {len(players)}")
    mv = " ".join(f"{who} {move}" for who, move in moves)
    fields = [_field("GM", "Skat"), _field("PC", place), _field("CO", ""), _field("SE", ""), _field("ID", game_id),
              _field("DT", date)]
    fields += [_field(f"P{i}", name) for i, name in enumerate(players)]
    fields += [_field("MV", mv + " "), _field("R", result)]
    return "(;" + "".join(fields) + " ;)"
