"""International Skat Server (ISS) game records: a facade over the model, the parser and the replay.

An ISS record is one line in an SGF-like format (docs/iss.md)::

    (;GM[Skat]PC[...]ID[541932]DT[...]P0[zoot]P1[kermit]P2[foo]MV[w HA.SK... 1 p 2 18 ...]R[d:2 loss v:-54 ...] ;)

:func:`parse_iss` turns one record into an :class:`IssGame`: the deal, the
bidding, the declaration (a :class:`skatdd.core.scoring.Declaration`), the skat
pick-up and discard, the card plays, the first early-ending event and the
server's result (:class:`IssResult`).  :func:`replay` plays every recorded
card through :class:`skatdd.core.position.Position`, settles a game that ended
early the way the server does, and scores it with
:func:`skatdd.core.scoring.score_game`, so that a complete record reproduces its
``R[...]`` fields ``p: t: s: z: m: v:``, win/loss and ``bidok``/``overbid``;
:func:`replay_warnings` says when a record's ``v:`` or ``p:`` does not.

The server's conventions :func:`replay` follows (early endings, ``p:`` with the
skat, trailing hidden plays) are listed in :mod:`.replay`.

Per-player views may hide cards of the deal (``??``).  The parser fills in
every card the rest of the record reveals (card plays, the skat shown to the
declarer, ouvert and claimed hands, and what is left over once the other
hands are known); :attr:`IssGame.hidden_cards` counts what stays unknown.
Methods that need the hands raise :class:`ISSFormatError` when the record
does not reveal them.

Every error is an :class:`~skatdd.core.errors.ISSFormatError` whose message quotes
the offending token and, for moves, its position ``MV move N`` (moves are the
``WHO MOVE`` pairs of ``MV[...]``, numbered from 1; the deal is move 1).

This module only re-exports: the code lives in one module per concept --
:mod:`.model` (:class:`IssGame`, :class:`IssResult`, :class:`IssEvent`),
:mod:`.parse` (:func:`parse_iss`, :func:`iter_iss`, :func:`looks_like_iss`,
with the move reader :mod:`.moves` and the card placing :mod:`.deal`)
and :mod:`.replay` (:func:`replay`, :class:`Replay`,
:func:`replay_warnings`).  Import from here; the public names stay put.
"""
from __future__ import annotations

from .model import HIDDEN, IssEvent, IssGame, IssResult
from .parse import iter_iss, looks_like_iss, parse_iss
from .replay import Replay, replay, replay_warnings

__all__ = [
    "HIDDEN", "IssEvent", "IssGame", "IssResult", "Replay", "iter_iss", "looks_like_iss", "parse_iss", "replay",
    "replay_warnings",
]
