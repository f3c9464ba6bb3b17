"""The answer corpus (tests/corpus/): recorded ``rami`` command lines give today what they gave
when recorded: the same exit code, standard output and standard error, timings aside.

The quick test replays a fixed sample of 200 cases (every kind of case among them); the slow one
replays them all, as ``.venv/bin/python tests/corpus/make_corpus.py replay`` does.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from corpus.cases import PRESETS, load_corpus, normalize, outcome, run_case, sample
from corpus.make_corpus import difference

HEADER, CASES = load_corpus()


def _replay(cases: list[dict[str, Any]]) -> list[str]:
    return [difference(case, got) for case in cases if (got := run_case(case)) != outcome(case)]


def test_the_corpus_covers_presets_objectives_languages_and_kinds() -> None:
    assert len(CASES) >= 2000
    presets = Counter(case["preset"] for case in CASES)
    assert all(presets[preset] >= 200 for preset in PRESETS)
    assert Counter(case["lang"] for case in CASES)["fr"] >= 800
    kinds = Counter(case["kind"] for case in CASES)
    for kind in (
        "solve",
        "solve-max-play",
        "hint",
        "review",
        "review-game",
        "validate",
        "puzzle-show",
        "puzzle-check",
        "puzzle-daily",
    ):
        assert kinds[kind] >= 10, kind
    words = [word for case in CASES for word in case["args"]]
    assert words.count("--no-min-moves") >= 400 and words.count("cards") >= 300
    assert {"1", "2", "3"} <= {
        case["args"][case["args"].index("--level") + 1]
        for case in CASES
        if "--level" in case["args"]
    }
    assert len({case["id"] for case in CASES}) == len(CASES)


def test_only_timings_are_blanked() -> None:
    text = '{\n  "ms": 37.993,\n  "build_ms": 2,\n  "cards_moved": 4\n}\nStatus: optimal (12.5 ms)'
    assert normalize(text) == (
        '{\n  "ms": 0,\n  "build_ms": 0,\n  "cards_moved": 4\n}\nStatus: optimal (N ms)'
    )
    assert normalize("4 moves, 10 points left") == "4 moves, 10 points left"


def test_a_changed_answer_is_caught() -> None:
    case = next(case for case in CASES if case["kind"] == "solve" and case["exit"] == 0)
    altered = {**case, "stdout": case["stdout"].replace('"penalty_after": ', '"penalty_after": 1')}
    assert _replay([altered]) and not _replay([case])


def test_a_sample_of_the_corpus_replays_identical() -> None:
    chosen = sample(CASES, 200)
    assert len({case["kind"] for case in chosen}) == len({case["kind"] for case in CASES})
    changed = _replay(chosen)
    assert not changed, f"recorded at {HEADER['commit'][:10]}:\n" + "\n".join(changed[:20])


@pytest.mark.slow
def test_the_whole_corpus_replays_identical() -> None:
    changed = _replay(CASES)
    assert not changed, (
        f"{len(changed)} of {len(CASES)} changed (recorded at "
        f"{HEADER['commit'][:10]}):\n" + "\n".join(changed[:40])
    )
