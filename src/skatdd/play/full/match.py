"""The referee of a full-game duplicate match: every deal in the six seatings of two programs (``match --full``).

A deal is dealt cards only: three hands and a skat, from ``--seed``
(:func:`full_generated_deal`: a uniformly random deal, drawn from a
generator seeded by the match seed and the deal's number) or from a line of
a file (:func:`read_full_deal`: a JSON object with ``hands`` and ``skat``,
or an ISS record whose recorded game is ignored).  Each deal is played as
a whole :class:`~skatdd.play.full.game.FullGame` in the six seatings of
:data:`SEATINGS`: ``"AAB"`` means forehand and middlehand are A's and
rearhand B's.  A player is made for each seat of each game by its factory,
``factory(seat, seed)`` (seeds derived from the match seed, the deal's line,
the seating and the seat), and asked for every choice of its seat
(:mod:`skatdd.play.full.players`: ``bid``, ``pick_up``, ``discard``,
``declare`` with the seat's :class:`~skatdd.play.full.state.SeatState`, the
heuristic's choice when it has no such method; ``play`` with the card-play
:class:`~skatdd.play.state.PlayerState` as in ``match``).

A's total on a deal is the sum, over the six games, of the points of every
seat A held; A's edge on the deal is A's total minus B's, in Seeger-Fabian
points and in list score.  The worlds each PIMC card decision used are
recorded as in ``match`` (:mod:`skatdd.play.worlds_used`).  A player fails
the deal, as in ``match``, when it answers an illegal choice, raises or
overruns the timeout over one choice; a plug-in plays in a process of its
own (:mod:`skatdd.play.hosting`).
"""
from __future__ import annotations

import functools
import json
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, cast

from skatdd.core.cards import format_mask, mask_of, parse_cards
from skatdd.core.dealing import random_deal
from skatdd.core.errors import DealFormatError, SkatddError, quote
from skatdd.core.seeds import generator
from skatdd.engine.solve import Solver, solver_or_default
from skatdd.formats.files import record_id
from skatdd.formats.iss import parse_iss
from skatdd.runner.game_lines import line_error
from skatdd.runner.lines import run_lines
from skatdd.runner.outcome import INPUT_ERROR, INTERNAL_ERROR, LineOutcome, line_text

from ..deals import Items, deal_items, derive_seed, generated_id
from ..hosting import HostDied, HostTimeout, PlayerHost
from ..players import CardChoice, CheatingPlayer, Player, PlayerSpec
from ..referee import (
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
from ..worlds_used import WorldsUsed
from .actions import Action, Phase, Play, parse_action
from .game import FullGame
from .heuristic_player import HeuristicChoices, heuristic_choice
from .players import METHODS, card_state, load_full_player
from .summary import FullSummary

__all__ = ["SEATINGS", "FullConfig", "FullDeal", "full_generated_deal", "full_match", "full_match_items",
           "play_full_deal", "read_full_deal"]

#: The six seatings of a deal, forehand first: each program holds two seats three times.
SEATINGS = ("AAB", "ABA", "BAA", "BBA", "BAB", "ABB")


@dataclass(frozen=True)
class FullConfig:
    """A full-game match: the two players (names or factories), the seed and the per-choice timeout."""

    a: Any
    b: Any
    seed: int = 1
    timeout: float | None = DEFAULT_TIMEOUT

    def specs(self) -> tuple[PlayerSpec, PlayerSpec]:
        """The two players, loaded (:func:`~skatdd.play.full.players.load_full_player`)."""
        return load_full_player(self.a), load_full_player(self.b)

    def names(self) -> dict[str, str]:
        """``{"A": name, "B": name}``."""
        a, b = self.specs()
        return {"A": a.name, "B": b.name}


@dataclass(frozen=True)
class FullDeal:
    """Dealt cards: ``id``, the three hands (forehand first) and the skat, as masks."""

    id: Any
    hands: tuple[int, int, int]
    skat: int

    def to_json(self) -> dict[str, Any]:
        """``{id, hands, skat}`` as card strings."""
        return {"id": self.id, "hands": [format_mask(h) for h in self.hands], "skat": format_mask(self.skat)}


def full_generated_deal(seed: int, index: int) -> FullDeal:
    """Deal *index* (from 1) of *seed*: uniformly random, from a generator seeded by both (module docstring)."""
    hands, skat = random_deal(generator(derive_seed("full-deal", seed, index) % 2**63))
    return FullDeal(generated_id(seed, index), (hands[0], hands[1], hands[2]), skat)


def read_full_deal(text: str) -> FullDeal:
    """The dealt cards of one line: a JSON object with ``hands`` and ``skat`` (``id`` optional) or an ISS record.

    An ISS record's auction, game and play are ignored: only its deal is used.
    Raises :class:`~skatdd.core.errors.SkatddError` naming the field otherwise.
    """
    body = text.strip().lstrip("\ufeff")
    if body.startswith("(;"):
        record = parse_iss(body)
        hands = tuple(mask_of(h) for h in record.hands)
        game = FullGame(hands, mask_of(record.skat))  # checks the deal
        dealt, skat = game.dealt
        return FullDeal(record.id, dealt, skat)
    if not body.startswith("{"):
        raise DealFormatError(f"{quote(body)} is no deal: expected a JSON object with hands and skat, or an ISS record")
    try:
        obj = json.loads(body)
    except json.JSONDecodeError as exc:
        raise DealFormatError(f"not JSON: {exc.msg} at column {exc.colno}") from None
    hands_field, skat_field = obj.get("hands"), obj.get("skat")
    if not isinstance(hands_field, list) or len(hands_field) != 3:
        raise DealFormatError(f"field 'hands' must be the three hands as dealt, forehand first, got {quote(hands_field)}")
    if not isinstance(skat_field, (str, list)):
        raise DealFormatError(f"field 'skat' must be the two skat cards as dealt, got {quote(skat_field)}")
    masks = [mask_of(parse_cards(h, what=f"field 'hands' ({i})")) for i, h in enumerate(hands_field)]
    game = FullGame(masks, mask_of(parse_cards(skat_field, what="field 'skat'")))
    dealt, skat = game.dealt
    return FullDeal(obj.get("id"), dealt, skat)


# --------------------------------------------------------------------------- asking a player


def _choice(answer: object, state_legal: tuple[Action, ...], phase: Phase) -> Action:
    """The legal action a player answered (an action or its token); ``ValueError`` with the reason otherwise."""
    shown = " ".join(str(a) for a in state_legal[:12]) + (" ..." if len(state_legal) > 12 else "")
    if isinstance(answer, str):
        try:
            action: object = parse_action(answer, phase)
        except SkatddError:
            raise ValueError(f"returned {quote(answer)}, which means nothing in the {phase} (legal: {shown})") from None
    else:
        action = answer
    if action not in state_legal:
        raise ValueError(f"returned {quote(str(action)) if not isinstance(action, Shown) else action!r}, which is "
                         f"not a legal {phase} choice (legal: {shown})")
    return action


def _ask_local(player: Any, seat: int, game: FullGame, timeout: float | None,
               defaults: HeuristicChoices) -> Action:
    """The action *player* (a local object) chooses for *seat* now; ``ValueError`` with the reason when it fails."""
    phase = game.phase
    started = time.perf_counter()
    try:
        with deadline(timeout):
            if phase is Phase.PLAY:
                pos = game.position
                assert pos is not None and game.declaration is not None
                state = card_state(game)
                if getattr(player, "cheats", False):
                    card: CardChoice = cast(CheatingPlayer, player).play_seeing_all(state, pos)
                else:
                    card = cast(Player, player).play(state)
                answer: object = Play(as_card(card, state.legal))
            else:
                seat_state = game.state_for(seat)
                method = getattr(player, METHODS[phase], None)
                answer = method(seat_state) if method is not None else heuristic_choice(seat_state, defaults)
                answer = _choice(answer, seat_state.legal, phase)
    except PlayerTimeout:
        raise ValueError(f"took more than {timeout:g} s over one choice") from None
    except ValueError:
        raise
    except (Exception, SystemExit) as exc:
        raise ValueError(f"raised {type(exc).__name__}: {' '.join(str(exc).split())[:300]}") from None
    if timeout is not None and time.perf_counter() - started > timeout:
        raise ValueError(f"took more than {timeout:g} s over one choice")
    return cast(Action, answer)


def _ask_hosted(player: Hosted, seat: int, game: FullGame, timeout: float | None,
                defaults: HeuristicChoices) -> Action:
    """The action a hosted plug-in chooses; its host answers ``("missing", ...)`` for a method it lacks."""
    phase = game.phase
    if phase is Phase.PLAY:
        pos = game.position
        assert pos is not None and game.declaration is not None
        state = card_state(game)
        request: tuple[Any, ...] = ("play", seat, state, pos if player.cheats else None)
        legal_cards = state.legal
    else:
        seat_state = game.state_for(seat)
        request = ("choose", seat, METHODS[phase], seat_state)
    try:
        kind, value = player.host.ask(request, timeout)
    except HostTimeout:
        raise ValueError(f"took more than {timeout:g} s over one choice") from None
    except HostDied as exc:
        raise ValueError(str(exc)) from None
    if kind == "raised":
        raise ValueError(f"raised {value}")
    answer = Shown(value) if kind == "junk" else value
    if phase is Phase.PLAY:
        return Play(as_card(answer, legal_cards))
    if kind == "missing":
        return heuristic_choice(seat_state, defaults)
    return _choice(answer, seat_state.legal, phase)


# --------------------------------------------------------------------------- one seating, one deal


def _game_record(game: FullGame, seating: str, deal: FullDeal, worlds: list[int | None] | None) -> dict[str, Any]:
    """The record of one finished game (docs/cli.md, ``match --full``)."""
    result = game.result
    assert result is not None
    decl = result.declaration
    discard = game.state_for(result.declarer).discard if result.declarer is not None else None
    cards = [str(a) for _, a in game.history if isinstance(a, Play)]
    return {
        "seating": seating,
        "auction": [[seat, move] for seat, move in game.bids],
        "declarer": result.declarer,
        "declarer_player": None if result.declarer is None else seating[result.declarer],
        "bid": result.bid,
        "game": None if decl is None else decl.game.label,
        "hand": None if decl is None else decl.hand,
        "announce": [] if decl is None else decl.announce,
        "discard": None if discard is None else str(discard),
        "cards": cards,
        "won": result.won,
        "overbid": result.overbid,
        "schneider": result.schneider,
        "schwarz": result.schwarz,
        "declarer_points": result.declarer_points,
        "list": list(result.list_points),
        "tournament": list(result.seeger),
        "worlds": worlds,
        "iss": game.to_iss(game_id=f"{deal.id}/{seating}", players=tuple(seating)),
    }


def _play_seating(deal: FullDeal, seating: str, specs: dict[str, PlayerSpec], seed: int, line: int,
                  timeout: float | None, hosts: dict[str, PlayerHost], worlds: WorldsUsed) -> dict[str, Any]:
    """Play *deal* with the players of *seating*; raises :class:`PlayerFailure` when one fails.

    The worlds each PIMC card decision used go to *worlds* (:mod:`skatdd.play.worlds_used`).
    """
    number = SEATINGS.index(seating) + 1
    players: dict[int, Any] = {}
    for seat, label in enumerate(seating):
        spec = specs[label]
        where = f"player {label} ({spec.name}) at seat {seat} in seating {seating}: its factory"
        player_seed = derive_seed("full-player", seed, line, seating, seat)
        if spec.hosted:
            try:
                players[seat] = make_hosted(hosts[label], seat, player_seed, timeout)
            except RuntimeError as exc:
                raise PlayerFailure(label, seat, number, f"{where} {exc}") from None
            continue
        try:
            players[seat] = spec.factory(seat, player_seed)
        except (Exception, SystemExit) as exc:
            raise PlayerFailure(label, seat, number, f"{where} raised {type(exc).__name__}: {exc}") from None
    defaults = {seat: HeuristicChoices() for seat in range(3)}
    game = FullGame(deal.hands, deal.skat)
    worlds.start_game(players, dict(enumerate(seating)))
    while (mover := game.current_seat) is not None:
        player = players[mover]
        playing = game.phase is Phase.PLAY
        mark = worlds.mark(mover)
        try:
            if isinstance(player, Hosted):
                action = _ask_hosted(player, mover, game, timeout, defaults[mover])
            else:
                action = _ask_local(player, mover, game, timeout, defaults[mover])
        except ValueError as exc:
            label = seating[mover]
            raise PlayerFailure(label, mover, number, f"player {label} ({specs[label].name}) at seat {mover} in "
                                f"seating {seating}, {game.phase} move {len(game.history) + 1}: {exc}") from None
        game.apply(action)
        if playing:  # the bidding, pick-up and discard are no card decisions: they are not counted
            worlds.card(mover, mark)
    return _game_record(game, seating, deal, worlds.game_list())


def play_full_deal(deal: FullDeal, config: FullConfig, line: int, *, solver: Solver | None = None) -> dict[str, Any]:
    """The six games of *deal* and its record (docs/cli.md, ``match --full``); *line* numbers it for the seeds.

    A :class:`PlayerFailure` gives the record with ``failed`` instead of ``games`` and ``edge``.
    """
    a, b = config.specs()
    specs = {"A": a, "B": b}
    record: dict[str, Any] = {**deal.to_json(), "players": {"A": a.name, "B": b.name}, "seed": config.seed}
    played = play_hosted(record, solver_or_default(solver), specs,
                         lambda hosts, worlds: [_play_seating(deal, seating, specs, config.seed, line, config.timeout,
                                                              hosts, worlds) for seating in SEATINGS])
    if played is None:
        return record
    games, worlds = played
    record["games"] = games
    totals = {label: {"tournament": 0, "list": 0} for label in LABELS}
    for game in games:
        for seat, label in enumerate(game["seating"]):
            totals[label]["tournament"] += game["tournament"][seat]
            totals[label]["list"] += game["list"][seat]
    record["totals"] = totals
    record["edge"] = {kind: totals["A"][kind] - totals["B"][kind] for kind in ("tournament", "list")}
    record["worlds_used"] = worlds.to_json(LABELS)
    return record


# --------------------------------------------------------------------------- lines for the runners


def full_generated_line(solver: Solver, line: int, raw: bytes | str, *, config: FullConfig) -> LineOutcome:
    """Play generated deal number *raw* (its index, as text) of ``config.seed``; never raises but for Ctrl-C."""
    index = int(line_text(raw))
    try:
        return LineOutcome(line, play_full_deal(full_generated_deal(config.seed, index), config, line, solver=solver))
    except Exception as exc:  # a bug must not cost the other deals their results
        return line_error(line, generated_id(config.seed, index), f"internal error: {type(exc).__name__}: {exc}",
                          INTERNAL_ERROR)


def full_file_line(solver: Solver, line: int, raw: bytes | str, *, config: FullConfig) -> LineOutcome:
    """Play the deal of one line of a file (JSON hands and skat, or an ISS record); never raises for bad input."""
    ident: Any = None
    try:
        text = line_text(raw).strip().lstrip("\ufeff")
        ident = record_id(text)
        deal = read_full_deal(text)
    except SkatddError as exc:
        return line_error(line, ident, str(exc), INPUT_ERROR)
    try:
        return LineOutcome(line, play_full_deal(deal, config, line, solver=solver))
    except Exception as exc:
        return line_error(line, ident, f"internal error: {type(exc).__name__}: {exc}", INTERNAL_ERROR)


def full_match_items(deals: int | str | Iterable[FullDeal | dict[str, Any] | str], seed: int,
                     ) -> tuple[Items, Callable[..., LineOutcome], int | None, Callable[[bytes | str], Any]]:
    """The runner's view of *deals* (a number, a path, or the deals): ``(items, handler, total, line_id)``."""
    return deal_items(deals, seed, generated=full_generated_line, from_file=full_file_line, deal_type=FullDeal,
                      dumps=json.dumps)


def full_match(a: Any, b: Any, deals: int | str | Iterable[FullDeal | dict[str, Any] | str], *, seed: int = 1,
               jobs: int = 1, timeout: float | None = DEFAULT_TIMEOUT, solver: Solver | None = None,
               dask: str | None = None, on_record: Callable[[dict[str, Any]], None] | None = None,
               ) -> tuple[list[dict[str, Any]], FullSummary]:
    """Play a full-game duplicate match of *a* against *b*: the records in input order and the summary.

    *deals* as :func:`full_match_items`; the rest as :func:`skatdd.play.match.match`.
    """
    config = FullConfig(a, b, seed, timeout)
    summary = FullSummary(players=config.names())
    records: list[dict[str, Any]] = []
    items, handler, total, _ = full_match_items(deals, seed)

    def emit(outcome: LineOutcome) -> None:
        summary.add(outcome.record)
        records.append(outcome.record)
        if on_record is not None:
            on_record(outcome.record)

    run_lines(items, handler=functools.partial(handler, config=config), jobs=jobs, solver=solver, emit=emit, dask=dask,
              total=total)
    return records, summary

