"""The referee of a duplicate match: two players on the same deals, each in both roles (``skatdd match``).

Each deal (:class:`~skatdd.play.deals.MatchDeal`) is played twice from its
first lead: first *A* declares against two *B* defenders, then *B* declares
against two *A* defenders.  The contract, the discard and the auction are
the deal's, so a match measures card play alone.  Before every card the
player of the seat to move gets its :class:`~skatdd.play.state.PlayerState`
and answers a legal card; a player is made for each seat of each game by
its factory, ``factory(seat, seed)``, with a seed derived from the match
seed, the deal's line, the game and the seat.  A game ends with its last
card, or when the tricks decide it earlier (a null declarer's first trick,
the defenders' first trick against announced schwarz), as on the server.

Each game is scored by :func:`skatdd.core.scoring.score_game` (the declarer's
matadors over his twelve cards, his card points with the skat, his tricks,
the deal's bid) in list score and in Seeger-Fabian tournament points: the
declarer scores the game value + 50 when he wins, -2 x value - 50 when he
loses, and each defender 40 when the declarer loses.  A's *edge* on the deal
is A's total over the two games (declarer in the first, both defenders in
the second) minus B's.  Every card is also judged double-dummy
(:func:`skatdd.analysis.analyse.api.analyse_cards`: its cost to its side), and the deal's
double-dummy value at the first lead is recorded, as are the worlds each
PIMC decision used (:mod:`skatdd.play.worlds_used`).

A player fails the deal -- not the match -- when it returns a card that is
not legal, raises, or takes longer than the per-card *timeout*: the deal's
record then carries ``failed`` with the message, and the match goes on.
A plug-in named on the command line plays each deal in a process of its
own (:mod:`skatdd.play.hosting`), killed when it overruns the timeout; so
its raising anything, ending its process or looping fails its deal as that
player's failure.  (For the other players the timeout interrupts a player
running in a process's main thread, as with ``--jobs`` and in this process;
on a Dask worker thread it is checked when the player returns.)  What
players print goes to stderr, not into the records.

:func:`match` is the Python API; the line handlers :func:`generated_line`
and :func:`file_line` are what :func:`skatdd.runner.lines.run_lines` runs, on one
process, on worker processes or on a Dask cluster, in input order.
"""
from __future__ import annotations

import functools
import json
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, cast

from skatdd.analysis.advise.api import WinRule
from skatdd.analysis.analyse.api import analyse_cards
from skatdd.core.cards import Card, card_name, points_of
from skatdd.core.errors import ScoringError
from skatdd.core.position import Position
from skatdd.core.scoring import Declaration, null_value, score_game
from skatdd.core.scoring import matadors as count_matadors
from skatdd.core.seeds import DEFAULT_SEED
from skatdd.engine.solve import Solver, solver_or_default
from skatdd.formats.readers import DealInput
from skatdd.runner.game_lines import handle_line, line_error
from skatdd.runner.lines import run_lines, worker_count
from skatdd.runner.outcome import INTERNAL_ERROR, LineOutcome, line_text

from .deals import Items, MatchDeal, deal_from_input, deal_items, derive_seed, generated_deal, generated_id
from .hosting import HostDied, HostTimeout, PlayerHost
from .loading import load_player
from .players import CardChoice, CheatingPlayer, Player, PlayerFactory, PlayerSpec
from .referee import (
    DEFAULT_TIMEOUT,
    LABELS,
    Hosted,
    PlayerFailure,
    PlayerTimeout,
    Shown,
    as_card,
    deadline,
    make_hosted,
    play_hosted,
)
from .state import state_for
from .summary import MatchSummary
from .worlds_used import WorldsUsed

__all__ = [
    "MatchConfig",
    "MatchResult",
    "file_line",
    "generated_line",
    "match",
    "match_items",
    "play_deal",
]

@dataclass(frozen=True)
class MatchConfig:
    """What a match is: the two players (names or factories), the seed and the per-card timeout (seconds, or ``None``)."""

    a: str | PlayerFactory
    b: str | PlayerFactory
    seed: int = DEFAULT_SEED
    timeout: float | None = DEFAULT_TIMEOUT

    def specs(self) -> tuple[PlayerSpec, PlayerSpec]:
        """The two players, loaded (:func:`~skatdd.play.loading.load_player`)."""
        return load_player(self.a), load_player(self.b)

    def names(self) -> dict[str, str]:
        """``{"A": name, "B": name}``."""
        a, b = self.specs()
        return {"A": a.name, "B": b.name}


# --------------------------------------------------------------------------- asking a player


def _ask_hosted(player: Hosted, pos: Position, declaration: Declaration, deal: MatchDeal,
                timeout: float | None) -> tuple[Card | None, str | None]:
    """The card a hosted player chooses in *pos*, or ``(None, message)``; the host is stopped at the timeout."""
    state = state_for(pos, declaration, deal.bids, deal.bid)
    try:
        kind, value = player.host.ask(("play", player.seat, state, pos.copy() if player.cheats else None), timeout)
    except HostTimeout:
        return None, f"took more than {timeout:g} s over one card"
    except HostDied as exc:
        return None, str(exc)
    if kind == "raised":
        return None, f"raised {value}"
    try:
        return as_card(Shown(value) if kind == "junk" else value, state.legal), None
    except ValueError as exc:
        return None, str(exc)


def _ask(player: Player | CheatingPlayer, cheats: bool, pos: Position, declaration: Declaration, deal: MatchDeal,
         timeout: float | None) -> tuple[Card | None, str | None]:
    """The card *player* chooses in *pos*, or ``(None, message)`` when it failed."""
    state = state_for(pos, declaration, deal.bids, deal.bid)
    legal = state.legal  # kept: a player that rewrites its state must not widen what is legal
    started = time.perf_counter()
    try:
        with deadline(timeout):
            # cast, not isinstance: a runtime protocol check per card costs more than a heuristic's whole choice
            if cheats:
                choice: CardChoice = cast(CheatingPlayer, player).play_seeing_all(state, pos.copy())
            else:
                choice = cast(Player, player).play(state)
    except PlayerTimeout:
        return None, f"took more than {timeout:g} s over one card"
    except (Exception, SystemExit) as exc:
        return None, f"raised {type(exc).__name__}: {' '.join(str(exc).split())[:300]}"
    if timeout is not None and time.perf_counter() - started > timeout:
        return None, f"took more than {timeout:g} s over one card"
    try:
        return as_card(choice, legal), None
    except ValueError as exc:
        return None, str(exc)


# --------------------------------------------------------------------------- one game, one deal


@dataclass
class _Game:
    """One game of a deal as played: who declared, the cards, the final position."""

    declarer_player: str
    cards: list[Card] = field(default_factory=list)
    end: Position | None = None
    worlds: list[int | None] | None = None  # per card, the worlds its PIMC decision used (worlds_used)


def _play_game(deal: MatchDeal, number: int, declarer: PlayerSpec, defender: PlayerSpec, seed: int, line: int,
               timeout: float | None, hosts: dict[str, PlayerHost], worlds: WorldsUsed) -> _Game:
    """Play game *number* (1 or 2) of *deal*: *declarer*'s player at the declarer's seat, *defender*'s at the others.

    A hosted player (a plug-in) plays in *hosts*' process of its label.  The
    worlds each PIMC decision used go to *worlds* (:mod:`skatdd.play.worlds_used`).
    """
    label_d, label_f = ("A", "B") if number == 1 else ("B", "A")
    specs = {seat: declarer if seat == deal.declarer else defender for seat in range(3)}
    labels = {seat: label_d if seat == deal.declarer else label_f for seat in range(3)}
    players: dict[int, Player | CheatingPlayer | Hosted] = {}
    for seat in range(3):
        where = f"player {labels[seat]} ({specs[seat].name}) at seat {seat} in game {number}: its factory"
        player_seed = derive_seed("player", seed, line, number, seat)
        if specs[seat].hosted:
            try:
                players[seat] = make_hosted(hosts[labels[seat]], seat, player_seed, timeout)
            except RuntimeError as exc:
                raise PlayerFailure(labels[seat], seat, number, f"{where} {exc}") from None
            continue
        try:
            players[seat] = specs[seat].factory(seat, player_seed)
        except (Exception, SystemExit) as exc:
            raise PlayerFailure(labels[seat], seat, number,
                                f"{where} raised {type(exc).__name__}: {exc}") from None
    declaration = deal.declaration
    pos = deal.start_position()
    game = _Game(label_d)
    worlds.start_game(players, labels)
    while not pos.is_over() and not declaration.decided(pos.declarer_tricks, pos.defender_tricks):
        seat = pos.to_move
        player = players[seat]
        mark = worlds.mark(seat)
        if isinstance(player, Hosted):
            card, failure = _ask_hosted(player, pos, declaration, deal, timeout)
        else:
            card, failure = _ask(player, bool(getattr(player, "cheats", False)), pos, declaration, deal, timeout)
        if card is None:
            raise PlayerFailure(labels[seat], seat, number, f"player {labels[seat]} ({specs[seat].name}) at seat "
                                f"{seat} in game {number}, card {len(game.cards) + 1}: {failure}")
        pos.play(card)
        game.cards.append(card)
        worlds.card(seat, mark)
    game.end = pos
    game.worlds = worlds.game_list()
    return game


def _score(deal: MatchDeal, game: _Game, solver: Solver) -> dict[str, Any]:
    """A game's record: result, list score, tournament points and every card's double-dummy cost."""
    end = game.end
    assert end is not None
    points = end.declarer_points + points_of(end.skat)  # the skat counts, in null too (as ISS counts it)
    score = score_game(deal.declaration, matadors=count_matadors(deal.game, deal.twelve), points=points,
                       tricks=end.declarer_tricks, bid=deal.bid)
    line = analyse_cards(deal.start_position(), game.cards, solver=solver)
    costs = [play.cost for play in line.plays]
    by_side = {"declarer": [0, 0], "defenders": [0, 0]}
    for play in line.plays:
        entry = by_side["declarer" if play.declarer else "defenders"]
        entry[0] += play.cost
        entry[1] += 1
    return {
        "declarer_player": game.declarer_player,
        "cards": [card_name(c) for c in game.cards],
        "declarer_points": points,
        "declarer_tricks": end.declarer_tricks,
        "won": score.declarer_wins,
        "score": score.score,
        "tournament": score.seeger,
        "defender_tournament": score.seeger_defenders,
        "costs": costs,
        "cost": {side: {"total": total, "cards": cards} for side, (total, cards) in by_side.items()},
        "worlds": game.worlds,
    }


def _dd_result(deal: MatchDeal, solver: Solver) -> tuple[int, bool]:
    """The deal's double-dummy value at the first lead (card points; null 1 win, 0 loss) and whether the declarer wins."""
    start = deal.start_position()
    rule = WinRule.of(deal.declaration)
    if rule.kind == "null":
        wins = solver.declarer_wins(start)
        return int(wins), wins
    value = solver.value(start)
    assert value is not None
    wins = solver.declarer_takes_all(start) if rule.kind == "schwarz" else value >= rule.points
    return value, wins


def _check_bid(deal: MatchDeal) -> None:
    """A null cannot be played after a bid above its fixed value (:class:`~skatdd.core.errors.ScoringError`)."""
    if deal.game.is_null and deal.bid is not None and null_value(deal.declaration) < deal.bid:
        raise ScoringError(f"{deal.declaration} (value {null_value(deal.declaration)}) cannot be declared after a bid "
                           f"of {deal.bid}")


def play_deal(deal: MatchDeal, config: MatchConfig, line: int, *, solver: Solver | None = None) -> dict[str, Any]:
    """Both games of *deal* and its record (docs/cli.md, ``skatdd match``); *line* numbers the deal for the seeds.

    A :class:`PlayerFailure` gives the deal's record with ``failed`` instead
    of ``games`` and ``edge``.  Raises :class:`~skatdd.core.errors.ScoringError`
    for a null whose bid is above its value.  The searching players and the
    double-dummy check share *solver* (default: a fresh one).
    """
    solver = solver_or_default(solver)
    _check_bid(deal)
    a, b = config.specs()
    record: dict[str, Any] = {**deal.to_json(), "players": {"A": a.name, "B": b.name}, "seed": config.seed}
    played = play_hosted(record, solver, dict(zip(LABELS, (a, b), strict=True)),
                         lambda hosts, worlds: [_play_game(deal, 1, a, b, config.seed, line, config.timeout, hosts, worlds),
                                                _play_game(deal, 2, b, a, config.seed, line, config.timeout, hosts, worlds)])
    if played is None:
        return record
    games, worlds = played
    value, wins = _dd_result(deal, solver)
    record["dd_value"], record["dd_wins"] = value, wins
    first, second = (_score(deal, game, solver) for game in games)
    record["games"] = [first, second]
    a_total = first["tournament"] + 2 * second["defender_tournament"]
    b_total = second["tournament"] + 2 * first["defender_tournament"]
    record["edge"] = {"score": first["score"] - second["score"], "tournament": a_total - b_total}
    record["worlds_used"] = worlds.to_json(LABELS)
    return record


# --------------------------------------------------------------------------- lines for the runners


def generated_line(solver: Solver, line: int, raw: bytes | str, *, config: MatchConfig) -> LineOutcome:
    """Play generated deal number *raw* (its index, as text) of ``config.seed``; never raises but for Ctrl-C."""
    index = int(line_text(raw))
    try:
        return LineOutcome(line, play_deal(generated_deal(config.seed, index), config, line, solver=solver))
    except Exception as exc:  # a bug must not cost the other deals their results
        return line_error(line, generated_id(config.seed, index), f"internal error: {type(exc).__name__}: {exc}",
                          INTERNAL_ERROR)


def file_line(solver: Solver, line: int, raw: bytes | str, *, config: MatchConfig) -> LineOutcome:
    """Play the deal of one line of a file (a JSON deal or an ISS record); a passed ISS game is skipped."""
    def work(found: DealInput) -> dict[str, Any]:
        obj = json.loads(line_text(raw).strip().lstrip("\ufeff")) if found.kind == "json" else None
        return play_deal(deal_from_input(found, obj), config, line, solver=solver)

    return handle_line(line, raw, work)


# --------------------------------------------------------------------------- the Python API


@dataclass
class MatchResult:
    """What :func:`match` returns: every record in input order and the :class:`~skatdd.play.summary.MatchSummary`."""

    records: list[dict[str, Any]]
    summary: MatchSummary
    seconds: float = 0.0

    @property
    def failed(self) -> bool:
        """Some deal failed or could not be read."""
        return bool(self.summary.failed or self.summary.errors)

    def __str__(self) -> str:
        """The readable summary, as ``skatdd match`` prints it (``str(self.summary)``)."""
        return str(self.summary)


def match_items(deals: int | str | Iterable[MatchDeal | dict[str, Any] | str], seed: int,
                ) -> tuple[Items, Callable[..., LineOutcome], int | None, Callable[[bytes | str], Any]]:
    """The runner's view of *deals*: ``(items, handler, total, line_id)``.

    *deals* is a number of generated deals, a path to a file of deals (one
    JSON object or ISS record a line), or the deals themselves
    (:class:`MatchDeal`, JSON objects or record lines).
    """
    return deal_items(deals, seed, generated=generated_line, from_file=file_line, deal_type=MatchDeal)


def match(a: str | PlayerFactory, b: str | PlayerFactory, deals: int | str | Iterable[MatchDeal | dict[str, Any] | str],
          *, seed: int = DEFAULT_SEED, jobs: int | None = 1, timeout: float | None = DEFAULT_TIMEOUT,
          solver: Solver | None = None, dask: str | None = None, on_record: Callable[[dict[str, Any]], None] | None = None,
          keep_records: bool = True) -> MatchResult:
    """Play a duplicate match of *a* against *b* (player names as on the command line, or factories).

    *deals* is a number N of generated deals (deal 1..N of *seed*), a path
    to a file of deals, or an iterable of deals (:class:`MatchDeal`, JSON
    deal objects, ISS record lines).  *seed* also seeds every player.
    *jobs* worker processes (``None``: every core), or the Dask cluster *dask*, play the deals; the
    records come back in input order, each handed to *on_record* as it
    comes, and kept in the result unless *keep_records* is false.  The
    searching players share *solver* (default: a fresh one); each worker
    process has a solver of its configuration.  The same
    records and summary as ``skatdd match``.

    Raises :class:`~skatdd.core.errors.SkatddError` for an unknown player;
    a deal that cannot be read or whose player fails is reported in its
    record, not raised.
    """
    config = MatchConfig(a, b, seed, timeout)
    a_spec, b_spec = config.specs()
    summary = MatchSummary(players={"A": a_spec.name, "B": b_spec.name},
                           cheats=[label for label, spec in zip(LABELS, (a_spec, b_spec), strict=True) if spec.cheats])
    records: list[dict[str, Any]] = []
    items, handler, total, _ = match_items(deals, seed)

    def emit(outcome: LineOutcome) -> None:
        summary.add(outcome.record)
        if keep_records:
            records.append(outcome.record)
        if on_record is not None:
            on_record(outcome.record)

    started = time.perf_counter()
    run_lines(items, handler=functools.partial(handler, config=config), jobs=worker_count(None) if jobs is None else jobs,
              solver=solver, emit=emit, dask=dask, total=total)
    return MatchResult(records, summary, time.perf_counter() - started)

