"""The daily puzzle with an attempts database (rami.puzzles.daily): a day's puzzle once given is
kept, whatever process asks; today's is chosen by rating once players have rated enough, never
a puzzle used before; without a database, or with too little play, the fixed order as ever
(docs/puzzles.md, "The daily puzzle by rating")."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import date, timedelta
from pathlib import Path

import pytest
from click.testing import Result
from typer.testing import CliRunner

from rami.cli.main import app
from rami.puzzles.attempts import AttemptStore
from rami.puzzles.daily import BAND, MAX_DEVIATION, MIN_RATED, by_rating, daily_with
from rami.puzzles.ratings import Ratings
from rami.puzzles.record import Puzzle, daily, shipped_packs
from rami.puzzles.simulated import World, play
from rami.service import Settings, create_app
from rami.service.attempts import use_database
from rami.service.testing import BackgroundServer, get_ok

TODAY = date(2026, 12, 3)


def rated_play() -> tuple[list[Puzzle], Ratings]:
    """Enough rated play: 60 shipped puzzles of true difficulty 1300..1900, 60 simulated
    solvers, 20 rounds (1200 rated first attempts)."""
    puzzles = shipped_packs()[:60]
    spread = World.spread(puzzles=60, players=60, seed=2, low=1300, high=1900)
    world = World(
        dict(zip([p.id for p in puzzles], spread.difficulty.values(), strict=True)), spread.skill
    )
    ratings, _ = play(world, 20, seed=2, tiers={p.id: p.tier for p in puzzles})
    assert ratings.first_attempts >= MIN_RATED
    return puzzles, ratings


def test_too_little_play_keeps_the_fixed_order(tmp_path: Path) -> None:
    puzzles = shipped_packs()
    with AttemptStore(tmp_path / "a.db") as store:
        ratings = Ratings()
        for day in (TODAY, TODAY - timedelta(days=40), TODAY + timedelta(days=9)):
            assert daily_with(day, TODAY, puzzles, store, ratings) == daily(day, puzzles)
        assert store.dailies() == {TODAY: daily(TODAY, puzzles).id}  # only today is stored


def test_today_is_chosen_by_rating_and_kept(tmp_path: Path) -> None:
    puzzles, ratings = rated_play()
    chosen = by_rating(puzzles, ratings, set())
    assert chosen is not None and chosen != daily(TODAY, puzzles)
    rating = ratings.puzzle(chosen.id)
    assert BAND[0] <= rating.rating <= BAND[1] and rating.deviation < MAX_DEVIATION
    fits = [
        p
        for p in puzzles
        if BAND[0] <= ratings.puzzle(p.id).rating <= BAND[1]
        and ratings.puzzle(p.id).deviation < MAX_DEVIATION
    ]
    assert ratings.puzzle_games[chosen.id] == max(ratings.puzzle_games[p.id] for p in fits)
    with AttemptStore(tmp_path / "a.db") as store:
        assert daily_with(TODAY, TODAY, puzzles, store, ratings) == chosen
        # The next day: another puzzle, never one used before.
        tomorrow = TODAY + timedelta(days=1)
        second = daily_with(tomorrow, tomorrow, puzzles, store, ratings)
        assert second != chosen and second == by_rating(puzzles, ratings, {chosen.id})
        # Once given, a day's puzzle stays, whatever the ratings become and whoever asks.
        assert daily_with(TODAY, tomorrow, puzzles, store, Ratings()) == chosen
        assert daily_with(TODAY, TODAY, puzzles, store, Ratings()) == chosen
        assert store.dailies() == {TODAY: chosen.id, tomorrow: second.id}
    # Every puzzle of the band used: the fixed order again.
    used = {p.id for p in fits}
    assert by_rating(puzzles, ratings, used) is None


CLAIMER = """
import sys
from datetime import date, timedelta
from rami.puzzles.attempts import AttemptStore
path, puzzle = sys.argv[1], sys.argv[2]
with AttemptStore(path) as store:
    kept = [store.claim_daily(date(2027, 1, 1) + timedelta(days=n), puzzle) for n in range(300)]
print(" ".join(kept))
"""


def test_two_processes_claiming_the_same_days_agree(tmp_path: Path) -> None:
    path = tmp_path / "a.db"
    AttemptStore(path).close()
    mine = ["rc-000000000a", "rc-000000000b"]
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", CLAIMER, str(path), puzzle], stdout=subprocess.PIPE, text=True
        )
        for puzzle in mine
    ]
    outputs = [run.communicate(timeout=120)[0].split() for run in runs]
    assert [run.returncode for run in runs] == [0, 0]
    assert outputs[0] == outputs[1] and len(outputs[0]) == 300  # first writer wins, for both
    with AttemptStore(path) as store:
        stored = store.dailies()
    assert [stored[date(2027, 1, 1) + timedelta(days=n)] for n in range(300)] == outputs[0]


def rami(*args: str) -> Result:
    result = CliRunner().invoke(app, list(args), prog_name="rami")
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result


def test_the_command_with_a_database(tmp_path: Path) -> None:
    path = tmp_path / "a.db"
    today = date.today()
    kept = next(p for p in shipped_packs() if p != daily(today))
    with AttemptStore(path) as store:
        store.claim_daily(today, kept.id)
    result = rami("puzzle", "daily", "--db", str(path), "--json")
    assert result.exit_code == 0
    answer = json.loads(result.stdout)
    assert answer["id"] == kept.id and "solution" not in answer
    plain = json.loads(rami("puzzle", "daily", "--json").stdout)
    assert set(plain) == set(answer) and plain["id"] == daily(today).id
    past = rami("puzzle", "daily", "--db", str(path), "--date", "2025-03-01", "--json")
    assert json.loads(past.stdout)["id"] == daily(date(2025, 3, 1)).id
    missing = rami("puzzle", "daily", "--db", str(tmp_path / "none.db"), "--json")
    assert missing.exit_code == 2 and json.loads(missing.stdout)["exit_code"] == 2
    assert not (tmp_path / "none.db").exists()


@pytest.mark.parametrize("with_db", [True, False])
def test_the_service_daily(tmp_path: Path, with_db: bool) -> None:
    path = tmp_path / "a.db"
    today = date.today()
    kept = next(p for p in shipped_packs() if p != daily(today))
    with AttemptStore(path) as store:
        store.claim_daily(today, kept.id)
    application = create_app(Settings())
    use_database(application, str(path) if with_db else None)
    with BackgroundServer(application) as server:
        answer = get_ok(f"{server.url}/puzzles/daily")
        same_day = get_ok(f"{server.url}/puzzles/daily/{today.isoformat()}")
        past = get_ok(f"{server.url}/puzzles/daily/2025-03-01")
    assert answer == same_day and "solution" not in answer
    assert answer["id"] == (kept.id if with_db else daily(today).id)
    assert past["id"] == daily(date(2025, 3, 1)).id
