"""The text of ``skatdd null-ouvert``: :class:`NullOuvertResult` as printed.

:func:`result_lines` is the report; ``str(result)`` is the same text
(registered with :func:`skatdd.core.printable.renders`).
"""
from __future__ import annotations

from skatdd.core.cards import Card, card_symbol, cards_of, display_sorted
from skatdd.core.printable import renders
from skatdd.core.rules import SEAT_NAMES
from skatdd.engine.nullouvert import NullOuvertResult, World

__all__ = ["null_ouvert_text", "result_lines"]


def _symbols(mask: int) -> str:
    return " ".join(card_symbol(c) for c in display_sorted(cards_of(mask))) or "-"


def _world_lines(world: World, declarer: int, indent: str = "  ") -> list[str]:
    out = []
    for seat in range(3):
        role = "declarer" if seat == declarer else "defender"
        out.append(f"{indent}{SEAT_NAMES[seat]:<10} ({role}): {_symbols(world.hands[seat])}")
    out.append(f"{indent}{'skat':<10}: {_symbols(world.skat)}")
    return out


def _trick_lines(line: list[Card], declarer: int) -> list[str]:
    """The line trick by trick: who led, each card with its seat, who won."""
    out = []
    leader = 0
    for t in range(0, len(line), 3):
        trick = line[t:t + 3]
        cards = "  ".join(
            f"{SEAT_NAMES[(leader + i) % 3][0].upper()}:{card_symbol(c)}" for i, c in enumerate(trick)
        )
        if len(trick) == 3:
            led = trick[0] >> 3
            best = max((i for i in range(3) if trick[i] >> 3 == led), key=lambda i: trick[i])
            winner = (leader + best) % 3
            who = "the declarer takes it" if winner == declarer else f"{SEAT_NAMES[winner]} takes it"
            out.append(f"  trick {t // 3 + 1}: {cards}   -> {who}")
            leader = winner
        else:
            out.append(f"  trick {t // 3 + 1}: {cards}")
    return out


def result_lines(r: NullOuvertResult) -> list[str]:
    """The readable report of one analysis."""
    lines = [
        f"Null ouvert, declarer {SEAT_NAMES[r.declarer]} ({r.declarer}): {_symbols(r.hand)}"
        + (f"   skat {_symbols(r.skat)}" if r.skat is not None else "   skat unknown (hand game)"),
    ]
    if r.unbeatable:
        lines.append("Verdict: UNBEATABLE - one strategy wins in every world, without seeing the cards.")
    elif r.worlds_lost == 0:
        lines.append("Verdict: beatable by a guess - every world is won double-dummy, but the declarer must guess.")
    else:
        lines.append("Verdict: BEATABLE - the defenders beat it in some worlds even double-dummy.")
    pct = 100.0 * r.worlds_lost / r.worlds if r.worlds else 0.0
    lines.append(f"Worlds: {r.worlds:,}, lost double-dummy: {r.worlds_lost:,} ({pct:.4f}%)")
    if r.counterexample is not None:
        world, line = r.counterexample
        lines.append("Counterexample:")
        lines.extend(_world_lines(world, r.declarer))
        lines.append("  the defenders beat it:")
        lines.extend(_trick_lines(line, r.declarer))
    if r.guess is not None:
        g = r.guess
        played = " ".join(card_symbol(c) for c in g.history) or "nothing"
        lines.append(f"The declarer must guess after: {played}")
        groups: dict[World, list[Card]] = {}
        for card, world in g.refutations:
            groups.setdefault(world, []).append(card)
        for world, cards in groups.items():
            lines.append(f"  {' '.join(card_symbol(c) for c in cards)} lose{'s' if len(cards) == 1 else ''} in:")
            lines.extend(_world_lines(world, r.declarer, indent="    "))
    lines.append(f"{r.classes:,} classes of worlds solved, {r.nodes:,} nodes, {r.seconds:.3f} s")
    return lines


@renders(NullOuvertResult)
def null_ouvert_text(result: NullOuvertResult) -> str:
    """What ``skatdd null-ouvert`` prints for *result*."""
    return "\n".join(result_lines(result))
