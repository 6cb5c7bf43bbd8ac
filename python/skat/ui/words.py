"""The table's words in the language a reader chose: English (:mod:`skat.ui.common` and the
texts of hints and analyses) or German (:mod:`skat.ui.german`). Front ends ask here, with the
reader's ``lang``, for everything they show in words; the games and their records are the
same in every language.

>>> from skat._core import Contract
>>> [contract_text(Contract.parse("GH"), lang) for lang in LANGS]
['Grand hand', 'Grand Hand']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from skat._core import Action, Contract, GameResult
from skat.display import SEAT_NAMES
from skat.ui import common, german
from skat.ui.common import UiError

if TYPE_CHECKING:
    from skat.ui.analysis import GameAnalysis, MoveVerdict
    from skat.ui.hints import Hint

LANGS = ("en", "de")
"""The languages of the table: English (the default) and German."""

_LABELS = {
    "en": {
        "hold": "Hold",
        "pass": "Pass",
        "pickup": "Pick up the skat",
        "kontra": "Kontra",
        "re": "Re",
    },
    "de": {
        "hold": "Halten",
        "pass": "Passen",
        "pickup": "Skat aufnehmen",
        "kontra": "Kontra",
        "re": "Re",
    },
}


def check_lang(lang: str) -> str:
    """``lang`` if the table speaks it; else :class:`UiError`."""
    if lang not in LANGS:
        raise UiError(f"lang: one of {', '.join(LANGS)}, not {lang!r}")
    return lang


def you_name(lang: str) -> str:
    """How the person is named: ``You`` / ``Du``."""
    return german.DU if lang == "de" else "You"


def display_name(name: str, lang: str) -> str:
    """A player's name as shown: the default names ``You`` and ``AI 1``, ``AI 2`` in ``lang``
    (``Du``, ``KI 1``); names people chose stay as they are."""
    if lang != "de":
        return name
    if name == "You":
        return german.DU
    if name.startswith("AI ") and name[3:].isdigit():
        return f"KI {name[3:]}"
    return name


def seat_name(seat: int, lang: str) -> str:
    return (german.SEAT_NAMES if lang == "de" else SEAT_NAMES)[seat]


def contract_text(contract: Contract, lang: str) -> str:
    return german.contract_name(contract) if lang == "de" else common.contract_name(contract)


def action_phrase(action: Action, you: bool, lang: str) -> str:
    return german.action_text(action, you) if lang == "de" else common.action_text(action, you)


def verb(base: str, you: bool, lang: str) -> str:
    """The verb ``base`` (an English base form) for the person (``you``) or someone else."""
    return german.verb(base, you) if lang == "de" else common.verb(base, you)


def type_name(letter: str, lang: str) -> str:
    """A game type's name by its letter: ``Clubs`` / ``Kreuz``."""
    return (german.TYPE_NAMES if lang == "de" else common.TYPE_NAMES)[letter]


def action_label(kind: str, lang: str) -> str:
    """The button label of a hold, pass, pick-up, Kontra or Re."""
    return _LABELS[lang][kind]


def result_sentence(result: GameResult, name: str, you: bool, lang: str) -> str:
    if lang == "de":
        return german.result_text(result, name, you)
    return common.result_text(result, name, you)


def valuation_lines(result: GameResult, lang: str) -> list[str]:
    if lang == "de":
        return german.valuation_lines(result)
    return list(common.valuation(result).lines)


def hint_text(hint: Hint, lang: str) -> str:
    return german.hint_text(hint) if lang == "de" else hint.text


def move_text(move: MoveVerdict, lang: str) -> str:
    return german.move_text(move) if lang == "de" else move.describe()


def analysis_summary(
    analysis: GameAnalysis, seat: int | None, names: Sequence[str] | None, lang: str
) -> list[str]:
    if lang == "de":
        return german.summary(analysis, seat, names)
    return analysis.summary(seat, names)


__all__ = [
    "LANGS",
    "action_label",
    "action_phrase",
    "analysis_summary",
    "check_lang",
    "contract_text",
    "display_name",
    "hint_text",
    "move_text",
    "result_sentence",
    "seat_name",
    "type_name",
    "valuation_lines",
    "verb",
    "you_name",
]
