"""The table's words in German: seats, contracts, actions, results, valuations, hints and the
post-game analysis, as the English ones of :mod:`skat.ui.common`, :mod:`skat.ui.hints` and
:mod:`skat.ui.analysis` say them. The person is addressed as "du" (``DU``), as at a friendly
table; the Skat terms are the usual German ones (Vorhand, reizen, drücken, Augen, Schneider).

>>> from skat._core import Contract, Action
>>> contract_name(Contract.parse("CHS"))
'Kreuz Hand, Schneider angesagt'
>>> action_text(Action("18"), you=True), action_text(Action("p"))
('sagst 18', 'passt')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from skat._core import Action, Contract, GameResult, GameType
from skat.display import card_text
from skat.ui import common

if TYPE_CHECKING:
    from skat.ui.analysis import GameAnalysis, MoveVerdict
    from skat.ui.hints import Hint

DU = "Du"
"""How the person is named (the English "You")."""

SEAT_NAMES = ("Vorhand", "Mittelhand", "Hinterhand")
TYPE_NAMES = {"D": "Karo", "H": "Herz", "S": "Pik", "C": "Kreuz", "G": "Grand", "N": "Null"}

# verb -> (du form, er/sie form)
_VERBS = {
    "bid": ("sagst", "sagt"),
    "hold": ("hältst", "hält"),
    "pass": ("passt", "passt"),
    "pick": ("nimmst", "nimmt"),
    "discard": ("drückst", "drückt"),
    "declare": ("spielst", "spielt"),
    "play": ("spielst", "spielt"),
    "win": ("gewinnst", "gewinnt"),
    "lose": ("verlierst", "verliert"),
    "take": ("bekommst", "bekommt"),
    "be": ("bist", "ist"),
    "say": ("sagst", "sagt"),
    "make": ("machst", "macht"),
}


def verb(base: str, you: bool) -> str:
    """The German form of the English verb ``base`` for "du" or a third person."""
    forms = _VERBS[base]
    return forms[0] if you else forms[1]


CONTRACT_WORDS = {
    **TYPE_NAMES,
    "hand": "Hand",
    "ouvert": "ouvert",
    "schneider": "Schneider angesagt",
    "schwarz": "Schwarz angesagt",
}


def contract_name(contract: Contract) -> str:
    """A contract in words: ``Kreuz``, ``Grand Hand, Schneider angesagt``, ``Null ouvert``."""
    return common.contract_name(contract, CONTRACT_WORDS)


def action_text(action: Action, you: bool = False) -> str:
    """What an action does, as a verb phrase without its subject: ``sagt 18``, ``passt``
    (:func:`skat.ui.common.action_text` with the German words)."""
    return common.action_text(action, you, verb, CONTRACT_WORDS, "den Skat auf")


def result_text(result: GameResult, name: str, you: bool) -> str:
    """``Du gewinnst Grand: +72``, ``KI 1 verliert Kreuz Hand: -96``, ``Eingepasst: ...``,
    ``Ramsch: KI 2 verliert -45``, ``Du machst einen Durchmarsch: +120``."""
    if result.ramsch is not None:
        if result.ramsch["durchmarsch"] is not None:
            return f"{name} {verb('make', you)} einen Durchmarsch: {result.value:+d}"
        return f"Ramsch: {name} {verb('lose', you)} {result.value:+d}"
    if result.contract is None or result.declarer is None:
        if result.passed:
            return "Eingepasst: niemand spielt."
        return f"Vor dem Spiel beendet ({result.end})."
    outcome = verb("win" if result.won else "lose", you)
    return f"{name} {outcome} {contract_name(result.contract)}: {result.value:+d}"


VALUATION_WORDS = {
    "passed": "eingepasst: niemand spielt",
    "ended": "vor dem Spiel beendet ({end})",
    "fixed": "{contract}: fester Wert {value}",
    "with": "mit {m}",
    "without": "ohne {m}",
    "game": "Spiel",
    "hand": "Hand",
    "schneider": "Schneider",
    "schneider announced": "Schneider angesagt",
    "schwarz": "Schwarz",
    "schwarz announced": "Schwarz angesagt",
    "ouvert": "ouvert",
    "levels": "{factors}: {mult} x {base} ({type}) = {value}",
    "points": "Alleinspieler {points} Augen in {tricks} Stichen, gereizt bis {bid}",
    "overbid": "überreizt: {value} < {bid}; berechnet {charged} (verloren)",
    "doubled": "{reasons}: {before} x {factor} = {value}",
    "ramsch": "Ramsch: Augen {points} (der Skat zum letzten Stich), Stiche {tricks}",
    "ramsch loses": "die meisten Augen: {seats} mit {points}",
    "durchmarsch": "Durchmarsch: {seat} bekommt jeden Stich: +120",
    "jungfrau": "Jungfrau ({seat} ohne Stich): x 2",
    "pushed": "Skat {n}-mal geschoben: x {factor}",
    "bock": "Bock: x 2",
    "ramsch value": "Ergebnis {value} (im Ramsch ohne Seeger-Fabian-Punkte)",
    "won": "gewonnen: +{value}; Seeger-Fabian: {value} + 50 = {sf}",
    "lost": "verloren: -2 x {value} = {double}; Seeger-Fabian: {double} - 50 = {sf},"
    " jeder Gegenspieler +40",
}


def valuation_lines(result: GameResult) -> list[str]:
    """How the result's value comes about, step by step (:func:`skat.ui.common.valuation`)."""
    return list(common.valuation(result, VALUATION_WORDS, CONTRACT_WORDS, SEAT_NAMES).lines)


def infinitive(action: Action) -> str:
    """What an action does, as an infinitive phrase: ``18 sagen``, ``den Skat aufnehmen``."""
    kind = action.kind
    if kind == "bid":
        return f"{action.bid} sagen"
    if kind in ("hold", "pass"):
        return "halten" if kind == "hold" else "passen"
    if kind == "pickup":
        return "den Skat aufnehmen"
    if kind == "discard" and action.cards is not None:
        return f"{' '.join(card_text(c) for c in action.cards.sorted())} drücken"
    if kind == "declare" and action.contract is not None:
        return f"{contract_name(action.contract)} spielen"
    if kind == "play" and action.card is not None:
        return f"{card_text(action.card)} spielen"
    if kind in ("kontra", "re"):
        return f"{'Kontra' if kind == 'kontra' else 'Re'} sagen"
    return str(action)


def hint_text(hint: Hint) -> str:
    """The hint in words (as :meth:`skat.ui.advice.Advice.hint` says it in English)."""
    if hint.action.kind == "play" and not hint.cards:
        return f"{infinitive(hint.action)}: die einzige erlaubte Karte"
    if hint.cards:
        top = hint.cards[0]
        text = (
            f"Die KI würde {infinitive(hint.action)}: gewinnt in"
            f" {100 * top.win:.0f}% von {hint.worlds} gezogenen Verteilungen"
        )
        if top.points is not None:
            text += f", deine Partei kommt im Schnitt auf {top.points:.0f} Augen"
        return text + "."
    text = f"Die KI würde {infinitive(hint.action)}."
    if hint.win is not None:
        text += (
            f" Geschätzte Gewinnchance bei einem Spiel von mindestens {hint.win_bid}:"
            f" {100 * hint.win:.0f}% (10+2-Bewertung über alle Skats)."
        )
    return text


def move_text(m: MoveVerdict) -> str:
    """One card of the analysis in words (as :meth:`MoveVerdict.describe`)."""
    head = f"Stich {m.trick}: {card_text(m.card)}"
    if m.forced:
        return f"{head} (erzwungen)"
    best = " ".join(card_text(c) for c in m.best)
    if m.hinted and (m.flipped or m.points_lost > 0):
        return f"{head} folgte dem Tipp (mit allen Karten offen: {best})"
    if m.hinted:
        return f"{head} folgte dem Tipp: beste Spielweise"
    if m.flipped:
        return f"{head} hat ein gewonnenes Spiel verloren gegeben (besser: {best})"
    if m.points_lost > 0:
        return f"{head} hat {m.points_lost} Augen verschenkt (besser: {best})"
    return f"{head} ist beste Spielweise"


def summary(a: GameAnalysis, seat: int | None, names: Sequence[str] | None) -> list[str]:
    """The analysis in lines (as :meth:`GameAnalysis.summary`)."""
    if a.contract is None or a.declarer is None:
        return ["kein Kartenspiel zu analysieren"]
    label = list(names) if names is not None else ["der Alleinspieler"] * 3
    you = names is not None and (
        a.declarer == seat if seat is not None else label[a.declarer] in ("You", DU)
    )
    who = "du" if you else f"{label[a.declarer]} ({SEAT_NAMES[a.declarer]})"
    lines: list[str] = []
    if a.start_value is not None:
        if a.contract.game_type == GameType.NULL:
            how = (
                f"{verb('take', you)} keinen Stich"
                if a.start_value == 0
                else f"{verb('be', you)} gezwungen, Stich {a.start_value} zu nehmen"
            )
            lines.append(f"Mit allen Karten offen {how} {who} bei bestem Spiel.")
        else:
            verdict = verb("win" if a.start_won else "lose", you)
            lines.append(
                f"Mit allen Karten offen {verdict} {who} bei bestem Spiel ab der ersten Karte"
                f" ({a.start_value} Augen; {a.threshold} nötig)."
            )
    costly = a.costly(None if seat is None else [seat])
    if not costly:
        whose = "Deine" if seat is not None else "Alle"
        lines.append(f"{whose} Züge: keine Karte hat das Spiel oder Augen gekostet.")
    else:
        lines.append("Deine teuren Züge:" if seat is not None else "Teure Züge:")
        for m in costly:
            by = "" if seat is not None else f"{label[m.seat] if names else SEAT_NAMES[m.seat]}, "
            lines.append(f"  {by}{move_text(m)}")
    return lines


__all__ = [
    "DU",
    "SEAT_NAMES",
    "TYPE_NAMES",
    "action_text",
    "contract_name",
    "hint_text",
    "infinitive",
    "move_text",
    "result_text",
    "summary",
    "valuation_lines",
    "verb",
]
