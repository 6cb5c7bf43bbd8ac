"""What every front end shares: the default opponents, errors, and words for cards, contracts,
actions and results.

The terminal (:mod:`skat.ui.terminal`) and the browser (:mod:`skat.web`) show the same game
the same way; this module holds the words they both use. Nothing here draws or reads input.

>>> contract_name(Contract.parse("GHS"))
'Grand hand, schneider announced'
>>> card_text(Card.parse("HT"))
'♥10'
>>> str(parse_card("♣j"))
'CJ'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from skat import defaults
from skat._core import Action, Card, Contract, GameResult, GameType, SkatError
from skat.display import SEAT_NAMES, SUIT_SYMBOLS, card_text
from skat.players import available_players

__all__ = [
    "CONTRACT_WORDS",
    "DEFAULT_OPPONENT",
    "SEAT_NAMES",
    "SUIT_SYMBOLS",
    "TYPE_NAMES",
    "VALUATION_WORDS",
    "InputError",
    "UiError",
    "Valuation",
    "action_text",
    "card_text",
    "clipped",
    "contract_name",
    "describe_options",
    "parse_action",
    "parse_card",
    "quoted",
    "result_text",
    "split_specs",
    "valuation",
    "verb",
]


def _default_opponent() -> str:
    # The strongest registered player, at a pace a person can wait for: ``kermit`` (learned
    # bidding + PIMC card play) with 60 worlds per card and no card-point tie-break (about a
    # second for a lead in the first trick on two cores instead of several).
    if "kermit" in available_players():
        return defaults.DEFAULT_OPPONENT
    return "pimc:worlds=40,points=false"


DEFAULT_OPPONENT: str = _default_opponent()
"""The player spec of the AI opponents when none is given (the one place to change it)."""

_SYMBOL_LETTER = {"♣": "C", "♠": "S", "♥": "H", "♦": "D", "♧": "C", "♤": "S", "♡": "H", "♢": "D"}
TYPE_NAMES = {
    "D": "Diamonds",
    "H": "Hearts",
    "S": "Spades",
    "C": "Clubs",
    "G": "Grand",
    "N": "Null",
}


class UiError(SkatError):
    """A front end was asked for something the table cannot do now (a ``ValueError``)."""


class InputError(UiError):
    """Input that is not a legal action here; the message says what is accepted."""


_OPTION = re.compile(r"\s*[A-Za-z_]\w*\s*=")


def split_specs(text: str) -> list[str]:
    """The player specs of a comma-separated list such as ``--opponents`` takes: a part that
    is an option (``key=value``) belongs to the spec before it, so specs keep their options.

    >>> split_specs("rules, kermit:inference_tables=t.npz,worlds=4")
    ['rules', 'kermit:inference_tables=t.npz,worlds=4']
    >>> split_specs("pimc:worlds=40,points=false,kermit:worlds=60")
    ['pimc:worlds=40,points=false', 'kermit:worlds=60']
    """
    specs: list[str] = []
    for part in text.split(","):
        if not part.strip():
            continue
        if specs and ":" in specs[-1] and _OPTION.match(part):
            specs[-1] += "," + part.strip()
        else:
            specs.append(part.strip())
    return specs


def verb(base: str, you: bool) -> str:
    """The verb ``base`` agreeing with its subject: the person ("You") takes the base form,
    anyone else the third person singular (``win``: ``win`` / ``wins``; ``pass``: ``passes``;
    ``be``: ``are`` / ``is``).

    >>> [verb(w, you) for w in ("win", "pass", "be") for you in (True, False)]
    ['win', 'wins', 'pass', 'passes', 'are', 'is']
    """
    if base == "be":
        return "are" if you else "is"
    if you:
        return base
    if base == "have":
        return "has"
    if base.endswith(("s", "sh", "ch", "x", "z")):
        return base + "es"
    return base + "s"


def ramsch_seats(result: GameResult) -> list[int]:
    """The seats a Ramsch's result names: the one who made a Durchmarsch, else the losers
    (empty for any other result)."""
    o = result.ramsch
    if o is None:
        return []
    return [o["durchmarsch"]] if o["durchmarsch"] is not None else list(o["losers"])


def result_text(result: GameResult, name: str, you: bool) -> str:
    """The result in one sentence with the declarer's ``name`` as subject (``you``: it is
    the person): ``You win Grand: +72``, ``AI 1 loses Clubs hand: -96``, ``Passed in: nobody
    plays.``; in a Ramsch ``name`` are the seats of :func:`ramsch_seats` (``you``: the
    person, or several): ``Ramsch: AI 2 loses -45``, ``You make a Durchmarsch: +120``."""
    if result.ramsch is not None:
        if result.ramsch["durchmarsch"] is not None:
            return f"{name} {verb('make', you)} a Durchmarsch: {result.value:+d}"
        return f"Ramsch: {name} {verb('lose', you)} {result.value:+d}"
    if result.contract is None or result.declarer is None:
        return "Passed in: nobody plays." if result.passed else f"Ended before play ({result.end})."
    outcome = verb("win" if result.won else "lose", you)
    return f"{name} {outcome} {contract_name(result.contract)}: {result.value:+d}"


QUOTE_LIMIT = 40
"""Characters of a person's input that a message quotes at most."""


def clipped(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` (stripped) cut after ``limit`` characters, ``...`` marking the cut."""
    t = text.strip()
    return t[:limit] + ("..." if len(t) > limit else "")


def quoted(text: str, limit: int = QUOTE_LIMIT) -> str:
    r"""``text`` (stripped) as a message quotes it: in Python's quotes with control characters
    and undecodable bytes escaped, cut after ``limit`` characters.

    >>> quoted(" pas\x1b ")
    "'pas\\x1b'"
    >>> quoted("x" * 50, limit=3)
    "'xxx'..."
    """
    t = text.strip()
    return repr(t[:limit]) + ("..." if len(t) > limit else "")


def parse_card(text: str) -> Card:
    """Reads a card typed by a person: ``CJ``, ``cj``, ``♣J``, ``H10``, ``ht``.

    Raises :class:`InputError` when the text names no card.
    """
    t = text.strip().upper()
    if t and t[0] in _SYMBOL_LETTER:
        t = _SYMBOL_LETTER[t[0]] + t[1:]
    t = t.replace("10", "T")
    try:
        return Card.parse(t)
    except SkatError:  # also undecodable bytes typed (lone surrogates): a ParseError
        raise InputError(
            f"{quoted(text)} is not a card (cards look like CJ, HT, S7, ♥10)"
        ) from None


CONTRACT_WORDS = {
    **TYPE_NAMES,
    "hand": "hand",
    "ouvert": "ouvert",
    "schneider": "schneider announced",
    "schwarz": "schwarz announced",
}
"""The words of :func:`contract_name` (another language passes its own)."""


def contract_name(contract: Contract, words: dict[str, str] = CONTRACT_WORDS) -> str:
    """A contract in words: ``Clubs``, ``Grand hand, schneider announced``, ``Null ouvert hand``."""
    gt = contract.game_type
    name = words[gt.letter]
    if gt == GameType.NULL:
        extras = [
            words[w] for w, on in (("ouvert", contract.ouvert), ("hand", contract.hand)) if on
        ]
        return " ".join([name, *extras])
    if contract.ouvert:
        return f"{name} {words['ouvert']}"
    parts = [name + (f" {words['hand']}" if contract.hand else "")]
    if contract.schwarz:
        parts.append(words["schwarz"])
    elif contract.schneider:
        parts.append(words["schneider"])
    return ", ".join(parts)


def action_text(
    action: Action,
    you: bool = False,
    conjugate: Callable[[str, bool], str] = verb,
    contract_words: dict[str, str] = CONTRACT_WORDS,
    pickup: str = "up the skat",
) -> str:
    """What an action does, as a verb phrase: ``bids 18``, ``passes``, ``plays ♣J``.

    With ``you=True`` the phrase is in the second person (``you bid 18`` minus the subject:
    ``bid 18``). Another language passes its own verb forms (``conjugate``, as :func:`verb`),
    the words of :func:`contract_name` and what follows the verb ``pick`` for the skat.
    """
    kind = action.kind
    if kind == "bid":
        return f"{conjugate('bid', you)} {action.bid}"
    if kind in ("hold", "pass"):
        return conjugate(kind, you)
    if kind == "pickup":
        return f"{conjugate('pick', you)} {pickup}"
    if kind == "discard" and action.cards is not None:
        cards = " ".join(card_text(c) for c in action.cards.sorted())
        return f"{conjugate('discard', you)} {cards}"
    if kind == "declare" and action.contract is not None:
        return f"{conjugate('declare', you)} {contract_name(action.contract, contract_words)}"
    if kind == "play" and action.card is not None:
        return f"{conjugate('play', you)} {card_text(action.card)}"
    if kind in ("kontra", "re"):
        return f"{conjugate('say', you)} {'Kontra' if kind == 'kontra' else 'Re'}"
    return str(action)


def parse_action(text: str, legal: Sequence[Action]) -> Action:
    """The legal action a person means by ``text``.

    Accepts ISS tokens in any case (``18``, ``p``, ``y``, ``s``, ``GH``, ``CJ``), cards in the
    forms :func:`parse_card` reads, and for a discard two cards separated by a space, comma or
    dot (``CJ CT``). Raises :class:`InputError` naming what is legal otherwise; an empty
    ``legal`` means it is not the person's turn.
    """
    t = text.strip()
    if not legal:
        raise InputError("it is not your turn")
    if not t:
        raise InputError(f"type one of: {describe_options(legal)}")
    by_token = {str(a).upper(): a for a in legal}
    by_token.update({a.kind.upper(): a for a in legal if a.kind in ("kontra", "re")})
    if t.upper() in by_token:
        return by_token[t.upper()]
    kinds = {a.kind for a in legal}
    if "discard" in kinds:
        parts = [p for p in t.replace(",", " ").replace(".", " ").split() if p]
        if len(parts) != 2:
            raise InputError("name the two cards to put in the skat, e.g. 'CJ CT'")
        cards = {parse_card(p) for p in parts}
        if len(cards) != 2:
            raise InputError("name two different cards")
        for a in legal:
            if a.cards is not None and set(a.cards) == cards:
                return a
        raise InputError("you can only put away two cards from your hand")
    if "play" in kinds:
        card = parse_card(t)
        for a in legal:
            if a.card == card:
                return a
        raise InputError(
            f"{card_text(card)} is not playable now; playable: {describe_options(legal)}"
        )
    if "bid" in kinds and t.isdigit():
        raise InputError(f"{clipped(t)} is not a legal bid now; {describe_options(legal)}")
    raise InputError(f"{quoted(t)} is not possible now; type one of: {describe_options(legal)}")


def describe_options(legal: Sequence[Action]) -> str:
    """The legal actions in a short form a prompt can show (bids shortened to a range)."""
    bids = [a.bid for a in legal if a.kind == "bid" and a.bid is not None]
    parts: list[str] = []
    if bids:
        if len(bids) > 6:
            shown = " ".join(str(b) for b in bids[:5])
            parts.append(f"bid {shown} ... {bids[-1]}")
        else:
            parts.append("bid " + " ".join(str(b) for b in bids))
    for a in legal:
        if a.kind == "hold":
            parts.append("y = hold")
        elif a.kind == "pass":
            parts.append("p = pass")
        elif a.kind == "pickup":
            parts.append("s = pick up the skat")
        elif a.kind in ("kontra", "re"):
            parts.append(a.kind)
    hand_games = [a for a in legal if a.kind == "declare"]
    if hand_games:
        parts.append(
            ("or declare " if any(a.kind == "pickup" for a in legal) else "declare ")
            + " ".join(str(a) for a in hand_games)
        )
    if any(a.kind == "discard" for a in legal):
        parts.append("two cards to put away, e.g. 'CJ CT'")
    cards = [a.card for a in legal if a.kind == "play" and a.card is not None]
    if cards:
        parts.append(" ".join(str(c) for c in cards))
    return ", ".join(parts)


@dataclass(frozen=True)
class Valuation:
    """How a result's value and scores come about, step by step.

    ``lines`` explain it in words (matadors, each level, the multiplier, overbid);
    ``value`` is the signed game value as in :class:`GameResult`.
    """

    lines: tuple[str, ...]
    multiplier: int | None
    base: int | None
    value: int
    scores: tuple[int, int, int]

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready dict."""
        return {
            "lines": list(self.lines),
            "multiplier": self.multiplier,
            "base": self.base,
            "value": self.value,
            "scores": list(self.scores),
        }


VALUATION_WORDS = {
    "passed": "passed in: nobody plays",
    "ended": "ended before play ({end})",
    "fixed": "{contract}: fixed value {value}",
    "with": "with {m}",
    "without": "without {m}",
    "game": "game",
    "hand": "hand",
    "schneider": "schneider",
    "schneider announced": "schneider announced",
    "schwarz": "schwarz",
    "schwarz announced": "schwarz announced",
    "ouvert": "ouvert",
    "levels": "{factors}: {mult} x {base} ({type}) = {value}",
    "points": "declarer {points} card points in {tricks} tricks, bid {bid}",
    "overbid": "overbid: {value} < bid {bid}; charged {charged} (lost)",
    "doubled": "{reasons}: {before} x {factor} = {value}",
    "ramsch": "Ramsch: card points {points} (the skat to the last trick), tricks {tricks}",
    "ramsch loses": "most points: {seats} with {points}",
    "durchmarsch": "Durchmarsch: {seat} took every trick: +120",
    "jungfrau": "Jungfrau ({seat} took no trick): x 2",
    "pushed": "skat pushed {n} time(s): x {factor}",
    "bock": "Bock: x 2",
    "ramsch value": "score {value} (no Seeger-Fabian points in a Ramsch)",
    "won": "won: +{value}; Seeger-Fabian: {value} + 50 = {sf}",
    "lost": "lost: -2 x {value} = {double}; Seeger-Fabian: {double} - 50 = {sf}, each defender +40",
}
"""The words of :func:`valuation` (another language passes its own, with the same keys)."""


def ramsch_lines(result: GameResult, words: dict[str, str], seat_names: Sequence[str]) -> list[str]:
    """How a Ramsch's score comes about, in ``words``, seats named by ``seat_names``."""
    o = result.ramsch
    assert o is not None
    lines = [
        words["ramsch"].format(
            points=" / ".join(str(p) for p in o["points"]),
            tricks=" / ".join(str(t) for t in o["tricks"]),
        )
    ]
    if o["durchmarsch"] is not None:
        lines.append(words["durchmarsch"].format(seat=seat_names[o["durchmarsch"]]))
    else:
        losers = ", ".join(seat_names[s] for s in o["losers"])
        lines.append(words["ramsch loses"].format(seats=losers, points=max(o["points"])))
        if o["jungfrau"] is not None:
            lines.append(words["jungfrau"].format(seat=seat_names[o["jungfrau"]]))
    if o["pushes"]:
        lines.append(words["pushed"].format(n=o["pushes"], factor=2 ** o["pushes"]))
    if result.bock:
        lines.append(words["bock"])
    lines.append(words["ramsch value"].format(value=f"{result.value:+d}"))
    return lines


def valuation(
    result: GameResult,
    words: dict[str, str] = VALUATION_WORDS,
    contract_words: dict[str, str] = CONTRACT_WORDS,
    seat_names: Sequence[str] = SEAT_NAMES,
) -> Valuation:
    """The full valuation of a result: matadors, levels, multiplier, overbid and scores, in
    ``words`` (and contract names in ``contract_words``).

    >>> from skat._core import random_game
    >>> v = valuation(random_game(3).result)
    >>> v.value == random_game(3).result.value
    True
    """
    scores = (result.scores[0], result.scores[1], result.scores[2])
    if result.passed:
        return Valuation((words["passed"],), None, None, 0, scores)
    if result.ramsch is not None:
        return Valuation(
            tuple(ramsch_lines(result, words, seat_names)), None, None, result.value, scores
        )
    contract = result.contract
    if contract is None or result.declarer is None:
        line = words["ended"].format(end=result.end)
        return Valuation((line,), None, None, result.value, scores)
    gt = contract.game_type
    lines: list[str] = []
    if gt == GameType.NULL:
        value = contract.base_value
        name = contract_name(contract, contract_words)
        lines.append(words["fixed"].format(contract=name, value=value))
        mult: int | None = None
        base = value
    else:
        base = gt.base_value
        m = abs(result.matadors)
        levels = [
            ("hand", contract.hand),
            ("schneider", result.schneider or contract.schneider),
            ("schneider announced", contract.schneider),
            ("schwarz", result.schwarz or contract.schwarz),
            ("schwarz announced", contract.schwarz),
            ("ouvert", contract.ouvert),
        ]
        factors = [words["with" if result.matadors > 0 else "without"].format(m=m), words["game"]]
        factors += [words[key] for key, on in levels if on]
        mult = m + len(factors) - 1
        value = base * mult
        lines.append(
            words["levels"].format(
                factors=", ".join(factors),
                mult=mult,
                base=base,
                type=contract_words[gt.letter],
                value=value,
            )
        )
    lines.append(
        words["points"].format(
            points=result.declarer_points, tricks=result.declarer_tricks, bid=result.bid
        )
    )
    if result.overbid:
        charged = -(-result.bid // base) * base
        lines.append(words["overbid"].format(value=value, bid=result.bid, charged=charged))
        value = charged
    factor = 2**result.kontra * (2 if result.bock else 1)
    if factor > 1:
        reasons = ["Kontra", "Re"][: result.kontra] + (["Bock"] if result.bock else [])
        lines.append(
            words["doubled"].format(
                reasons=", ".join(reasons), before=value, factor=factor, value=value * factor
            )
        )
        value *= factor
    if result.won:
        lines.append(words["won"].format(value=value, sf=value + 50))
    else:
        lines.append(words["lost"].format(value=value, double=-2 * value, sf=-2 * value - 50))
    return Valuation(tuple(lines), mult, base, result.value, scores)
