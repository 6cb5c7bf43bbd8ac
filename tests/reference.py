"""Slow, obviously-correct reference implementation of the Skat rules.

This module is a second, independent implementation of the rules in
``docs/rules.md`` (the International Skat Order plus the project's Decisions).
It is used by the test suite to cross-check the fast core on random cases, so
it favours clarity over speed everywhere and never imports the ``skat``
package.

Conventions:

* Cards are 2-character strings: suit letter (``C S H D``) followed by rank
  letter (``A T K Q J 9 8 7``), e.g. ``"CJ"``, ``"HA"``, ``"D7"``.
* Game types are ``"D" "H" "S" "C"`` (suit games), ``"G"`` (grand) and
  ``"N"`` (null).
* Seats: 0 = forehand, 1 = middlehand, 2 = rearhand.
* Moves of :class:`RefGame` are the ISS move tokens described in rules.md.
"""

from __future__ import annotations

import copy
from itertools import combinations
from typing import Any

# ---------------------------------------------------------------------------
# Cards
# ---------------------------------------------------------------------------

SUITS: str = "CSHD"
"""Suit letters, highest first: clubs, spades, hearts, diamonds."""

RANKS: str = "ATKQJ987"
"""Rank letters in the order used to list the deck."""

ALL_CARDS: list[str] = [suit + rank for suit in SUITS for rank in RANKS]
"""The 32 cards, suit by suit (C S H D), ranks A T K Q J 9 8 7."""

CARD_POINTS: dict[str, int] = {
    "A": 11,
    "T": 10,
    "K": 4,
    "Q": 3,
    "J": 2,
    "9": 0,
    "8": 0,
    "7": 0,
}
"""Card points by rank letter (total over the deck: 120)."""

JACKS: list[str] = ["CJ", "SJ", "HJ", "DJ"]
"""The four jacks, highest first."""

SUIT_ORDER_PLAIN: str = "ATKQ987"
"""Rank order of a suit in suit and grand games, jack excluded (it is trump)."""

SUIT_ORDER_NULL: str = "AKQJT987"
"""Rank order of every suit in null games (no trumps)."""

GAME_TYPES: str = "GCSHDN"
"""Game type letters as written in ISS declarations."""

BASE_VALUES: dict[str, int] = {"D": 9, "H": 10, "S": 11, "C": 12, "G": 24}
"""Base values of the suit games and grand."""

LEGAL_BIDS: list[int] = [
    18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44, 45, 46, 48, 50, 54, 55, 59,
    60, 63, 66, 70, 72, 77, 80, 81, 84, 88, 90, 96, 99, 100, 108, 110, 117, 120,
    121, 126, 130, 132, 135, 140, 143, 144, 150, 153, 154, 156, 160, 162, 165,
    168, 170, 176, 180, 187, 192, 198, 204, 216, 240, 264,
]  # fmt: skip
"""The 63 legal bids, copied from rules.md."""


def check_card(card: str) -> None:
    """Raise ``ValueError`` unless ``card`` is one of the 32 card strings."""
    if card not in ALL_CARDS:
        raise ValueError(f"not a card: {card!r}")


def points(card: str) -> int:
    """Return the card points of ``card`` (A 11, T 10, K 4, Q 3, J 2, else 0)."""
    check_card(card)
    return CARD_POINTS[card[1]]


def sort_cards(cards: list[str]) -> list[str]:
    """Return ``cards`` sorted in :data:`ALL_CARDS` order."""
    return sorted(cards, key=ALL_CARDS.index)


def null_value(hand: bool, ouvert: bool) -> int:
    """Return the fixed value of a null game: 23, hand 35, ouvert 46, ouvert hand 59."""
    if hand and ouvert:
        return 59
    if ouvert:
        return 46
    if hand:
        return 35
    return 23


def check_game_type(gt: str) -> None:
    """Raise ``ValueError`` unless ``gt`` is one of ``D H S C G N``."""
    if len(gt) != 1 or gt not in GAME_TYPES:
        raise ValueError(f"not a game type: {gt!r}")


# ---------------------------------------------------------------------------
# Trumps, following suit, tricks
# ---------------------------------------------------------------------------


def trump_order(gt: str) -> list[str]:
    """Return the trumps of game type ``gt``, highest first (empty for null).

    Suit games: CJ SJ HJ DJ, then A T K Q 9 8 7 of the trump suit (11 trumps).
    Grand: the four jacks only.
    """
    check_game_type(gt)
    if gt == "N":
        return []
    if gt == "G":
        return list(JACKS)
    return JACKS + [gt + rank for rank in SUIT_ORDER_PLAIN]


def is_trump(gt: str, card: str) -> bool:
    """Return whether ``card`` is a trump in game type ``gt``."""
    check_card(card)
    return card in trump_order(gt)


def follow_suit_of(gt: str, card: str) -> str:
    """Return the suit ``card`` belongs to for following suit, or ``"T"`` for trump.

    In suit and grand games every jack belongs to the trump suit, not to its
    printed suit. In null there are no trumps.
    """
    if is_trump(gt, card):
        return "T"
    return card[0]


def legal_plays(gt: str, hand: list[str], trick: list[str]) -> list[str]:
    """Return the cards of ``hand`` that may be played to ``trick`` (hand order).

    Leading (empty trick): any card. Otherwise a card of the led suit (trump
    counts as one suit) must be played if the hand has one; else any card.
    """
    for card in hand:
        check_card(card)
    if not trick:
        return list(hand)
    led = follow_suit_of(gt, trick[0])
    following = [card for card in hand if follow_suit_of(gt, card) == led]
    if following:
        return following
    return list(hand)


def trick_winner(gt: str, trick: list[str]) -> int:
    """Return the index (0..2) in ``trick`` of the card that wins it.

    ``trick[0]`` is the led card. The highest trump wins; without a trump the
    highest card of the led suit wins. Cards of other suits never win.
    """
    if not trick:
        raise ValueError("empty trick")
    for card in trick:
        check_card(card)
    trumps = trump_order(gt)
    led = follow_suit_of(gt, trick[0])
    order = SUIT_ORDER_NULL if gt == "N" else SUIT_ORDER_PLAIN

    def strength(card: str) -> tuple[int, int]:
        """Return a sort key: trumps above the led suit above everything else."""
        if card in trumps:
            return (2, len(trumps) - trumps.index(card))
        if follow_suit_of(gt, card) == led:
            return (1, len(order) - order.index(card[1]))
        return (0, 0)

    best = 0
    for index in range(1, len(trick)):
        if strength(trick[index]) > strength(trick[best]):
            best = index
    return best


# ---------------------------------------------------------------------------
# Game value
# ---------------------------------------------------------------------------


def matadors(gt: str, twelve_cards: list[str]) -> int:
    """Return the signed matadors of the declarer's 12 cards (0 for null).

    Counts the unbroken run from the top trump that the cards hold ("with n",
    positive) or lack ("without n", negative).
    """
    for card in twelve_cards:
        check_card(card)
    order = trump_order(gt)
    if not order:
        return 0
    holds_top = order[0] in twelve_cards
    run = 0
    for card in order:
        if (card in twelve_cards) != holds_top:
            break
        run += 1
    return run if holds_top else -run


def seeger_fabian(won: bool, value: int, doubling: int = 1) -> tuple[int, int, int]:
    """Return tournament scores (declarer, defender, defender) for an unsigned value.

    Win: value + 50 for the declarer. Loss: -2 * value - 50 for the declarer
    and +40 for each defender. ``doubling`` (Kontra, Re, Bock) multiplies the
    value, never the 50 and 40.
    """
    if won:
        return (value * doubling + 50, 0, 0)
    return (-2 * value * doubling - 50, 40, 40)


def game_value(
    gt: str,
    hand: bool,
    schneider_ann: bool,
    schwarz_ann: bool,
    ouvert: bool,
    bid: int,
    twelve_cards: list[str],
    declarer_points: int,
    declarer_tricks: int,
    defender_tricks: int,
    stopped_early: bool = False,
    doubling: int = 1,
) -> dict[str, Any]:
    """Score a finished game.

    Returns a dict with ``won``, ``value`` (signed like ISS ``v:``: the value
    when won, minus twice the value when lost), ``matadors`` (signed, 0 for
    null), ``schneider`` and ``schwarz`` (reached during play; always False in
    null and when ``stopped_early``), ``overbid`` and ``scores`` (Seeger-Fabian
    for declarer, defender, defender).

    Suit and grand: multiplier = |matadors| + 1 + hand + schneider (reached by
    either party or announced) + schneider announced + schwarz (reached or
    announced) + schwarz announced + ouvert. Ouvert implies hand, schneider
    and schwarz announced; schwarz announced implies schneider announced.
    The declarer wins with 61+ points (90+ if schneider was announced, all ten
    tricks if schwarz was announced). If the value is below the bid the game
    is lost and its value becomes the smallest multiple of the base value that
    reaches the bid.

    Null: value 23 / hand 35 / ouvert 46 / ouvert hand 59, won iff the
    declarer took no trick. A null game below the bid is not a legal
    declaration (rules.md Decision), so it raises ``ValueError`` here.

    ``stopped_early`` means play stopped because the result was certain; then
    schneider and schwarz reached are neither reported nor counted (announced
    levels still count).

    ``doubling`` (2 for Kontra, 4 with Re, twice that in a Bock game) multiplies
    the value, won or lost.
    """
    check_game_type(gt)
    if len(twelve_cards) != 12 or len(set(twelve_cards)) != 12:
        raise ValueError("twelve_cards must be 12 distinct cards")
    for card in twelve_cards:
        check_card(card)

    if gt == "N":
        value = null_value(hand, ouvert)
        if value < bid:
            raise ValueError(f"null worth {value} cannot be declared at bid {bid}")
        won = declarer_tricks == 0
        return {
            "won": won,
            "value": (value if won else -2 * value) * doubling,
            "matadors": 0,
            "schneider": False,
            "schwarz": False,
            "overbid": False,
            "scores": seeger_fabian(won, value, doubling),
        }

    if ouvert:
        hand = True
        schneider_ann = True
        schwarz_ann = True
    if schwarz_ann:
        schneider_ann = True
    if schneider_ann and not hand:
        raise ValueError("only hand games may announce schneider or schwarz")

    mats = matadors(gt, twelve_cards)
    schneider = (not stopped_early) and (declarer_points >= 90 or declarer_points <= 30)
    schwarz = (not stopped_early) and (declarer_tricks == 0 or defender_tricks == 0)

    multiplier = abs(mats) + 1
    if hand:
        multiplier += 1
    if schneider or schneider_ann:
        multiplier += 1
    if schneider_ann:
        multiplier += 1
    if schwarz or schwarz_ann:
        multiplier += 1
    if schwarz_ann:
        multiplier += 1
    if ouvert:
        multiplier += 1
    base = BASE_VALUES[gt]
    value = base * multiplier

    needed_points = 90 if schneider_ann else 61
    won = declarer_points >= needed_points
    if schwarz_ann and declarer_tricks != 10:
        won = False

    overbid = value < bid
    if overbid:
        won = False
        value = base
        while value < bid:
            value += base

    return {
        "won": won,
        "value": (value if won else -2 * value) * doubling,
        "matadors": mats,
        "schneider": schneider,
        "schwarz": schwarz,
        "overbid": overbid,
        "scores": seeger_fabian(won, value, doubling),
    }


# ---------------------------------------------------------------------------
# Declarations
# ---------------------------------------------------------------------------


def parse_declaration(token: str) -> tuple[str, bool, bool, bool, bool]:
    """Parse a declaration token into ``(gt, hand, schneider, schwarz, ouvert)``.

    The first letter is the game type (G C S H D N); the remaining letters are
    modifiers H (hand), S (schneider announced), Z (schwarz announced) and O
    (ouvert), in any order, each at most once. Null accepts only H and O. For
    suit and grand, ouvert implies hand, schneider and schwarz, and schwarz
    implies schneider; the implied flags are set in the result.
    """
    if not token or token[0] not in GAME_TYPES:
        raise ValueError(f"not a declaration: {token!r}")
    gt = token[0]
    modifiers = token[1:]
    allowed = "HO" if gt == "N" else "HSZO"
    if len(set(modifiers)) != len(modifiers) or any(m not in allowed for m in modifiers):
        raise ValueError(f"not a declaration: {token!r}")
    hand = "H" in modifiers
    schneider = "S" in modifiers
    schwarz = "Z" in modifiers
    ouvert = "O" in modifiers
    if gt != "N":
        if ouvert:
            hand = True
            schneider = True
            schwarz = True
        if schwarz:
            schneider = True
    return (gt, hand, schneider, schwarz, ouvert)


def declaration_token(gt: str, hand: bool, schneider: bool, schwarz: bool, ouvert: bool) -> str:
    """Write a declaration as the ISS server does (``CHZ``, ``GO``, ``NOH``, ``D``...)."""
    if gt == "N":
        return "N" + ("O" if ouvert else "") + ("H" if hand else "")
    if ouvert:
        return gt + "O"
    token = gt + ("H" if hand else "")
    if schwarz:
        return token + "Z"
    if schneider:
        return token + "S"
    return token


def hand_declarations(bid: int) -> list[str]:
    """Return the legal declarations without picking up the skat, at ``bid``."""
    tokens: list[str] = []
    for gt in "GCSHD":
        tokens += [gt + "H", gt + "HS", gt + "HZ", gt + "O"]
    if null_value(True, False) >= bid:
        tokens.append("NH")
    if null_value(True, True) >= bid:
        tokens.append("NOH")
    return tokens


def pickup_declarations(bid: int) -> list[str]:
    """Return the legal declarations after picking up the skat, at ``bid``."""
    tokens = ["G", "C", "S", "H", "D"]
    if null_value(False, False) >= bid:
        tokens.append("N")
    if null_value(False, True) >= bid:
        tokens.append("NO")
    return tokens


# ---------------------------------------------------------------------------
# Game referee
# ---------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------
# Search helpers
# ---------------------------------------------------------------------------


def count_play_sequences(game: RefGame) -> int:
    """Count the legal card-play sequences from ``game``'s position to the end.

    A finished game counts as one (empty) sequence. The game must be in the
    card-play phase (or over). Plain recursion over deep copies.
    """
    if game.is_over:
        return 1
    if game.phase != "play":
        raise ValueError("count_play_sequences needs a card-play position")
    total = 0
    for token in game.legal_tokens():
        child = copy.deepcopy(game)
        child.apply(token)
        total += count_play_sequences(child)
    return total


def minimax(
    hands: list[list[str]],
    gt: str,
    declarer: int,
    leader: int,
    trick: list[str],
    declarer_points: int,
    tricks_played: int = 0,
) -> int:
    """Exhaustive open-hand minimax (no pruning) of a card-play position.

    ``hands[seat]`` are the cards each seat still holds (cards already in
    ``trick`` removed); ``leader`` led the current ``trick`` (possibly empty).

    Suit and grand: returns the declarer's final card points, starting from
    ``declarer_points``; the declarer maximises, the defenders minimise, and
    every remaining trick is played out.

    Null: returns 0 if the declarer can avoid every remaining trick, else the
    number (counted from the game's first trick; ``tricks_played`` tricks are
    already complete) of the earliest trick the defenders can force her to
    take while she delays as long as possible. ``declarer_points`` is ignored.
    """
    check_game_type(gt)
    if gt == "N":
        return _null_search(hands, declarer, leader, trick, tricks_played)
    return _points_search(hands, gt, declarer, leader, trick, declarer_points)


def _without(hands: list[list[str]], seat: int, card: str) -> list[list[str]]:
    """Return a copy of ``hands`` with ``card`` removed from ``hands[seat]``."""
    result = [list(h) for h in hands]
    result[seat].remove(card)
    return result


def _points_search(
    hands: list[list[str]],
    gt: str,
    declarer: int,
    leader: int,
    trick: list[str],
    declarer_points: int,
) -> int:
    """Minimax of the declarer's final card points in a suit or grand game."""
    if len(trick) == 3:
        winner = (leader + trick_winner(gt, trick)) % 3
        if winner == declarer:
            declarer_points += sum(points(c) for c in trick)
        if not any(hands):
            return declarer_points
        return _points_search(hands, gt, declarer, winner, [], declarer_points)
    seat = (leader + len(trick)) % 3
    if not trick and not hands[seat]:
        return declarer_points
    outcomes = [
        _points_search(
            _without(hands, seat, card), gt, declarer, leader, [*trick, card], declarer_points
        )
        for card in legal_plays(gt, hands[seat], trick)
    ]
    return max(outcomes) if seat == declarer else min(outcomes)


def _null_key(trick_number: int) -> float:
    """Order null outcomes for the declarer: later is better, never (0) is best."""
    return float("inf") if trick_number == 0 else float(trick_number)


def _null_search(
    hands: list[list[str]],
    declarer: int,
    leader: int,
    trick: list[str],
    tricks_played: int,
) -> int:
    """Minimax of the first trick the null declarer takes (0 = none)."""
    if len(trick) == 3:
        winner = (leader + trick_winner("N", trick)) % 3
        if winner == declarer:
            return tricks_played + 1
        if not any(hands):
            return 0
        return _null_search(hands, declarer, winner, [], tricks_played + 1)
    seat = (leader + len(trick)) % 3
    if not trick and not hands[seat]:
        return 0
    outcomes = [
        _null_search(_without(hands, seat, card), declarer, leader, [*trick, card], tricks_played)
        for card in legal_plays("N", hands[seat], trick)
    ]
    if seat == declarer:
        return max(outcomes, key=_null_key)
    return min(outcomes, key=_null_key)
