"""The text of ``skatdd advise`` and of ``analyse --worlds``'s single-dummy cells: :class:`Advice` as printed.

:func:`advice_lines` is the advise command's report; ``str(advice)`` is the
same text (registered here with :func:`skatdd.core.printable.renders`).
The ``sd_*`` helpers are the single-dummy columns and summary
:mod:`skatdd.present.analyse` adds to a game's report.
"""
from __future__ import annotations

import statistics

from skatdd.analysis.advise.results import Advice, SingleDummyGame
from skatdd.analysis.analyse.results import CardAnalysis, GameAnalysis
from skatdd.analysis.worlds.space import SKAT
from skatdd.core.cards import card_symbol
from skatdd.core.errors import plural
from skatdd.core.position import Position
from skatdd.core.printable import renders
from skatdd.core.rules import SEAT_NAMES, TRUMP_GROUP, Game, group_mask
from skatdd.core.scoring import Declaration

from .report import card_list, completed_tricks, format_hand

__all__ = ["INFERENCE_WORDS", "advice_lines", "advice_text", "sd_cells", "sd_header", "sd_summary_lines"]


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


INFERENCE_WORDS = {"bids": "the bidding", "play": "the cards played", "all": "the bidding and the cards played"}


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
        text = (f"Weighed by {INFERENCE_WORDS[advice.inference]}: effective sample size {advice.ess:.1f} "
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
            out.append(f"  worlds weighed by {INFERENCE_WORDS[sd.inference]}: effective sample size median "
                       f"{statistics.median(sizes):.1f}, smallest {min(sizes):.1f}")
    if sd.honest_tricks is not None:
        judged = [p for p in sd.plays if p.honest is not None]
        differ = [p.index for p in judged if p.honest is not None and p.honest.differs]
        out.append(f"  honest search at the declarer's cards with at most {plural(sd.honest_tricks, 'trick')} left: "
                   f"{plural(len(judged), 'card')}; honest best not a single-dummy best card: cards "
                   f"{_card_numbers(differ)}")
    return out


@renders(Advice)
def advice_text(advice: Advice) -> str:
    """What ``skatdd advise`` prints for *advice* (its :attr:`~Advice.position` and :attr:`~Advice.declaration`)."""
    if advice.position is None or advice.declaration is None:
        raise ValueError("this Advice has no position: its text needs the position it advises on")
    return "\n".join(advice_lines(advice, advice.position, advice.declaration))
