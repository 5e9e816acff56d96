"""The decisions review (``analyse``'s ``decisions``) as text and as an HTML panel.

Both are drawn from the JSON object (:meth:`skatdd.analysis.review.results.DecisionReview.to_json`), so
the report, the page, the board and ``--json`` never disagree:

* :func:`decision_lines`: the bidding of each seat, the hand or pick-up and the declaration with its
  alternatives, printed before the card-by-card table;
* :func:`summary_lines`: each seat's costs in one unit and the verdict, printed after the contract review;
* :func:`decisions_panel`: the same as an HTML fragment (the game page's decisions panel; every text
  escaped).
"""
from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from skatdd.core.cards import SUIT_LETTERS, card_symbol, parse_card
from skatdd.core.errors import plural
from skatdd.core.rules import SEAT_NAMES

__all__ = ["decision_lines", "decisions_panel", "summary_lines"]


def _who(seat: int, players: Sequence[str], declarer: int) -> str:
    name = SEAT_NAMES[seat] + ("*" if seat == declarer else "")
    player = players[seat] if seat < len(players) else ""
    return f"{name} [{player}]" if player else name


def _limit(value: int | None) -> str:
    return "pass" if value is None else str(value)


def _cards(codes: Sequence[str] | None) -> str:
    return "-" if not codes else " ".join(card_symbol(parse_card(c)) for c in codes)


def _contract(option: dict[str, Any]) -> str:
    words = [option["game"], *option["announce"]]
    if option["hand"]:
        words.insert(1, "hand")
    return " ".join(words)


def _signed(x: float) -> str:
    return f"{x:+.1f}"


def _budget(d: dict[str, Any]) -> str:
    """The budget as ``bid``'s options, so that ``bid`` repeats a seat's table."""
    return f"bid's --skats {d['skats']} --worlds {d['worlds']} --seed {d['seed']}"


def _pickup_text(p: dict[str, Any]) -> str:
    parts = []
    for alt in p["alternatives"]:
        what = "pick up" if alt["choice"] == "pickup" else f"hand ({alt['best']})"
        parts.append(f"{what} {_signed(alt['score'])} (wins {100 * alt['win']:.1f}%)")
    chose = "picked up" if p["choice"] == "pickup" else "played hand"
    return f"Hand or pick-up at bid {p['bid']}: {', '.join(parts)}; he {chose}: cost {p['cost']:.1f}"


def _declaration_over(d: dict[str, Any]) -> str:
    if d["over"] == "skat":
        weighed = "weighed by the auction" if d["inference"] == "bids" else "not weighed by the auction"
        return f"picked up: odds --skat over {d['evaluated']} worlds, {weighed}"
    return f"hand game: bid's hand declarations over {d['evaluated']} worlds, skat unseen"


def decision_lines(decisions: dict[str, Any], players: Sequence[str]) -> list[str]:
    """The review of the decisions before the first card, one string per line (module docstring)."""
    declarer = decisions["declarer"]
    rows = [(_who(b["seat"], players, declarer), f"{_limit(b['limit']['list'])} / {_limit(b['limit']['tournament'])}",
             str(b["said"]) if b["said"] else "-", "-" if b["refused"] is None else str(b["refused"]), b["text"],
             f"{b['cost']:.1f}") for b in decisions["bidding"]]
    width = max(len(r[0]) for r in rows)
    out = [f"Decisions before the first card, from what each seat could see ({_budget(decisions)}):",
           f"  {'bidding':<{width}}  {'limit list/tournament':>21}  {'said':>4}  {'passed at':>9}  "
           f"{'verdict':<30} {'cost':>6}  (expected list points)"]
    for who, limit, said, refused, text, cost in rows:
        out.append(f"  {who:<{width}}  {limit:>21}  {said:>4}  {refused:>9}  {text:<30} {cost:>6}")
    if decisions["pickup"] is not None:
        out.append("  " + _pickup_text(decisions["pickup"]))
    d = decisions["declaration"]
    if d is not None:
        out.append(f"  Declaration at bid {d['bid']} ({_declaration_over(d)}):")
        out.append(f"       {'contract':<22} {'discard':<8} {'win':>6} {'score':>7}")
        for alt in d["alternatives"]:
            mark = "*" if alt["chosen"] else " "
            out.append(f"    {mark}  {_contract(alt):<22} {_cards(alt['discard']):<8} {100 * alt['win']:>5.1f}% "
                       f"{_signed(alt['score']):>7}{'  (played)' if alt['chosen'] else ''}")
        out.append(f"    the game played costs {d['cost']:.1f} against the best of them")
    for note in decisions.get("notes", []):
        out.append(f"  note: {note}")
    return out


def summary_lines(decisions: dict[str, Any], players: Sequence[str]) -> list[str]:
    """Each seat's costs (bidding and declaration in expected list points, the play in card points) and the verdict."""
    declarer = decisions["declarer"]
    out = ["Summary per seat (bidding, declaration: expected list points; play: double-dummy card points given away):"]
    for s in decisions["summary"]["seats"]:
        parts = [f"bidding {s['bidding']:.1f}"]
        if s["declaration"] is not None:
            parts.append(f"hand/pick-up and declaration {s['declaration']:.1f}")
        parts.append(f"play {plural(s['play_card_points'], 'card point')}")
        out.append(f"  {_who(s['seat'], players, declarer)}: {', '.join(parts)}")
    out.append(f"Verdict: {decisions['summary']['verdict']}")
    return out


# --------------------------------------------------------------------------- HTML


_BEST = ' class="best-row"'
_SUITS = ("diamonds", "hearts", "spades", "clubs")
_RANKS = ("7", "8", "9", "10", "jack", "queen", "king", "ace")


def _label(card: int) -> str:
    """``'10 of hearts'``: the text alternative the pages give a card (as :func:`skatdd.present.html.render.card_label`,
    which this module cannot import: the page imports this one)."""
    return f"{_RANKS[card & 7]} of {_SUITS[card >> 3]}"


def _e(x: Any) -> str:
    return html.escape(str(x), quote=True)


def _card_spans(codes: Sequence[str] | None) -> str:
    """Cards as the page's ``card_row`` macro draws them (suit colour class, a text alternative)."""
    if not codes:
        return "–"
    spans = []
    for code in codes:
        card = parse_card(code)
        spans.append(f'<span class="card s-{SUIT_LETTERS[card >> 3].lower()}" data-card="{_e(code)}">'
                     f'<span aria-hidden="true">{_e(card_symbol(card))}</span>'
                     f'<span class="sr-only">{_e(_label(card))}</span></span>')
    return f'<span class="cards-inline">{"".join(spans)}</span>'


def decisions_panel(decisions: dict[str, Any], players: Sequence[str]) -> str:
    """The decisions panel of a game page: an HTML ``<section id="decisions">`` (every text escaped)."""
    declarer = decisions["declarer"]
    rows = "".join(
        f'<tr class="verdict-{_e(b["verdict"])}"><td>{_e(_who(b["seat"], players, declarer))}</td>'
        f'<td class="num">{_e(_limit(b["limit"]["list"]))}</td><td class="num">{_e(_limit(b["limit"]["tournament"]))}</td>'
        f'<td class="num">{_e(b["said"] or "–")}</td><td class="num">{_e("–" if b["refused"] is None else b["refused"])}</td>'
        f'<td>{_e(b["text"])}</td><td class="num">{b["cost"]:.1f}</td></tr>'
        for b in decisions["bidding"])
    parts = [
        '<section id="decisions">',
        "<h2>Decisions before the first card</h2>",
        f'<p class="muted">Judged from what each seat could see ({_e(_budget(decisions))}); '
        "costs in expected list points.</p>",
        '<div class="table-wrap"><table id="decisions-bidding"><thead><tr><th>seat</th>'
        '<th class="num">limit (list)</th><th class="num">limit (tournament)</th><th class="num">said</th>'
        '<th class="num">passed at</th><th>verdict</th><th class="num">cost</th></tr></thead>'
        f"<tbody>{rows}</tbody></table></div>",
    ]
    if decisions["pickup"] is not None:
        parts.append(f'<p id="decisions-pickup">{_e(_pickup_text(decisions["pickup"]))}</p>')
    d = decisions["declaration"]
    if d is not None:
        alts = "".join(
            f'<tr{_BEST if a["chosen"] else ""}><td>{"played" if a["chosen"] else ""}</td>'
            f"<td>{_e(_contract(a))}</td><td>{_card_spans(a['discard'])}</td>"
            f'<td class="num">{100 * a["win"]:.1f}%</td><td class="num">{_e(_signed(a["score"]))}</td></tr>'
            for a in d["alternatives"])
        parts += [
            f"<h3>Declaration at bid {_e(d['bid'])}</h3><p class=\"muted\">{_e(_declaration_over(d))}</p>",
            '<div class="table-wrap"><table id="decisions-declaration"><thead><tr><th></th><th>contract</th>'
            '<th>discard</th><th class="num">win</th><th class="num">score</th></tr></thead>'
            f"<tbody>{alts}</tbody></table></div>",
            f"<p>The game played costs {d['cost']:.1f} against the best of them.</p>",
        ]
    seats = "".join(
        f"<tr><td>{_e(_who(s['seat'], players, declarer))}</td><td class=\"num\">{s['bidding']:.1f}</td>"
        f"<td class=\"num\">{'–' if s['declaration'] is None else format(s['declaration'], '.1f')}</td>"
        f"<td class=\"num\">{_e(s['play_card_points'])}</td></tr>" for s in decisions["summary"]["seats"])
    parts += [
        '<div class="table-wrap"><table id="decisions-summary"><thead><tr><th>seat</th>'
        '<th class="num">bidding (list points)</th><th class="num">declaration (list points)</th>'
        '<th class="num">play (double-dummy card points)</th></tr></thead>'
        f"<tbody>{seats}</tbody></table></div>",
        f'<p id="decisions-verdict"><strong>{_e(decisions["summary"]["verdict"].capitalize())}</strong></p>',
    ]
    parts += [f'<p class="muted">{_e(note)}</p>' for note in decisions.get("notes", [])]
    parts.append("</section>")
    return "\n".join(parts)
