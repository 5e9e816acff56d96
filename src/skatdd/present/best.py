"""The text of ``skatdd best``: each :class:`SeatReport` as printed, and the whole report of a deal.

``str(report)`` is one seat's part (:func:`report_lines`, registered with
:func:`skatdd.core.printable.renders`); :func:`best_text` is what the
command prints for the list :func:`skatdd.best` returns: the deal, each
seat's part, and with more than one seat who should play.
"""
from __future__ import annotations

from skatdd.analysis.best.results import Option, SeatReport, option_position
from skatdd.core.cards import Card, Mask, card_symbol
from skatdd.core.printable import renders
from skatdd.core.rules import SCHNEIDER_POINTS, SEAT_NAMES, WIN_POINTS

from .report import format_hand, line_lines

__all__ = ["best_text", "report_lines", "seat_text"]


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _cards(cards: list[Card] | None) -> str:
    return " ".join(card_symbol(c) for c in cards) if cards else "-"


def _level(side: str | None) -> str:
    return {"declarer": "declarer", "defenders": "defenders", None: "-"}[side]


def _result(opt: Option) -> str:
    if opt.declarer_wins:
        return "won"
    if opt.game.is_null:
        return "lost"
    assert opt.value is not None
    reached = opt.value >= WIN_POINTS and ("schneider" not in opt.announce or opt.value >= SCHNEIDER_POINTS) and (
        "schwarz" not in opt.announce or opt.schwarz == "declarer")
    return "overbid" if reached else "lost"


def _matadors(opt: Option) -> str:
    if opt.game.is_null:
        return "-"
    return f"with {opt.matadors}" if opt.matadors > 0 else f"without {-opt.matadors}"


def _table(report: SeatReport) -> list[str]:
    header = ["", "contract", "discard", "value", "result", "schneider", "schwarz", "matadors", "game value", "score"]
    rows = []
    best_index = report.best_index
    for i, opt in enumerate(report.options):
        rows.append([
            "*" if i == best_index else "", opt.label, _cards(opt.discard),
            "-" if opt.value is None else str(opt.value), _result(opt), _level(opt.schneider), _level(opt.schwarz),
            _matadors(opt), str(opt.game_value), _signed(opt.score),
        ])
    widths = [max(len(r[k]) for r in rows + [header]) for k in range(len(header))]
    right = {3, 8, 9}

    def fmt(row: list[str]) -> str:
        cells = [row[k].rjust(widths[k]) if k in right else row[k].ljust(widths[k]) for k in range(len(row))]
        return ("  " + "  ".join(cells)).rstrip()

    return [fmt(header)] + [fmt(r) for r in rows]


def _best_sentence(report: SeatReport) -> str:
    b = report.best
    what = b.label + (f", discard {_cards(b.discard)}" if b.discard else "")
    if b.game.is_null:
        result = "the declarer takes no trick" if b.declarer_wins else "the defenders force a trick on the declarer"
    else:
        result = f"{b.value} card points"
        if b.schwarz == "declarer":
            result += ", every trick"
        elif b.schwarz == "defenders":
            result += ", no trick"
        result += f", {_result(b)}"
    return f"Best for {SEAT_NAMES[report.declarer]}: {what}: {result}, score {_signed(b.score)}"


def report_lines(report: SeatReport, hands: list[Mask] | None = None, skat: Mask | None = None) -> list[str]:
    """The readable report of one seat for the deal *hands* / *skat* (as dealt; default: the report's), one line each."""
    hands = report.hands if hands is None else hands
    skat = report.skat if skat is None else skat
    if hands is None or skat is None:
        raise ValueError("this SeatReport has no deal: its text needs the hands and skat as dealt")
    seat = report.declarer
    title = f"{SEAT_NAMES[seat].capitalize()} declares (hand {format_hand(hands[seat])}, skat {format_hand(skat)})"
    if report.bid is not None:
        title += f", bid {report.bid}"
    out = [title, ""]
    out += _table(report)
    out += ["", _best_sentence(report)]
    if report.best.line:
        pos = option_position(report.best, hands, skat, seat)
        out.append("Line of play:" if not report.best.game.is_null or report.best.declarer_wins
                   else "Line of play (to the trick the declarer is forced to take):")
        out += line_lines(pos, report.best.line)
    out += ["", f"Nodes: {report.nodes:,}   time: {report.seconds:.3f} s"]
    return out


def _deal_line(hands: list[Mask], skat: Mask) -> str:
    groups = [f"{SEAT_NAMES[s]} {format_hand(hands[s])}" for s in range(3)]
    return "Deal: " + " / ".join(groups) + f" / skat {format_hand(skat)}"


def _summary(reports: list[SeatReport]) -> list[str]:
    out = ["Who should play:"]
    for r in reports:
        b = r.best
        what = b.label + (f", discard {_cards(b.discard)}" if b.discard else "")
        out.append(f"  {SEAT_NAMES[r.declarer]:<10}  {_signed(b.score):>5}  {what}")
    top = max(reports, key=lambda r: (r.best.score, -r.declarer))
    out.append(f"  -> {SEAT_NAMES[top.declarer]} (highest score; ties: the earlier seat)")
    return out


@renders(SeatReport)
def seat_text(report: SeatReport) -> str:
    """One seat's part of ``skatdd best``'s report (the deal as the report holds it)."""
    return "\n".join(report_lines(report))


def best_text(reports: list[SeatReport]) -> str:
    """What ``skatdd best`` prints for *reports* (one deal; :func:`skatdd.best`'s list): deal, seats, summary."""
    if not reports:
        raise ValueError("best_text needs at least one seat's report")
    hands, skat = reports[0].hands, reports[0].skat
    if hands is None or skat is None:
        raise ValueError("this SeatReport has no deal: its text needs the hands and skat as dealt")
    out = [_deal_line(hands, skat), ""]
    for r in reports:
        out += [str(r), ""]
    if len(reports) > 1:
        out += _summary(reports)
    return "\n".join(out).rstrip("\n")
