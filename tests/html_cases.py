"""Games for the HTML report tests: a null game with a decisive mistake, and single-dummy fields added to an analysis.

The single-dummy numbers (``sd_*``) come from a feature built apart from the
pages; the tests add them here, shaped as ``analyse --worlds`` documents
them, so the second chart series and the second cost are exercised.
"""
from __future__ import annotations

import copy
import json
from typing import Any

from skatdd.core.cards import card_name
from skatdd.core.rules import Game
from skatdd.engine.solve import Solver
from skatdd.formats.readers import load_deal

NULL_DEAL = ("C7 C9 CJ S7 S9 SA H7 H9 D7 D9 / CA CT CK CQ C8 ST SK SQ S8 HJ / "
             "DJ SJ HA HT HK HQ H8 DA DT DK / DQ D8")


def null_game_json() -> str:
    """A JSON null game (declarer forehand) played double-dummy until one losing declarer card, then on to its end.

    The declarer's deal is lost double-dummy from the start, so the game is
    played from the defenders' point of view: both defenders play well until
    the first defender's card that lets the declarer off (cost 1), after which
    the declarer wins.  When no defender card lets him off, the game is the
    plain double-dummy line.
    """
    spec = load_deal(NULL_DEAL, game=Game.NULL, declarer=0)
    pos = spec.position()
    solver = Solver(tt_mb=16)
    played = []
    blundered = False
    while not pos.is_over():
        values = solver.card_values(pos)
        if not blundered and pos.to_move != pos.declarer and len(played) >= 6:
            wins = [c for c, v in values.items() if v.declarer_wins]
            if wins and not solver.declarer_wins(pos):
                card = min(wins)
                blundered = True
                pos.play(card)
                played.append(card)
                continue
        card = solver.line(pos)[0]
        pos.play(card)
        played.append(card)
    hands = NULL_DEAL.split("/")
    return json.dumps({"id": "null-demo", "game": "null", "declarer": 0, "hands": [h.split() for h in hands[:3]],
                       "skat": hands[3].split(), "played": [card_name(c) for c in played]})


def with_single_dummy(analysis: dict[str, Any]) -> dict[str, Any]:
    """A copy of an analysis JSON with made-up single-dummy fields on every play and in the summary.

    Card *i* gets ``sd_win`` 0.5 + 0.01 i, ``sd_mean_value`` the double-dummy
    value after it minus 2.5 (``None`` in null), ``sd_best`` its ``best``, and
    ``sd_cost`` ``{win: 0.25, points: 4.0}`` for every fifth card (``{0, 0}``
    otherwise).
    """
    out = copy.deepcopy(analysis)
    null = out["game"] == "null"
    costs = [0.0, 0.0, 0.0]
    first = None
    for i, play in enumerate(out["plays"]):
        mistake = i % 5 == 4
        play["sd_win"] = round(0.5 + 0.01 * i, 4)
        play["sd_mean_value"] = None if null else play["value_after"] - 2.5
        play["sd_best"] = list(play["best"])
        play["sd_cost"] = {"win": 0.25 if mistake else 0.0, "points": 4.0 if mistake else 0.0}
        if mistake:
            costs[play["seat"]] += 0.25
            first = i if first is None else first
    out["summary"]["sd_costs"] = costs
    out["summary"]["sd_first_mistake"] = first
    return out
