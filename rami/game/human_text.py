"""What ``rami play`` prints and reads, in the player's language (``--lang``, ``RAMI_LANG``).

Cards are written in the language's notation (``KH``; in French ``R♥``) and read in it (French
``RC`` or ``R♥`` is the king of hearts); the command words stay those of
:mod:`rami.game.moves`, which reads English cards: :func:`english_line` rewrites the cards of a
French line before it is parsed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from rami.cards import Card, localize_cards, parse_cards
from rami.errors import NotationError
from rami.game.moves import MoveError, WorkTable
from rami.game.state import CLAIM, DRAW, View
from rami.lang import ENGLISH, Language
from rami.melds import Meld
from rami.phrasebook import say as phrase
from rami.phrasebook import say_count

#: Words of the command language, never cards.
_WORDS = frozenset(
    (
        "draw",
        "from",
        "the",
        "stock",
        "discard",
        "pile",
        "lay",
        "your",
        "hand",
        "as",
        "meld",
        "add",
        "to",
        "move",
        "split",
        "after",
        "swap",
        "put",
        "in",
        "place",
        "of",
        "joker",
        "hint",
        "done",
        "undo",
        "table",
        "help",
        "quit",
        "claim",
        "pass",
    )
)


def cards_text(cards: Iterable[Card], language: Language) -> str:
    return " ".join(card.text(language) for card in cards)


def card_text(card: Card | None, language: Language, none: str = "-") -> str:
    return none if card is None else card.text(language)


def say(text: str, language: Language) -> str:
    """A sentence of the engine, the referee or the move table (English cards), its cards in
    ``language``."""
    return localize_cards(text, language)


def english_line(line: str, language: Language) -> str:
    """A typed line with its cards in English notation (unchanged in English); MoveError for a
    word that is neither a command word nor a card of ``language``."""
    if language is ENGLISH:
        return line
    words = []
    for word in line.split():
        lowered = word.lower()
        if lowered in _WORDS or lowered.isdigit():
            words.append(word)
            continue
        try:
            cards = parse_cards(word, language)
        except NotationError as error:
            raise MoveError(str(error)) from None
        words.append(" ".join(str(card) for card in cards))
    return " ".join(words)


#: Whole lines that stand for a longer command.
SHORT_WORDS = {"stock": "draw stock", "pile": "draw discard", "?": "help"}
#: The verbs of a turn's moves, and of its end.
TURN_VERBS = frozenset({"lay", "add", "move", "split", "swap", "discard", "done", "undo"})


def expand(line: str, view: View | None = None, language: Language = ENGLISH) -> str:
    """A short word as its command: ``stock`` is ``draw stock``, ``pile`` ``draw discard``,
    ``?`` ``help``, and ``draw`` alone the draw where there is one place to draw from."""
    word = " ".join(line.split()).lower()
    if word == "draw" and view is not None:
        if len(view.draws) == 1:
            return f"draw {view.draws[0]}"
        if view.phase != DRAW:
            return "draw stock"  # answered: not now
        choices = phrase("play.or", language).join(f"draw {source}" for source in view.draws)
        raise MoveError(phrase("play.draw-where", language, choices=choices))
    return SHORT_WORDS.get(word, line)


def sources_text(view: View, language: Language) -> str:
    """The places ``view`` lets the player draw from, in ``language`` (``stock or discard``)."""
    return phrase("play.or", language).join(
        phrase(f"play.source.{source}", language) for source in view.draws
    )


def not_now(verb: str, view: View, language: Language = ENGLISH) -> str:
    """Why a command understood is not one the game asks for now, and what it asks."""
    draws = phrase("play.or", language).join(f"'draw {source}'" for source in view.draws)
    draws = draws or "'draw stock'"
    rules = view.rules.name
    if view.phase == DRAW:
        if verb == "draw":
            sources = sources_text(view, language)
            return phrase("play.draw-only", language, rules=rules, sources=sources, draws=draws)
        if verb in ("claim", "pass"):
            return phrase("play.no-claim-draw", language, draws=draws)
        if verb in TURN_VERBS:
            return phrase("play.draw-first", language, draws=draws)
    elif view.phase == CLAIM:
        card = card_text(view.claim_card, language)
        return phrase("play.answer-claim", language, card=card)
    else:
        end = phrase("play.then-discard" if view.rules.discard else "play.then-done", language)
        if verb == "draw" and view.drawn is None:
            return phrase("play.no-draw", language, rules=rules, end=end)
        if verb == "draw":
            taken = card_text(view.taken_discard or view.drawn, language)
            where = "" if view.taken_discard is None else phrase("play.from-pile", language)
            return phrase("play.drawn-already", language, card=taken, where=where, end=end)
        if verb in ("claim", "pass"):
            return phrase("play.no-claim-play", language, end=end)
    return phrase("play.not-asked", language, verb=verb)


#: The rules' decision numbers in the referee's sentences (docs/rules.md keeps them).
_DECISIONS = re.compile(r"\s*\((?:[^()]*, )?decisions? \d+(?:(?:, | and )\d+)*\)")
#: A meld of the table changed by a player not yet opened.
_CHANGED = re.compile(r"meld (\d+) \((.+?)\) changed before the player opened: .*")


def refusal(problems: Sequence[str], language: Language = ENGLISH) -> str:
    """The one reason a refused turn is told by, in plain words: the first that matters (a
    meld of the table changed before the opening is the move the player made, before what the
    opening lacks), without the rules' decision numbers."""
    if not problems:
        return phrase("play.referee-refused", language)
    changed = next((problem for problem in problems if _CHANGED.fullmatch(problem)), None)
    if changed is not None:
        match = _CHANGED.fullmatch(changed)
        assert match is not None
        then = phrase(
            "play.open-then-add"
            if "once the opening melds are down" in changed
            else "play.open-from-hand",
            language,
        )
        meld = say(match.group(2), language)
        return phrase("play.changed", language, number=match.group(1), meld=meld, then=then)
    return say(_DECISIONS.sub("", problems[0]), language)


def line_editing() -> bool:
    """Line editing and history for ``input()`` (the arrows, Ctrl-R...) where Python has
    readline; True when it does."""
    try:
        import readline  # noqa: F401  (imported for its effect on input())
    except ImportError:
        return False
    return True


def table_text(
    view: View,
    work: WorkTable | None = None,
    language: Language = ENGLISH,
    table: Sequence[Meld] | None = None,
) -> str:
    """The table numbered as the turn's moves use it (``work``), else ``table`` (the view's
    melds in the order the person sees them numbered), else the view's."""
    melds: list[tuple[int, Meld]] = (
        work.numbered()
        if work is not None
        else list(enumerate(view.table if table is None else table, start=1))
    )
    if not melds:
        return phrase("play.table-empty", language)
    lines = (f"  {number}. {meld.text(language)}" for number, meld in melds)
    return "\n".join((phrase("play.table", language), *lines))


def hand_text(view: View, work: WorkTable | None = None, language: Language = ENGLISH) -> str:
    hand = work.hand_cards() if work is not None else view.hand
    opened = phrase("play.opened", language)
    others = ", ".join(
        say_count(
            "play.other",
            size,
            language,
            seat=f"P{seat + 1}",
            opened=opened if view.opened[seat] else "",
        )
        for seat, size in enumerate(view.hand_sizes)
        if seat != view.seat and view.active[seat]
    )
    mine = phrase(
        "play.hand",
        language,
        count=len(hand),
        cards=cards_text(hand, language) or "-",
        opened=opened if view.is_opened else "",
    )
    top = card_text(view.top_discard, language)
    rest = phrase("play.others", language, others=others, stock=view.stock_size, top=top)
    return f"{mine}\n{rest}"


__all__ = [
    "SHORT_WORDS",
    "card_text",
    "cards_text",
    "english_line",
    "expand",
    "hand_text",
    "line_editing",
    "not_now",
    "refusal",
    "say",
    "sources_text",
    "table_text",
]
