"""The reference's game value (matadors, schneider, schwarz, overbidding, Seeger-Fabian
scores) and its declarations (the ISS declaration tokens and which of them a bid allows).

Values follow ``docs/rules.md`` step by step; nothing here looks at a card-play sequence
beyond the counts and flags it is given.
"""

from __future__ import annotations

from typing import Any

from .cards import (
    BASE_VALUES,
    GAME_TYPES,
    check_card,
    check_game_type,
    null_value,
    trump_order,
)


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
