"""Fixed integer actions and numeric observations of full Skat, for learning environments.

The PettingZoo environment (:mod:`skat.env`) and the OpenSpiel game (:mod:`skat.openspiel`)
share this module, so that an index means the same action and a vector the same knowledge in
both. See ``docs/environments.md`` for the tables.

Actions (:data:`NUM_ACTIONS` = 623 indices, each one action of the engine whatever the state):

- ``0 .. 31``: play the card with ``Card.index`` i (``D7`` = 0, ..., ``CA`` = 31);
- ``32 .. 94``: bid the k-th value of ``skat.bids()`` (18, 20, ..., 264);
- ``95``: hold (``y``); ``96``: pass (``p``); ``97``: pick up the skat (``s``);
- ``98 .. 126``: declare one of :data:`DECLARATIONS` (after picking up, or a hand game);
- ``127 .. 622``: lay away the pair of cards ``{i, j}`` (``i < j``, pairs in lexicographic order).

Observations (:func:`observation`, ``float32`` of length :data:`OBSERVATION_SIZE`) hold only
what ``game.view(seat)`` shows, so that two games a seat cannot tell apart encode the same
(:func:`indistinguishable_deal` builds such a game to check it). The segments, in order, are
:data:`SEGMENTS`. Rewards, in both environments, are the Seeger-Fabian scores of the finished
game (``game.result.scores``), between :data:`MIN_SCORE` and :data:`MAX_SCORE`.

The core computes observations and legal indices (``View.observation_bytes``,
``legal_action_indices``, from ``crates/skat-core/src/encoding.rs``); the Python functions
:func:`observation_reference` and :func:`legal_indices_reference` compute the same from the
view's public fields and stay as the specification the tests compare the core against.

>>> import skat
>>> game = skat.Game(skat.Deal.random(seed=7))
>>> [action_index(a) for a in game.legal_actions()][:3], action_of(96)
([32, 33, 34], Action("p"))
>>> obs = observation(game.view(1))
>>> obs.shape == (OBSERVATION_SIZE,), int(obs[segment("hand")].sum())
(True, 10)
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import numpy.typing as npt

from skat._core import (
    Action,
    ArgumentError,
    Card,
    Cards,
    Deal,
    Game,
    GameType,
    IllegalActionError,
    Phase,
    PositionError,
    View,
    bids,
    sample_worlds,
)
from skat.records import actor_seat

BIDS: tuple[int, ...] = tuple(bids())
"""Every bid value, lowest first (63 values)."""

_SUITS_AND_GRAND = ("D", "H", "S", "C", "G")
DECLARATIONS: tuple[str, ...] = (
    *_SUITS_AND_GRAND,
    "N",
    "NO",
    *(f"{t}{extra}" for t in _SUITS_AND_GRAND for extra in ("H", "HS", "HZ", "O")),
    "NH",
    "NOH",
)
"""Every declaration token: after picking up (``D H S C G N NO``), then the hand games (hand,
schneider or schwarz announced, ouvert; null hand and null ouvert hand)."""

PAIRS: tuple[tuple[int, int], ...] = tuple(combinations(range(32), 2))
"""The 496 pairs of card indices a declarer may lay away, in order."""

CARD_BASE = 0
BID_BASE = 32
HOLD = BID_BASE + len(BIDS)
PASS = HOLD + 1
PICKUP = PASS + 1
DECLARE_BASE = PICKUP + 1
DISCARD_BASE = DECLARE_BASE + len(DECLARATIONS)
NUM_ACTIONS = DISCARD_BASE + len(PAIRS)
"""The size of the action space (623)."""

_BID_INDEX = {b: i for i, b in enumerate(BIDS)}
_DECLARE_INDEX = {t: i for i, t in enumerate(DECLARATIONS)}
_PAIR_INDEX = {p: i for i, p in enumerate(PAIRS)}
_TOKENS: tuple[str, ...] = (
    *(str(Card.from_index(i)) for i in range(32)),
    *(str(b) for b in BIDS),
    "y",
    "p",
    "s",
    *DECLARATIONS,
    *(f"{Card.from_index(i)}.{Card.from_index(j)}" for i, j in PAIRS),
)

MAX_SCORE = 264 + 50
"""The highest Seeger-Fabian score of a game: grand ouvert with four matadors, won."""
MIN_SCORE = -(2 * 270 + 50)
"""A bound below every score: a lost game counts at most the highest bid (264) rounded up to a
multiple of its base value (270 for diamonds and hearts), twice, and 50."""

MAX_GAME_LENGTH = 2 * len(BIDS) + 3 + 3 + 30
"""A bound on the actions of one game: each bid answered once, three passes, pick-up, discard,
declaration, thirty cards."""

_PHASES = (Phase.BIDDING, Phase.SKAT, Phase.DISCARD, Phase.DECLARE, Phase.PLAY, Phase.OVER)
_GAME_TYPES = (
    GameType.DIAMONDS,
    GameType.HEARTS,
    GameType.SPADES,
    GameType.CLUBS,
    GameType.GRAND,
    GameType.NULL,
)

SEGMENTS: tuple[tuple[str, int], ...] = (
    ("seat", 3),  # the observing seat (0 forehand, 1 middlehand, 2 rearhand)
    ("phase", 6),  # bidding, skat, discard, declare, play, over
    ("to_move", 3),  # the seat to act (none when the game is over)
    ("hand", 32),  # the seat's cards
    ("skat", 32),  # the original skat, once this seat has picked it up
    ("discard", 32),  # the two cards this seat laid away as declarer
    ("open_hand", 32),  # the declarer's cards in an ouvert game
    ("highest_bid", 3 * len(BIDS)),  # per seat: the highest value it bid or held, one-hot
    ("passed", 3),  # per seat: has passed in the auction
    ("declarer", 3),
    ("game_type", 6),  # diamonds, hearts, spades, clubs, grand, null
    ("announcements", 4),  # hand, schneider, schwarz, ouvert
    ("played", 3 * 32),  # per seat: the cards it has played
    ("trick", 2 * 32),  # the first and the second card of the trick under way
    ("leader", 3),  # the seat that leads the trick under way
    ("trick_points", 3),  # per seat: card points of the tricks it won, / 120
    ("tricks_done", 1),  # completed tricks / 10
)
"""The observation's segments: name and length, in order."""

_OFFSETS: dict[str, slice] = {}
_at = 0
for _name, _size in SEGMENTS:
    _OFFSETS[_name] = slice(_at, _at + _size)
    _at += _size
OBSERVATION_SIZE = _at
"""The length of an observation vector."""


def segment(name: str) -> slice:
    """The slice of the observation vector that holds segment ``name`` (see :data:`SEGMENTS`);
    an unknown name raises :class:`skat.ArgumentError` listing the segments.

    >>> segment("seat")
    slice(0, 3, None)
    """
    if not isinstance(name, str):
        raise TypeError(f"segment expects a segment name (str), got {type(name).__name__}")
    if name not in _OFFSETS:
        raise ArgumentError(f"unknown segment {name!r}; segments: {', '.join(_OFFSETS)}")
    return _OFFSETS[name]


def _expect(value: object, kind: type | tuple[type, ...], function: str) -> None:
    """Raises ``TypeError`` unless ``value`` is a ``kind`` (``function`` names the caller)."""
    if not isinstance(value, kind):
        names = kind if isinstance(kind, tuple) else (kind,)
        wanted = " or ".join(f"skat.{k.__name__}" for k in names)
        raise TypeError(f"{function} expects a {wanted}, got {type(value).__name__}")


def action_index(action: Action) -> int:
    """The fixed index of an engine action (bid, hold, pass, pick-up, discard, declaration or
    card); raises :class:`skat.IllegalActionError` for the kinds no seat chooses (claims,
    timeouts, a declaration that lays cards away at the same time).

    >>> action_index(Action("CA.D7")), action_index(Action("GO"))
    (157, 124)
    """
    _expect(action, Action, "action_index")
    kind = action.kind
    if kind == "play" and action.card is not None:
        return CARD_BASE + action.card.index
    if kind == "bid" and action.bid is not None:
        return BID_BASE + _BID_INDEX[action.bid]
    if kind == "hold":
        return HOLD
    if kind == "pass":
        return PASS
    if kind == "pickup":
        return PICKUP
    if kind == "declare" and action.cards is None and action.contract is not None:
        token = str(action)
        if token in _DECLARE_INDEX:
            return DECLARE_BASE + _DECLARE_INDEX[token]
    if kind == "discard" and action.cards is not None and len(action.cards) == 2:
        i, j = sorted(c.index for c in action.cards)
        return DISCARD_BASE + _PAIR_INDEX[(i, j)]
    raise IllegalActionError(f"action {action!s} has no index in the action space")


def action_of(index: int) -> Action:
    """The engine action of a fixed index (the inverse of :func:`action_index`).

    >>> action_of(31), action_of(PICKUP)
    (Action("CA"), Action("s"))
    """
    if not 0 <= index < NUM_ACTIONS:
        raise IllegalActionError(f"action index {index} is not in 0..{NUM_ACTIONS - 1}")
    return Action(_TOKENS[index])


def legal_indices(state: Game | View) -> list[int]:
    """The indices of the legal actions, ascending (empty when the game is over); raises
    :class:`skat.IllegalActionError` when a legal action has no index (Kontra, Re).
    Computed by the core; equal to :func:`legal_indices_reference`."""
    _expect(state, (Game, View), "legal_indices")
    return state.legal_action_indices()


def legal_indices_reference(state: Game | View) -> list[int]:
    """:func:`legal_indices` computed in Python from ``state.legal_actions()``."""
    _expect(state, (Game, View), "legal_indices_reference")
    return sorted(action_index(a) for a in state.legal_actions())


def action_mask(state: Game | View) -> npt.NDArray[np.int8]:
    """A 0/1 vector over the action space, 1 at each legal action.

    >>> import skat
    >>> int(action_mask(skat.Game(skat.Deal.random(seed=1))).sum())  # 63 bids and pass
    64
    """
    _expect(state, (Game, View), "action_mask")
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    mask[state.legal_action_indices()] = 1
    return mask


def _put_cards(out: npt.NDArray[np.float32], name: str, cards: Cards | None, row: int = 0) -> None:
    if cards is None:
        return
    base = _OFFSETS[name].start + 32 * row
    for card in cards:
        out[base + card.index] = 1.0


def auction(view: View) -> tuple[list[int | None], list[bool]]:
    """Per seat, the highest value it bid or held (``None``: neither) and whether it passed."""
    _expect(view, View, "auction")
    highest: list[int | None] = [None, None, None]
    passed = [False, False, False]
    current = 0
    for actor, action in view.history:
        if not isinstance(actor, int):
            continue
        if action.kind == "bid" and action.bid is not None:
            current = action.bid
            highest[actor] = current
        elif action.kind == "hold":
            highest[actor] = current
        elif action.kind == "pass":
            passed[actor] = True
    return highest, passed


def observation(view: View) -> npt.NDArray[np.float32]:
    """What ``view.seat`` knows, as a vector of :data:`OBSERVATION_SIZE` numbers in ``0..1``
    (the segments of :data:`SEGMENTS`). Computed by the core; equal to
    :func:`observation_reference`."""
    _expect(view, View, "observation")
    return np.frombuffer(view.observation_bytes(), dtype=np.float32)


def observation_reference(view: View) -> npt.NDArray[np.float32]:
    """:func:`observation` computed in Python from the view's fields."""
    _expect(view, View, "observation_reference")
    out = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    at = _OFFSETS
    out[at["seat"].start + view.seat] = 1.0
    out[at["phase"].start + _PHASES.index(view.phase)] = 1.0
    if view.to_move is not None:
        out[at["to_move"].start + view.to_move] = 1.0
    _put_cards(out, "hand", view.hand)
    _put_cards(out, "skat", view.skat)
    _put_cards(out, "discard", view.discard)
    _put_cards(out, "open_hand", view.open_hand)
    highest, passed = auction(view)
    for seat in range(3):
        value = highest[seat]
        if value is not None:
            out[at["highest_bid"].start + seat * len(BIDS) + _BID_INDEX[value]] = 1.0
        out[at["passed"].start + seat] = float(passed[seat])
    if view.declarer is not None:
        out[at["declarer"].start + view.declarer] = 1.0
    contract = view.contract
    if contract is not None:
        out[at["game_type"].start + _GAME_TYPES.index(contract.game_type)] = 1.0
        flags = (contract.hand, contract.schneider, contract.schwarz, contract.ouvert)
        out[at["announcements"]] = np.array(flags, dtype=np.float32)
    for seat, card in view.plays:
        out[at["played"].start + 32 * seat + card.index] = 1.0
    for position, card in enumerate(view.trick[:2]):
        out[at["trick"].start + 32 * position + card.index] = 1.0
    if view.phase == Phase.PLAY:
        out[at["leader"].start + view.leader] = 1.0
    points = [0, 0, 0]
    for _, cards, winner in view.tricks:
        points[winner] += sum(c.points for c in cards)
    out[at["trick_points"]] = np.array(points, dtype=np.float32) / 120.0
    out[at["tricks_done"].start] = len(view.tricks) / 10.0
    return out


def information_state(view: View) -> str:
    """Everything ``view.seat`` has seen, as text: equal for two games exactly when the seat
    cannot tell them apart (perfect recall: the whole visible history).

    >>> import skat
    >>> information_state(skat.Game(skat.Deal.random(seed=7)).view(0))
    'seat 0 hand CA SQ SJ ST S8 HK HJ H9 DQ D7 |'
    """
    _expect(view, View, "information_state")
    parts = [f"seat {view.seat} hand {view.hand}"]
    if view.skat is not None:
        parts.append(f"skat {view.skat}")
    if view.discard is not None:
        parts.append(f"discard {view.discard}")
    if view.open_hand is not None:
        parts.append(f"open {view.open_hand}")
    moves = " ".join(f"{actor}:{action!s}" for actor, action in view.history)
    return " ".join(parts) + " |" + (f" {moves}" if moves else "")


def describe(view: View) -> str:
    """The observation as text: the seat's cards and the public state (no history order).

    >>> import skat
    >>> describe(skat.Game(skat.Deal.random(seed=7)).view(1))
    'seat 1 to move 1 phase bidding hand CK CQ C9 C7 S9 S7 HQ DA DK DJ bids -,-,- passed -'
    """
    _expect(view, View, "describe")
    highest, passed = auction(view)
    bid_text = ",".join("-" if b is None else str(b) for b in highest)
    passed_text = ",".join(str(s) for s in range(3) if passed[s]) or "-"
    to_move = "-" if view.to_move is None else str(view.to_move)
    phase = ("bidding", "skat", "discard", "declare", "play", "over")[_PHASES.index(view.phase)]
    parts = [f"seat {view.seat} to move {to_move} phase {phase} hand {view.hand}"]
    parts.append(f"bids {bid_text} passed {passed_text}")
    if view.skat is not None:
        parts.append(f"skat {view.skat}")
    if view.discard is not None:
        parts.append(f"discard {view.discard}")
    if view.contract is not None:
        parts.append(f"declarer {view.declarer} plays {view.contract!s}")
    if view.open_hand is not None:
        parts.append(f"open {view.open_hand}")
    if view.phase in (Phase.PLAY, Phase.OVER):
        points = [0, 0, 0]
        for _, cards, winner in view.tricks:
            points[winner] += sum(c.points for c in cards)
        trick = " ".join(str(c) for c in view.trick) or "-"
        parts.append(f"tricks {len(view.tricks)} points {points} trick {trick}")
    return " ".join(parts)


def _pick(rng: np.random.Generator, cards: list[Card], n: int) -> tuple[list[Card], list[Card]]:
    """``n`` cards drawn uniformly from ``cards`` and the rest."""
    order = rng.permutation(len(cards))
    chosen = [cards[int(k)] for k in order[:n]]
    rest = [cards[int(k)] for k in order[n:]]
    return chosen, rest


def indistinguishable_deal(view: View, seed: int) -> tuple[Deal, Cards | None]:
    """A deal, drawn from ``seed``, that ``view.seat`` cannot tell from the real one after the
    visible history, and the declarer's discard in it (``None`` before a discard).

    Hidden cards are drawn uniformly among the worlds consistent with the seat's cards and, in
    card play, the voids shown by not following suit (``skat.sample_worlds``); the auction's
    information is not used. Replaying the view's history on this deal (with the discard)
    gives a game whose view from ``view.seat`` is the same (see :func:`replay`). A finished
    game raises :class:`skat.PositionError`, a seed outside ``0 .. 2**64 - 1``
    :class:`skat.ArgumentError`.

    >>> import skat
    >>> game = skat.Game(skat.Deal.random(seed=7))
    >>> deal, _ = indistinguishable_deal(game.view(0), seed=1)
    >>> deal.hands[0] == game.hands[0], deal == game.deal
    (True, False)
    """
    _expect(view, View, "indistinguishable_deal")
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
        raise TypeError(f"seed must be an int, got {type(seed).__name__}")
    if not 0 <= int(seed) < 2**64:
        raise ArgumentError(f"{seed} is not an integer in 0..={2**64 - 1}")
    seed = int(seed)
    if view.phase == Phase.OVER:
        raise PositionError("a finished game has no hidden cards to draw")
    rng = np.random.default_rng(seed)
    seat, declarer = view.seat, view.declarer
    picked = view.picked_up and declarer is not None
    played: list[list[Card]] = [[], [], []]
    for s, card in view.plays:
        played[s].append(card)
    hands: list[list[Card]] = [[], [], []]
    discard: list[Card] | None = None
    if view.phase == Phase.PLAY:
        world, hidden = sample_worlds(view, 1, seed=seed)[0]
        hands = [list(world[s]) + played[s] for s in range(3)]
        rest = list(hidden)
    else:  # before card play nothing but the seat's own cards is known
        hands[seat] = list(view.hand) + list(view.discard or Cards())
        known = Cards(hands[seat]) | (view.skat or Cards())
        unknown = [c for c in Card.all() if c not in known]
        for s in range(3):
            if s != seat:
                wanted = 12 if picked and s == declarer else 10
                hands[s], unknown = _pick(rng, unknown, wanted)
        rest = unknown
    if picked and declarer is not None:
        # the declarer's twelve cards: her ten, the skat she took; rest is then her discard
        twelve = hands[declarer] + rest
        if declarer == seat:
            discard = list(view.discard) if view.discard is not None else None
            skat_cards = list(view.skat or Cards())
        else:
            if view.phase != Phase.DISCARD:
                unplayed = [c for c in twelve if c not in played[declarer]]
                discard = rest if rest else _pick(rng, unplayed, 2)[0]
            skat_cards, _ = _pick(rng, twelve, 2)
        hands[declarer] = [c for c in twelve if c not in skat_cards]
        rest = skat_cards
    deal = Deal((Cards(hands[0]), Cards(hands[1]), Cards(hands[2])), Cards(rest))
    return deal, (Cards(discard) if discard is not None else None)


def replay(view: View, deal: Deal, discard: Cards | None) -> Game:
    """The game of ``deal`` after the actions of ``view.history``, with ``discard`` laid away
    where the view does not show the declarer's discard."""
    _expect(view, View, "replay")
    game = Game(deal)
    for actor, action in view.history:
        if game.phase == Phase.DISCARD and action.kind != "discard":
            if discard is None:
                raise IllegalActionError("the view's history needs a discard")
            game.apply(Action(".".join(str(c) for c in discard)))
        game.apply(action, actor_seat(actor))
    if game.phase == Phase.DISCARD and view.phase != Phase.DISCARD and discard is not None:
        game.apply(Action(".".join(str(c) for c in discard)))
    return game
