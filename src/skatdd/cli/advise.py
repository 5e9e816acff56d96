"""``skatdd advise``: what the player to move should play, judged from what he can see (docs/cli.md).

POSITION is read like ``skatdd solve``'s DEAL (:func:`skatdd.cli.solve.solve_position`):
a JSON deal (the position after its ``played`` cards, or after the first
``--after K`` of them), an ISS record (before its first card, or after the
first ``--after K`` cards of its play), or deal text with ``--game`` and
``--declarer``; ``--played`` then plays more cards.  The full deal is given
for convenience, but only the mover's view is used (:mod:`skatdd.analysis.advise.api`).
Deal text names no declaration: the declarer is taken to have picked up
the skat (he knows his discard) and announced nothing; a JSON deal's
``hand``/``announce`` and an ISS record's declaration are used as given.

The worlds are drawn in this process from ``generator(--seed)`` (:mod:`skatdd.core.seeds`) and
then solved on ``--jobs`` worker processes, so the answer does not depend
on ``--jobs``.  ``--inference`` weighs them by the input's auction (an ISS
record's moves, a JSON deal's ``bids``: :func:`skatdd.analysis.inference.api.input_auction`)
and the cards played; ``--honest`` adds the declarer's honest endgame
values (docs/inference.md).  The ``sd_*`` helpers and the shared options
serve ``skatdd analyse --worlds`` too.  A progress bar goes to stderr when it is a terminal; Ctrl-C
stops cleanly (exit 130).
"""
from __future__ import annotations

import statistics
import sys
import time
from typing import IO

import click

from skatdd.analysis.advise.api import (
    DEFAULT_WORLDS,
    Advice,
    SingleDummyGame,
    advise,
    honest_refusal,
)
from skatdd.analysis.analyse.api import CardAnalysis, GameAnalysis
from skatdd.analysis.inference.api import input_auction
from skatdd.analysis.worlds.draw import SKAT
from skatdd.core.cards import card_symbol
from skatdd.core.errors import DealFormatError, plural
from skatdd.core.position import Position
from skatdd.core.rules import SEAT_NAMES, TRUMP_GROUP, Game, group_mask
from skatdd.core.scoring import Declaration
from skatdd.engine.solve import Solver
from skatdd.formats.position_input import advice_position as read_advice_position
from skatdd.formats.position_input import read_position
from skatdd.present.report import card_list, completed_tricks, format_hand
from skatdd.runner.lines import worker_count

from .common import emit_json, print_warnings
from .options import (
    GAME,
    honest_options,
    inference_option,
    jobs_option,
    json_option,
    seat_option,
    seed_option,
    tt_option,
    worlds_option,
)
from .solve import input_errors

__all__ = [
    "ProgressLine", "advice_lines", "advice_position", "command", "sd_cells", "sd_header", "sd_summary_lines",
    "terminal_progress",
]


class ProgressLine:
    """``worlds solved / in all`` redrawn on one terminal line (stderr), at most every 0.1 s."""

    def __init__(self, stream: IO[str], label: str) -> None:
        self.stream = stream
        self.label = label
        self._last = 0.0
        self._shown = False

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        if now - self._last < 0.1 and done < total:
            return
        self._last = now
        filled = 30 * done // max(total, 1)
        self.stream.write(f"\r{self.label} [{'#' * filled}{'-' * (30 - filled)}] {done}/{total} worlds")
        self.stream.flush()
        self._shown = True

    def close(self) -> None:
        """Clear the line."""
        if self._shown:
            self.stream.write("\r" + " " * 80 + "\r")
            self.stream.flush()
            self._shown = False


def terminal_progress(label: str) -> ProgressLine | None:
    """A :class:`ProgressLine` on stderr when it is a terminal, else ``None``."""
    return ProgressLine(sys.stderr, label) if sys.stderr.isatty() else None


# --------------------------------------------------------------------------- readable report


def _group_name(group: int) -> str:
    return "trumps" if group == TRUMP_GROUP else "♦♥♠♣"[group]


def _voids(advice: Advice, game: Game) -> str:
    parts = []
    for seat in range(3):
        banned = advice.view.banned[seat]
        groups = [g for g in (TRUMP_GROUP, 3, 2, 1, 0) if group_mask(g, game) and
                  banned & group_mask(g, game) == group_mask(g, game)]
        if groups and seat != advice.seat:
            parts.append(f"{SEAT_NAMES[seat]}: {', '.join(_group_name(g) for g in groups)}")
    return "; ".join(parts)


def _view_lines(advice: Advice, pos: Position, declaration: Declaration) -> list[str]:
    view = advice.view
    seat = advice.seat
    role = "declarer" if seat == pos.declarer else "defender"
    out = [f"What {SEAT_NAMES[seat]} ({role}) sees:",
           f"  {'own hand':<18}{format_hand(view.known[seat])}"]
    for other in range(3):
        if other != seat and view.known[other]:
            out.append(f"  {SEAT_NAMES[other] + ' (open)':<18}{format_hand(view.known[other])}")
    if pos.trick:
        table = ", ".join(f"{SEAT_NAMES[(pos.leader + i) % 3]} {card_symbol(c)}" for i, c in enumerate(pos.trick))
        out.append(f"  {'table':<18}{table}")
    if view.sizes[SKAT]:
        skat = format_hand(view.known[SKAT]) if view.known[SKAT] else (
            "unknown (hand game)" if declaration.hand else "unknown")
        out.append(f"  {'skat':<18}{skat}")
    done = completed_tricks(pos)
    if done:
        points = "" if pos.game.is_null else f" with {pos.declarer_points} card points"
        out.append(f"  {'tricks so far':<18}declarer {pos.declarer_tricks}{points}, defenders {pos.defender_tricks}")
    voids = _voids(advice, pos.game)
    if voids:
        out.append(f"  {'shown void':<18}{voids}")
    return out


_INFERENCE_WORDS = {"bids": "the bidding", "play": "the cards played", "all": "the bidding and the cards played"}


def _worlds_lines(advice: Advice, mover: str) -> list[str]:
    """How many worlds were solved out of how many, and with inference how they were weighed."""
    if advice.exact:
        out = [f"Worlds: all {advice.worlds:,} consistent with what {mover} sees (exact)"]
    elif advice.inference in ("bids", "all") and advice.pool != advice.evaluated:
        out = [f"Worlds: {advice.evaluated:,} drawn by the bidding's weights from {advice.pool:,} drawn uniformly "
               f"(seed {advice.seed}) of {advice.worlds:,} consistent with what {mover} sees"]
    else:
        out = [f"Worlds: {advice.evaluated:,} drawn uniformly (seed {advice.seed}) "
               f"of {advice.worlds:,} consistent with what {mover} sees"]
    if advice.inference != "none":
        assert advice.ess is not None and advice.pool_ess is not None
        text = (f"Weighed by {_INFERENCE_WORDS[advice.inference]}: effective sample size {advice.ess:.1f} "
                f"of {plural(advice.evaluated, 'world')}")
        if advice.inference in ("bids", "all"):
            text += f" (the bidding alone, over the {advice.pool:,} worlds it weighed: {advice.pool_ess:.1f})"
        out.append(text)
    return out


def _honest_line(advice: Advice) -> str:
    """Where the honest best card stands against PIMC's (``advise --honest``)."""
    honest = advice.honest
    assert honest is not None
    if honest.result is None:
        return f"Honest search ({plural(honest.tricks, 'trick')} left at most): gave up: {honest.gave_up}"
    cards = " ".join(card_symbol(c) for c in honest.best)
    verdict = "differs from the PIMC best (PIMC fuses strategies here)" if honest.differs else "a PIMC best card too"
    return (f"Honest best (h; the same card in worlds the declarer cannot tell apart): {cards}: {verdict}")


def advice_lines(advice: Advice, pos: Position, declaration: Declaration) -> list[str]:
    """The readable report of ``skatdd advise``, one string per line.

    The contract and the mover, what he sees, how many worlds were solved
    out of how many, one row per legal card (``*`` the best for his side)
    with the declarer's win percentage and mean card points over the worlds,
    and the best cards.
    """
    null = pos.game.is_null
    mover = SEAT_NAMES[advice.seat]
    contract = str(declaration)
    head = (f"{contract[0].upper()}{contract[1:]}, declarer {SEAT_NAMES[pos.declarer]}; "
            f"{mover} to play, trick {completed_tricks(pos) + 1}")
    out = [head, *_view_lines(advice, pos, declaration), ""]
    out.extend(_worlds_lines(advice, mover))
    out.append("")
    honest = advice.honest
    shown = honest is not None and honest.result is not None
    out.append(f"      card  declarer wins{'' if null else '  mean points'}{'  honest wins' if shown else ''}")
    for card in advice.cards:
        mark = "*" if card.card in advice.best else " "
        row = f"    {mark} {card_symbol(card.card):<4}  {100 * card.win:>12.1f}%"
        if card.mean_value is not None:
            row += f"  {card.mean_value:>11.1f}"
        if honest is not None and shown:
            win = honest.honest_win(card.card)
            assert win is not None
            row += f"  {100 * win:>10.1f}%" + (" h" if card.card in honest.best else "")
        out.append(row)
    side = "the declarer" if advice.seat == pos.declarer else "the defenders"
    aim = "most" if advice.seat == pos.declarer else "fewest"
    rule = f"{aim} wins for the declarer" + ("" if null else f", then {aim} points")
    out.append("")
    out.append(f"Best for {side}: {' '.join(card_symbol(c) for c in advice.best)} ({rule})")
    if honest is not None:
        out.append(_honest_line(advice))
    out.append("")
    out.append(f"Nodes: {advice.nodes:,}   time: {advice.seconds:.2f} s")
    return out


# --------------------------------------------------------------------------- analyse --worlds


def sd_header(null: bool) -> str:
    """Column heads of the single-dummy cells ``analyse --worlds`` adds to each card's row."""
    return f"{'sd win':>7} {'' if null else 'sd mean':>7} {'sd cost':>7}"


def _percent(fraction: float) -> str:
    return f"{100 * fraction:.1f}%"


def sd_cells(sd: SingleDummyGame, play: CardAnalysis) -> str:
    """The single-dummy cells and notes of one card's row in ``analyse --worlds``.

    The card's win chance for the declarer and mean points from its
    player's view, what it gave away against the single-dummy best (the win
    chance in percentage points, else the mean points), ``!`` for a
    single-dummy mistake (``!!`` the first), then the notes: the
    double-dummy best cards of a double-dummy mistake, the single-dummy best
    cards of a card that was not one of them, and ``a guess`` for a
    double-dummy mistake that was the best single-dummy card.
    """
    p = sd.plays[play.index]
    mean = "" if p.mean_value is None else f"{p.mean_value:.1f}"
    if p.cost_win > 0:
        cost = f"{p.cost_win:.1f}%"
    elif p.cost_points > 0:
        cost = f"{p.cost_points:.1f}"
    else:
        cost = "0"
    mark = "!!" if play.index == sd.first_mistake else "!" if p.mistake else ""
    notes = []
    if play.cost:
        notes.append(f"best: {card_list(play.best)}")
    if play.card not in p.best:
        notes.append(f"sd best: {card_list(p.best)}")
    elif play.cost:
        notes.append("a guess: the best card single-dummy")
    if p.honest is not None:
        win = p.honest.honest_win(play.card)
        if win is None:
            notes.append("honest: gave up")
        else:
            differs = ", differs from sd best (fusion)" if p.honest.differs else ""
            notes.append(f"honest {_percent(win)}, honest best: {card_list(list(p.honest.best))}{differs}")
    cells = f"{_percent(p.win):>7} {mean:>7} {cost:>7} {mark:<2}"
    return cells + ("  " + "; ".join(notes) if notes else "")


def _card_numbers(indexes: list[int]) -> str:
    return ", ".join(str(i + 1) for i in indexes) if indexes else "none"


def sd_summary_lines(analysis: GameAnalysis) -> list[str]:
    """The summary ``analyse --worlds`` adds: single-dummy cost per player, first mistake, guesses and errors."""
    sd = analysis.single_dummy
    assert sd is not None
    names = [SEAT_NAMES[s] + (f" [{analysis.players[s]}]" if s < len(analysis.players) and analysis.players[s]
                              else "") for s in range(3)]
    costs = ", ".join(f"{names[s]} {cost:.1f}" for s, cost in enumerate(sd.costs))
    out = [f"Single-dummy (each card from its player's view, up to {plural(sd.worlds, 'world')} a card, seed {sd.seed}):",
           f"  cost per player (the declarer's win chance given away, percentage points): {costs}"]
    first = sd.first_mistake
    if first is None:
        out.append("  first single-dummy mistake: none (no card lowered its side's chances)")
    else:
        p = sd.plays[first]
        play = analysis.plays[first]
        best = sd.plays[first].best
        out.append(f"  first single-dummy mistake (!!): card {first + 1}, {SEAT_NAMES[p.seat]} {card_symbol(p.card)} "
                   f"in trick {play.trick}: the declarer wins {_percent(p.win)} of the worlds after it; "
                   f"best {card_list(best)}")
    dd_mistakes = [play for play in analysis.plays if play.cost]
    guesses = [play.index for play in dd_mistakes if play.card in sd.plays[play.index].best]
    errors = [play.index for play in dd_mistakes if play.card not in sd.plays[play.index].best]
    out.append(f"  double-dummy mistakes that were the best card single-dummy (guesses): cards {_card_numbers(guesses)}")
    out.append(f"  double-dummy mistakes that were not (errors either way): cards {_card_numbers(errors)}")
    if sd.inference != "none":
        sizes = [p.ess for p in sd.plays if p.ess is not None]
        if sizes:
            out.append(f"  worlds weighed by {_INFERENCE_WORDS[sd.inference]}: effective sample size median "
                       f"{statistics.median(sizes):.1f}, smallest {min(sizes):.1f}")
    if sd.honest_tricks is not None:
        judged = [p for p in sd.plays if p.honest is not None]
        differ = [p.index for p in judged if p.honest is not None and p.honest.differs]
        out.append(f"  honest search at the declarer's cards with at most {plural(sd.honest_tricks, 'trick')} left: "
                   f"{plural(len(judged), 'card')}; honest best not a single-dummy best card: cards "
                   f"{_card_numbers(differ)}")
    return out


# --------------------------------------------------------------------------- command


def advice_position(position: str, game: tuple[Game, bool] | None, declarer: int | None, played: str | None,
                    after: int | None) -> tuple[Position, Declaration, tuple[tuple[int, str], ...]]:
    """The position ``skatdd advise`` advises on, its declaration and the auction its input states.

    The position as :func:`skatdd.formats.position_input.advice_position`
    gives it; the auction as :attr:`skatdd.formats.deal_input.DealInput.bids`.
    The input's warnings go to stderr.  Raises :class:`~skatdd.core.errors.SkatddError` subclasses for bad input.
    """
    read = read_position(position, game=game, declarer=declarer)
    print_warnings(read.warnings)
    return read_advice_position(read, played=played, after=after), read.spec.declaration(), read.bids


@click.command("advise")
@click.argument("position", metavar="POSITION")
@click.option("--game", "game_spec", type=GAME,
              help="Contract (grand, clubs, ..., null, null-ouvert); required for deal text.")
@seat_option("--declarer", help="Declarer's seat (0/1/2, F/M/R); required for deal text.")
@click.option("--played", metavar="CARDS", help="Cards played after the position, in order.")
@click.option("--after", type=click.IntRange(min=0), default=None,
              help="Take the first K cards of the recorded play (ISS record or JSON 'played').")
@worlds_option(DEFAULT_WORLDS)
@seed_option()
@inference_option
@honest_options("each card of a declarer decision with at most --honest-tricks tricks left")
@jobs_option("Worker processes solving the worlds, one solver each [default: every core].")
@json_option
@tt_option
def command(position: str, game_spec: tuple[Game, bool] | None, declarer: int | None, played: str | None,
            after: int | None, worlds: int, seed: int, inference: str, honest: bool, honest_tricks: int,
            jobs: int | None, as_json: bool, tt_mb: int) -> None:
    """What the player to move should play, from what he can see (single-dummy).

    For every legal card: over the worlds consistent with the mover's view
    (his cards, the cards played and the voids they show, the skat if he
    picked it up, an ouvert declarer's hand) -- all of them when there are
    at most --worlds, else that many drawn uniformly with --seed -- the
    fraction in which the declarer wins double-dummy after the card and the
    declarer's mean card points.  The declarer's best card maximises both,
    in that order; a defender's minimises them.  --inference weighs the
    worlds by the bidding and the play; --honest adds the declarer's
    honest endgame values (docs/inference.md).

    \b
    Examples:
      skatdd advise game.iss --after 4
      skatdd advise '{"game": "spades", "declarer": 1, "hands": [...], "skat": "...", "played": "HA"}' --json
      skatdd advise examples/deal.txt --game spades --declarer M --played "HA" --worlds 500 --seed 7
      skatdd advise game.iss --after 21 --inference all --honest
    """
    with input_errors():
        pos, declaration, stated = advice_position(position, game_spec, declarer, played, after)
        bids = input_auction(stated) if inference in ("bids", "all") else ()
        refusal = honest_refusal(pos, honest_tricks) if honest else None
        if refusal is not None:
            raise DealFormatError(f"--honest: {refusal}")
    progress = terminal_progress("advise")
    try:
        with input_errors():
            advice = advise(pos, declaration, worlds=worlds, seed=seed, solver=Solver(tt_mb=tt_mb),
                            jobs=worker_count(jobs), progress=progress, inference=inference, bids=bids,
                            honest=honest_tricks if honest else None)
    finally:
        if progress is not None:
            progress.close()
    if as_json:
        emit_json(advice.to_json())
    else:
        click.echo("\n".join(advice_lines(advice, pos, declaration)))
