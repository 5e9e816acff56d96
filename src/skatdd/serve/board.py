"""The analysis board's two questions: what game is loaded, and what the board shows after each card of a line.

:func:`board_load` (``POST /api/board/load``) reads pasted or uploaded text
with the project's readers (:func:`skatdd.formats.readers.parse_input`: an ISS
record, a JSON deal or position, or deal text with ``game`` and
``declarer``), or deals a game (``{"deal": "random" | "realistic",
"seed": S}``, from :mod:`skatdd.tools.generate`).  The answer is the board's
game: ``position``, the JSON object of the start (no ``played``: the
ten-card hands before the first card, or the position a JSON endgame
describes; with the input's auction as ``bids`` when it states one),
``line``, the recorded cards from there, and ``info``, what a
header shows (source, id, players, contract, declarer, bid, the server's
result).  The board sends ``position`` back with every later question, so
the server keeps no state between requests.

:func:`board_line` (``POST /api/board/line``) takes ``{"position", "line",
"from"}`` and answers one *node* for the start and for each card of the
line from card ``from`` on: the hands, the trick on the table, the score so
far, the step that led there (:func:`skatdd.present.html.render.play_steps`, the
report's own table of tricks) and the double-dummy result with every legal
card's value (``solve``: exactly the object of ``skatdd solve --mode all
--json`` for that position).

Text is never read as a path: a lone word that is no deal gets the deal
text reader's own error, not the CLI's "file does not exist".
"""
from __future__ import annotations

import dataclasses
from typing import Any

from skatdd.core.cards import Card, Mask, card_name, cards_of, display_sorted, parse_cards, split_card_tokens
from skatdd.core.errors import DealFormatError, quote
from skatdd.core.position import Position
from skatdd.core.rules import Game, parse_game, parse_seat
from skatdd.core.seeds import generator
from skatdd.engine.solve import Solver, solver_or_default
from skatdd.formats.files import looks_like_path, strip_comments
from skatdd.formats.iss import IssGame, IssResult
from skatdd.formats.json_object import load_json, position_from_json
from skatdd.formats.readers import DealInput, deal_from_text, parse_input
from skatdd.formats.spec import GameSpec, replay_cards
from skatdd.present.html.render import play_steps
from skatdd.tools.generate import random_position, realistic_deal

from .api import RequestError

__all__ = ["DEALS", "board_line", "board_load", "node_of"]

#: The ways the board deals a game: uniform (a random contract and declarer, a hand game) or as a player would bid.
DEALS = ("random", "realistic")

#: Seeds are taken in this range (as any integer works, this only keeps them readable in a link).
_SEED_LIMIT = 2**63


def _codes(mask: Mask) -> list[str]:
    """A mask's card codes in display order."""
    return [card_name(c) for c in display_sorted(cards_of(mask))]


def _object(body: str, what: str) -> dict[str, Any]:
    obj = load_json(body)
    if not isinstance(obj, dict):
        raise RequestError(f"the request body must be a JSON object: {what}")
    return obj


def _overrides(obj: dict[str, Any]) -> tuple[Game | None, bool, int | None]:
    """``game`` (with ouvert) and ``declarer`` of a load request: ``None`` where not given."""
    game, ouvert, declarer = None, False, None
    if obj.get("game") not in (None, ""):
        if not isinstance(obj["game"], str):
            raise RequestError("field 'game' must be a contract name such as 'grand'")
        game, ouvert = parse_game(obj["game"])
    if obj.get("declarer") not in (None, ""):
        if isinstance(obj["declarer"], bool) or not isinstance(obj["declarer"], (int, str)):
            raise RequestError("field 'declarer' must be a seat 0/1/2 or F/M/R")
        declarer = parse_seat(obj["declarer"])
    return game, ouvert, declarer


def read_text(text: str, game: Game | None, ouvert: bool, declarer: int | None) -> DealInput:
    """Pasted or uploaded text read as a command's DEAL argument is, except that it is never taken as a path."""
    body = strip_comments(text).strip().lstrip("\ufeff")
    if body and looks_like_path(body):
        return deal_from_text(body, game=game, ouvert=ouvert, declarer=declarer)  # raises the deal text error
    return parse_input(text, game=game, ouvert=ouvert, declarer=declarer)


def _result_text(result: IssResult) -> str:
    """The server's result in words: ``'loss, 75 card points, score -72, overbid'``."""
    parts = [result.outcome] if result.outcome else []
    if result.points is not None:
        parts.append(f"{result.points} card points")
    if result.value is not None:
        parts.append(f"score {result.value}")
    if result.overbid:
        parts.append("overbid")
    return ", ".join(parts)


def _board_game(spec: GameSpec, info: dict[str, Any], bids: tuple[tuple[int, str], ...] = ()) -> dict[str, Any]:
    """The board's game for *spec*: its start without ``played``, the played cards as the line, and *info*.

    The start carries the input's auction *bids* as a JSON deal's ``bids``
    (when there is one), so advice asked with ``inference`` ``bids`` or
    ``all`` on the board's position weighs it as the CLI weighs the input's.
    """
    start = dataclasses.replace(spec, played=[])
    declaration = spec.declaration()
    info = {"id": spec.id, "players": ["", "", ""], "contract": str(declaration), "declarer": spec.declarer,
            "hand": declaration.hand, "bid": spec.bid, **info}
    position = start.to_json()
    if bids:
        position["bids"] = [[seat, move] for seat, move in bids]
    return {"position": position, "line": [card_name(c) for c in spec.played], "info": info}


def _iss_info(record: IssGame) -> dict[str, Any]:
    players = [*record.players, "", "", ""][:3]
    return {"source": "iss", "title": f"ISS game {record.id or '?'}", "players": players, "date": record.date,
            "result": _result_text(record.result)}


def _dealt(obj: dict[str, Any]) -> dict[str, Any]:
    """A dealt game: ``deal`` random or realistic, ``seed`` an integer, ``game`` optionally forced."""
    kind = obj["deal"]
    if kind not in DEALS:
        raise RequestError(f"field 'deal' must be one of {', '.join(DEALS)}, got {quote(str(kind))}")
    seed = obj.get("seed", 1)
    if isinstance(seed, bool) or not isinstance(seed, int) or not -_SEED_LIMIT < seed < _SEED_LIMIT:
        raise RequestError("field 'seed' must be an integer (below 2**63 in size)")
    game, _, _ = _overrides({"game": obj.get("game")})
    rng = generator(seed)
    if kind == "realistic":
        pos, _meta = realistic_deal(rng, game=game)
        spec = GameSpec(id=f"realistic-{seed}", game=pos.game, declarer=pos.declarer, hands=list(pos.hands),
                        skat=pos.skat)
    else:
        pos = random_position(rng, game=game, tricks=10, trick_cards=0)
        spec = GameSpec(id=f"random-{seed}", game=pos.game, declarer=pos.declarer, hands=list(pos.hands),
                        skat=pos.skat, hand=True)
    spec.validate()
    return _board_game(spec, {"source": kind, "title": f"{kind.capitalize()} deal, seed {seed}", "seed": seed})


def board_load(body: str) -> dict[str, Any]:
    """``POST /api/board/load``: ``{"text": ..., "game"?, "declarer"?}`` or ``{"deal": ..., "seed": S}`` (module docstring).

    Raises :class:`~skatdd.core.errors.SkatddError` subclasses for bad input.
    """
    obj = _object(body, '{"text": "..."} or {"deal": "random", "seed": 1}')
    if obj.get("deal") is not None:
        return _dealt(obj)
    text = obj.get("text")
    if not isinstance(text, str):
        raise RequestError("field 'text' must be the text of an ISS record, a JSON deal or a deal")
    game, ouvert, declarer = _overrides(obj)
    found = read_text(text, game, ouvert, declarer)
    spec = found.require_spec()
    if found.record is not None:
        info = _iss_info(found.record)
    elif found.kind == "json":
        info = {"source": "json", "title": f"Game {spec.id}" if spec.id is not None else "JSON position"}
    else:
        info = {"source": "text", "title": "Deal"}
    return _board_game(spec, info, found.bids)


def node_of(pos: Position, index: int, step: dict[str, Any] | None, *, solver: Solver | None = None) -> dict[str, Any]:
    """What the board shows at *pos*, reached by card *index* (0: the start) of the line, *step* its table row.

    ``hands``, ``skat`` (display order), ``leader``, ``to_move``, ``trick``
    (``[seat, code]`` of the cards on the table, the lead first),
    ``declarer_points`` (completed tricks, skat not included),
    ``tricks`` (``[declarer's, defenders']``), ``over`` (every card played
    or a null declarer took a trick: no card may follow), ``step``, and
    ``solve`` (by *solver*, default a fresh one).
    """
    return {
        "index": index, "step": step, "hands": [_codes(h) for h in pos.hands], "skat": _codes(pos.skat),
        "leader": pos.leader, "to_move": pos.to_move,
        "trick": [[(pos.leader + i) % 3, card_name(c)] for i, c in enumerate(pos.trick)],
        "declarer_points": pos.declarer_points, "tricks": [pos.declarer_tricks, pos.defender_tricks],
        "over": pos.is_over(), "solve": solver_or_default(solver).solve(pos, "all").to_json(),
    }


def _line_cards(value: Any) -> list[Card]:
    if value is None:
        return []
    if isinstance(value, str):
        tokens = split_card_tokens(value)
    elif isinstance(value, list) and all(isinstance(v, str) for v in value):
        tokens = list(value)
    else:
        raise RequestError("field 'line' must be a string of cards or a list of card strings")
    return parse_cards(tokens, what="field 'line'")


def board_line(body: str, *, solver: Solver | None = None) -> dict[str, Any]:
    """``POST /api/board/line``: ``{"position": {...}, "line": [...], "from": K}`` -> ``{"from": K, "nodes": [...]}``.

    The nodes after card K, K+1, ... of the line (0: the start as well);
    see :func:`node_of`, every node solved by *solver* (default: a fresh one).  Raises :class:`~skatdd.core.errors.SkatddError`
    subclasses for a bad position, an unknown card, or a card that is not
    legal where it is played (named by its place in the line).
    """
    solver = solver_or_default(solver)
    obj = _object(body, '{"position": {...}, "line": [...], "from": 0}')
    if not isinstance(obj.get("position"), dict):
        raise RequestError("field 'position' must be a JSON position object")
    start = position_from_json(obj["position"]).position()
    cards = _line_cards(obj.get("line"))
    first = obj.get("from", 0)
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first <= len(cards):
        raise DealFormatError(f"field 'from' must be an integer from 0 to {len(cards)} (the line's length)")
    replay_cards(start.copy(), cards, where=lambda i, card: f"line card {i + 1} {card_name(card)!r}")
    steps = play_steps(start, cards)
    pos = start.copy()
    nodes = []
    for index in range(len(cards) + 1):
        if index >= first:
            nodes.append(node_of(pos, index, steps[index - 1] if index else None, solver=solver))
        if index < len(cards):
            pos.play(cards[index])
    return {"from": first, "nodes": nodes}
