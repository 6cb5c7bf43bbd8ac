"""How the AI players play a Ramsch (all passed at a table with that variant).

Rule-based play, used by the ``rules`` player everywhere and by the PIMC players where their
search is too slow (the first trick) and for the Schieberamsch skat round:

- skat round: pass the skat on unseen (a push doubles the Ramsch for everybody, and the cards
  found are as likely to hurt as to help);
- leading: the weakest card (lowest power, then fewest points), so that someone else takes
  the trick;
- following: the card that does not win the trick and carries the most points (get rid of
  points on someone else's trick); when every card wins, the one with the fewest points.

The PIMC players search every later trick (:func:`skat._core.ramsch_decide`, at most
:data:`skat.defaults.RAMSCH_WORLDS` worlds).

>>> import skat
>>> g = skat.Game(skat.Deal.random(5), variants="ramsch")
>>> for t in ("p", "p", "p"):
...     g.apply(t)
>>> ramsch_rules_action(g.view(0)).kind
'play'
"""

from __future__ import annotations

from skat._core import Action, Card, GameType, Phase, View, card_power, trick_winner

__all__ = ["ramsch_rules_action"]


def _strength(card: Card, led: Card) -> int:
    return card_power(GameType.GRAND, card, led)


def ramsch_rules_action(view: View) -> Action:
    """The rule-based action of ``view.seat`` in a Ramsch (skat round or card play)."""
    legal = view.legal_actions()
    if view.phase != Phase.PLAY:
        passing = next((a for a in legal if a.kind == "pass"), None)
        if passing is not None:
            return passing
        # a skat picked up (by someone else's choice of action): push the two most points on
        discards = [a for a in legal if a.cards is not None]
        return max(discards, key=lambda a: sum(c.points for c in a.cards or ()))
    cards = [a.card for a in legal if a.card is not None]
    if not view.trick:
        choice = min(cards, key=lambda c: (_strength(c, c), c.points))
    else:
        trick = list(view.trick)
        led = trick[0]

        def wins(card: Card) -> bool:
            return trick_winner(GameType.GRAND, [*trick, card]) == len(trick)

        losing = [c for c in cards if not wins(c)]
        if losing:
            choice = max(losing, key=lambda c: (c.points, _strength(c, led)))
        else:
            choice = min(cards, key=lambda c: (c.points, -_strength(c, led)))
    return next(a for a in legal if a.card == choice)
