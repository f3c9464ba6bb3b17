"""Puzzles: signature, uniqueness, answers, generation, the daily puzzle, the CLI, the shipped pack.

The whole shipped pack is re-verified on every run (``test_shipped_puzzle_reverifies``, one test
per record), as ``benchmarks/bench_puzzles.py`` does outside pytest.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from datetime import date, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rami import parse_position
from rami.cards import parse_cards
from rami.cli.puzzle import puzzle_app
from rami.matching import cards_moved
from rami.notation import parse_table, position_to_json
from rami.puzzles.answers import check_answer, parse_answer
from rami.puzzles.difficulty import NEAR_CAP, TIERS, melds_broken
from rami.puzzles.evaluate import Rejected, evaluate, solutions_up_to, solve_goal
from rami.puzzles.greedy import fits, greedy_play, lay_off
from rami.puzzles.recheck import verify
from rami.puzzles.record import Puzzle, daily, daily_order, make_record, shipped_pack
from rami.rules import get_ruleset
from rami.signature import Signature, same_solution, signature

NO_JOKERS = get_ruleset("rami-chinois[jokers=0]")
JOKERS = get_ruleset("rami-chinois")

#: Sound: the 6 of hearts splits the long run (one solution up to cuts).
SPLIT = "3H 4H 5H 6H 7H 8H 9H / 6H / rami-chinois[jokers=0] opened"
#: Sound, 4 cards: the 6H splits the heart run, the 8C frees the 5C for a set of fives.
DEMO = "3H 4H 5H 6H 7H 8H 9H | QS QD QC | 5C 6C 7C / 5S 6H 5D 8C / rami-chinois[jokers=0] opened"
#: Cooked: 6H 6C take the 6S and/or the 6D from the ends of the runs (three different sets).
COOKED = "3S 4S 5S 6S | 6D 7D 8D 9D / 6H 6C / rami-chinois[jokers=0] opened"


def table(text: str):
    return parse_table(text)


def sig(text: str, rules=NO_JOKERS) -> Signature:
    return signature(table(text), rules)


def runner() -> CliRunner:
    return CliRunner()


# ---------------------------------------------------------------------------- signature


def test_signature_ignores_run_cuts() -> None:
    assert sig("3H 4H 5H 6H 7H 8H | 9H TH JH") == sig("3H 4H 5H 6H 7H 8H 9H TH JH")
    assert sig("3H 4H 5H 6H 7H | 4H 5H 6H 7H 8H") == sig("3H 4H 5H 6H 7H 8H | 4H 5H 6H 7H")
    assert str(sig("3H 4H 5H 6H 7H 8H | 9H TH JH")) == "runs H:3-J; sets -"


def test_signature_ignores_meld_order_and_identical_copies() -> None:
    assert sig("7S 7H 7D | 2C 3C 4C") == sig("2C 3C 4C | 7D 7S 7H")
    first = table("5H 6H 7H | 5H 5S 5D")
    second = table("5S 5H 5D | 5H 6H 7H")  # the other 5H copy in each meld
    assert same_solution(first, second, NO_JOKERS)


def test_signature_tells_real_differences_apart() -> None:
    assert sig("7S 7H 7D | 7C 8C 9C") != sig("7S 7H 7D 7C | 8C 9C TC")
    assert sig("AH 2H 3H") != sig("QH KH AH")  # the ace low or high
    assert sig("7S 7H 7D") != sig("7S 7H 7C")
    assert sig("7S 7H 7D | 7S 7H 7D") == Signature.build({}, Counter({(7, (0, 1, 2)): 2}))


def test_jokers_are_wildcards_in_the_signature() -> None:
    at_top = signature(table("5H 6H 7H * | 9S 9D 9C"), JOKERS)
    at_bottom = signature(table("* 5H 6H 7H | 9S 9D 9C"), JOKERS)
    in_the_set = signature(table("5H 6H 7H | 9S 9D 9C *"), JOKERS)
    assert at_top == at_bottom == in_the_set
    # What a joker makes possible still shows: 6H out of the run is another solution.
    gap = signature(table("5H * 7H | 6H 6S 6D"), JOKERS)
    assert gap != signature(table("5H 6H 7H | * 6S 6D"), JOKERS)


# ---------------------------------------------------------------------------- soundness


def test_sound_puzzle_is_accepted_and_measured() -> None:
    evaluation = evaluate(parse_position(DEMO))
    assert evaluation.kind == "empty-hand"
    assert evaluation.goal["penalty_after"] == 0
    metrics = evaluation.metrics
    assert metrics.cards_moved == 4 and metrics.melds_broken == 2
    assert metrics.greedy_fails  # the 5D needs the 5C freed first, with the 8C
    assert metrics.tier in TIERS
    # The queens neither change nor tempt (no queen in hand): they are taken off the table.
    assert [str(meld) for meld in evaluation.position.table] == ["3H 4H 5H 6H 7H 8H 9H", "5C 6C 7C"]


def test_cooked_puzzle_is_refused() -> None:
    position = parse_position(COOKED)
    kind, goal, _ = solve_goal(position)
    found = solutions_up_to(position, kind, goal, limit=5)
    assert len(found) == 3
    assert {str(s).split("; ")[1] for s in found} == {"sets 6:SHDC", "sets 6:SHC", "sets 6:HDC"}
    with pytest.raises(Rejected, match="cooked"):
        evaluate(position)


def test_layoff_only_puzzle_is_refused() -> None:
    with pytest.raises(Rejected, match="lay-offs alone"):
        evaluate(
            parse_position(
                "7S 7H 7D | 8S 8H 8D | 9S 9H 9D / 7C 8C 9C / rami-chinois[jokers=0] opened"
            )
        )


def test_superfluous_meld_is_pruned() -> None:
    # The clubs run neither changes nor interacts with anything: it is taken off.
    position = parse_position(
        "3H 4H 5H 6H 7H 8H 9H | 2C 3C 4C / 6H / rami-chinois[jokers=0] opened"
    )
    evaluation = evaluate(position)
    assert [str(m) for m in evaluation.position.table] == ["3H 4H 5H 6H 7H 8H 9H"]


def test_melds_broken_does_not_depend_on_how_a_tie_is_broken() -> None:
    """Two maximum matchings (9 cards kept) of rc-7ab683b7cb's tables: the 4-card club run
    matched to ``5C 6C * 8C 9C`` (3 kept, 5 melds broken) or to ``5C 6C 7C`` (3 kept, kept
    whole: 4 broken). The metric is the fewest broken, whatever the melds' order."""
    before = list(table("5C 6C * 8C 9C | 9H TH JH | 5C 6C 7C | 6H * 8H 9H | 5H 6H 7H"))
    after = list(
        table("5C 6C 7C 8C | 9S 9H 9C | 5S 5H 5C | 6H 7H 8H 9H | 6S 6H 6C | TH TD * | JH JC *")
    )
    assert cards_moved(before, after) == 18 - 9
    orders = random.Random(7)
    for _ in range(20):
        assert melds_broken(tuple(before), tuple(after)) == 4
        orders.shuffle(before)
        orders.shuffle(after)
    # No tie: merging two runs breaks one of them whichever is matched.
    assert melds_broken(table("2D 3D 4D | 5D 6D 7D 8D"), table("2D 3D 4D 5D 6D 7D 8D")) == 1
    assert melds_broken(table("2D 3D 4D"), ()) == 1 and melds_broken((), table("2D 3D 4D")) == 0


def test_greedy_player_leaves_a_valid_table() -> None:
    """The 3D completes the set of threes and frees its joker, which no meld can take: not a
    legal play alone (the counting model would park the joker anywhere), so the greedy player
    does not take it, and fails rc-91b5fbac99 (the 4H and the 4D need the joker together)."""
    position = parse_position("3S 3H 3C * / 4H 3D 4D / rami-chinois opened")
    assert not fits(position, Counter(parse_cards("3D")))
    assert fits(position, Counter(parse_cards("3D 4H")))  # 3S 3D 3C | 3H 4H *
    assert fits(position, Counter(parse_cards("4H 4D")))  # 3S 3H 3C | 4H 4D *
    result = greedy_play(position)
    assert result.hand == position.hand and result.steps == ()
    evaluation = evaluate(position)
    assert evaluation.metrics.greedy_fails
    assert evaluation.metrics.tier == "hard"


def test_greedy_player() -> None:
    assert str(lay_off(table("5H 6H 7H")[0], parse_table("8H")[0].cards[0], NO_JOKERS)) == (
        "5H 6H 7H 8H"
    )
    assert lay_off(table("QH KH AH")[0], parse_table("2H")[0].cards[0], NO_JOKERS) is None
    split = greedy_play(parse_position(SPLIT))
    assert split.hand == ()  # one card at a time works
    demo = greedy_play(parse_position(DEMO))
    assert demo.hand  # the fives need the 8C played first, which greedy does not see


# ---------------------------------------------------------------------------- answers


def _puzzle(text: str) -> Puzzle:
    evaluation = evaluate(parse_position(text), prune=False)
    return Puzzle.from_record(make_record(evaluation, seed=0, profile="test"))


def _cooked_puzzle() -> Puzzle:
    """A hand-written record of the cooked position, intended solution: the 4-card set."""
    position = parse_position(COOKED)
    record = {
        "id": "cooked",
        "kind": "empty-hand",
        "rules": position.rules.option_string,
        "position": position_to_json(position),
        "goal": {"kind": "empty-hand", "penalty_after": 0, "cards_played": 2, "shed": 12},
        "solution": [["3S", "4S", "5S"], ["7D", "8D", "9D"], ["6S", "6H", "6D", "6C"]],
        "difficulty": {
            "cards_moved": 2,
            "melds_broken": 2,
            "greedy_fails": True,
            "near_solutions": 0,
            "jokers_involved": 0,
            "cards_played": 2,
            "hand_cards": 2,
            "table_cards": 8,
            "table_melds": 2,
        },
    }
    return Puzzle.from_record(record)


def test_answer_intended_and_equivalent() -> None:
    puzzle = _puzzle(DEMO)
    exact = check_answer(puzzle, puzzle.solution)
    assert exact.solved and exact.intended
    # The same melds in another order, with the other copy of a card, are the same solution.
    other = parse_answer("5C 5S 5D | 6C 7C 8C | QS QD QC | 6H 7H 8H 9H | 3H 4H 5H 6H")
    verdict = check_answer(puzzle, other)
    assert verdict.solved and verdict.intended, verdict.reasons
    # Another cut of the same cards is the same solution.
    long_run = _puzzle("3H 4H 5H 6H 7H 8H 9H TH JH QH / 6H / rami-chinois[jokers=0] opened")
    assert sorted(str(m) for m in long_run.solution) == ["3H 4H 5H 6H", "6H 7H 8H 9H TH JH QH"]
    cut = check_answer(long_run, parse_answer("6H 7H 8H | 9H TH JH QH | 3H 4H 5H 6H"))
    assert cut.solved and cut.intended
    as_json = parse_answer(json.dumps([[str(c) for c in m.cards] for m in puzzle.solution]))
    assert check_answer(puzzle, as_json).intended


def test_answer_alternative_is_accepted_but_not_intended() -> None:
    puzzle = _cooked_puzzle()
    verdict = check_answer(puzzle, parse_answer("3S 4S 5S 6S | 7D 8D 9D | 6D 6H 6C"))
    assert verdict.solved and not verdict.intended
    assert "another route" in verdict.reasons[0]
    assert check_answer(puzzle, puzzle.solution).intended


def test_answer_illegal_or_short_of_the_goal() -> None:
    puzzle = _puzzle(DEMO)
    illegal = check_answer(
        puzzle, parse_answer("3H 4H 5H 6H | 6H 7H 8H 9H | QS QD QC | 5C 6C 7C 8C | 5S 5D")
    )
    assert not illegal.solved and not illegal.legal
    assert any("needs at least 3" in reason for reason in illegal.reasons)
    stolen = check_answer(puzzle, parse_answer("3H 4H 5H 6H 7H 8H 9H | QS QD QC | 5C 6C 7C 8C 9C"))
    assert not stolen.legal  # 9C is in no hand and on no table
    short = check_answer(puzzle, parse_answer("3H 4H 5H 6H | 6H 7H 8H 9H | QS QD QC | 5C 6C 7C 8C"))
    assert short.legal and not short.solved
    assert "plays 2 of 4 cards" in short.reasons[0]


# ---------------------------------------------------------------------------- generation


def _generated(**options) -> list[dict]:
    from rami.puzzles.generator import generate

    return list(generate(2, max_attempts=120, **options))


def test_generation_is_deterministic() -> None:
    first = _generated(seed=2024, jokers=4)
    assert len(first) == 2
    assert _generated(seed=2024, jokers=4) == first
    assert _generated(seed=2025, jokers=4) != first
    for record in first:
        assert record["rules"] == "rami-chinois"
        assert record["version"]["ortools"]
        assert record["position"]["opened"] is True


def test_generation_with_workers_matches_one_worker() -> None:
    assert _generated(seed=77, workers=2) == _generated(seed=77, workers=1)


def test_tier_is_reachable_on_request() -> None:
    from rami.puzzles.generator import generate

    records = list(generate(1, seed=3, tier="hard", max_attempts=400))
    assert [r["difficulty"]["tier"] for r in records] == ["hard"]


# ---------------------------------------------------------------------------- shipped pack


def test_shipped_pack_size_and_spread() -> None:
    pack = shipped_pack()
    assert len(pack) >= 400
    assert len({p.id for p in pack}) == len(pack)
    cells = Counter((p.tier, p.jokers) for p in pack)
    for tier in TIERS:
        for jokers in (0, 4):
            assert cells[(tier, jokers)] >= 50, (tier, jokers, cells)
    assert {p.kind for p in pack} == {"empty-hand", "best-score"}
    for puzzle in pack:
        assert puzzle.position.problems() == []
        assert puzzle.metrics.near_solutions <= NEAR_CAP


@pytest.mark.parametrize("puzzle", shipped_pack(), ids=lambda puzzle: puzzle.id)
def test_shipped_puzzle_reverifies(puzzle: Puzzle) -> None:
    """Every record of the shipped pack, on every run: legal, solvable, needs a rearrangement,
    unique, nothing superfluous, and its stored metrics, score and tier are what the code
    computes now (about a minute for the 440 of them on one core)."""
    assert verify(puzzle) == []


def test_daily_is_stable() -> None:
    first = daily(date(2025, 6, 1))
    assert daily(date(2025, 6, 1)) == first
    assert first.id == DAILY_2025_06_01
    pack = shipped_pack()
    order = daily_order(pack)
    assert daily(date(2025, 1, 1)) is order[0]
    assert daily(date(2025, 1, 2)) is order[1]
    assert daily(date(2024, 12, 31)) is order[-1]
    days = {daily(date(2025, 1, 1) + timedelta(days=n)).id for n in range(len(pack))}
    assert len(days) == len(pack)  # a full cycle shows every puzzle once


DAILY_2025_06_01 = "rc-b5304c3325"


# ---------------------------------------------------------------------------- CLI


def test_cli_generate_writes_and_refuses_to_overwrite(tmp_path: Path) -> None:
    out = tmp_path / "p.jsonl"
    args = ["generate", "--count", "1", "--seed", "9", "--out", str(out), "--max-attempts", "200"]
    result = runner().invoke(puzzle_app, args)
    assert result.exit_code == 0, result.output
    lines = out.read_text().splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["id"].startswith("rc-")
    again = runner().invoke(puzzle_app, args)
    assert again.exit_code == 2
    assert "exists" in again.output and "--force" in again.output
    assert out.read_text().splitlines() == lines
    forced = runner().invoke(puzzle_app, [*args, "--force"])
    assert forced.exit_code == 0
    assert out.read_text().splitlines() == lines  # same seed, same puzzle


def test_cli_generate_bad_options(tmp_path: Path) -> None:
    out = str(tmp_path / "p.jsonl")
    bad_jokers = runner().invoke(puzzle_app, ["generate", "--jokers", "3", "--out", out])
    assert bad_jokers.exit_code == 2 and "0 or 4" in bad_jokers.output
    bad_tier = runner().invoke(puzzle_app, ["generate", "--tier", "legendary", "--out", out])
    assert bad_tier.exit_code == 2
    assert not Path(out).exists()
    missing_out = runner().invoke(puzzle_app, ["generate"])
    assert missing_out.exit_code == 2


def _pack_file(tmp_path: Path, *texts: str) -> Path:
    path = tmp_path / "pack.jsonl"
    records = []
    for text in texts:
        evaluation = evaluate(parse_position(text))
        records.append(make_record(evaluation, seed=0, profile="test"))
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_cli_check_pack_and_answers(tmp_path: Path) -> None:
    pack = _pack_file(tmp_path, DEMO)
    ok = runner().invoke(puzzle_app, ["check", str(pack)])
    assert ok.exit_code == 0, ok.output
    assert "all sound" in ok.output
    puzzle_id = json.loads(pack.read_text())["id"]
    solved = runner().invoke(
        puzzle_app,
        ["check", str(pack), "--answer", "3H 4H 5H 6H | 6H 7H 8H 9H | 6C 7C 8C | 5S 5D 5C"],
    )
    assert solved.exit_code == 0 and "Solved" in solved.output and "intended" in solved.output
    short = runner().invoke(
        puzzle_app, ["check", str(pack), "--answer", "3H 4H 5H 6H | 6H 7H 8H 9H | 5C 6C 7C 8C"]
    )
    assert short.exit_code == 1 and "Not solved" in short.output
    garbled = runner().invoke(puzzle_app, ["check", str(pack), "--answer", "3H 4H XX"])
    assert garbled.exit_code == 2 and "error:" in garbled.output
    as_json = runner().invoke(
        puzzle_app,
        [
            "check",
            str(pack),
            "--id",
            puzzle_id,
            "--json",
            "--answer",
            "3H 4H 5H 6H 7H 8H 9H | 5C 6C 7C",
        ],
    )
    assert as_json.exit_code == 1
    assert json.loads(as_json.stdout)["solved"] is False


def test_cli_check_reports_a_cooked_puzzle(tmp_path: Path) -> None:
    path = tmp_path / "cooked.jsonl"
    path.write_text(json.dumps(_cooked_puzzle().record) + "\n")
    result = runner().invoke(puzzle_app, ["check", str(path)])
    assert result.exit_code == 1
    assert "FAIL cooked" in result.output and "cooked:" in result.output


def test_cli_bad_inputs() -> None:
    missing = runner().invoke(puzzle_app, ["check", "no-such-pack.jsonl"])
    assert missing.exit_code == 2 and "neither a puzzle file" in missing.output
    assert "Traceback" not in missing.output
    bad_date = runner().invoke(puzzle_app, ["daily", "--date", "2025-13-01"])
    assert bad_date.exit_code == 2 and "--date" in bad_date.output
    loose = runner().invoke(puzzle_app, ["daily", "--date", "1 June"])
    assert loose.exit_code == 2


def test_cli_daily_and_show() -> None:
    text = runner().invoke(puzzle_app, ["daily", "--date", "2025-06-01"])
    assert text.exit_code == 0
    assert text.output.startswith("Daily puzzle, 2025-06-01\nPuzzle " + DAILY_2025_06_01)
    assert "Solution" not in text.output
    as_json = runner().invoke(puzzle_app, ["daily", "--date", "2025-06-01", "--json"])
    data = json.loads(as_json.output)
    assert data["id"] == DAILY_2025_06_01 and data["date"] == "2025-06-01"
    shown = runner().invoke(puzzle_app, ["show", DAILY_2025_06_01, "--solution"])
    assert shown.exit_code == 0
    assert "Solution:" in shown.output and "\x1b[" not in shown.output  # plain when piped
    checked = runner().invoke(puzzle_app, ["check", DAILY_2025_06_01])
    assert checked.exit_code == 0, checked.output


# ---------------------------------------------------------------------------- spoiler-free JSON


def _spoilers(puzzle: Puzzle) -> list[str]:
    """Texts that give the answer away: the final table's melds and the signature."""
    melds = [str(meld) for meld in puzzle.solution if meld not in puzzle.position.table]
    return [*melds, puzzle.record["signature"]]


def _values(data):
    """Every string and every list of strings in a JSON value."""
    if isinstance(data, dict):
        for value in data.values():
            yield from _values(value)
    elif isinstance(data, list):
        if all(isinstance(item, str) for item in data):
            yield tuple(data)
        for item in data:
            yield from _values(item)
    elif isinstance(data, str):
        yield data


def assert_spoiler_free(data: dict, puzzle: Puzzle) -> None:
    """No solution table, signature, moves, difficulty details or seed; and none of the
    solution's final-table melds anywhere in the payload, as a string or as a list of cards."""
    assert not {"solution", "signature", "moves", "difficulty", "seed", "numbers"} & set(data)
    text = json.dumps(data)
    found = set(_values(data))
    for spoiler in _spoilers(puzzle):
        assert spoiler not in found and json.dumps(spoiler) not in text, spoiler
    for meld in puzzle.solution:
        if meld in puzzle.position.table:
            continue
        cards = tuple(str(card) for card in meld.cards)
        assert cards not in found and json.dumps(list(cards)) not in text, cards
        assert not any(isinstance(v, tuple) and sorted(v) == sorted(cards) for v in found)


def test_public_json_is_the_contract() -> None:
    from rami.puzzles.record import PUBLIC_GOAL, public_json

    puzzle = daily(date(2025, 6, 1))
    data = public_json(puzzle)
    assert list(data) == ["id", "kind", "rules", "position", "goal", "tier", "themes"]
    assert set(data["goal"]) == set(PUBLIC_GOAL)
    assert data["themes"] == list(puzzle.themes) and data["tier"] == puzzle.tier
    assert_spoiler_free(data, puzzle)
    rated = Puzzle.from_record({**puzzle.record, "rating": 1500})
    assert public_json(rated)["rating"] == 1500


def test_daily_and_show_json_carry_no_solution() -> None:
    for day in ("2025-06-01", "2026-01-15", "2026-12-01"):
        result = runner().invoke(puzzle_app, ["daily", "--date", day, "--json"])
        assert result.exit_code == 0, result.output
        data = json.loads(result.output)
        assert data["date"] == day
        assert_spoiler_free(
            {k: v for k, v in data.items() if k != "date"}, daily(date.fromisoformat(day))
        )
    shown = runner().invoke(puzzle_app, ["show", DAILY_2025_06_01, "--json"])
    assert_spoiler_free(json.loads(shown.output), daily(date(2025, 6, 1)))
    text = runner().invoke(puzzle_app, ["daily", "--date", "2025-06-01"])
    assert "Difficulty" not in text.output and "Moves" not in text.output


def test_solution_only_when_asked() -> None:
    puzzle = daily(date(2025, 6, 1))
    full = runner().invoke(puzzle_app, ["daily", "--date", "2025-06-01", "--json", "--solution"])
    data = json.loads(full.output)
    assert data["signature"] == puzzle.record["signature"]
    assert data["difficulty"] == puzzle.record["difficulty"]
    assert sorted(map(str, parse_table(" | ".join(" ".join(m) for m in data["solution"])))) == (
        sorted(map(str, puzzle.solution))
    )
    assert data["numbers"] == [1, 2, 3]
    assert [m["text"] for m in data["moves"]] == [
        "move 7C from meld 2 to meld 3",
        "add TH from your hand to meld 1",
        "add 6C 8C from your hand to meld 3",
    ]
    text = runner().invoke(puzzle_app, ["show", DAILY_2025_06_01, "--solution"])
    assert "Difficulty: score 3" in text.output and "Moves:" in text.output


# ---------------------------------------------------------------------------- answers as moves


def test_answer_as_moves() -> None:
    from rami.puzzles.answers import read_answer

    puzzle = _puzzle(DEMO)  # 3H..9H | QS QD QC | 5C 6C 7C / 5S 6H 5D 8C
    moves = "split 1 after 6H; add 6H to 4\nadd 8C to 3; move 5C from 3 to 5; add 5S 5D to 5"
    given = read_answer(puzzle, moves)
    assert given.numbers == (1, 2, 3, 4, 5)
    verdict = check_answer(puzzle, given.table, given.numbers)
    assert verdict.solved and verdict.intended, verdict.reasons
    # What rami solve prints is accepted as it is, numbering and all.
    from rami import solve

    solution = solve(puzzle.position)
    printed = "\n".join(f"{n}. {m.text}" for n, m in enumerate(solution.moves, start=1))
    assert check_answer(puzzle, *_answer(puzzle, printed)).solved
    # Short of the goal, and an illegal table: the reasons use the moves' meld numbers.
    short = check_answer(puzzle, *_answer(puzzle, "split 1 after 6H; add 6H to 4"))
    assert short.legal and not short.solved and "plays 1 of 4" in short.reasons[0]
    bad = check_answer(puzzle, *_answer(puzzle, "move 5C 6C 7C from 3 to 1; add 5S 5D to 4"))
    assert not bad.legal
    assert any(r.startswith("meld 4 after the moves") for r in bad.reasons), bad.reasons


def _answer(puzzle: Puzzle, text: str):
    from rami.puzzles.answers import read_answer

    given = read_answer(puzzle, text)
    return given.table, given.numbers


@pytest.mark.parametrize(
    ("moves", "message"),
    [
        ("add 9S to 2", "move 1 ('add 9S to 2'): your hand does not hold 9S"),
        (
            "add 8C to 3; move 5C from 2 to 3",
            "move 2 ('move 5C from 2 to 3'): meld 2 does not hold",
        ),
        ("split 2 after QS", "meld 2 (QS QD QC) is not a run"),
        ("split 1 after 9H", "9H is the last card of meld 1"),
        ("add 6H to 7", "there is no meld 7"),
        ("lay 5S 5D as meld 2", "meld 2 exists already"),
        ("add 8C to 3; frobnicate 3", "move 2 ('frobnicate 3'): unknown move 'frobnicate'"),
        ("move 5C from 3", "move 1 ('move 5C from 3'): not understood"),
        ("add 8C to 3; add 8C to 3", "move 2 ('add 8C to 3'): your hand does not hold 8C"),
    ],
)
def test_moves_errors_name_the_move(moves: str, message: str) -> None:
    from rami.moves import MoveError
    from rami.puzzles.answers import read_answer

    with pytest.raises(MoveError, match=None) as caught:
        read_answer(_puzzle(DEMO), moves)
    assert message in str(caught.value)


def test_cli_check_moves(tmp_path: Path) -> None:
    pack = _pack_file(tmp_path, DEMO)  # the queens are pruned: 3H..9H | 5C 6C 7C
    solved = runner().invoke(
        puzzle_app,
        [
            "check",
            str(pack),
            "--answer",
            "split 1 after 6H; add 6H to 3; add 8C to 2; move 5C from 2 to 4; add 5S 5D to 4",
        ],
    )
    assert solved.exit_code == 0, solved.output
    assert "Solved" in solved.output
    wrong = runner().invoke(puzzle_app, ["check", str(pack), "--answer", "add 9S to 2"])
    assert wrong.exit_code == 2 and "move 1 ('add 9S to 2')" in wrong.output
    daily_moves = runner().invoke(
        puzzle_app,
        [
            "check",
            DAILY_2025_06_01,
            "--answer",
            "move 7C from 2 to 3; add TH to 1; add 6C 8C to 3",
            "--json",
        ],
    )
    assert daily_moves.exit_code == 0 and json.loads(daily_moves.stdout)["intended"]


# ---------------------------------------------------------------------------- ids and themes


def test_find_and_hint_by_puzzle_id() -> None:
    from rami.cli.main import app
    from rami.errors import NotationError
    from rami.puzzles.record import find

    assert find(DAILY_2025_06_01) is daily(date(2025, 6, 1))
    with pytest.raises(NotationError, match="no puzzle 'rc-0000000000'"):
        find("rc-0000000000")
    hint = runner().invoke(app, ["hint", DAILY_2025_06_01, "--level", "1"])
    assert hint.exit_code == 0, hint.output
    assert hint.output.strip() == "You can play all 3 cards."
    key = runner().invoke(app, ["hint", DAILY_2025_06_01, "--level", "2"])
    assert key.output.strip() == "Key move: move 7C from meld 2 to meld 3"
    unknown = runner().invoke(app, ["hint", "rc-0000000000"])
    assert unknown.exit_code == 2 and "no puzzle 'rc-0000000000'" in unknown.output


def test_show_by_theme_and_tier() -> None:
    from rami.puzzles.record import select

    joker_swaps = select(shipped_pack(), theme="joker-swap")
    assert joker_swaps and all("joker-swap" in p.themes for p in joker_swaps)
    result = runner().invoke(
        puzzle_app, ["show", "--theme", "split-run", "--tier", "easy", "--json"]
    )
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.output.splitlines()]
    expected = select(shipped_pack(), tier="easy", theme="split-run")
    assert [d["id"] for d in lines] == [p.id for p in expected] and lines
    for data in lines:
        assert "split-run" in data["themes"] and data["tier"] == "easy"
        assert "solution" not in data
    unknown = runner().invoke(puzzle_app, ["show", "--theme", "castling"])
    assert unknown.exit_code == 2 and "unknown theme 'castling'" in unknown.output
    assert "joker-swap" in unknown.output
    text = runner().invoke(puzzle_app, ["show", DAILY_2025_06_01])
    assert "Themes: " + ", ".join(daily(date(2025, 6, 1)).themes) in text.output
