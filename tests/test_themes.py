"""Puzzle themes (rami.puzzles.themes): known answers for every theme, on small legal turns."""

from __future__ import annotations

from collections import Counter

import pytest

from rami import parse_position
from rami.notation import parse_table
from rami.puzzles.record import shipped_pack
from rami.puzzles.themes import THEMES, describe, themes
from rami.referee import validate_turn

#: (position, final table, themes it has, themes it has not).
CASES = [
    (
        "3H 4H 5H 6H 7H 8H 9H / 6H / rami-chinois[jokers=0] opened",
        "3H 4H 5H 6H | 6H 7H 8H 9H",
        {"all-cards", "split-run", "no-joker"},
        {"best-score", "borrow-from-run", "long-run", "joker-swap", "twin-cards"},
    ),
    (
        "2C 3C 4C 5C 6C 7C 8C / 2S 8S QS 2H / rami-chinois[jokers=0] opened",
        "3C 4C 5C 6C 7C 8C | 2S 2H 2C",
        {"best-score", "borrow-from-run", "long-run", "no-joker"},
        {"all-cards", "split-run", "run-to-sets", "set-to-runs"},
    ),
    (
        "4H 5H * 7H | 9S 9D 9C / 6H / rami-chinois opened",
        "4H 5H 6H 7H | 9S 9D 9C *",
        {"joker-swap", "joker-freed", "all-cards"},
        {"no-joker", "joker-from-hand"},
    ),
    (
        "5D * * 8D 9D / 6D / rami-chinois opened",
        "5D 6D * 8D 9D *",
        {"joker-swap", "long-run"},
        {"joker-freed"},
    ),
    (
        "5H 6H 7H * / 9D 9C / rami-chinois opened",
        "5H 6H 7H | 9D 9C *",
        {"joker-freed"},
        {"joker-swap", "split-run", "joker-from-hand"},
    ),
    (
        "5H 5D * | 7S 8S 9S / 5S TS / rami-chinois opened",
        "5S 5H 5D | 7S 8S 9S TS *",
        {"joker-swap", "joker-freed"},
        {"set-to-runs"},
    ),
    (
        "2H 3H 4H 5H / 4H * / rami-chinois opened",
        "3H 4H 5H | 2H * 4H",
        {"joker-from-hand"},
        {"no-joker", "joker-freed", "joker-swap"},
    ),
    (
        "7S 7H 7D 7C / 5C 6C / rami-chinois[jokers=0] opened",
        "7S 7H 7D | 5C 6C 7C",
        {"borrow-from-set"},
        {"set-to-runs", "run-to-sets"},
    ),
    (
        "5S 5H 5D 5C | 6S 7S 8S | 6H 7H 8H / 4S 4H * / rami-chinois opened",
        "4S 5S 6S 7S 8S | 4H 5H 6H 7H 8H | 5D 5C *",
        {"set-to-runs", "borrow-from-set", "joker-from-hand"},
        {"run-to-sets", "merge-runs"},
    ),
    (
        "5H 6H 7H 8H 9H TH / 5S 5D TS TD / rami-chinois[jokers=0] opened",
        "5S 5H 5D | 6H 7H 8H 9H | TS TH TD",
        {"run-to-sets", "borrow-from-run"},
        {"set-to-runs", "split-run", "long-run", "borrow-from-set"},
    ),
    (
        "JS QS KS AS / QS KS / rami-chinois[jokers=0] opened",
        "JS QS KS | QS KS AS",
        {"ace-high", "borrow-from-run"},
        {"split-run", "twin-cards"},
    ),
    (
        "4S 5S 6S 7S / AS 2S 3S / rami-chinois[jokers=0] opened",
        "AS 2S 3S 4S | 5S 6S 7S",
        set(),
        {"ace-high", "long-run"},
    ),
    (
        "3C 4C 5C 6C 7C 8C 9C | 5H 6H 7H / 8H / rami-chinois[jokers=0] opened",
        "3C 4C 5C 6C 7C 8C 9C | 5H 6H 7H 8H",
        set(),
        {"long-run", "split-run", "borrow-from-run"},
    ),
    (
        "4D 5D 6D / 7D 7D 8D 9D / rami-chinois[jokers=0] opened",
        "4D 5D 6D 7D | 7D 8D 9D",
        {"twin-cards"},
        {"merge-runs"},
    ),
    (
        "2D 3D 4D | 6D 7D 8D / 5D / rami-chinois[jokers=0] opened",
        "2D 3D 4D 5D 6D 7D 8D",
        {"merge-runs", "long-run"},
        {"split-run", "twin-cards"},
    ),
    (
        "5C 6C 7C 8C / 5S 5D / rami-chinois[jokers=0] opened",
        "6C 7C 8C | 5S 5D 5C",
        {"borrow-from-run"},
        {"split-run", "run-to-sets"},
    ),
]


@pytest.mark.parametrize(
    ("position", "table", "present", "absent"), CASES, ids=[case[1] for case in CASES]
)
def test_known_themes(position: str, table: str, present: set[str], absent: set[str]) -> None:
    start = parse_position(position)
    after = parse_table(table)
    played = tuple(
        sorted((Counter(c for m in after for c in m.cards) - start.table_cards).elements())
    )
    assert validate_turn(start, list(after), played).legal  # the example is a real turn
    found = set(themes(start, after))
    assert present <= found, found
    assert not absent & found, found
    assert list(themes(start, after)) == [t for t in THEMES if t in found]  # listed in order


def test_every_theme_has_a_known_answer() -> None:
    covered = set().union(*(case[2] for case in CASES))
    assert covered == set(THEMES)
    refuted = set().union(*(case[3] for case in CASES))
    assert refuted == set(THEMES)
    assert all(describe(theme).endswith(".") for theme in THEMES)


def test_themes_do_not_depend_on_meld_order() -> None:
    start = parse_position(CASES[8][0])
    after = list(parse_table(CASES[8][1]))
    assert themes(start, after) == themes(start, after[::-1])


def test_the_shipped_pack_is_tagged() -> None:
    counts: Counter[str] = Counter()
    for puzzle in shipped_pack():
        assert "themes" in puzzle.record
        assert list(puzzle.themes) == list(themes(puzzle.position, puzzle.solution))
        assert ("all-cards" in puzzle.themes) == (puzzle.kind == "empty-hand")
        assert ("no-joker" in puzzle.themes) == (puzzle.jokers == 0)
        counts.update(puzzle.themes)
    assert set(counts) == set(THEMES)  # every theme has puzzles to pick
