"""Puzzles mined from play: the turns of simulated games whose best play needs a rearrangement
and is unique (``rami puzzle mine``, docs/puzzles.md "Mined puzzles").

Game ``i`` of a mining run seeded ``S`` is game ``i`` of ``rami simulate --seed S`` with the same
rules and players (:mod:`rami.game.simulate`: the same seeds, the same bots, the same record).
Each time a player who has opened is asked to play (after the draw, no discard taken), the
position of that turn is judged by the generator's judge (:func:`rami.puzzles.evaluate.evaluate`:
sound, needs a rearrangement, unique, pruned of the melds that play no part), after a cheap test
that throws away most turns first (the solver's best play against the best by new melds and
lay-offs alone).

A mined puzzle is a puzzle record (rami.puzzles.record) whose ``profile`` is ``"mined"`` and
whose ``source`` says where it was played, as a lichess puzzle links to its game::

    "source": {"simulation": {"rules": ..., "levels": [...], "seed": S, "options": {...}},
               "game": i, "game_seed": ..., "round": 2, "turn": 37, "seat": 1,
               "position": "<the whole table and hand of that turn, text notation>"}

A new pack's records are not stored (a whole game is tens of kilobytes): :func:`source_game`
plays the game again, as ``rami simulate --seed S --games i+1`` writes it as its line ``i + 1``,
with the bots of the commit that mined it. The shipped pack's games, mined with earlier bots,
are kept as records (:mod:`rami.puzzles.mine_sources`).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, replace
from typing import Any

from rami.errors import RamiError, SolverBugError
from rami.game.actions import Action, GameInternalError
from rami.game.deck import derive_seed
from rami.game.levels import make_bot
from rami.game.match import play_game
from rami.game.simulate import Simulation, game_seed
from rami.game.state import PLAY, View
from rami.notation import format_position
from rami.position import Position
from rami.puzzles.evaluate import Rejected
from rami.puzzles.mine_sources import stored_turn

PROFILE = "mined"
#: The largest hand a mined puzzle keeps by default: the generator's largest (an expert draw's
#: 7 cards and 3 extra), so mined and generated puzzles are of one kind; judging a 15-card hand
#: also costs ten times more.
MAX_HAND = 10


@dataclass(frozen=True)
class Turn:
    """A turn of a game: where it was played and the position the player faced."""

    round: int
    turn: int
    seat: int
    position: Position


class _Watching:
    """A bot, unchanged, that notes each position it is asked to play from."""

    def __init__(self, bot: Any, seat: int, seen: list[Turn]) -> None:
        self.bot = bot
        self.level = getattr(bot, "level", "player")
        self.seat = seat
        self.seen = seen

    def act(self, view: View) -> Action:
        if view.phase == PLAY:
            self.seen.append(Turn(view.round, view.turn + 1, self.seat, view.position()))
        action: Action = self.bot.act(view)
        return action


def played_turns(simulation: Simulation, index: int) -> tuple[dict[str, Any], list[Turn]]:
    """Game ``index`` of the simulation, played as ``rami simulate`` plays it: its record and
    every turn's position."""
    seed = game_seed(simulation.seed, index)
    seen: list[Turn] = []
    players = [
        _Watching(make_bot(level, derive_seed(seed, "bot", seat)), seat, seen)
        for seat, level in enumerate(simulation.levels)
    ]
    record = play_game(
        simulation.rules,
        players,
        seed,
        options=simulation.options,
        names=simulation.names(),
        levels=simulation.levels,
        game=index,
    )
    return record, seen


def puzzle_candidate(position: Position, max_hand: int = MAX_HAND) -> bool:
    """Worth the full judge: an opened player, no discard to lay, at most ``max_hand`` cards,
    and the solver's best play beats what new melds and lay-offs alone reach (the judge's own
    first tests, made cheap: no fewest-moves stage)."""
    from rami.puzzles.model import layoff_best
    from rami.solver.api import Status, solve

    if not position.opened or position.taken_discard is not None:
        return False
    if not 0 < len(position.hand) <= max_hand:
        return False
    best = solve(position, min_moves=False, time_limit=10.0, wall_clock=False)
    if best.status is not Status.OPTIMAL:
        return False
    shed, played = layoff_best(position)
    if not best.hand:
        return played < len(position.hand)
    return shed < best.penalty_before - best.penalty_after


def source_of(simulation: Simulation, index: int, turn: Turn) -> dict[str, Any]:
    return {
        "simulation": {
            "rules": simulation.rules,
            "levels": list(simulation.levels),
            "seed": simulation.seed,
            "options": simulation.options.to_json(),
        },
        "game": index,
        "game_seed": game_seed(simulation.seed, index),
        "round": turn.round,
        "turn": turn.turn,
        "seat": turn.seat,
        "position": format_position(turn.position),
    }


@dataclass
class GameMined:
    """What one game gave: its turns judged, those worth the judge, the puzzles found."""

    index: int
    seed: int
    positions: int
    candidates: int
    puzzles: list[dict[str, Any]]
    error: str | None
    seconds: float


def mine_game(simulation: Simulation, index: int, max_hand: int = MAX_HAND) -> GameMined:
    from rami.puzzles.evaluate import evaluate
    from rami.puzzles.record import make_record

    started = time.perf_counter()
    seed = game_seed(simulation.seed, index)
    try:
        _record, turns = played_turns(simulation, index)
    except (GameInternalError, SolverBugError, RamiError) as failure:
        return GameMined(
            index,
            seed,
            0,
            0,
            [],
            f"{type(failure).__name__}: {failure}",
            time.perf_counter() - started,
        )
    candidates = 0
    puzzles = []
    for turn in turns:
        try:
            if not puzzle_candidate(turn.position, max_hand):
                continue
            candidates += 1
            evaluation = evaluate(turn.position)
        except (Rejected, SolverBugError):
            continue  # a solver bug never makes a puzzle; the judge's own tests find it again
        record = make_record(evaluation, seed=seed, profile=PROFILE)
        record["source"] = source_of(simulation, index, turn)
        puzzles.append(record)
    return GameMined(
        index, seed, len(turns), candidates, puzzles, None, time.perf_counter() - started
    )


def mine_task(payload: dict[str, Any]) -> dict[str, Any]:
    """One game as a task of :mod:`rami.scale`: ``{"simulation", "index", "max_hand"}`` in,
    the :class:`GameMined` as a dict out."""
    return asdict(
        mine_game(
            Simulation.from_json(payload["simulation"]), payload["index"], payload["max_hand"]
        )
    )


def checked_simulation(
    rules: str, levels: tuple[str, ...], games: int, seed: int, options: Any = None
) -> Simulation:
    """The simulation to mine (GameError on bad input), of rami chinois only: the judge makes
    rami-chinois puzzles."""
    from rami.game.presets import GameError, GameOptions
    from rami.rules import get_ruleset

    if get_ruleset(rules).name != "rami-chinois":
        raise GameError(
            f"puzzles are mined from rami-chinois games (the puzzle judge knows "
            f"rami chinois only), not {rules!r}"
        )
    return Simulation(rules, levels, games, seed, options or GameOptions()).checked()


def mine(
    simulation: Simulation, executor: Any, on_retry: Any = None, max_hand: int = MAX_HAND
) -> Iterator[GameMined]:
    """The games' yields in game order; a puzzle already found in an earlier game (the same
    position id) is dropped, so the pack is the same whatever ran the games."""
    seen: set[str] = set()
    jobs = (
        {"simulation": simulation.to_json(), "index": index, "max_hand": max_hand}
        for index in range(simulation.games)
    )
    for result in executor.ordered(mine_task, jobs, on_retry=on_retry):
        mined = GameMined(**result)
        fresh = [record for record in mined.puzzles if record["id"] not in seen]
        seen.update(record["id"] for record in fresh)
        yield replace(mined, puzzles=fresh)


def source_game(record: dict[str, Any]) -> tuple[dict[str, Any], Turn]:
    """The game a mined puzzle comes from and the turn it was taken at: the stored record for
    the shipped pack's games (:mod:`rami.puzzles.mine_sources`, replayed clean), else the game
    played again (RamiError when the record has no usable source)."""
    from rami.errors import NotationError
    from rami.game.presets import GameOptions

    source: Any = record.get("source")
    try:
        plain = source["simulation"]
        simulation = Simulation(
            plain["rules"],
            tuple(plain["levels"]),
            source["game"] + 1,
            plain["seed"],
            GameOptions.from_json(plain["options"]),
        )
        index, at = source["game"], (source["round"], source["turn"], source["seat"])
    except (KeyError, TypeError) as error:
        raise NotationError(f"puzzle {record.get('id')}: no usable source ({error})") from None
    stored = stored_turn(simulation.rules, source.get("game_seed"), at)
    game, position = stored if stored is not None else ({}, None)
    if position is not None and format_position(position) == source.get("position"):
        return game, Turn(*at, position)  # the shipped pack's games, as its bots played them
    game, turns = played_turns(simulation, index)  # a game mined with today's bots
    for turn in turns:
        if (turn.round, turn.turn, turn.seat) == at:
            return game, turn
    raise NotationError(
        f"puzzle {record.get('id')}: game {index} has no round {at[0]} turn "
        f"{at[1]} for seat {at[2]}"
    )


def mine_summary(
    simulation: Simulation, mined: list[GameMined], seconds: float, executor: Any
) -> dict[str, Any]:
    """The run in numbers: games, turns judged, puzzles per tier (and per 1,000 games)."""
    from rami.puzzles.difficulty import TIERS

    puzzles = [record for game in mined for record in game.puzzles]
    tiers = {tier: sum(1 for r in puzzles if r["difficulty"]["tier"] == tier) for tier in TIERS}
    positions = sum(game.positions for game in mined)
    played = [game for game in mined if game.error is None]
    return {
        "rules": simulation.rules,
        "players": list(simulation.levels),
        "seed": simulation.seed,
        "games": len(played),
        "positions": positions,
        "candidates": sum(game.candidates for game in mined),
        "puzzles": len(puzzles),
        "tiers": tiers,
        "per_1000_games": {
            tier: round(count * 1000 / len(played), 1) if played else None
            for tier, count in {"all": len(puzzles), **tiers}.items()
        },
        "errors": [
            {"game": g.index, "seed": g.seed, "error": g.error}
            for g in mined
            if g.error is not None
        ],
        "executor": executor.kind,
        "workers": executor.workers,
        "seconds": round(seconds, 3),
        "games_per_minute": round(len(played) / seconds * 60, 2) if seconds > 0 else None,
        "positions_per_second": round(positions / seconds, 2) if seconds > 0 else None,
    }
