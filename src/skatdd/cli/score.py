"""``skatdd score``: the value and score of a declared game (docs/cli.md).

The calculator players reach for at the table: give the contract, the
declarer's twelve cards (or the matadors), the announcements, and how the
play ended; get the multiplier with each level, the game value, who won, the
list score and the Seeger-Fabian points.  All the rules live in
:mod:`skatdd.core.scoring`; this module only reads options and prints.
"""
from __future__ import annotations

import click

from skatdd.core.cards import mask_of, parse_cards
from skatdd.core.rules import Game
from skatdd.core.scoring import ANNOUNCEMENTS, Declaration, score_game
from skatdd.core.scoring import matadors as count_matadors
from skatdd.present.score import matadors_label

from .common import emit_json
from .options import BID, GAME, json_option


@click.command("score")
@click.option(
    "--game", "game_spec", type=GAME, required=True,
    help="Contract: grand, clubs, spades, hearts, diamonds, null, null-ouvert (or G C S H D N NO).",
)
@click.option(
    "--cards", "twelve", metavar="TWELVE",
    help="The declarer's hand plus skat, 12 cards (counts the matadors; not needed for null).",
)
@click.option(
    "--matadors", type=int, metavar="N",
    help="Matadors instead of --cards: N 'with N', -N 'without N' (suit 1..11, grand 1..4).",
)
@click.option("--hand", is_flag=True, help="Hand game: the skat was not picked up.")
@click.option(
    "--announce", multiple=True, metavar="A", type=click.Choice(ANNOUNCEMENTS, case_sensitive=False),
    help="Announcement: schneider, schwarz or ouvert (repeatable). Suit/grand ouvert implies hand.",
)
@click.option(
    "--points", type=click.IntRange(0, 120), metavar="P",
    help="Declarer's card points including the skat, 0..120 (suit and grand).",
)
@click.option(
    "--tricks", type=click.IntRange(0, 10), metavar="T",
    help="Declarer's tricks, 0..10 (required for null; when omitted in suit/grand neither side is schwarz).",
)
@click.option("--bid", type=BID, metavar="N", help="The bid, to check for an overbid game.")
@json_option
def command(
    game_spec: tuple[Game, bool], twelve: str | None, matadors: int | None, hand: bool,
    announce: tuple[str, ...], points: int | None, tricks: int | None, bid: int | None, as_json: bool,
) -> None:
    """Value and score of a declared game (ISkO rules, Seeger-Fabian too).

    \b
    Examples:
      skatdd score --game clubs --hand --announce schwarz --matadors 3 --points 120 --tricks 10
      skatdd score --game diamonds --cards "CJ D7 D8 HA HT HK SA ST C7 C8 S7 S8" --points 70 --bid 22
      skatdd score --game null-ouvert --hand --tricks 1
    """
    game, ouvert = game_spec
    decl = Declaration.from_options(game, hand=hand, announce=announce, ouvert=ouvert)

    counted: int | None = None
    if twelve is not None:
        cards = parse_cards(twelve, count=12, what="--cards")
        counted = count_matadors(game, mask_of(cards))
    if game.is_null:
        if matadors is not None:
            raise click.UsageError(f"--matadors {matadors}: a null game has no matadors; leave it out")
        if tricks is None:
            raise click.UsageError("--tricks is required for null: the declarer's tricks (0 means the declarer won)")
        m = 0
    else:
        if counted is None and matadors is None:
            raise click.UsageError(
                f"--cards or --matadors is required for {game.label}: the matadors count in the game value"
            )
        if counted is not None and matadors is not None and counted != matadors:
            raise click.UsageError(
                f"--matadors {matadors} disagrees with --cards, which are {matadors_label(counted)} ({counted})"
            )
        if counted is not None:
            m = counted
        else:
            assert matadors is not None
            m = matadors
        if points is None:
            raise click.UsageError(
                f"--points is required for {game.label}: the declarer's card points including the skat (0..120)"
            )

    score = score_game(decl, matadors=m, points=points, tricks=tricks, bid=bid)
    if as_json:
        emit_json({"game": game.label, "hand": decl.hand, "announce": decl.announce, "bid": bid, **score.to_json()})
    else:
        click.echo(str(score))
