"""The ``heuristic`` player's whole-game choices: its bid, hand or pick-up, discard and declaration.

These are rules of thumb a club player would recognise; no search, no
randomness.  They are also the documented *default* for any player that
answers only some of the choices (docs/game.md, "Full-game players").

Bidding: the limit
    The limit is the highest value among the games the ten cards are good for:

    * a suit game by the **Stegen count** (:func:`skatdd.analysis.bid.stegen.stegen_count`):
      with 10 points or more, the value of the best-counted suit with the
      matadors of the ten cards, game 1;
    * **grand** when the contract evaluator (:func:`skatdd.analysis.deals.evaluation.evaluate_contract`)
      finds it playable on the ten cards (two low spare cards stand for the
      unseen skat and are the ones put away): 24 x (matadors + 1);
    * **null** (23) when every suit of the ten cards is safe by the evaluator's
      null count (danger at most 1, as for a playable null there).

    A speaker says the next value while it is within the limit, else passes;
    a listener holds while the bid is within it.  Without a limit: pass.

Hand or pick up (H1)
    A hand game when the ten cards are strong: a Stegen count of at least
    :data:`HAND_COUNT`, or a grand margin of at least :data:`HAND_MARGIN`,
    and that hand game (one more multiplier) reaches the bid.  Otherwise he
    picks up.

Discard and game after the pick-up (H2)
    Each game is judged on the twelve cards by the evaluator, which puts
    away the two cards that help most: it voids short side suits, puts
    unguarded tens and kings away, keeps tens guarded, never a jack or an
    ace (null: the most dangerous cards).  Of the games whose value reaches
    the bid (suit and grand with the twelve cards' matadors, game 1; null 23,
    null ouvert 46 for a null without danger) the one with the largest
    margin is chosen, with its discard; when none reaches the bid, the suit
    or grand of the highest value (it may be overbid).

The declaration (H3)
    The game chosen at the discard; in a hand game the hand rule's game,
    plain (no announcement).
"""
from __future__ import annotations

from dataclasses import dataclass

from skatdd.analysis.bid.stegen import THRESHOLD, stegen_count, ten_card_matadors
from skatdd.analysis.deals.evaluation import NULL_THRESHOLD, evaluate_contract, null_danger
from skatdd.core.cards import ACE, EIGHT, SEVEN, CardSet, Mask, cards_of
from skatdd.core.rules import Game, suit_mask, trump_mask
from skatdd.core.scoring import BASE_VALUES, NULL_VALUES, Declaration, matadors

from .actions import Action, Declare, Discard, Hold, Pass, PickUp, PlayHand, Say
from .state import SeatState

__all__ = ["HAND_COUNT", "HAND_MARGIN", "HeuristicChoices", "bid_limit", "heuristic_choice", "spare_cards"]

#: A Stegen count from which the heuristic plays a suit game from the hand.
HAND_COUNT = THRESHOLD + 4
#: A grand evaluation margin from which it plays grand from the hand.
HAND_MARGIN = 1.0

_SUITS_AND_GRAND = (Game.GRAND, Game.CLUBS, Game.SPADES, Game.HEARTS, Game.DIAMONDS)
#: Null strength of each rank, low to high (jacks are plain cards in null), as the evaluator counts it.
_NULL_RANK = {rank: i for i, rank in enumerate(range(SEVEN, ACE + 1))}


def spare_cards(hand: Mask, game: Game) -> Mask:
    """Two low cards not in *hand* and no trumps of *game*: the unseen skat as the declarer would put it away."""
    trumps = trump_mask(game) if game is not Game.NULL else 0
    found = 0
    for rank in (SEVEN, EIGHT):
        for suit in range(4):
            card = suit * 8 + rank
            if not hand >> card & 1 and not trumps >> card & 1 and found.bit_count() < 2:
                found |= 1 << card
    return found


def _null_safe(hand: Mask) -> int:
    """The null danger of *hand* summed over the four suits (the evaluator's count; 0 is safe)."""
    return sum(null_danger([_NULL_RANK[c & 7] for c in cards_of(hand & suit_mask(s))]) for s in range(4))


@dataclass(frozen=True)
class _Option:
    """One game the cards are good for: its declaration, its value and the evaluator's margin."""

    declaration: Declaration
    value: int
    margin: float
    discard: Mask = 0


def _ten_card_options(hand: Mask, seat: int) -> list[_Option]:
    """The games the ten dealt cards are good for (module docstring, "Bidding")."""
    out: list[_Option] = []
    count = stegen_count(hand)
    if count.bid is not None:
        out.append(_Option(Declaration(count.game), count.bid, count.points - THRESHOLD))
    grand = evaluate_contract(hand | spare_cards(hand, Game.GRAND), Game.GRAND, forehand=seat == 0)
    if grand.playable:
        m = ten_card_matadors(Game.GRAND, hand)
        out.append(_Option(Declaration(Game.GRAND), BASE_VALUES[Game.GRAND] * (abs(m) + 1), grand.margin))
    danger = _null_safe(hand)
    if -danger >= NULL_THRESHOLD:
        out.append(_Option(Declaration(Game.NULL), NULL_VALUES[False, False], -danger))
    return out


def bid_limit(hand: Mask, seat: int) -> int | None:
    """The heuristic's limit for ten dealt cards at *seat*: the highest value it bids to, ``None`` to pass."""
    options = _ten_card_options(hand, seat)
    return max(o.value for o in options) if options else None


def _hand_game(hand: Mask, seat: int, bid: int) -> Declaration | None:
    """The hand game rule H1: the game to play without the skat, or ``None`` to pick up."""
    count = stegen_count(hand)
    choices: list[tuple[float, Declaration]] = []
    if count.points >= HAND_COUNT:
        m = ten_card_matadors(count.game, hand)
        if BASE_VALUES[count.game] * (abs(m) + 2) >= bid:
            choices.append((count.points - HAND_COUNT, Declaration(count.game, hand=True)))
    grand = evaluate_contract(hand | spare_cards(hand, Game.GRAND), Game.GRAND, forehand=seat == 0)
    m = ten_card_matadors(Game.GRAND, hand)
    if grand.playable and grand.margin >= HAND_MARGIN and BASE_VALUES[Game.GRAND] * (abs(m) + 2) >= bid:
        choices.append((grand.margin, Declaration(Game.GRAND, hand=True)))
    return max(choices, key=lambda c: c[0])[1] if choices else None


def _twelve_card_choice(twelve: Mask, seat: int, bid: int) -> _Option:
    """Rule H2: the game and discard for twelve cards after the pick-up."""
    options: list[_Option] = []
    for game in _SUITS_AND_GRAND:
        ev = evaluate_contract(twelve, game, forehand=seat == 0)
        value = BASE_VALUES[game] * (abs(matadors(game, twelve)) + 1)
        options.append(_Option(Declaration(game), value, ev.margin if ev.shape else ev.margin - 10, ev.discard))
    null = evaluate_contract(twelve, Game.NULL)
    options.append(_Option(Declaration(Game.NULL), NULL_VALUES[False, False], null.margin, null.discard))
    if null.score >= 0:
        options.append(_Option(Declaration(Game.NULL, ouvert=True), NULL_VALUES[True, False], null.margin, null.discard))
    reaching = [o for o in options if o.value >= bid]
    if reaching:
        return max(reaching, key=lambda o: o.margin)
    return max((o for o in options if not o.declaration.game.is_null), key=lambda o: (o.value, o.margin))


def _legal_declare(state: SeatState, declaration: Declaration) -> Action:
    """``Declare(declaration)`` when legal, else the first legal declaration of the same game, else the first."""
    wanted = Declare(declaration)
    if wanted in state.legal:
        return wanted
    same = [a for a in state.legal if isinstance(a, Declare) and a.declaration.game == declaration.game]
    return same[0] if same else state.legal[0]


class HeuristicChoices:
    """The heuristic's bid, pick-up, discard and declaration (module docstring) for one seat of one game.

    It remembers the game chosen with the discard for the declaration.
    """

    def __init__(self) -> None:
        self._chosen: Declaration | None = None

    def bid(self, state: SeatState) -> Action:
        """Say the next value or hold within :func:`bid_limit`, else pass."""
        limit = bid_limit(state.hand.mask, state.seat)
        first = state.legal[0]
        if isinstance(first, Say):
            return first if limit is not None and first.value <= limit else Pass()
        return Hold() if limit is not None and (state.bid or 0) <= limit else Pass()

    def pick_up(self, state: SeatState) -> Action:
        """Rule H1: a hand game for strong ten cards, else pick up."""
        self._chosen = _hand_game(state.hand.mask, state.seat, state.bid or 18)
        return PickUp() if self._chosen is None else PlayHand()

    def discard(self, state: SeatState) -> Action:
        """Rule H2: the evaluator's discard for the game chosen on the twelve cards."""
        option = _twelve_card_choice(state.hand.mask, state.seat, state.bid or 18)
        self._chosen = option.declaration
        return Discard(CardSet(option.discard))

    def declare(self, state: SeatState) -> Action:
        """Rule H3: the game chosen before (recomputed when this object did not choose it)."""
        chosen = self._chosen
        if chosen is None or chosen.hand != (not state.picked_up):
            if state.picked_up and state.discard is not None:
                chosen = _twelve_card_choice(state.hand.mask | state.discard.mask, state.seat, state.bid or 18).declaration
            else:
                chosen = _hand_game(state.hand.mask, state.seat, state.bid or 18) or _fallback_hand(state)
        return _legal_declare(state, chosen)


def _fallback_hand(state: SeatState) -> Declaration:
    """A hand game the rule H1 did not pick (another player chose to play hand): the best by the ten-card count."""
    options = _ten_card_options(state.hand.mask, state.seat)
    reaching = [o for o in options if o.value >= (state.bid or 18) and not o.declaration.game.is_null]
    best = max(reaching or options, key=lambda o: o.margin) if options else _Option(Declaration(Game.GRAND), 0, 0)
    game = best.declaration.game
    if game.is_null and NULL_VALUES[False, True] < (state.bid or 18):
        game = Game.GRAND
    return Declaration(game, hand=True)


def heuristic_choice(state: SeatState, choices: HeuristicChoices | None = None) -> Action:
    """The heuristic's answer to *state* in any phase but the play (the default for players without that method)."""
    chooser = choices if choices is not None else HeuristicChoices()
    method = {"auction": chooser.bid, "pick_up": chooser.pick_up, "discard": chooser.discard,
              "declare": chooser.declare}[str(state.phase)]
    return method(state)
