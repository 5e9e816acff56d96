"""Self-contained HTML pages for an analysed game, a file of games and a ``best`` report.

Each page is one file: CSS, script and data inline, no network access, so it
opens from disk in any browser.  The pages are fed from the commands' own
JSON (:meth:`skatdd.analysis.analyse.api.GameAnalysis.to_json`,
:meth:`skatdd.analysis.best.api.SeatReport.to_json`) plus what JSON leaves out and a page
needs to draw the cards: the hands at the start, the players and the
declaration (:class:`GameFacts`).  So a page and ``--json`` never disagree.

What the pages hold:

* the game page (:func:`game_page`): the header (players, contract, bid,
  discard or hand, the server's result and score), the three hands and the
  skat at the start, a trick viewer (buttons, arrow keys, Home/End, a
  slider), an SVG chart of the value after every card with a mark on every
  costly card (clicking a mark moves the viewer there), each player's cost,
  the ending and claim, the contract review and a table of every card;
* the index of a file of games (:func:`index_page`): one sortable row per
  line of the file, with analysed, skipped and bad records told apart;
* the ``best`` page (:func:`best_page`): the options table of every seat
  and the best line in the same trick viewer.

Chart series (:class:`Series`) are a list: the double-dummy value always,
and the single-dummy numbers as a second entry when the plays carry them
(``sd_win``, ``sd_mean_value``, ``sd_best``, ``sd_cost``).  In suit and
grand the double-dummy series is the declarer's card points (0..120, with
the 30, 61 and 90 lines) and the single-dummy one ``sd_mean_value``; in
null both are the declarer's winning chance on a 0..1 axis: double-dummy
1 (win) or 0 (loss), single-dummy ``sd_win``.  A card is marked on a series
when its cost there is above 0 (single-dummy: either shortfall of
``sd_cost``).

Cards are drawn with suit symbols and colours (two colours; the page's
"four-colour deck" switch, on by default with ``four_colour=True``, gives
the German tournament colours: clubs black, spades green, hearts red,
diamonds orange), each with a text alternative such as "10 of hearts".
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import jinja2
from markupsafe import Markup

from skatdd.analysis.analyse.api import GameAnalysis
from skatdd.analysis.best.api import SeatReport, option_position
from skatdd.core.cards import CARD_POINTS, SUIT_LETTERS, Card, Mask, card_name, card_symbol, cards_of, display_sorted, parse_card
from skatdd.core.position import Position
from skatdd.core.rules import SEAT_NAMES, Game
from skatdd.core.scoring import Declaration
from skatdd.formats.iss import parse_iss
from skatdd.formats.json_text import json_text
from skatdd.formats.readers import position_from_json

from ..report import completed_tricks
from ..review import decisions_panel

__all__ = [
    "GameFacts", "Series", "best_page", "biggest_mistake", "card_label", "chart", "game_page", "index_page",
    "play_steps", "series_of",
]

_SUIT_NAMES = ("diamonds", "hearts", "spades", "clubs")
_RANK_NAMES = ("7", "8", "9", "10", "jack", "queen", "king", "ace")
_ALL_CARDS = range(32)


def card_label(card: int) -> str:
    """The card's text alternative for screen readers: ``'10 of hearts'``, ``'jack of clubs'``."""
    return f"{_RANK_NAMES[card & 7]} of {_SUIT_NAMES[card >> 3]}"


def _codes(cards: Sequence[Card] | Mask) -> list[str]:
    """Canonical codes in display order (a mask or a sequence of cards)."""
    cards = cards_of(cards) if isinstance(cards, int) else cards
    return [card_name(c) for c in display_sorted(cards)]


# --------------------------------------------------------------------------- what the JSON leaves out


def _three(players: Sequence[str]) -> tuple[str, str, str]:
    """Player names by seat, ``''`` where unknown."""
    names = [*players, "", "", ""]
    return names[0], names[1], names[2]


@dataclass(frozen=True)
class GameFacts:
    """What a game page shows beside the analysis JSON.

    Attributes:
        id: the record's ``ID`` or the JSON ``id``.
        source: ``'iss'`` or ``'json'``.
        players: player names by seat (``''`` when unknown).
        declarer: the declarer's seat.
        declaration: the contract as declared.
        bid: the bid, when known.
        discard: the declarer's discard (picked-up games), else ``None``.
        start: the position before the first card.
    """

    id: Any
    source: str
    players: tuple[str, str, str]
    declarer: int
    declaration: Declaration
    bid: int | None
    discard: tuple[Card, ...] | None
    start: Position

    @classmethod
    def of_analysis(cls, analysis: GameAnalysis) -> GameFacts:
        """The facts of an analysis made in this process."""
        return cls(analysis.id, analysis.source, _three(analysis.players), analysis.declarer,
                   analysis.declaration, analysis.bid, None if analysis.discard is None else tuple(analysis.discard),
                   analysis.start)

    @classmethod
    def from_text(cls, text: str) -> GameFacts:
        """The facts of one game as ``analyse`` reads it: an ISS record (``(;`` first) or a JSON deal with ``played``.

        Raises the readers' :class:`~skatdd.core.errors.SkatddError` subclasses
        for text that ``analyse`` would reject too.
        """
        text = text.strip().lstrip("\ufeff")
        if text.startswith("(;"):
            record = parse_iss(text)
            start = record.start_position()  # raises when no game was played or cards are hidden
            assert record.declaration is not None and record.declarer is not None
            return cls(record.id, "iss", _three(record.players), record.declarer, record.declaration,
                       record.bid, None if record.discard is None else tuple(record.discard), start)
        spec = position_from_json(text)
        declaration = spec.declaration()
        discard = None if declaration.hand or not spec.skat else tuple(display_sorted(cards_of(spec.skat)))
        return cls(spec.id, "json", ("", "", ""), spec.declarer, declaration, spec.bid, discard, spec.start_position())


def play_steps(start: Position, cards: Sequence[Card]) -> list[dict[str, Any]]:
    """What the table looks like after each card of *cards*, played from *start* (left unchanged).

    One dict per card: ``seat``, ``card`` and ``trick`` (its number, from
    1); ``table``, the trick as it
    stands after the card (``[seat, code]`` pairs, the lead first; complete
    when the card closed it); ``winner``, the seat that took the trick, or
    ``None``; ``points``, the trick's card points when complete; ``total``,
    the declarer's card points so far with the skat (null: his tricks);
    ``tricks``, ``[declarer's, defenders']`` tricks so far.
    """
    pos = start.copy()
    steps = []
    for card in cards:
        seat = pos.to_move
        trick = completed_tricks(pos) + 1
        table = [((pos.leader + i) % 3, c) for i, c in enumerate(pos.trick)] + [(seat, card)]
        winner = pos.play(card)
        steps.append({
            "seat": seat, "card": card_name(card), "trick": trick, "winner": winner,
            "table": [[s, card_name(c)] for s, c in table],
            "points": sum(CARD_POINTS[c] for _, c in table) if winner is not None else None,
            "total": pos.declarer_tricks if pos.game.is_null else pos.value_so_far,
            "tricks": [pos.declarer_tricks, pos.defender_tricks],
        })
    return steps


# --------------------------------------------------------------------------- the chart


@dataclass(frozen=True)
class Series:
    """One line of the chart: a value at the start and after every card, and which cards were mistakes there.

    Attributes:
        key: short name, used as CSS class (``'dd'``, ``'sd'``).
        label: legend text.
        values: ``len(plays) + 1`` values (``None`` where unknown): index 0
            the start, index *i* the value after card *i*.
        costs: per card, the cost shown for it (text), ``''`` when none.
        mistakes: per card, whether the card is marked on this series.
    """

    key: str
    label: str
    values: list[float | None]
    costs: list[str]
    mistakes: list[bool]


def _percent(x: float) -> str:
    return f"{100 * x:.0f}%"


def series_of(analysis: dict[str, Any]) -> list[Series]:
    """The chart's series for an analysis JSON: double-dummy, then single-dummy when every play carries it."""
    plays = analysis["plays"]
    null = analysis["game"] == Game.NULL.label
    dd = Series(
        "dd", "double-dummy", [analysis["start_value"]] + [p["value_after"] for p in plays],
        [str(p["cost"]) if p["cost"] else "" for p in plays], [p["cost"] > 0 for p in plays],
    )
    if not plays or not all("sd_cost" in p for p in plays):
        return [dd]
    sd_values: list[float | None] = [None]
    sd_values += [p["sd_win"] if null else p["sd_mean_value"] for p in plays]
    costs = []
    for p in plays:
        win, points = p["sd_cost"]["win"], p["sd_cost"]["points"]
        parts = ([f"{_percent(win)} win"] if win > 0 else []) + ([f"{points:.1f} points"] if points > 0 and not null else [])
        costs.append(", ".join(parts))
    mistakes = [p["sd_cost"]["win"] > 0 or (not null and p["sd_cost"]["points"] > 0) for p in plays]
    return [dd, Series("sd", "single-dummy", sd_values, costs, mistakes)]


def _line_points(values: Sequence[float | None], x: Callable[[int], float], y: Callable[[float], float], *,
                 steps: bool) -> list[tuple[float, float]]:
    """The polyline through the known values; *steps*: a staircase (the value changes at a card, null's 0/1)."""
    out: list[tuple[float, float]] = []
    for i, v in enumerate(values):
        if v is None:
            continue
        if steps and out:
            out.append((x(i), out[-1][1]))
        out.append((x(i), y(v)))
    return out


# Chart geometry (SVG user units).
_W, _H = 640, 300
_LEFT, _RIGHT, _TOP, _BOTTOM = 44, 12, 12, 30
_CARDS = 30


def chart(series: Sequence[Series], plays: Sequence[dict[str, Any]], *, null: bool) -> dict[str, Any]:
    """The SVG chart's geometry: axes, guide lines, one polyline and its marks per series.

    The x axis runs over the 30 cards of a game (0 the start); the y axis
    over 0..120 card points, or 0..1 in null (the declarer's winning chance,
    drawn as steps: the value changes at a card).
    Each mark carries the viewer step it jumps to (the card's number, from 1)
    and a text alternative.
    """
    top = 1.0 if null else 120.0
    inner_w, inner_h = _W - _LEFT - _RIGHT, _H - _TOP - _BOTTOM
    dx = inner_w / _CARDS

    def x(i: int) -> float:
        return round(_LEFT + i * dx, 1)

    def y(v: float) -> float:
        return round(_TOP + inner_h * (1 - v / top), 1)

    if null:
        guides = [{"y": y(1), "label": "win"}, {"y": y(0.5), "label": "50%"}, {"y": y(0), "label": "loss"}]
    else:
        guides = [{"y": y(v), "label": str(v)} for v in (120, 90, 61, 30, 0)]
    lines = []
    for s in series:
        points = " ".join(f"{px},{py}" for px, py in _line_points(s.values, x, y, steps=null))
        marks = []
        for i, play in enumerate(plays):
            value = s.values[i + 1]
            if s.mistakes[i] and value is not None:
                text = (f"card {i + 1}, {SEAT_NAMES[play['seat']]} {card_label(parse_card(play['card']))}: "
                        f"{s.label} cost {s.costs[i]}")
                marks.append({"x": x(i + 1), "y": y(value), "step": i + 1, "label": text})
        lines.append({"key": s.key, "label": s.label, "points": points, "marks": marks})
    tricks = [{"x": x(3 * t), "mid": round(x(3 * t) + 1.5 * dx, 1), "number": t + 1} for t in range(10)]
    return {
        "width": _W, "height": _H, "left": _LEFT, "right": _W - _RIGHT, "top": _TOP, "bottom": _H - _BOTTOM,
        "x0": _LEFT, "dx": round(dx, 4), "guides": guides, "lines": lines, "tricks": tricks,
        "win_y": None if null else y(61),
    }


# --------------------------------------------------------------------------- pages

_ENV = jinja2.Environment(
    loader=jinja2.PackageLoader("skatdd.present.html", "templates"),
    autoescape=jinja2.select_autoescape(["html", "j2"], default_for_string=True),
    trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined,
)


def _card_info() -> dict[str, dict[str, str]]:
    return {card_name(c): {"text": card_symbol(c), "label": card_label(c), "suit": SUIT_LETTERS[c >> 3].lower()}
            for c in _ALL_CARDS}


def _script_json(obj: Any) -> str:
    """JSON safe inside ``<script type="application/json">``: no ``<``, ``>`` or ``&`` can end the element."""
    text = json_text(obj, compact=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _render(template: str, *, page: dict[str, Any], **context: Any) -> str:
    """Render *template*; *page* is the page's data for its script (the card names are added here)."""
    cards = _card_info()
    page_data = {"cards": cards, "seatNames": list(SEAT_NAMES), **page}
    return _ENV.get_template(template).render(cards=cards, seat_names=SEAT_NAMES, script_json=_script_json,
                                              page_data=page_data, **context)


def _seat_title(seat: int, players: Sequence[str], declarer: int | None) -> str:
    name = SEAT_NAMES[seat]
    if players[seat]:
        name += f" ({players[seat]})"
    return name + (" — declarer" if seat == declarer else "")


def _viewer(key: str, start: Position, plays: list[dict[str, Any]], players: Sequence[str],
            **extra: Any) -> dict[str, Any]:
    """The data one trick viewer needs: the hands at the start, the plays and the table after each card.

    *extra*: ``start_value`` (shown before the first card) or ``value`` (shown at every card).
    """
    return {
        "id": key, "hands": [_codes(h) for h in start.hands], "skat": _codes(start.skat), "declarer": start.declarer,
        "titles": [_seat_title(s, players, start.declarer) for s in range(3)], "null": start.game.is_null,
        "plays": plays, "steps": play_steps(start, [parse_card(p["card"]) for p in plays]), **extra,
    }


def _contract_label(option: dict[str, Any]) -> str:
    """``'clubs hand'``, ``'null ouvert'``: the contract of a ``best`` option or the review's ``played``."""
    return str(Declaration.from_options(option["game"], hand=option["hand"], announce=option["announce"]))


def biggest_mistake(analysis: dict[str, Any]) -> dict[str, Any] | None:
    """The costliest card (the first of equal costs), or ``None`` when every card kept the value."""
    plays = analysis["plays"]
    if not any(p["cost"] for p in plays):
        return None
    index = max(range(len(plays)), key=lambda i: (plays[i]["cost"], -i))
    return {"index": index, **plays[index]}


def game_page(analysis: dict[str, Any], facts: GameFacts, *, four_colour: bool = False) -> str:
    """The page of one analysed game: *analysis* is :meth:`GameAnalysis.to_json`, *facts* what JSON leaves out."""
    null = analysis["game"] == Game.NULL.label
    series = series_of(analysis)
    viewer = _viewer("game", facts.start, analysis["plays"], facts.players, start_value=analysis["start_value"])
    return _render(
        "game.html.j2", analysis=analysis, facts=facts, null=null, series=series, sd=len(series) > 1,
        chart=chart(series, analysis["plays"], null=null), viewer=viewer, four_colour=four_colour,
        contract=str(facts.declaration), biggest=biggest_mistake(analysis), title=_game_title(facts),
        seat_title=lambda s: _seat_title(s, facts.players, facts.declarer),
        review_played=_contract_label(analysis["contract_review"]["played"]) if analysis["contract_review"] else None,
        review_best=_contract_label(analysis["contract_review"]) if analysis["contract_review"] else None,
        page={"viewers": [viewer], "analysis": analysis},
        decisions_html=_decisions_html(analysis, facts),
    )


def _decisions_html(analysis: dict[str, Any], facts: GameFacts) -> Markup:
    """The decisions panel (:func:`skatdd.present.review.decisions_panel`, escaped there), or nothing."""
    decisions = analysis.get("decisions")
    return Markup(decisions_panel(decisions, facts.players)) if decisions else Markup("")


def _game_title(facts: GameFacts) -> str:
    if facts.source == "iss":
        return f"ISS game {facts.id or '?'}"
    return f"Game {facts.id}" if facts.id is not None else "Game"


def index_page(rows: Sequence[dict[str, Any]], *, source: str) -> str:
    """The index of a file of games: *rows* as :class:`skatdd.present.html.archive.ArchivePages` collects them."""
    return _render("index.html.j2", rows=rows, source=source, four_colour=False, page={"viewers": []})


def best_page(reports: Sequence[SeatReport], hands: Sequence[Mask], skat: Mask, *, four_colour: bool = False) -> str:
    """The ``best`` page: the deal, then every seat's options table and best line in a trick viewer."""
    seats = []
    viewers = []
    for report in reports:
        data = report.to_json()
        best = report.best
        start = option_position(best, list(hands), skat, report.declarer)
        plays = [{"card": card_name(card)} for card in best.line]
        viewer = _viewer(f"seat{report.declarer}", start, plays, ("", "", ""), value=best.value)
        viewers.append(viewer)
        options = [dict(o, label=_contract_label(o)) for o in data["options"]]
        seats.append({"report": data, "options": options, "best_index": report.best_index,
                      "best_label": _contract_label(data["best"]), "viewer": viewer})
    top = max(reports, key=lambda r: (r.best.score, -r.declarer)).declarer if len(reports) > 1 else None
    deal = {"hands": [_codes(h) for h in hands], "skat": _codes(skat)}
    return _render("best.html.j2", seats=seats, deal=deal, top=top, four_colour=four_colour,
                   page={"viewers": viewers, "best": [s["report"] for s in seats]})
