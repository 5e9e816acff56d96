"""The text of ``skatdd odds``: :class:`OddsReport` as printed.

:func:`report_lines` is the report; ``str(report)`` is the same text
(registered with :func:`skatdd.core.printable.renders`).
"""
from __future__ import annotations

from skatdd.analysis.odds.results import OddsReport, OptionOdds
from skatdd.core.cards import Card, card_symbol
from skatdd.core.printable import renders
from skatdd.core.rules import SEAT_NAMES

from .report import format_hand

__all__ = ["odds_text", "report_lines"]


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _cards(cards: list[Card] | None) -> str:
    return " ".join(card_symbol(c) for c in cards) if cards else "-"


def _discard(opt: OptionOdds) -> str:
    if opt.hand:
        return "-"
    return _cards(opt.discard) if opt.discard is not None else "double-dummy"


def _interval(ci: list[float]) -> str:
    return f"[{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"


def _signed(x: float) -> str:
    return f"{x:+.1f}"


def _table(report: OddsReport) -> list[str]:
    """The options' table; the points column only when the report has them (``--points``)."""
    header = ["", "contract", "discard", "win", "95% interval", "schneider", "schneidered", "schwarz", "schwarzed",
              *(["points"] if report.points else []), "score"]
    rec = report.recommendation
    rows = []
    for opt in report.options:
        points = ["-" if opt.mean_points is None else f"{opt.mean_points:.1f}"] if report.points else []
        rows.append([
            "*" if opt is rec else "", opt.label, _discard(opt), _pct(opt.win), _interval(opt.win_ci),
            _pct(opt.fraction(opt.schneider)), _pct(opt.fraction(opt.schneidered)), _pct(opt.fraction(opt.schwarz)),
            _pct(opt.fraction(opt.schwarzed)), *points, _signed(opt.mean_score),
        ])
    widths = [max(len(r[k]) for r in [*rows, header]) for k in range(len(header))]
    left = {1, 2}

    def fmt(row: list[str]) -> str:
        cells = [row[k].ljust(widths[k]) if k in left or k == 0 else row[k].rjust(widths[k]) for k in range(len(row))]
        return ("  " + "  ".join(cells)).rstrip()

    out = [fmt(header)]
    for opt, row in zip(report.options, rows, strict=True):
        out.append(fmt(row))
        for alt in opt.alternatives or []:
            out.append(f"{'':{widths[0] + 4}}or {_cards(alt.discard)}: win {_pct(alt.win)} {_interval(alt.win_ci)}, "
                       f"mean score {_signed(alt.mean_score)}")
    return out


def report_lines(report: OddsReport) -> list[str]:
    """The readable report, one string per line."""
    skat = f"picked up {format_hand(report.skat)}" if report.skat is not None else "skat unseen"
    out = [f"{SEAT_NAMES[report.seat].capitalize()} holds {format_hand(report.hand)} ({skat}), bid {report.bid}"]
    if report.exact:
        out.append(f"All {report.evaluated:,} consistent worlds, each solved double-dummy (exact: no sampling error)")
    elif report.inference == "bids":
        assert report.ess is not None and report.pool is not None and report.pool_ess is not None
        out.append(f"{report.evaluated:,} worlds drawn by the bidding's weight from {report.pool:,} of "
                   f"{report.worlds:,} consistent worlds (seed {report.seed}), each solved double-dummy")
        out.append(f"Effective sample size {report.ess:,.1f} (the bidding weights over the pool: "
                   f"{report.pool_ess:,.1f} of {report.pool:,})")
    else:
        out.append(f"{report.evaluated:,} of {report.worlds:,} consistent worlds drawn at random (seed {report.seed}), "
                   "each solved double-dummy")
    out += ["", *_table(report), ""]
    rec = report.recommendation
    if rec is None:
        out.append("Recommendation: pass (every mean score is below 0)")
    else:
        what = rec.label + (f", discard {_cards(rec.discard)}" if rec.discard else "")
        out.append(f"Recommendation: {what} (mean score {_signed(rec.mean_score)}, wins {_pct(rec.win)} of the worlds)")
    for sentence in report.left_out:
        out.append(f"Left out: {sentence}.")
    out.append("")
    if any(not o.hand and o.discard is None for o in report.options):
        out.append("Picked-up games take the best discard of each world: an optimistic bound, since the declarer")
        out.append("chooses his discard without seeing the defenders' cards.")
    if any(o.hand for o in report.options):
        out.append("Hand games are scored as plain hand games (no schneider or schwarz announced).")
    out.append("Double-dummy: in every world both sides play as if they saw all the cards.")
    out.append(f"Nodes: {report.nodes:,}   time: {report.seconds:.3f} s")
    return out


@renders(OddsReport)
def odds_text(report: OddsReport) -> str:
    """What ``skatdd odds`` prints for *report*."""
    return "\n".join(report_lines(report))
