"""The daily puzzle chosen by its rating, once players have rated enough puzzles
(docs/puzzles.md, "The daily puzzle by rating").

Without an attempts database the daily puzzle is :func:`rami.puzzles.record.daily`'s, a fixed
order of the shipped packs. With one (``rami serve --db FILE``, ``rami puzzle daily --db
FILE``), the puzzle of a day is, in this order:

1. the puzzle the database holds for that day, if any: a day's puzzle, once given, never
   changes;
2. for a day other than today (past or to come): :func:`rami.puzzles.record.daily`'s, not
   stored (a past day keeps the puzzle it had; a day to come is chosen when it comes);
3. today, when the database holds at least :data:`MIN_RATED` rated first attempts: among the
   puzzles the database holds for no day, those whose rating lies in :data:`BAND` with a
   deviation under :data:`MAX_DEVIATION` (rated by play, not a starting guess); the one with
   the most rated attempts, ties broken by the fixed daily order of
   :func:`rami.puzzles.record.daily_order`;
4. otherwise (too little play, or no puzzle in the band): :func:`rami.puzzles.record.daily`'s.

Today's choice (3 or 4) is stored at once, the first writer winning
(:meth:`rami.puzzles.attempts.AttemptStore.claim_daily`): every process of a server gives the
same puzzle all day, and for ever after.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import date

from rami.puzzles.attempts import AttemptStore
from rami.puzzles.ratings import Ratings
from rami.puzzles.record import Puzzle, daily, daily_order

#: Rated first attempts the database must hold before ratings choose the daily puzzle.
MIN_RATED = 1000
#: The ratings a daily puzzle is chosen among (inclusive), and the deviation a rating must be
#: under (seven to ten rated attempts or more).
BAND = (1400.0, 1800.0)
MAX_DEVIATION = 150.0


def by_rating(puzzles: Sequence[Puzzle], ratings: Ratings, used: Collection[str]) -> Puzzle | None:
    """Rule 3's choice among ``puzzles``, ``used`` (ids) left out; None when the play is too
    little or no puzzle is in the band."""
    if ratings.first_attempts < MIN_RATED:
        return None
    fits = []
    for puzzle in puzzles:
        rating = ratings.puzzle(puzzle.id)
        if (
            puzzle.id not in used
            and puzzle.id in ratings.puzzles
            and BAND[0] <= rating.rating <= BAND[1]
            and rating.deviation < MAX_DEVIATION
        ):
            fits.append(puzzle)
    if not fits:
        return None
    rank = {puzzle.id: index for index, puzzle in enumerate(daily_order(fits))}
    return min(fits, key=lambda puzzle: (-ratings.puzzle_games[puzzle.id], rank[puzzle.id]))


def daily_with(
    day: date, today: date, puzzles: Sequence[Puzzle], store: AttemptStore, ratings: Ratings
) -> Puzzle:
    """The daily puzzle of ``day`` by the rules above (``ratings``: those of the database's
    attempts; today's choice is stored)."""
    by_id = {puzzle.id: puzzle for puzzle in puzzles}
    stored = store.dailies()
    held = stored.get(day)
    if held in by_id:
        return by_id[held]
    if day != today:
        return daily(day, puzzles)
    chosen = by_rating(puzzles, ratings, set(stored.values())) or daily(day, puzzles)
    kept = store.claim_daily(day, chosen.id)
    return by_id.get(kept, chosen)
