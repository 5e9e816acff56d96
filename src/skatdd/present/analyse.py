"""The text of ``skatdd analyse`` for one game: :class:`GameAnalysis` as printed.

:func:`analysis_lines` is the report; ``str(analysis)`` is the same text
(registered with :func:`skatdd.core.printable.renders`).  With ``--worlds``
the single-dummy cells and summary come from :mod:`skatdd.present.advise`.
"""
from __future__ import annotations

from skatdd.analysis.analyse.results import GameAnalysis
from skatdd.core.cards import CARD_POINTS, Card, card_symbol
from skatdd.core.errors import plural
from skatdd.core.position import Position
from skatdd.core.printable import renders
from skatdd.core.rules import SCHNEIDER_POINTS, SEAT_NAMES, WIN_POINTS

from .advise import sd_cells, sd_header, sd_summary_lines
from .report import card_list, position_lines
from .review import decision_lines, summary_lines

__all__ = ["analysis_lines", "analysis_text"]

_W = max(len(name) for name in SEAT_NAMES) + 2  # "middlehand*"


# --------------------------------------------------------------------------- readable report


def _value_text(analysis: GameAnalysis, value: int) -> str:
    if analysis.game.is_null:
        return "win" if value else "loss"
    return str(value)


def _seat(seat: int, analysis: GameAnalysis) -> str:
    return SEAT_NAMES[seat] + ("*" if seat == analysis.declarer else "")


def _who(seat: int, analysis: GameAnalysis) -> str:
    name = SEAT_NAMES[seat] + (" (declarer)" if seat == analysis.declarer else "")
    player = analysis.players[seat] if seat < len(analysis.players) else ""
    return f"{name} [{player}]" if player else name


def _verdict(analysis: GameAnalysis) -> str:
    """The double-dummy result at the start, as the declared game would be scored."""
    value, stake = analysis.start_value, analysis.stakes[0]
    if analysis.game.is_null:
        return "the declarer wins: he can avoid every trick" if value else "the declarer loses: he must take a trick"
    text = f"{value} card points for the declarer: he {'wins' if stake.wins else 'loses'}"
    if stake.schwarz:
        text += f", the {'defenders' if stake.schwarz == 'declarer' else 'declarer'} schwarz"
    elif stake.schneider:
        text += f", the {'defenders' if stake.schneider == 'declarer' else 'declarer'} schneider"
    if not stake.wins and value >= WIN_POINTS:
        decl = analysis.declaration
        if decl.schwarz and stake.schwarz != "declarer":
            why = "schwarz was announced"
        elif decl.schneider and value < SCHNEIDER_POINTS:
            why = "schneider was announced"
        else:
            why = "the game is overbid"
        text += f" ({why})"
    return text


def _header(analysis: GameAnalysis) -> list[str]:
    out = []
    if analysis.source == "iss":
        names = ", ".join(f"{SEAT_NAMES[s]} {analysis.players[s] or '?'}" for s in range(3))
        out.append(f"ISS game {analysis.id or '?'}: {names}")
    elif analysis.id is not None:
        out.append(f"Game {analysis.id}")
    contract = str(analysis.declaration)
    player = analysis.players[analysis.declarer] if analysis.declarer < len(analysis.players) else ""
    declarer = SEAT_NAMES[analysis.declarer] + (f" ({player})" if player else "")
    parts = [f"{contract[0].upper()}{contract[1:]}", f"declarer {declarer}"]
    if analysis.bid is not None:
        parts.append(f"bid {analysis.bid}")
    if analysis.discard is not None:
        parts.append(f"discard {card_list(analysis.discard)}")
    elif analysis.declaration.hand:
        parts.append("hand game")
    out.append(", ".join(parts))
    out.append("")
    out.extend(position_lines(analysis.start))
    out.append("")
    out.append(f"Double-dummy at the start: {_verdict(analysis)}")
    return out


def _table(analysis: GameAnalysis) -> list[str]:
    """One row per card, one line after each completed trick."""
    null = analysis.game.is_null
    head = f"  {'#':>4} {'trick':>5}  {'player':<{_W}} {'card':<4} {'before':>6} {'after':>6} {'cost':>5}"
    if analysis.single_dummy is not None:
        head += "    " + sd_header(null)
    out = [head]
    pos: Position = analysis.start.copy()
    for play in analysis.plays:
        mark = ""
        if play.cost:
            mark = "??" if play.index == analysis.first_decisive else "?"
        trick = f"{play.trick:>5}" if not pos.trick else " " * 5
        row = (f"  {play.index + 1:>4} {trick}  {_seat(play.seat, analysis):<{_W}} {card_symbol(play.card):<4} "
               f"{_value_text(analysis, play.value_before):>6} {_value_text(analysis, play.value_after):>6} "
               f"{play.cost:>5} {mark:<2}")
        if analysis.single_dummy is not None:
            row += " " + sd_cells(analysis.single_dummy, play)
        elif play.cost:
            row += f"  best: {card_list(play.best)}"
        out.append(row.rstrip())
        trick_cards = pos.trick + [play.card]
        winner = pos.play(play.card)
        if winner is not None:
            side = "declarer" if winner == analysis.declarer else "defenders"
            if null:
                tail = f"declarer's tricks {pos.declarer_tricks}"
            else:
                tail = (f"{sum(CARD_POINTS[c] for c in trick_cards)} points, "
                        f"declarer {pos.value_so_far}")
            out.append(f"  {'':>4} {'':>5}  -> {SEAT_NAMES[winner]} ({side}) wins the trick: {tail}")
    if len(out) == 1:
        return ["No card was played."]
    return out


def _stake_text(analysis: GameAnalysis) -> str:
    if analysis.first_decisive is None:
        if analysis.game.is_null:
            return "Decisive card: none (no card turned the result)"
        return "Decisive card: none (no card changed win, schneider or schwarz)"
    play = analysis.plays[analysis.first_decisive]
    who = f"card {play.index + 1}, {SEAT_NAMES[play.seat]} {card_symbol(play.card)} in trick {play.trick}"
    if analysis.game.is_null:
        change = "turned the declarer's win into a loss" if play.declarer else "turned the declarer's loss into a win"
    else:
        change = (f"changed the {analysis.decisive_stake}: "
                  f"{play.value_before} -> {play.value_after} card points for the declarer")
    return f"First decisive card (??): {who}: {change}"


def _ending_lines(analysis: GameAnalysis) -> list[str]:
    if analysis.ending is None:
        return []
    kind, seat, awarded = analysis.ending
    what = {"SC": "claimed the rest", "RE": "resigned", "TI": "timed out", "LE": "left the table"}[kind]
    text = f"Ending: {_who(seat, analysis)} {what}"
    if awarded is not None:
        text += f"; the untaken tricks went to the {awarded}"
    out = [text]
    claim = analysis.claim
    if claim is not None:
        where = f"after card {claim.index}" if claim.index else "before the first card"
        if analysis.game.is_null:
            rule = "he takes no further trick double-dummy" if claim.correct else (
                "the defenders can force a trick on him")
        else:
            rule = "he takes every remaining trick double-dummy" if claim.correct else (
                "the defenders can take a trick")
        verdict = "correct" if claim.correct else "wrong"
        out.append(f"Claim {where}: {verdict}: {rule} "
                   f"(double-dummy value there: {_value_text(analysis, claim.value)})")
    return out


def _review_lines(analysis: GameAnalysis) -> list[str]:
    review = analysis.review
    if review is None:
        return []
    best = review.report.best

    def contract(label: str, discard: list[Card] | None, hand: bool) -> str:
        if discard:
            return f"{label}, discard {card_list(discard)}"
        return label if hand else f"{label}, picked up"

    played = contract(str(review.declaration), review.discard, review.declaration.hand)
    score = "unfinished" if review.score is None else f"score {review.score}"
    if best.value is not None:
        outcome = f"{best.value} card points double-dummy, {'wins' if best.declarer_wins else 'loses'}"
    else:
        outcome = f"double-dummy {'wins' if best.declarer_wins else 'loses'}"
    bid = f", bid {review.report.bid}" if review.report.bid is not None else ""
    out = [
        f"Contract review ({SEAT_NAMES[analysis.declarer]}'s best contract with these twelve cards{bid}):",
        f"  played  {played}: {score}",
        f"  best    {contract(best.label, best.discard, best.hand)}: {outcome}: score {best.score}",
    ]
    if review.score is not None and best.score != review.score:
        diff = best.score - review.score
        out.append(f"  the best contract scores {abs(diff)} {'more' if diff > 0 else 'less'} (double-dummy) "
                   "than the game played")
    return out


def _tricks(n: int) -> str:
    return f"{n} trick{'s' if n != 1 else ''}"


def analysis_lines(analysis: GameAnalysis) -> list[str]:
    """The readable report of ``skatdd analyse``, one string per line.

    The contract and the hands at the start, the double-dummy value there,
    one row per card (number, trick, player -- ``*`` the declarer --, card,
    value before and after, cost; ``?`` marks a card with a cost, ``??`` the
    first decisive one, and a mistake lists the best cards), a line after
    every trick with its winner and points, then the result, the cost per
    player, the decisive card, the ending and claim, and the contract review.
    """
    out = _header(analysis)
    decisions = None if analysis.decisions is None else analysis.decisions.to_json()
    if decisions is not None:
        out += ["", *decision_lines(decisions, analysis.players)]
    out.append("")
    out.extend(_table(analysis))
    out.append("")
    result = analysis.result
    null = analysis.game.is_null
    if result.score is None:
        out.append(f"Result: unfinished after {plural(len(analysis.plays), 'card')} "
                   f"(declarer {result.declarer_points} card points with the skat, {_tricks(result.declarer_tricks)})")
    else:
        won = "wins" if result.declarer_wins else "loses"
        if null:
            out.append(f"Result: the declarer {won} ({_tricks(result.declarer_tricks)}): score {result.score}")
        else:
            out.append(f"Result: the declarer {won} with {result.declarer_points} card points (skat included), "
                       f"{_tricks(result.declarer_tricks)}: score {result.score}")
        if result.overbid:
            out.append(f"  overbid: the game as played is worth {result.game_value}, less than the bid {analysis.bid}")
    unit = "decisive cards" if null else "card points given away"
    costs = ", ".join(f"{_who(s, analysis)} {analysis.costs[s]}" for s in range(3))
    out.append(f"Cost per player ({unit}): {costs}")
    out.append(_stake_text(analysis))
    if analysis.single_dummy is not None:
        out.extend(sd_summary_lines(analysis))
    out.extend(_ending_lines(analysis))
    review = _review_lines(analysis)
    if review:
        out.append("")
        out.extend(review)
    if decisions is not None:
        out += ["", *summary_lines(decisions, analysis.players)]
    out.append("")
    timing = f"Nodes: {analysis.nodes:,}   time: {analysis.seconds:.2f} s"
    if analysis.review is not None:
        timing += f" (contract review {analysis.review.report.seconds:.2f} s)"
    if decisions is not None:
        timing += f"   decisions: time {decisions['seconds']:.2f} s"
    if analysis.single_dummy is not None:
        sd = analysis.single_dummy
        timing += f"   single-dummy: nodes {sd.nodes:,}, time {sd.seconds:.2f} s"
    out.append(timing)
    return out


@renders(GameAnalysis)
def analysis_text(analysis: GameAnalysis) -> str:
    """What ``skatdd analyse`` prints for one game."""
    return "\n".join(analysis_lines(analysis))
