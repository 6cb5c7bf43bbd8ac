"""The JSON the browser gets: one session's table as its person may see it.

Only what the person's seat may know is sent while a game runs (its ``View``): the other
hands, the skat and the other declarer's discard stay hidden until the game is over, when
every hand is shown.
"""

from __future__ import annotations

from typing import Any

from skat._core import Action, Card, Cards, Contract, GameType, Phase, matadors
from skat.defaults import LANG
from skat.ui import words
from skat.ui.common import (
    card_text,
    ramsch_seats,
    valuation,
)
from skat.ui.session import Session

__all__ = ["card_json", "session_state"]

PHASES = {
    Phase.BIDDING: "bidding",
    Phase.SKAT: "skat",
    Phase.DISCARD: "discard",
    Phase.DECLARE: "declare",
    Phase.PLAY: "play",
    Phase.OVER: "over",
}


def card_json(card: Card) -> dict[str, str]:
    """``{"card": "HT", "suit": "H", "rank": "10", "text": "♥10"}``."""
    rank = card.rank.letter
    return {
        "card": str(card),
        "suit": card.suit.letter,
        "rank": "10" if rank == "T" else rank,
        "text": card_text(card),
    }


def _cards(cards: Cards | None, game_type: GameType | None = None) -> list[dict[str, str]] | None:
    return None if cards is None else [card_json(c) for c in cards.sorted(game_type)]


def _contract_json(contract: Contract, lang: str = LANG) -> dict[str, Any]:
    return {"token": str(contract), "name": words.contract_text(contract, lang)}


def _action_json(action: Action, known: Cards, bid: int, lang: str = LANG) -> dict[str, Any]:
    kind = action.kind
    out: dict[str, Any] = {"token": str(action), "kind": kind}
    if kind == "bid":
        out["label"] = str(action.bid)
    elif kind in ("hold", "pass", "pickup", "kontra", "re"):
        out["label"] = words.action_label(kind, lang)
    elif kind == "declare" and action.contract is not None:
        c = action.contract
        out["label"] = words.contract_text(c, lang)
        gt = c.game_type
        if gt == GameType.NULL:
            out["value"] = c.base_value
        else:
            mats = matadors(gt, known)
            out["value"] = c.value(mats)
            out["matadors"] = mats
        out["below_bid"] = out["value"] < bid
    elif kind == "play" and action.card is not None:
        out["label"] = card_text(action.card)
        out["card"] = str(action.card)
    else:
        out["label"] = words.action_phrase(action, True, lang)
    return out


SPECTATOR = -1
"""The ``chair`` of a spectator: sees only what everybody at the table sees."""


def session_state(
    session: Session,
    session_id: str,
    version: int,
    busy: bool,
    chair: int | None = None,
    lang: str = LANG,
) -> dict[str, Any]:
    """The state of ``session`` for the person in ``chair`` (default: the session's own
    person; :data:`SPECTATOR`: public information only), its words in ``lang``
    (:data:`skat.ui.words.LANGS`), JSON-ready (call with ``session.lock`` held)."""
    s = session
    g = s.game
    watching = chair == SPECTATOR
    mine = s.human_chair if chair is None or watching else chair
    # a spectator sees through a seat that is not the declarer's, with its hand taken away
    you = s.seat_of(mine) if not watching else next(x for x in range(3) if x != g.declarer)
    view = g.view(you)
    contract = g.contract
    gt = contract.game_type if contract is not None else None
    over = g.is_over
    legal = [] if busy or watching or not s.waiting_for(mine) else g.legal_actions()
    known = view.hand | (view.discard if view.discard is not None else Cards())
    won_tricks = [0, 0, 0]
    for _, _, winner in view.tricks:
        won_tricks[winner] += 1
    in_hand = [len(g.hands[seat]) for seat in range(3)]
    players = []
    me = None if watching else you  # whom the texts call "you"
    for seat in range(3):
        at = s.chair_at(seat)
        role = None
        if g.declarer is not None and contract is not None:
            role = "declarer" if seat == g.declarer else "defender"
        players.append(
            {
                "seat": seat,
                "position": words.seat_name(seat, lang),
                "chair": at,
                "name": words.display_name(s.names[at], lang),
                "you": seat == me,
                "role": role,
                "tricks": won_tricks[seat],
                "cards": in_hand[seat],
            }
        )
    log = []
    for who, action in view.history:
        if not isinstance(who, int) or action.kind == "play":
            continue
        name = (
            words.you_name(lang)
            if who == me
            else words.display_name(s.names[s.chair_at(who)], lang)
        )
        text = words.action_phrase(action, who == me, lang)
        log.append({"seat": who, "text": f"{name} {text}"})
    trick = [{"seat": (view.leader + i) % 3, **card_json(c)} for i, c in enumerate(view.trick)]
    last_trick = None
    if view.tricks:
        leader, cards, winner = view.tricks[-1]
        last_trick = {
            "number": len(view.tricks),
            "cards": [{"seat": (leader + i) % 3, **card_json(c)} for i, c in enumerate(cards)],
            "winner": winner,
            "points": sum(c.points for c in cards),
        }
    legal_cards = {str(a.card) for a in legal if a.card is not None}
    in_play = g.phase == Phase.PLAY and not over
    from_skat = view.skat if g.declarer == you and view.skat is not None else Cards()
    hand = [
        {**card_json(c), "legal": str(c) in legal_cards, "from_skat": c in from_skat}
        for c in (Cards() if watching else view.hand).sorted(gt)
    ]
    state: dict[str, Any] = {
        "id": session_id,
        "lang": lang,
        "version": version,
        "busy": busy,
        "game": s.index + 1,
        "doubling": ["Kontra", "Re"][: g.kontra] + (["Bock"] if "bock" in g.variants else []),
        "ramsch": g.ramsch,
        "games": s.games,
        "seed": s.seed,
        "you": me,
        "spectator": watching,
        "phase": PHASES.get(view.phase, "over"),
        "to_move": g.to_move,
        "your_turn": bool(legal),
        "players": players,
        "hand": hand,
        "legal": [_action_json(a, known, g.bid, lang) for a in legal if a.kind != "play"],
        "bid": g.bid,
        "declarer": g.declarer,
        "contract": None if contract is None else _contract_json(contract, lang),
        "log": log,
        "trick": trick,
        "leader": view.leader,
        "last_trick": last_trick,
        "skat": _cards(view.skat, gt) if g.declarer == me else None,
        "discard": _cards(view.discard, gt) if not watching else None,
        "open_hand": _cards(view.open_hand, gt) if g.declarer != me else None,
        "over": over,
        "list_over": s.list_over,
        "finished": len(s.finished),
        "result": None,
        "sheet": {
            **s.sheet(lang).as_dict(),
            "names": [words.display_name(n, lang) for n in s.names],
        },
        "notes": s.notes[-5:],
        "rated": not s.undo_allowed,
        "can_undo": s.can_undo and chair is None,
        "can_claim": in_play and g.declarer == me and chair is None,
        "can_concede": in_play and chair is None,
    }
    if over:
        r = g.result
        assert r is not None
        v = valuation(r)
        lines = words.valuation_lines(r, lang)
        declarer_you = r.declarer == me
        you_name = words.you_name(lang)
        name = (
            you_name
            if declarer_you or r.declarer is None
            else words.display_name(s.names[s.chair_at(r.declarer)], lang)
        )
        named = ramsch_seats(r)
        if named:  # a Ramsch: its losers, or who made a Durchmarsch
            declarer_you = me in named
            name = " & ".join(
                you_name if x == me else words.display_name(s.names[s.chair_at(x)], lang)
                for x in named
            )
        text = words.result_sentence(r, name, declarer_you or len(named) > 1, lang)
        state["result"] = {
            "text": text,
            "won": r.won,
            "declarer": r.declarer,
            "value": r.value,
            "declarer_points": r.declarer_points,
            "valuation": {**v.as_dict(), "lines": lines},
            "scores": list(r.scores),
            "hands": [_cards(g.deal.hands[seat], gt) for seat in range(3)],
            "skat": _cards(g.deal.skat, gt),
            "put_away": _cards(g.skat, gt) if g.picked_up else None,
        }
    return state
