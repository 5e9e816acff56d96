"""ISS records that the play ends early: schwarz announced (suit and grand ouvert included) and null.

The server stops a record, with no further move, at the trick that settles
the game: the defenders' first trick against announced schwarz, the null
declarer's first trick.  The records here are fixture records edited
consistently: the same deal, a new declaration, the cards played up to that
trick, and an ``R[...]`` whose numbers follow from the rules (worked out in
each case's comment), not from the code under test.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from skatdd.analysis.analyse.api import analyse_iss
from skatdd.core.errors import ISSFormatError
from skatdd.formats.iss import parse_iss, replay

FIXTURES = Path(__file__).parent / "data" / "iss-games.txt"
BY_ID = {re.search(r"ID\[(\d+)\]", line).group(1): line
         for line in FIXTURES.read_text().splitlines() if line.strip()}


def edited(record_id: str, bidding_end: str, moves: str, result: str) -> str:
    """Fixture *record_id* with every move after *bidding_end* replaced by *moves*, and R[*result*]."""
    line = BY_ID[record_id]
    head, sep, _ = line.partition(bidding_end + " ")
    assert sep, bidding_end
    rest = line[line.index(" ]R["):]
    line = head + bidding_end + " " + moves + rest
    return re.sub(r"\]R\[[^\]]*\]", lambda _: "]R[" + result + "]", line)


# Record 26496, forehand holds C7 SA SJ CJ CK HJ S7 SK C9 ST (skat CQ D8) and declares clubs ouvert
# instead of clubs hand schwarz.  He leads S7, middlehand follows S8, rearhand S9 wins: lost at the
# first trick.  With 3 (CJ SJ HJ; DJ is middlehand's): 3 + game + hand + schneider + announced +
# schwarz + announced + ouvert = 10 x 12 = 120, lost: -240.  p: the skat alone, CQ + D8 = 3.
CLUBS_OUVERT = edited("26496", "2 p", "0 CO 0 S7 1 S8 2 S9",
                      "d:0 loss v:-240 m:3 bidok p:3 t:0 s:0 z:0 p0:0 p1:0 p2:0 l:-1 to:-1 r:0")

# Record 727, forehand holds HJ HA DJ HQ SA H7 CA CJ HT H8 (skat DQ S7).  Trick 1: CJ, H9, SJ (rearhand
# must follow with his jack): forehand, 4 points.  Trick 2: H8, ST (middlehand has no heart left), HK:
# rearhand wins, and the announced schwarz is lost.  p: 4 + skat DQ 3 = 7, t:1.  With 1 (CJ; SJ is
# rearhand's).  Grand hand schwarz announced: 1 + game + hand + schneider + announced + schwarz +
# announced = 7 x 24 = 168, lost: -336.  Grand ouvert adds ouvert: 8 x 24 = 192, lost: -384.
GRAND_PLAY = "0 CJ 1 H9 2 SJ 0 H8 1 ST 2 HK"
GRAND_SCHWARZ = edited("727", "0 18", "0 GHZ " + GRAND_PLAY,
                       "d:0 loss v:-336 m:1 bidok p:7 t:1 s:0 z:0 p0:0 p1:0 p2:0 l:-1 to:-1 r:0")
GRAND_OUVERT = edited("727", "0 18", "0 GO " + GRAND_PLAY,
                      "d:0 loss v:-384 m:1 bidok p:7 t:1 s:0 z:0 p0:0 p1:0 p2:0 l:-1 to:-1 r:0")

# Null hand by forehand in record 727: he leads HA; middlehand H9, rearhand HK; forehand takes the
# trick and the null is lost.  Null hand is 35, lost: -70.  p: HA 11 + HK 4 + the skat DQ 3 = 18.
NULL_HAND = edited("727", "0 18", "0 NH 0 HA 1 H9 2 HK",
                   "d:0 loss v:-70 m:0 bidok p:18 t:1 s:0 z:0 p0:0 p1:0 p2:0 l:-1 to:-1 r:0")

DECIDED = [CLUBS_OUVERT, GRAND_SCHWARZ, GRAND_OUVERT, NULL_HAND]
NAMES = ["clubs-ouvert", "grand-hand-schwarz", "grand-ouvert", "null-hand"]


def server_result(line: str) -> dict[str, int]:
    fields = re.search(r"\]R\[([^\]]*)\]", line).group(1).split()
    return {k: int(v) for k, _, v in (f.partition(":") for f in fields) if k in ("v", "m", "p", "t", "s", "z")}


@pytest.mark.parametrize("line", DECIDED, ids=NAMES)
def test_replay_reproduces_the_server_result(line: str) -> None:
    want = server_result(line)
    done = replay(parse_iss(line))
    assert done.complete and done.awarded is None and not done.declarer_wins
    assert (done.declarer_points, done.declarer_tricks) == (want["p"], want["t"])
    assert (done.score.score, done.matadors) == (want["v"], want["m"])
    assert (int(done.schneider), int(done.schwarz)) == (want["s"], want["z"])


@pytest.mark.parametrize("line", DECIDED, ids=NAMES)
def test_analyse_scores_the_record_as_the_server(line: str) -> None:
    analysis = analyse_iss(line, review=False)
    assert analysis.result.score == server_result(line)["v"]
    assert analysis.result.complete and analysis.ending is None
    assert len(analysis.plays) == len(parse_iss(line).plays)


def test_cli_analyse_accepts_a_lost_ouvert(tmp_path: Path) -> None:
    path = tmp_path / "ouvert.iss"
    path.write_text(CLUBS_OUVERT + "\n")
    run = subprocess.run([sys.executable, "-m", "skatdd", "analyse", str(path), "--json", "--no-review"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["result"]["score"] == -240


def test_schneider_announced_does_not_end_early() -> None:
    # The same lost trick after grand hand schneider announced settles nothing: the declarer may still
    # reach 90, so a record that stops there has no result.
    line = edited("727", "0 18", "0 GHS " + GRAND_PLAY,
                  "d:0 loss v:-240 m:1 bidok p:7 t:1 s:0 z:0 p0:0 p1:0 p2:0 l:-1 to:-1 r:0")
    with pytest.raises(ISSFormatError, match="stops after 2 of 10 tricks"):
        replay(parse_iss(line))


def test_a_json_game_stopped_at_the_lost_schwarz_is_scored() -> None:
    # The grand hand schwarz of record 727 as a JSON deal: the same result as the server's.
    from skatdd.analysis.analyse.api import analyse_spec
    from skatdd.core.cards import format_cards
    from skatdd.formats.readers import position_from_json

    record = parse_iss(GRAND_SCHWARZ)
    obj = {"game": "grand", "declarer": 0, "hands": [format_cards(h) for h in record.hands],
           "skat": format_cards(record.skat), "hand": True, "announce": ["schwarz"], "bid": 18,
           "played": format_cards(card for _, card in record.plays)}
    analysis = analyse_spec(position_from_json(obj), review=False)
    assert analysis.result.complete and analysis.result.score == server_result(GRAND_SCHWARZ)["v"]
