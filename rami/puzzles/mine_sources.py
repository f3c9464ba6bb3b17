"""The games the shipped mined pack comes from, kept as records.

The shipped pack (``rami/data/mined.jsonl``) was mined at commit ``dc83cb8`` from one-round
games of two confirmed bots. The bots have changed since (the confirmed bot now moves the
fewest table cards among its best turns), so playing those games again today gives other
games, and a puzzle's source could no longer be shown. Their records, as ``rami simulate``
wrote them at that commit, are shipped beside the pack
(``rami/data/mined_sources.jsonl.gz``: 73 games, one JSON record a line, found by the
game's rules and seed, the ``simulation.rules`` and ``game_seed`` of a puzzle's ``source``: a
game's seed does not depend on the rules). :func:`stored_turn` replays one through
today's engine and referee (:func:`rami.game.record.replay`: every turn judged again, every
card accounted for, the result recomputed) and returns the turn the puzzle was taken at.
"""

from __future__ import annotations

import gzip
import json
from functools import cache
from importlib import resources
from typing import Any

from rami.game.actions import Play
from rami.position import Position

#: The records of the shipped mined pack's games.
SOURCES_RESOURCE = "mined_sources.jsonl.gz"


@cache
def stored_games() -> dict[tuple[str, int], dict[str, Any]]:
    """The shipped source games by their rules and seed (empty when the file is not
    shipped)."""
    try:
        data = resources.files("rami").joinpath("data", SOURCES_RESOURCE).read_bytes()
    except (FileNotFoundError, ModuleNotFoundError):
        return {}
    games = (json.loads(line) for line in gzip.decompress(data).decode("utf-8").splitlines())
    return {(game["rules"], game["seed"]): game for game in games}


def stored_turn(
    rules: str, game_seed: int, at: tuple[int, int, int]
) -> tuple[dict[str, Any], Position | None] | None:
    """The stored game of ``rules`` and seed ``game_seed``, replayed clean, and the position of
    its turn ``at`` (round, turn within the round from 1, seat); None when no game of that seed
    is stored, a None position when the game has no such turn. A stored game that does not
    replay raises :class:`rami.game.record.RecordError`."""
    game = stored_games().get((rules, game_seed))
    if game is None:
        return None
    return game, _replayed_turns(rules, game_seed).get(at)


@cache
def _replayed_turns(rules: str, game_seed: int) -> dict[tuple[int, int, int], Position]:
    """Every play's position in the stored game, by (round, turn, seat), from one replay (a game
    several puzzles come from is replayed once)."""
    from rami.game.record import replay

    turns: dict[tuple[int, int, int], Position] = {}

    def watch(number: int, turn: int, seat: int, position: Position, _play: Play) -> None:
        turns[(number, turn, seat)] = position

    replay(stored_games()[(rules, game_seed)], f"source game {game_seed}", watch)
    return turns
