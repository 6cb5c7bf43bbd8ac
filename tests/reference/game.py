"""The reference's game referee: one deal from the auction to the score, driven by ISS move
tokens.

A :class:`RefGame` only ever moves forward through its phases, and a refused token raises
``ValueError`` before anything changes.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from .cards import ALL_CARDS, LEGAL_BIDS, legal_plays, points, sort_cards, trick_winner
from .value import (
    declaration_token,
    game_value,
    hand_declarations,
    parse_declaration,
    pickup_declarations,
)


class RefGame:
    """A complete Skat deal, driven by ISS move tokens.

    Phases (``phase``): ``"auction"``, ``"skat"`` (pick up with ``s`` or
    declare a hand game), ``"discard"``, ``"declare"``, ``"play"`` and
    ``"over"``. ``to_move`` is the seat whose token is expected (None when the
    game is over); ``apply`` raises ``ValueError`` for any illegal token.

    With ``kontra`` (rules.md, variants): in card play a defender who still
    holds all ten cards may say ``KO`` at her turn, once per game; after it the
    declarer may say ``RK`` at her turns until she plays a card. Neither passes
    the turn. Each doubles the value; ``bock`` doubles it once more.

    With ``ramsch`` (rules.md, variants): when all pass the deal is a Ramsch,
    played with grand's trumps, every seat for itself; the skat goes to the
    winner of the last trick. With ``schieberamsch`` first each seat in turn
    either takes the skat (``s``) and puts two cards back, no jack (one push,
    doubling), or passes it on (``p``).
    """

    def __init__(
        self,
        deal: list[str],
        kontra: bool = False,
        bock: bool = False,
        ramsch: bool = False,
        schieberamsch: bool = False,
    ) -> None:
        """Start a deal from 32 cards in ISS order: 10 + 10 + 10 + skat 2."""
        if len(deal) != 32 or sorted(deal) != sorted(ALL_CARDS):
            raise ValueError("a deal is the 32 distinct cards")
        self.dealt: list[list[str]] = [list(deal[0:10]), list(deal[10:20]), list(deal[20:30])]
        self.hands: list[list[str]] = [list(h) for h in self.dealt]
        self.skat: list[str] = list(deal[30:32])
        self.moves: list[tuple[int, str]] = []
        self.phase: str = "auction"
        # Auction state.
        self.bid: int = 0
        self.bidder: int = 1
        self.responder: int = 0
        self.stage: int = 1  # 1: middlehand bids; 2: rearhand bids; 3: forehand may play 18.
        self.awaiting: str = "bid"  # "bid" (bidder), "answer" (responder), "forehand".
        self.passed: bool = False
        # Declaration state.
        self.declarer: int | None = None
        self.game_type: str | None = None
        self.hand_game: bool = False
        self.schneider_ann: bool = False
        self.schwarz_ann: bool = False
        self.ouvert: bool = False
        self.discard: list[str] = []
        self.pending_declaration: str | None = None
        # Card play state.
        self.leader: int = 0
        self.trick: list[str] = []
        self.tricks_played: int = 0
        self.declarer_points: int = 0
        self.declarer_tricks: int = 0
        self.defender_tricks: int = 0
        self.stopped_early: bool = False
        # Variants.
        self.kontra_allowed: bool = kontra
        self.bock: bool = bock
        self.kontra_said: bool = False
        self.re_said: bool = False
        self.declarer_cards_since_kontra: int = 0
        self.ramsch_allowed: bool = ramsch or schieberamsch
        self.schieben: bool = schieberamsch
        self.is_ramsch: bool = False
        self.pusher: int = 0
        self.pushes: int = 0
        self.seat_points: list[int] = [0, 0, 0]
        self.seat_tricks: list[int] = [0, 0, 0]

    # -- queries ------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """Whether the deal is finished (played out, stopped, or all passed)."""
        return self.phase == "over"

    @property
    def to_move(self) -> int | None:
        """The seat expected to move next, or None when the game is over."""
        if self.phase == "auction":
            if self.awaiting == "bid":
                return self.bidder
            if self.awaiting == "answer":
                return self.responder
            return 0
        if self.phase in ("ramsch_skat", "ramsch_push"):
            return self.pusher
        if self.phase in ("skat", "discard", "declare"):
            return self.declarer
        if self.phase == "play":
            return (self.leader + len(self.trick)) % 3
        return None

    def legal_tokens(self) -> list[str]:
        """Return every legal token for the seat to move, in a fixed order."""
        if self.phase == "auction":
            if self.awaiting == "bid":
                return [str(b) for b in LEGAL_BIDS if b > self.bid] + ["p"]
            if self.awaiting == "answer":
                return ["y", "p"]
            return ["18", "p"]
        if self.phase == "ramsch_skat":
            return ["s", "p"]
        if self.phase == "ramsch_push":
            plain = sort_cards([c for c in self.hands[self.pusher] if c[1] != "J"])
            return [a + "." + b for a, b in combinations(plain, 2)]
        if self.phase == "skat":
            return ["s", *hand_declarations(self.bid)]
        if self.phase == "discard":
            assert self.declarer is not None
            cards = sort_cards(self.hands[self.declarer])
            return [a + "." + b for a, b in combinations(cards, 2)]
        if self.phase == "declare":
            return pickup_declarations(self.bid)
        if self.phase == "play":
            seat = self.to_move
            assert seat is not None and self.game_type is not None
            tokens = sort_cards(legal_plays(self.game_type, self.hands[seat], self.trick))
            if self.is_ramsch:
                return tokens
            if (
                self.kontra_allowed
                and not self.kontra_said
                and seat != self.declarer
                and len(self.hands[seat]) == 10
            ):
                tokens.append("KO")
            if (
                self.kontra_said
                and not self.re_said
                and seat == self.declarer
                and self.declarer_cards_since_kontra == 0
            ):
                tokens.append("RK")
            return tokens
        return []

    @property
    def result(self) -> dict[str, Any] | None:
        """The result once the game is over (None before).

        ``{"passed": True}`` if all passed; otherwise the :func:`game_value`
        dict plus ``passed`` (False), ``declarer``, ``bid``, ``game_type``,
        ``declaration``, ``declarer_points`` (skat or discard included) and
        ``declarer_tricks``.
        """
        if self.phase != "over":
            return None
        if self.passed:
            return {"passed": True}
        if self.is_ramsch:
            return self._ramsch_result()
        assert self.declarer is not None and self.game_type is not None
        twelve = self.dealt[self.declarer] + self.skat
        res = game_value(
            self.game_type,
            self.hand_game,
            self.schneider_ann,
            self.schwarz_ann,
            self.ouvert,
            self.bid,
            twelve,
            self.declarer_points,
            self.declarer_tricks,
            self.defender_tricks,
            self.stopped_early,
            (2 if self.kontra_said else 1) * (2 if self.re_said else 1) * (2 if self.bock else 1),
        )
        res["passed"] = False
        res["declarer"] = self.declarer
        res["bid"] = self.bid
        res["game_type"] = self.game_type
        res["declaration"] = declaration_token(
            self.game_type, self.hand_game, self.schneider_ann, self.schwarz_ann, self.ouvert
        )
        res["declarer_points"] = self.declarer_points
        res["declarer_tricks"] = self.declarer_tricks
        return res

    # -- moves --------------------------------------------------------------

    def apply(self, token: str) -> None:
        """Apply the ISS move ``token`` of the seat to move (``ValueError`` if illegal)."""
        seat = self.to_move
        if seat is None:
            raise ValueError("the game is over")
        if self.phase == "auction":
            self._apply_auction(token)
        elif self.phase in ("ramsch_skat", "ramsch_push"):
            self._apply_ramsch_skat(token)
        elif self.phase == "skat":
            self._apply_skat(token)
        elif self.phase == "discard":
            self._apply_discard(token)
        elif self.phase == "declare":
            self._apply_declare(token)
        else:
            self._apply_card(token)
        self.moves.append((seat, token))

    def _require_legal(self, token: str) -> None:
        """Raise ``ValueError`` unless ``token`` is in :meth:`legal_tokens`."""
        if token not in self.legal_tokens():
            raise ValueError(f"illegal token {token!r} in phase {self.phase}")

    def _apply_auction(self, token: str) -> None:
        """Handle a bid, hold, pass, or forehand's 18."""
        self._require_legal(token)
        if self.awaiting == "forehand":
            if token == "p" and self.ramsch_allowed:
                self.is_ramsch = True
                self.game_type = "G"
                self.phase = "ramsch_skat" if self.schieben else "play"
            elif token == "p":
                self.passed = True
                self.phase = "over"
            else:
                self.bid = 18
                self._start_declaration(0)
            return
        if self.awaiting == "bid":
            if token == "p":
                self._stage_won_by(self.responder)
            else:
                self.bid = int(token)
                self.awaiting = "answer"
            return
        # Responder's answer.
        if token == "y":
            self.awaiting = "bid"
        else:
            self._stage_won_by(self.bidder)

    def _stage_won_by(self, survivor: int) -> None:
        """Close the current auction stage with ``survivor`` left in."""
        if self.stage == 1:
            self.stage = 2
            self.bidder = 2
            self.responder = survivor
            self.awaiting = "bid"
        elif self.bid == 0:
            # Middlehand and rearhand passed without any bid.
            self.stage = 3
            self.awaiting = "forehand"
        else:
            self._start_declaration(survivor)

    def _start_declaration(self, declarer: int) -> None:
        """Make ``declarer`` the declarer and move to the skat decision."""
        self.declarer = declarer
        self.phase = "skat"

    def _apply_skat(self, token: str) -> None:
        """Handle ``s`` (pick up the skat) or a hand declaration."""
        assert self.declarer is not None
        if token == "s":
            self.hands[self.declarer] = self.hands[self.declarer] + self.skat
            self.phase = "discard"
            return
        canonical = declaration_token(*parse_declaration(token))
        if canonical not in hand_declarations(self.bid):
            raise ValueError(f"illegal hand declaration {token!r} at bid {self.bid}")
        self.discard = list(self.skat)
        self._declare(canonical)

    def _apply_discard(self, token: str) -> None:
        """Handle a discard ``X.Y`` or a combined declaration ``D.X.Y``.

        As in some ISS records, a plain pick-up declaration (``D``) is also
        accepted here; it is remembered and takes effect with the discard that
        must follow (``legal_tokens`` still lists only the discards).
        """
        assert self.declarer is not None
        parts = token.split(".")
        declaration: str | None
        if len(parts) == 1 and self.pending_declaration is None:
            # ISS also writes the declaration and the discard as two moves.
            declaration = declaration_token(*parse_declaration(token))
            if declaration not in pickup_declarations(self.bid):
                raise ValueError(f"illegal declaration {token!r} at bid {self.bid}")
            self.pending_declaration = declaration
            return
        if len(parts) == 2:
            declaration = self.pending_declaration
            cards = parts
        elif len(parts) == 3 and self.pending_declaration is None:
            declaration = declaration_token(*parse_declaration(parts[0]))
            if declaration not in pickup_declarations(self.bid):
                raise ValueError(f"illegal declaration {parts[0]!r} at bid {self.bid}")
            cards = parts[1:]
        else:
            raise ValueError(f"not a discard: {token!r}")
        hand = self.hands[self.declarer]
        if cards[0] == cards[1] or cards[0] not in hand or cards[1] not in hand:
            raise ValueError(f"illegal discard {token!r}")
        self.discard = list(cards)
        self.hands[self.declarer] = [c for c in hand if c not in cards]
        self.phase = "declare"
        if declaration is not None:
            self._declare(declaration)

    def _apply_declare(self, token: str) -> None:
        """Handle a declaration after pick-up and discard."""
        canonical = declaration_token(*parse_declaration(token))
        if canonical not in pickup_declarations(self.bid):
            raise ValueError(f"illegal declaration {token!r} at bid {self.bid}")
        self._declare(canonical)

    def _declare(self, canonical: str) -> None:
        """Set the contract from a legal canonical declaration and start play."""
        gt, hand, schneider, schwarz, ouvert = parse_declaration(canonical)
        self.game_type = gt
        self.hand_game = hand
        self.schneider_ann = schneider
        self.schwarz_ann = schwarz
        self.ouvert = ouvert
        # The skat (hand) or the discard counts for the declarer.
        self.declarer_points = sum(points(c) for c in self.discard)
        self.leader = 0
        self.trick = []
        self.phase = "play"

    def _apply_ramsch_skat(self, token: str) -> None:
        """Schieberamsch: take the skat, push two cards (in either order), or pass it on."""
        if "." in token:
            token = ".".join(sort_cards(token.split(".")))
        self._require_legal(token)
        seat = self.pusher
        if token == "s":
            self.hands[seat] = self.hands[seat] + self.skat
            self.skat = []
            self.phase = "ramsch_push"
            return
        if token != "p":
            cards = token.split(".")
            self.hands[seat] = [c for c in self.hands[seat] if c not in cards]
            self.skat = list(cards)
            self.pushes += 1
        self.pusher += 1
        self.phase = "play" if self.pusher == 3 else "ramsch_skat"

    def _ramsch_trick(self) -> None:
        """Close a Ramsch trick; after the tenth the skat goes to its winner."""
        assert self.game_type == "G"
        winner = (self.leader + trick_winner("G", self.trick)) % 3
        self.seat_points[winner] += sum(points(c) for c in self.trick)
        self.seat_tricks[winner] += 1
        self.tricks_played += 1
        self.trick = []
        self.leader = winner
        if self.tricks_played == 10:
            self.seat_points[winner] += sum(points(c) for c in self.skat)
            self.phase = "over"

    def _ramsch_result(self) -> dict[str, Any]:
        """Most points lose them (ties: all of them), Jungfrau doubles, Durchmarsch +120;
        every push and Bock double."""
        factor = 2**self.pushes * (2 if self.bock else 1)
        pts, tricks = self.seat_points, self.seat_tricks
        scores = [0, 0, 0]
        through = [s for s in range(3) if tricks[s] == 10]
        losers: list[int] = []
        virgin = None
        if through:
            value = 120 * factor
            scores[through[0]] = value
        else:
            virgin = next((s for s in range(3) if tricks[s] == 0), None)
            most = max(pts)
            value = -most * factor * (2 if virgin is not None else 1)
            losers = [s for s in range(3) if pts[s] == most]
            for s in losers:
                scores[s] = value
        return {
            "passed": False,
            "ramsch": True,
            "value": value,
            "scores": scores,
            "points": list(pts),
            "tricks": list(tricks),
            "losers": losers,
            "jungfrau": virgin,
            "durchmarsch": through[0] if through else None,
            "pushes": self.pushes,
        }

    def _apply_card(self, token: str) -> None:
        """Play a card (or say Kontra or Re); close the trick and end the game when due."""
        self._require_legal(token)
        seat = self.to_move
        assert seat is not None and self.game_type is not None
        if self.is_ramsch:
            self.hands[seat].remove(token)
            self.trick.append(token)
            if len(self.trick) == 3:
                self._ramsch_trick()
            return
        assert self.declarer is not None
        if token == "KO":
            self.kontra_said = True
            return
        if token == "RK":
            self.re_said = True
            return
        if seat == self.declarer and self.kontra_said:
            self.declarer_cards_since_kontra += 1
        self.hands[seat].remove(token)
        self.trick.append(token)
        if len(self.trick) < 3:
            return
        winner = (self.leader + trick_winner(self.game_type, self.trick)) % 3
        if winner == self.declarer:
            self.declarer_points += sum(points(c) for c in self.trick)
            self.declarer_tricks += 1
        else:
            self.defender_tricks += 1
        self.tricks_played += 1
        self.trick = []
        self.leader = winner
        null_lost = self.game_type == "N" and winner == self.declarer
        schwarz_lost = self.game_type != "N" and self.schwarz_ann and winner != self.declarer
        if self.tricks_played == 10:
            self.phase = "over"
        elif null_lost or schwarz_lost:
            # The result is certain: play stops here.
            self.stopped_early = True
            self.phase = "over"
