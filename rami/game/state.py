"""The state of a round, and the visible state of one seat (what a player may see).

:class:`RoundState` is the whole truth: the stock in order, every hand. A player never gets it:
the engine hands each player a :class:`View`, a frozen dataclass built afresh for every request,
holding only what that seat sees at the table: its own hand, the table, the discard pile (all of
it, top last), how many cards the others hold, who has opened, the cards the others took from
the discard pile (seen by everyone) while they still hold them, the stock's size (never its
order) and the scores.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from rami.cards import Card, sort_cards
from rami.errors import NotationError
from rami.game.actions import card_from_json, cards_from_json, table_from_json
from rami.game.deck import deck_counts
from rami.melds import Meld
from rami.notation import meld_to_json
from rami.position import Position
from rami.rules import Ruleset, get_ruleset

DRAW = "draw"
PLAY = "play"
CLAIM = "claim"
OVER = "over"
PHASES = (DRAW, PLAY, CLAIM)


@dataclass
class RoundState:
    """Everything about a round in progress (mutable; owned by :class:`rami.game.rounds.Round`).

    ``stock[-1]`` is the top of the stock and ``discard[-1]`` the top of the discard pile.
    """

    stock: list[Card]
    discard: list[Card]
    hands: dict[int, Counter[Card]]
    table: tuple[Meld, ...] = ()
    opened: dict[int, bool] = field(default_factory=dict)
    laid: dict[int, bool] = field(default_factory=dict)
    known: dict[int, Counter[Card]] = field(default_factory=dict)

    def all_cards(self) -> Counter[Card]:
        counts = Counter(self.stock)
        counts.update(self.discard)
        for hand in self.hands.values():
            counts.update(hand)
        for meld in self.table:
            counts.update(meld.cards)
        return counts


def _card_or_none(card: Card | None) -> str | None:
    return None if card is None else str(card)


@dataclass(frozen=True)
class View:
    """What seat ``seat`` sees when the engine asks it to act (``phase``).

    ``phase`` is "draw" (answer :class:`~rami.game.actions.Draw` from ``draws``), "play" (answer
    :class:`~rami.game.actions.Play`) or "claim" (rami fou: answer
    :class:`~rami.game.actions.Claim` for ``claim_card``, the last discard).
    """

    rules: Ruleset
    seat: int
    phase: str
    hand: tuple[Card, ...]
    table: tuple[Meld, ...]
    discard_pile: tuple[Card, ...]
    stock_size: int
    hand_sizes: tuple[int, ...]
    opened: tuple[bool, ...]
    active: tuple[bool, ...]
    known: tuple[tuple[Card, ...], ...]
    scores: tuple[int, ...]
    round: int = 1
    turn: int = 0
    first: int = 0
    draws: tuple[str, ...] = ()
    taken_discard: Card | None = None
    drawn: Card | None = None
    claim_card: Card | None = None
    claimed: bool = False
    reshuffles: int = 0
    target: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "hand", sort_cards(self.hand))
        if self.phase not in PHASES:
            raise NotationError(f"phase: expected one of {', '.join(PHASES)}, got {self.phase!r}")

    @property
    def players(self) -> int:
        return len(self.hand_sizes)

    @property
    def top_discard(self) -> Card | None:
        return self.discard_pile[-1] if self.discard_pile else None

    @property
    def is_opened(self) -> bool:
        return self.opened[self.seat]

    def position(self) -> Position:
        """The solver's position for this seat's turn (after the draw)."""
        return Position(self.table, self.hand, self.is_opened, self.rules, self.taken_discard)

    def unseen(self) -> Counter[Card]:
        """Cards this seat cannot see: in the stock or in the others' hands (less their known
        cards)."""
        counts = deck_counts(self.rules)
        counts.subtract(self.hand)
        counts.subtract(self.discard_pile)
        for meld in self.table:
            counts.subtract(meld.cards)
        for seat, cards in enumerate(self.known):
            if seat != self.seat:
                counts.subtract(cards)
        return +counts

    def next_seat(self, seat: int | None = None) -> int:
        seat = self.seat if seat is None else seat
        for step in range(1, self.players + 1):
            other = (seat + step) % self.players
            if self.active[other]:
                return other
        return seat

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.option_string,
            "seat": self.seat,
            "phase": self.phase,
            "hand": [str(card) for card in self.hand],
            "table": [meld_to_json(meld) for meld in self.table],
            "discard_pile": [str(card) for card in self.discard_pile],
            "stock_size": self.stock_size,
            "hand_sizes": list(self.hand_sizes),
            "opened": list(self.opened),
            "active": list(self.active),
            "known": [[str(card) for card in cards] for cards in self.known],
            "scores": list(self.scores),
            "round": self.round,
            "turn": self.turn,
            "first": self.first,
            "draws": list(self.draws),
            "taken_discard": _card_or_none(self.taken_discard),
            "drawn": _card_or_none(self.drawn),
            "claim_card": _card_or_none(self.claim_card),
            "claimed": self.claimed,
            "reshuffles": self.reshuffles,
            "target": self.target,
        }

    @classmethod
    def from_json(cls, data: Any) -> View:
        """A view from its JSON form; the fields an app may leave out get defaults."""
        if not isinstance(data, dict):
            raise NotationError(f"a view is a JSON object, got {type(data).__name__}")
        known_fields = set(cls.__dataclass_fields__)
        unknown = set(data) - known_fields
        if unknown:
            raise NotationError(f"view: unknown field(s) {sorted(unknown)}")
        rules_name = data.get("rules")
        if not isinstance(rules_name, str):
            raise NotationError(f"rules: expected a ruleset name, got {rules_name!r}")
        rules = get_ruleset(rules_name)
        hand_sizes = _ints(data.get("hand_sizes"), "hand_sizes")
        players = len(hand_sizes)
        seat = _int(data.get("seat"), "seat")
        if not 0 <= seat < players:
            raise NotationError(f"seat: expected 0..{players - 1}, got {seat}")
        hand = cards_from_json(data.get("hand", []), "hand")

        def optional_card(key: str) -> Card | None:
            value = data.get(key)
            return None if value is None else card_from_json(value, key)

        opened = data.get("opened", [False] * players)
        active = data.get("active", [True] * players)
        for key, value in (("opened", opened), ("active", active)):
            if not (
                isinstance(value, list)
                and len(value) == players
                and all(isinstance(flag, bool) for flag in value)
            ):
                raise NotationError(f"{key}: expected {players} true/false values")
        known = data.get("known", [[] for _ in range(players)])
        if not isinstance(known, list) or len(known) != players:
            raise NotationError(f"known: expected {players} lists of cards")
        draws = data.get("draws", [])
        if not isinstance(draws, list) or any(d not in ("stock", "discard") for d in draws):
            raise NotationError("draws: expected a list of 'stock' / 'discard'")
        target = data.get("target")
        return cls(
            rules=rules,
            seat=seat,
            phase=data.get("phase", PLAY),
            hand=hand,
            table=table_from_json(data.get("table", []), "table"),
            discard_pile=cards_from_json(data.get("discard_pile", []), "discard_pile"),
            stock_size=_int(data.get("stock_size", 0), "stock_size"),
            hand_sizes=tuple(hand_sizes),
            opened=tuple(opened),
            active=tuple(active),
            known=tuple(
                cards_from_json(cards, f"known[{index}]") for index, cards in enumerate(known)
            ),
            scores=tuple(_ints(data.get("scores", [0] * players), "scores")),
            round=_int(data.get("round", 1), "round"),
            turn=_int(data.get("turn", 0), "turn"),
            first=_int(data.get("first", 0), "first"),
            draws=tuple(draws),
            taken_discard=optional_card("taken_discard"),
            drawn=optional_card("drawn"),
            claim_card=optional_card("claim_card"),
            claimed=bool(data.get("claimed", False)),
            reshuffles=_int(data.get("reshuffles", 0), "reshuffles"),
            target=None if target is None else _int(target, "target"),
        )


def _int(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise NotationError(f"{where}: expected a whole number, got {value!r}")
    return value


def _ints(value: Any, where: str) -> list[int]:
    if not isinstance(value, list) or not value:
        raise NotationError(f"{where}: expected a list of whole numbers")
    return [_int(item, f"{where}[{index}]") for index, item in enumerate(value)]
