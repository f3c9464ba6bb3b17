"""The generator's profiles (docs/puzzles.md, "Profiles"): the original ones still draw exactly
the candidates they drew (records store ``seed`` and ``profile`` to regenerate them), the new
ones are the default for their tiers, draw deterministically, and make sound puzzles of the
tier asked for."""

from __future__ import annotations

import hashlib
import json
from collections import Counter

import pytest

from rami.notation import format_position
from rami.puzzles.difficulty import TIERS
from rami.puzzles.draw import candidate, candidate_seed
from rami.puzzles.evaluate import evaluate
from rami.puzzles.generator import generate
from rami.puzzles.profiles import DEFAULT_PROFILES, PROFILES
from rami.puzzles.recheck import verify
from rami.puzzles.record import Puzzle, make_record, shipped_pack

ORIGINAL = ("easy", "medium", "hard", "expert")

#: sha256 (first 16 hex digits) of the one-line notation of candidates 0..11 of seed 2025 (one
#: line each, "-" for a failed draw), computed by the code of commit 3092dd1, before profiles
#: other than the original four existed.
ORIGINAL_DRAWS = {
    ("easy", 0, None): "cac515e02240af53",
    ("easy", 0, "empty-hand"): "52117e5331f6b187",
    ("easy", 0, "best-score"): "914d47a655a32bf0",
    ("easy", 4, None): "3f571e4c5b857597",
    ("easy", 4, "empty-hand"): "52aa04516337c33b",
    ("easy", 4, "best-score"): "bc6052a4964dccc2",
    ("medium", 0, None): "c9f89e36a1f3104c",
    ("medium", 0, "empty-hand"): "fce7a7b0cd5f3f22",
    ("medium", 0, "best-score"): "610840d9a041d400",
    ("medium", 4, None): "f909271b71f3a46e",
    ("medium", 4, "empty-hand"): "db190b3224bf1cee",
    ("medium", 4, "best-score"): "c78f0005ca2cc18e",
    ("hard", 0, None): "f9e2240d9ce5b35a",
    ("hard", 0, "empty-hand"): "174d1ffde8598de2",
    ("hard", 0, "best-score"): "e33612d9d392f82e",
    ("hard", 4, None): "f8b1a2e01faca71a",
    ("hard", 4, "empty-hand"): "bd48c67503e5e5e2",
    ("hard", 4, "best-score"): "9a1885a09622d7dc",
    ("expert", 0, None): "14b6b83b5daa583a",
    ("expert", 0, "empty-hand"): "f837288516f136ba",
    ("expert", 0, "best-score"): "e82cb9820ba52a96",
    ("expert", 4, None): "b09dd04e35112164",
    ("expert", 4, "empty-hand"): "0767cf0114e5012e",
    ("expert", 4, "best-score"): "7caccf15a6909554",
}

#: Candidate 3 of seed 7, profile expert, 4 jokers, as commit 3092dd1 drew it.
ORIGINAL_EXPERT_7_3 = (
    "5S 6S 7S | 6H 6D 6C | 8S 8D 8C | 7C 8C 9C * JC | 4D 5D 6D | 8D 9D TD | 8H 9H TH | "
    "8S 9S TS JS / 8H 9H 7D 9D 9C / rami-chinois opened"
)


def _draws(profile: str, jokers: int, kind: str | None, seed: int = 2025, count: int = 12) -> str:
    texts = []
    for index in range(count):
        position = candidate(candidate_seed(seed, index), tier=profile, jokers=jokers, kind=kind)
        texts.append("-" if position is None else format_position(position))
    return hashlib.sha256("\n".join(texts).encode()).hexdigest()[:16]


@pytest.mark.parametrize(("profile", "jokers", "kind"), sorted(ORIGINAL_DRAWS, key=str))
def test_original_profiles_draw_what_they_drew(profile: str, jokers: int, kind: str | None) -> None:
    assert _draws(profile, jokers, kind) == ORIGINAL_DRAWS[(profile, jokers, kind)]


def test_original_candidate_spelled_out() -> None:
    position = candidate(candidate_seed(7, 3), tier="expert", jokers=4)
    assert position is not None and format_position(position) == ORIGINAL_EXPERT_7_3


def test_shipped_records_regenerate_their_candidates() -> None:
    """``candidate(seed, tier=profile, jokers=...)`` of a shipped record gives the record's hand
    and a table holding the record's (the judge only takes superfluous melds away)."""
    pack = shipped_pack()
    assert {puzzle.record["profile"] for puzzle in pack} <= set(ORIGINAL)
    for puzzle in pack[::4]:
        record = puzzle.record
        drawn = candidate(record["seed"], tier=record["profile"], jokers=puzzle.jokers)
        assert drawn is not None, puzzle.id
        assert drawn.rules == puzzle.position.rules
        assert Counter(drawn.hand) == Counter(puzzle.position.hand), puzzle.id
        assert not Counter(puzzle.position.table) - Counter(drawn.table), puzzle.id


def test_profiles_by_tier() -> None:
    assert set(DEFAULT_PROFILES) == set(TIERS)
    assert set(ORIGINAL) | set(DEFAULT_PROFILES.values()) <= set(PROFILES)
    assert DEFAULT_PROFILES["hard"] != "hard" and DEFAULT_PROFILES["expert"] != "expert"


@pytest.mark.parametrize("jokers", [0, 4])
@pytest.mark.parametrize("profile", ["hard-2", "expert-2"])
def test_new_profiles_are_deterministic(profile: str, jokers: int) -> None:
    first = _draws(profile, jokers, None, seed=5, count=8)
    assert _draws(profile, jokers, None, seed=5, count=8) == first
    assert _draws(profile, jokers, None, seed=6, count=8) != first
    assert first == NEW_DRAWS[(profile, jokers)]


#: The same digest for candidates 0..7 of seed 5 of the new profiles (computed when they were
#: made: a change to their draw shows here, and changes which puzzles a seed gives).
NEW_DRAWS = {
    ("hard-2", 0): "4a261df0ab68f095",
    ("hard-2", 4): "5436fbe9f9c5aaee",
    ("expert-2", 0): "32bfaa1ebb74fd62",
    ("expert-2", 4): "feaeb1e0432b806e",
}

#: (profile, jokers, seed, index, kind) of candidates of the new profiles that are sound puzzles
#: of the profile's tier, of both kinds (the first ones of seed 1 that judge in under a second).
NEW_PUZZLES = [
    ("hard-2", 0, 1, 9, "empty-hand"),
    ("hard-2", 0, 1, 174, "best-score"),
    ("hard-2", 4, 1, 20, "best-score"),
    ("hard-2", 4, 1, 38, "empty-hand"),
    ("expert-2", 0, 1, 20, "best-score"),
    ("expert-2", 0, 1, 86, "empty-hand"),
    ("expert-2", 4, 1, 13, "empty-hand"),
    ("expert-2", 4, 1, 22, "best-score"),
]


@pytest.mark.parametrize(("profile", "jokers", "seed", "index", "kind"), NEW_PUZZLES)
def test_new_profiles_make_sound_puzzles_of_their_tier(
    profile: str, jokers: int, seed: int, index: int, kind: str
) -> None:
    tier = profile.split("-")[0]
    position = candidate(candidate_seed(seed, index), tier=profile, jokers=jokers)
    assert position is not None
    evaluation = evaluate(position, tier=tier)
    assert (evaluation.metrics.tier, evaluation.kind) == (tier, kind)
    record = make_record(evaluation, seed=candidate_seed(seed, index), profile=profile)
    assert verify(Puzzle.from_record(record)) == []


def test_generate_takes_a_profile() -> None:
    """``profile`` draws every candidate: the original hard profile gives the puzzle that
    ``generate(1, seed=3, tier="hard")`` gave at commit 3092dd1."""
    records = list(generate(1, seed=3, tier="hard", profile="hard", max_attempts=400))
    assert [(r["id"], r["seed"], r["profile"]) for r in records] == [
        ("rc-ab52a1fb78", 101217036577627, "hard")
    ]
    with pytest.raises(ValueError, match="unknown profile"):
        list(generate(1, profile="legendary"))


@pytest.mark.slow
@pytest.mark.parametrize("jokers", [0, 4])
@pytest.mark.parametrize("tier", ["hard", "expert"])
def test_new_profiles_generate_sound_puzzles_of_the_tier(tier: str, jokers: int) -> None:
    for seed in (1, 2):
        records = list(generate(4, seed=seed, tier=tier, jokers=jokers, max_attempts=2000))
        assert len(records) == 4
        for record in records:
            assert record["profile"] == DEFAULT_PROFILES[tier]
            assert record["difficulty"]["tier"] == tier
            assert verify(Puzzle.from_record(record)) == []


def test_cli_generate_profile(tmp_path) -> None:
    from typer.testing import CliRunner

    from rami.cli.puzzle import puzzle_app

    out = tmp_path / "p.jsonl"
    bad = CliRunner().invoke(puzzle_app, ["generate", "--profile", "legendary", "--out", str(out)])
    assert bad.exit_code == 2 and "--profile" in bad.output and not out.exists()
    good = CliRunner().invoke(
        puzzle_app,
        [
            "generate",
            "--count",
            "1",
            "--seed",
            "3",
            "--tier",
            "hard",
            "--profile",
            "hard",
            "--max-attempts",
            "400",
            "--out",
            str(out),
        ],
    )
    assert good.exit_code == 0, good.output
    record = json.loads(out.read_text())
    assert (record["id"], record["profile"]) == ("rc-ab52a1fb78", "hard")
