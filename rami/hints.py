"""Progressive hints and the plain-text report of a solution (shared by the CLI and HTTP layers).

Pure functions of a :class:`rami.solver.api.Solution`: nothing here solves, prints or imports the
solver engine. Three hint levels, each telling more than the one before:

1. what is achievable ("You can play all 6 cards.", "You can shed 37 points (play 4 of 6 cards).");
2. the first key move: the first move that takes cards from a meld on the table (a split, a
   move, a joker replaced or swapped, as :mod:`rami.review` counts it), or else the first move;
3. the full solution, the same report as ``rami solve``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rami.cards import format_cards
from rami.lang import ENGLISH, Language
from rami.phrasebook import say
from rami.phrases import plural, word

if TYPE_CHECKING:
    from rami.solver.api import Move, Solution

LEVELS = (1, 2, 3)


@dataclass(frozen=True)
class Hint:
    """One hint: its level, the sentence(s) to show, and the facts behind them as JSON data."""

    level: int
    text: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"level": self.level, "hint": self.text, **self.data}


def _cards_or_none(cards: tuple[Any, ...], language: Language = ENGLISH) -> str:
    if not cards:
        return say("hint.none", language)
    return format_cards(cards, language)


def heading(key: str, language: Language, count: int | str | None = None) -> str:
    """``Moves (3):``; in French ``Coups (3) :`` (a space before the colon)."""
    text = word(key, language) + (f" ({count})" if count is not None else "")
    return say("hint.heading", language, text=text)


def solution_lines(solution: Solution, language: Language = ENGLISH) -> list[str]:
    """The human report of a solution, one line per item, plain text (the CLI may colour it)."""
    status = solution.status.value
    details = [f"{heading('objective', language)} {word(solution.objective.value, language)}"]
    if not solution.min_moves:
        details.append(word("not minimised", language))
    details.append(f"{solution.solve_ms:.1f} ms")
    lines = [f"{heading('status', language)} {word(status, language)} ({', '.join(details)})"]
    if status != "optimal":
        lines.append(word("not proved", language))
    if solution.bounds:
        bounds = ", ".join(f"{key} {value}" for key, value in solution.bounds.items())
        lines.append(f"{heading('bounds', language)} {bounds}")
    if solution.message:
        lines.append(f"{heading('note', language)} {solution.note(language)}")
    melds = plural(len(solution.table), "meld", language, "combinaison")
    lines.append(heading("new table", language, melds))
    if solution.table:
        table = solution.numbered_table()
        width = len(str(table[-1][0]))
        lines.extend(f"  {number:>{width}}. {meld.text(language)}" for number, meld in table)
    else:
        lines.append(f"  {word('empty', language)}")
    lines.append(
        f"{heading('played', language, solution.cards_played)} "
        f"{_cards_or_none(solution.played, language)}"
    )
    lines.append(
        f"{heading('hand left', language, len(solution.hand))} "
        f"{_cards_or_none(solution.hand, language)}"
    )
    lines.append(
        f"{heading('penalty', language)} {solution.penalty_before} -> {solution.penalty_after}"
    )
    if solution.opened and not solution.position.opened:
        lines.append(word("opens", language))
    lines.append(f"{heading('moved', language)} {solution.cards_moved}")
    lines.append(heading("moves", language, len(solution.moves)))
    if solution.moves:
        width = len(str(len(solution.moves)))
        lines.extend(
            f"  {number:>{width}}. {move.said(language)}"
            for number, move in enumerate(solution.moves, start=1)
        )
    else:
        lines.append(f"  {word('no move', language)}")
    return lines


def achievable(solution: Solution, language: Language = ENGLISH) -> Hint:
    """Level 1: what the best turn achieves, without saying how."""
    position = solution.position
    in_hand = len(position.hand)
    played = solution.cards_played
    shed = solution.penalty_before - solution.penalty_after
    opens = solution.opened and not position.opened
    text = _achievable_text(solution, in_hand, played, shed, opens, language)
    data = {
        "can_open": opens,
        "cards_in_hand": in_hand,
        "cards_played": played,
        "cards_left": len(solution.hand),
        "goes_out": played > 0 and not solution.hand,
        "penalty_before": solution.penalty_before,
        "penalty_after": solution.penalty_after,
        "points_shed": shed,
    }
    return Hint(1, text, data)


def _achievable_text(
    solution: Solution, in_hand: int, played: int, shed: int, opens: bool, language: Language
) -> str:
    """Level 1's sentence: what the best turn achieves (``hint.*`` in the phrase book)."""
    if played == 0:
        key = "hint.cannot-open" if not solution.position.opened else "hint.nothing-playable"
        return say(key, language)
    counts = {
        "played": played,
        "in_hand": plural(in_hand, "card", language, "carte"),
        "points": plural(shed, "point", language),
    }
    if not solution.hand and played == in_hand:
        phrase = say("hint.all-cards" if played > 1 else "hint.only-card", language, **counts)
    elif not solution.hand:
        phrase = say("hint.go-out", language, played=plural(played, "card", language, "carte"))
    elif solution.objective.value == "cards":
        phrase = say("hint.by-cards", language, **counts)
    else:
        phrase = say("hint.by-points", language, **counts)
    return say("hint.you-can-open" if opens else "hint.you-can", language, phrase=phrase)


def key_move(solution: Solution) -> tuple[int, Move] | None:
    """Index and move of the first move that takes cards from a meld on the table
    (:attr:`rami.moves.MoveKind.touches_table`: a move, a split, a joker replaced or swapped; a
    joker sliding in its run takes none), else the first move."""
    for index, move in enumerate(solution.moves):
        if move.kind.touches_table:
            return index, move
    if solution.moves:
        return 0, solution.moves[0]
    return None


def first_key_move(solution: Solution, language: Language = ENGLISH) -> Hint:
    """Level 2: the one move that unlocks the turn."""
    found = key_move(solution)
    if found is None:
        text = achievable(solution, language).text
        return Hint(2, text, {"move": None, "move_number": None, "moves_total": 0})
    index, move = found
    text = f"{heading('key move', language)} {move.said(language)}"
    data = {
        "move": move.to_json(language),
        "move_number": index + 1,
        "moves_total": len(solution.moves),
    }
    return Hint(2, text, data)


def full_solution(solution: Solution, language: Language = ENGLISH) -> Hint:
    """Level 3: the whole turn, as ``rami solve`` reports it."""
    return Hint(
        3, "\n".join(solution_lines(solution, language)), {"solution": solution.to_json(language)}
    )


def make_hint(solution: Solution, level: int, language: Language = ENGLISH) -> Hint:
    """The hint of ``level`` (1, 2 or 3) for this solution, its sentences in ``language``."""
    if level == 1:
        return achievable(solution, language)
    if level == 2:
        return first_key_move(solution, language)
    if level == 3:
        return full_solution(solution, language)
    raise ValueError(f"hint level must be 1, 2 or 3, got {level!r}")
