"""docs/rules.md and the preset data agree.

The page has a heading for each of decisions 1 to 13 (code and tests cite them by number), names
every preset, and its presets table states the jokers and cards dealt that ``rami/rules.py``
holds. Where the code is wrong by the rules, the test is written to the page's value and marked
``xfail(strict=True)`` until the fix lands.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rami.rules import PRESETS, get_ruleset

ROOT = Path(__file__).resolve().parent.parent
RULES_DOC = ROOT / "docs" / "rules.md"

_DECISION = re.compile(r"^### Decision (\d+): \S", re.MULTILINE)
_NUMBER = re.compile(r"\d+")

FIXES_IN_PROGRESS = "rules display fixes in progress"


def _text() -> str:
    return RULES_DOC.read_text(encoding="utf-8")


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def presets_table() -> dict[str, dict[str, str]]:
    """The table of section "The presets": row label -> preset name -> cell."""
    section = _text().split("\n## The presets\n", 1)[1].split("\n## ", 1)[0]
    lines = [line for line in section.splitlines() if line.startswith("|")]
    header = _cells(lines[0])
    assert header[0] == "", "the presets table starts with an empty corner cell"
    columns = []
    for cell in header[1:]:
        names = re.sub(r"\s*\[[^\]]*\]$", "", cell)
        columns.append([name.strip() for name in names.split("/")])
    table: dict[str, dict[str, str]] = {}
    for line in lines[2:]:
        cells = _cells(line)
        if len(cells) != len(header):
            break  # the next table of the section
        table[cells[0]] = {
            name: cell for names, cell in zip(columns, cells[1:], strict=True) for name in names
        }
    return table


def _numbers(cell: str) -> set[int]:
    return {int(number) for number in _NUMBER.findall(cell)}


def test_decisions_1_to_13_have_headings_in_order() -> None:
    numbers = [int(number) for number in _DECISION.findall(_text())]
    assert numbers == list(range(1, 14))


def test_decision_headings_sit_in_their_sections() -> None:
    text = _text()
    decisions = text.index("\n## Decisions on what the original texts leave open\n")
    whole_game = text.index("\n## The whole game\n")
    assert decisions < text.index("### Decision 1: ") < text.index("### Decision 8: ") < whole_game
    assert whole_game < text.index("### Decision 9: ") < text.index("### Decision 13: ")


def test_sections_cited_by_the_code_exist() -> None:
    text = _text()
    for heading in (
        "## Common to every preset",
        "## The presets",
        "## Rummikub",
        "## Decisions on what the original texts leave open",
        "## The whole game",
    ):
        assert f"\n{heading}\n" in text, heading


def test_names_every_preset() -> None:
    text = _text()
    for name in PRESETS:
        assert f"`{name}`" in text, f"docs/rules.md never names `{name}`"


def test_presets_table_has_a_column_per_preset() -> None:
    table = presets_table()
    for row in ("jokers in deck", "cards dealt"):
        assert set(table[row]) == set(PRESETS), row


#: (preset, field) -> what the code gets wrong by the rules, while a fix of rami/rules.py is
#: under way: the test states the page's value and is marked xfail(strict=True) meanwhile.
#: Empty since rummikub's cards_dealt became 14 (commit da534ee).
WRONG_IN_CODE: dict[tuple[str, str], str] = {}


def _param(name: str, field: str):
    issue = WRONG_IN_CODE.get((name, field))
    marks = pytest.mark.xfail(strict=True, reason=f"{FIXES_IN_PROGRESS}: {issue}") if issue else ()
    return pytest.param(name, field, marks=marks, id=f"{name}-{field}")


_CASES = [_param(name, field) for name in PRESETS for field in ("jokers", "cards_dealt")]

_ROW = {"jokers": "jokers in deck", "cards_dealt": "cards dealt"}


@pytest.mark.parametrize(("name", "field"), _CASES)
def test_presets_table_matches_the_preset_data(name: str, field: str) -> None:
    cell = presets_table()[_ROW[field]][name]
    stated = _numbers(cell)
    value = getattr(PRESETS[name], field)
    if name == "rami-chinois" and field == "jokers":
        # "0 or 4": the preset has the original's option (4), and jokers=0 plays without.
        assert stated == {0, 4}, cell
        assert value in stated
        assert get_ruleset("rami-chinois[jokers=0]").jokers == 0
    else:
        assert stated == {value}, f"docs/rules.md says {cell!r}, rami/rules.py says {value}"
