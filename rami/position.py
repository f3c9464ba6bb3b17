"""A position: the table, the hand of the player to move, whether that player has opened, rules."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rami.cards import JOKER, Card, format_cards, localize_cards, parse_cards, sort_cards
from rami.errors import InvalidPositionError, Loc, NotationError, UnknownRulesetError, quote
from rami.lang import ENGLISH, Language
from rami.melds import Meld, meld_problems
from rami.rules import DEFAULT_RULES, PRESETS, Ruleset, get_ruleset

COPIES_PER_CARD = 2


@dataclass(frozen=True)
class Position:
    table: tuple[Meld, ...] = ()
    hand: tuple[Card, ...] = ()
    opened: bool = False
    rules: Ruleset = field(default=DEFAULT_RULES)
    #: The card just taken from the discard pile, which may not be discarded (decision 8).
    taken_discard: Card | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "table", tuple(self.table))
        object.__setattr__(self, "hand", sort_cards(self.hand))

    @property
    def table_cards(self) -> Counter[Card]:
        counts: Counter[Card] = Counter()
        for meld in self.table:
            counts.update(meld.cards)
        return counts

    @property
    def table_size(self) -> int:
        """How many cards lie on the table, jokers included."""
        return sum(map(len, self.table))

    def problems(self, language: Language = ENGLISH) -> list[str]:
        """Every reason this position cannot occur under its rules (empty when valid), its
        cards written in ``language``."""
        problems = position_problems(self.table, self.hand, self.rules, self.taken_discard)
        return [localize_cards(problem, language) for problem in problems]

    def checked(self) -> Position:
        """Return self, or raise InvalidPositionError listing every problem."""
        problems = self.problems()
        if problems:
            raise InvalidPositionError(problems)
        return self

    def __str__(self) -> str:
        return format_position(self)

    def summary_json(self) -> dict[str, Any]:
        """What ``rami validate --json`` and ``POST /validate`` say of a position beside its
        verdict (cards in the contract's codes)."""
        return {
            "position": str(self),
            "rules": self.rules.option_string,
            "melds": len(self.table),
            "table_cards": self.table_size,
            "hand_cards": len(self.hand),
            "opened": self.opened,
            "hand_penalty": hand_penalty(self.hand, self.rules, self.opened),
        }

    def __repr__(self) -> str:
        return f"Position.parse({str(self)!r})"

    def text(self, language: Language = ENGLISH) -> str:
        """The one-line text notation, cards in ``language`` (docs/notation.md)."""
        return format_position(self, language)

    @classmethod
    def parse(cls, text: str, language: Language = ENGLISH) -> Position:
        """Read the one-line text notation, cards in ``language`` (docs/notation.md)."""
        return parse_position(text, language)


def count_problems(cards: Iterable[Card], rules: Ruleset) -> list[str]:
    """Card counts a two-deck game cannot hold (docs/rules.md: two copies, the preset's jokers)."""
    problems: list[str] = []
    counts = Counter(cards)
    for card in sorted(counts):
        if card.is_joker:
            continue
        if counts[card] > COPIES_PER_CARD:
            problems.append(
                f"{counts[card]} copies of {card}: two decks hold only {COPIES_PER_CARD}"
            )
    if counts[JOKER] > rules.jokers:
        problems.append(
            f"{counts[JOKER]} joker{'s' if counts[JOKER] != 1 else ''}: "
            f"{rules.option_string} is played with {rules.jokers}"
        )
    return problems


def position_problems(
    table: Sequence[Meld], hand: Sequence[Card], rules: Ruleset, taken_discard: Card | None = None
) -> list[str]:
    problems: list[str] = []
    for number, meld in enumerate(table, start=1):
        problems.extend(f"meld {number}: {reason}" for reason in meld_problems(meld, rules))
    everything = [card for meld in table for card in meld.cards] + list(hand)
    problems.extend(count_problems(everything, rules))
    if taken_discard is not None:
        if not rules.discard:
            problems.append(f"{rules.name} has no discard pile, yet a taken discard is named")
        elif taken_discard not in hand:
            problems.append(f"the taken discard {taken_discard} is not in the hand")
    return problems


def hand_penalty(hand: Iterable[Card], rules: Ruleset, opened: bool = True) -> int:
    """Penalty of the cards left in hand (docs/rules.md row "hand penalty", "not opened")."""
    if not opened and rules.unopened_flat_penalty is not None:
        return rules.unopened_flat_penalty
    return sum(rules.card_penalty(card.rank) for card in hand)


# --- The one-line text notation (docs/notation.md) ---------------------------------------------

EMPTY = "-"
BOM = "\ufeff"


def _meld_text(chunk: str, loc: Loc, language: Language) -> Meld:
    try:
        return Meld.parse(chunk, language)
    except NotationError as error:
        raise NotationError(str(error), loc=loc) from None


def parse_table(text: str, language: Language = ENGLISH) -> tuple[Meld, ...]:
    text = text.strip()
    if text in ("", EMPTY):
        return ()
    melds = []
    for number, chunk in enumerate(text.split("|"), start=1):
        if not chunk.strip():
            raise NotationError(
                f"meld {number} is empty in table {quote(text)}", loc=("table", number - 1)
            )
        try:
            melds.append(_meld_text(chunk, ("table", number - 1), language))
        except NotationError as error:
            raise NotationError(
                f"meld {number} ({quote(chunk.strip())}): {error}", loc=error.loc
            ) from None
    return tuple(melds)


def format_table(table: tuple[Meld, ...] | list[Meld], language: Language = ENGLISH) -> str:
    return " | ".join(meld.text(language) for meld in table) if table else EMPTY


_SETTINGS_HELP = "settings are a ruleset, 'opened' (or 'not-opened') and 'discard=CARD'"


def _settings(
    words: Sequence[str], language: Language = ENGLISH
) -> tuple[Ruleset, bool, Card | None]:
    rules: Ruleset | None = None
    opened: str | None = None
    taken: str | None = None
    card: Card | None = None
    for word in words:
        lowered = word.lower()
        if lowered in ("opened", "not-opened", "new"):
            if opened is not None:
                what = (
                    "given twice"
                    if (opened == "opened") == (lowered == "opened")
                    else (f"contradicts {quote(opened)}")
                )
                raise NotationError(f"setting {quote(word)} {what}", loc=("settings",))
            opened = lowered
        elif lowered.startswith("discard="):
            if taken is not None:
                raise NotationError(
                    f"setting {quote(word)}: a second taken discard (after {quote(taken)})",
                    loc=("settings",),
                )
            taken = word
            try:
                card = Card.parse(word.split("=", 1)[1], language)
            except NotationError as error:
                raise NotationError(str(error), loc=("settings",)) from None
        elif rules is None:
            try:
                rules = get_ruleset(word)
            except UnknownRulesetError as error:
                if "-" in word or "[" in word or lowered.split("[")[0] in PRESETS:
                    raise UnknownRulesetError(str(error), loc=("settings",)) from None
                raise NotationError(
                    f"unknown setting {quote(word)}: {_SETTINGS_HELP}; "
                    f"known presets: {', '.join(PRESETS)}",
                    loc=("settings",),
                ) from None
        else:
            raise NotationError(
                f"unexpected setting {quote(word)}: {_SETTINGS_HELP}", loc=("settings",)
            )
    return rules or DEFAULT_RULES, opened == "opened", card


def parse_position(text: str, language: Language = ENGLISH) -> Position:
    """Parse the one-line text notation, cards in ``language``. Raises NotationError with the
    part at fault."""
    if text.startswith(BOM):
        text = text[1:]
    if "\n" in text.strip():
        raise NotationError("a text position is one line; use JSON for multi-line input")
    sections = text.split("/")
    if len(sections) not in (2, 3):
        raise NotationError(
            f"expected 'TABLE / HAND [/ SETTINGS]' with '/' between sections, got {quote(text)}"
        )
    table = parse_table(sections[0], language)
    hand_text = sections[1].strip()
    try:
        hand = () if hand_text in ("", EMPTY) else parse_cards(hand_text, language)
    except NotationError as error:
        raise NotationError(f"hand: {error}", loc=("hand",)) from None
    words = sections[2].split() if len(sections) == 3 else []
    rules, opened, taken = _settings(words, language)
    return Position(table, hand, opened, rules, taken)


def format_position(position: Position, language: Language = ENGLISH) -> str:
    """The text notation, cards in ``language``; it parses back to the position."""
    settings = [position.rules.option_string]
    if position.opened:
        settings.append("opened")
    if position.taken_discard is not None:
        settings.append(f"discard={position.taken_discard.text(language)}")
    hand = format_cards(position.hand, language) if position.hand else EMPTY
    return f"{format_table(position.table, language)} / {hand} / {' '.join(settings)}"
