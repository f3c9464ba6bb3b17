"""The game record (decision 13) and its replay.

A record is one JSON object per game, self-contained: the format and version, the rules (the
ruleset string), the options, the seed, the players, and for each round the deal (every hand,
the turned card, the stock top first), every action in order, how the round ended, the scores
and the totals; then the final totals and the winners. docs/game.md shows one.

:func:`replay` plays every round again from its deal through the same engine, the recorded
actions standing in for the players: every turn is judged again by the referee, every draw must
give the recorded card, every card is accounted for after each step, and the round ends, scores
and game result must come out as recorded. The deal and the reshuffles are also checked against
the seed (``"shuffle": "sha256-streams-v1"``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rami.cards import Card
from rami.errors import NotationError, RamiError
from rami.game.actions import (
    DISCARD,
    STOCK,
    Action,
    Claim,
    Draw,
    GameInternalError,
    IllegalActionError,
    Play,
    card_from_json,
    cards_from_json,
    table_from_json,
)
from rami.game.deck import stream
from rami.game.match import RECORD_FORMAT, RECORD_VERSION, SHUFFLE, first_seat, round_first
from rami.game.presets import GameOptions, game_rules
from rami.game.rounds import Deal, Round, deal, random_reshuffler
from rami.game.scoring import game_after_round
from rami.game.state import CLAIM, DRAW
from rami.notation import (
    MAX_JSON_DEPTH,
    DuplicateKeyError,
    duplicate_key_message,
    duplicate_key_path,
    json_depth,
    unique_keys,
)
from rami.position import Position
from rami.rules import get_ruleset
from rami.textfile import file_lines


class RecordError(RamiError):
    """A record that does not replay: the game, round and turn at fault, and why."""

    def __init__(self, message: str, *, game: str = "", round: int | None = None,
                 turn: int | None = None, action: int | None = None) -> None:
        self.game, self.round, self.turn, self.action = game, round, turn, action
        where = [part for part in (
            game,
            f"round {round}" if round is not None else "",
            f"turn {turn}" if turn is not None else "",
            f"action {action}" if action is not None else "",
        ) if part]
        self.message = message
        super().__init__(f"{', '.join(where)}: {message}" if where else message)


@dataclass
class ReplaySummary:
    rounds: int
    actions: int
    turns: int


def game_label(record: Any, line: int | None = None) -> str:
    label = f"line {line}" if line is not None else "game"
    if isinstance(record, dict) and isinstance(record.get("game"), int):
        label += f" (game {record['game']})"
    return label


#: Bytes one record (one line) may take. Records are read one line at a time, whatever the
#: size of the file (420 Café Rummy games make some 80 MB, about 0.2 MB a game): the bound is
#: on each record, some 50 times the longest game seen.
MAX_RECORD_BYTES = 16 << 20


def read_records(source: str | Iterable[tuple[int, str]]) -> Iterator[tuple[int, Any]]:
    """(line number, decoded JSON) for each non-blank line of ``source``: a whole text, or
    numbered lines as they are read (:func:`record_file`, ``rami.cli.inputs.text_lines``),
    decoded one at a time. NotationError naming the line for malformed JSON, JSON nested
    deeper than a record can be, or an object that gives a key twice."""
    lines = enumerate(source.splitlines(), start=1) if isinstance(source, str) else source
    for number, line in lines:
        if line.strip():
            yield number, decode_record(line, number)


def decode_record(line: str, number: int) -> Any:
    """One line's JSON (NotationError ``line N: ...``, never a RecursionError)."""
    if json_depth(line) > MAX_JSON_DEPTH:
        raise NotationError(f"line {number}: JSON nested more than {MAX_JSON_DEPTH} levels deep")
    try:
        return json.loads(line, object_pairs_hook=unique_keys)
    except DuplicateKeyError as error:
        loc = duplicate_key_path(line)
        raise NotationError(f"line {number}: {duplicate_key_message(error.key, loc)}") from None
    except json.JSONDecodeError as error:
        raise NotationError(
            f"line {number}: malformed JSON at column {error.colno}: {error.msg}"
        ) from None
    except (ValueError, RecursionError) as error:  # a number of more than 4,300 digits
        raise NotationError(f"line {number}: malformed JSON: {error}") from None


def record_file(path: str | Path, *, max_record_bytes: int = MAX_RECORD_BYTES
                ) -> Iterator[tuple[int, Any]]:
    """The records of a JSON-lines file, read and decoded one line at a time (the memory held
    is one record whatever the file's size); UnreadableFileError naming the file (and the
    line: InputTooLargeError for a line over ``max_record_bytes``), NotationError as
    :func:`read_records`."""
    return read_records(file_lines(path, max_line_bytes=max_record_bytes))


class _Script:
    """Stands in for the players: answers each request from the recorded actions."""

    def __init__(self, rnd: Round, actions: list[Any]) -> None:
        self.rnd = rnd
        self.actions = actions

    def next_event(self) -> dict[str, Any]:
        at = len(self.rnd.events)
        if at >= len(self.actions):
            raise RecordError("the record stops while the round is still being played "
                              f"(seat {self.rnd.to_move} to {self.rnd.phase})")
        event = self.actions[at]
        if not isinstance(event, dict):
            raise RecordError(f"action {at + 1} is not a JSON object")
        return event

    def action(self) -> Action:
        rnd = self.rnd
        seat = rnd.to_move
        if rnd.phase == CLAIM:
            if len(rnd.events) >= len(self.actions):
                return Claim(False)  # declined claims are not recorded
            event = self.next_event()
            return Claim("claim" in event and event.get("seat") == seat)
        event = self.next_event()
        if event.get("seat") != seat:
            raise RecordError(
                f"seat {seat} is to {rnd.phase}, but the record has seat {event.get('seat')!r}"
            )
        if rnd.phase == DRAW:
            source = event.get("draw")
            if source not in (STOCK, DISCARD):
                raise RecordError(f"seat {seat} is to draw, but the record has {_brief(event)}")
            return Draw(source)
        if "played" not in event:
            raise RecordError(f"seat {seat} is to play, but the record has {_brief(event)}")
        table = table_from_json(event["table"], "table") if "table" in event else rnd.state.table
        discard = event.get("discard")
        return Play(
            table,
            cards_from_json(event["played"], "played"),
            None if discard is None else card_from_json(discard, "discard"),
        )


def _brief(event: Any) -> str:
    text = json.dumps(event)
    return text if len(text) < 120 else text[:117] + "..."


def _deal_from_json(data: Any, players: int) -> Deal:
    if not isinstance(data, dict):
        raise RecordError("deal: expected an object")
    hands = data.get("hands")
    if not isinstance(hands, list) or len(hands) != players:
        raise RecordError(f"deal.hands: expected {players} hands")
    discard = data.get("discard")
    return Deal(
        tuple(cards_from_json(hand, f"deal.hands[{i}]") for i, hand in enumerate(hands)),
        None if discard is None else card_from_json(discard, "deal.discard"),
        cards_from_json(data.get("stock"), "deal.stock"),
    )


#: Called before each play is replayed: (round, turn, seat, the position the referee judges
#: the play in, the play). ``rami review --game`` collects the turns this way.
PlayWatcher = Callable[[int, int, int, Position, Play], None]


def replay(record: Any, label: str = "game", on_play: PlayWatcher | None = None
           ) -> ReplaySummary:
    """Replay one record; RecordError names the round, turn and action at fault."""
    try:
        return _replay(record, label, on_play)
    except RecordError as error:
        if not error.game:
            error = RecordError(error.message, game=label, round=error.round, turn=error.turn,
                                action=error.action)
        raise error from None
    except RamiError as error:
        raise RecordError(str(error), game=label) from None


#: The fields of a record (the optional ones too), of each round, of a deal and of a player:
#: replay refuses any other, and any missing (docs/game.md, "The record").
RECORD_FIELDS = frozenset({
    "format", "version", "rules", "options", "seed", "shuffle", "game", "players", "rounds",
    "totals", "winners", "losers", "draw", "end",
})
OPTIONAL_FIELDS = frozenset({"seed", "shuffle", "game"})
ROUND_FIELDS = frozenset({
    "number", "first", "active", "deal", "actions", "end", "hands", "scores", "totals",
    "eliminated",
})
PLAYER_FIELDS = frozenset({"name", "level"})
#: Levels of a seat no bot played: a person (``rami play``), or a player ``play_game`` was
#: given no level for. Every other level is a bot's (:data:`rami.game.levels.LEVELS`).
NOT_BOTS = ("human", "player")


def _fields(data: dict[str, Any], known: frozenset[str], what: str,
            optional: frozenset[str] = frozenset()) -> None:
    unknown = sorted(set(data) - known)
    if unknown:
        raise RecordError(f"{what}: unknown field{'s' if len(unknown) > 1 else ''} "
                          f"{', '.join(map(repr, unknown))}")
    missing = sorted(known - optional - set(data))
    if missing:
        raise RecordError(f"{what}: missing field{'s' if len(missing) > 1 else ''} "
                          f"{', '.join(map(repr, missing))}")


def same(mine: Any, theirs: Any) -> bool:
    """JSON equality that tells the kinds apart: ``true`` is not ``1``, ``1.0`` is not ``1``
    (Python's ``==`` says they are), and an array is a list or a tuple."""
    if isinstance(mine, bool) or isinstance(theirs, bool) or isinstance(mine, float) or (
        isinstance(theirs, float)
    ):
        return type(mine) is type(theirs) and mine == theirs
    if isinstance(mine, list | tuple):
        return isinstance(theirs, list | tuple) and len(mine) == len(theirs) and all(
            same(a, b) for a, b in zip(mine, theirs, strict=True))
    if isinstance(mine, dict):
        return isinstance(theirs, dict) and mine.keys() == theirs.keys() and all(
            same(value, theirs[key]) for key, value in mine.items())
    if isinstance(theirs, list | tuple | dict):
        return False
    return bool(mine == theirs)


def _whole(value: Any, what: str, *, low: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise RecordError(f"{what}: expected a whole number >= {low}, got {value!r}")
    return value


def _check_players(players: list[Any]) -> None:
    from rami.game.levels import LEVELS, is_level

    for seat, player in enumerate(players):
        what = f"players[{seat}]"
        if not isinstance(player, dict):
            raise RecordError(f"{what}: expected an object, got {player!r}")
        _fields(player, PLAYER_FIELDS, what)
        if not isinstance(player["name"], str):
            raise RecordError(f"{what}.name: expected a string, got {player['name']!r}")
        level = player["level"]
        if not isinstance(level, str) or not (is_level(level) or level in NOT_BOTS):
            raise RecordError(
                f"{what}.level: unknown level {level!r}: the levels are {', '.join(LEVELS)} "
                f"(or {' or '.join(NOT_BOTS)} for a seat no bot played)"
            )


def _replay(record: Any, label: str, on_play: PlayWatcher | None = None) -> ReplaySummary:
    if not isinstance(record, dict):
        raise RecordError("a record is a JSON object")
    if not (same(record.get("format"), RECORD_FORMAT)
            and same(record.get("version"), RECORD_VERSION)):
        raise RecordError(
            f"not a {RECORD_FORMAT} record of version {RECORD_VERSION} "
            f"(format {record.get('format')!r}, version {record.get('version')!r})"
        )
    _fields(record, RECORD_FIELDS, "record", OPTIONAL_FIELDS)
    rules = get_ruleset(_field(record, "rules", str))
    whole = game_rules(rules)
    options = GameOptions.from_json(_field(record, "options", dict)).resolved(rules)
    raw_seed = record.get("seed")
    if "seed" in record and (not isinstance(raw_seed, int | str) or isinstance(raw_seed, bool)):
        raise RecordError(f"seed: expected a whole number or a string, got {raw_seed!r}")
    seeded = "shuffle" in record
    if seeded and not same(record["shuffle"], SHUFFLE):
        raise RecordError(f"shuffle: unknown shuffle {record['shuffle']!r} (this version "
                          f"deals with {SHUFFLE!r})")
    if seeded and "seed" not in record:
        raise RecordError(f"the record names its shuffle ({SHUFFLE!r}) but no seed")
    if "game" in record:
        _whole(record["game"], "game")
    seed: int | str = raw_seed if isinstance(raw_seed, int | str) else 0
    players = _field(record, "players", list)
    _check_players(players)
    count = len(players)
    if not whole.min_players <= count <= whole.max_players:
        raise RecordError(f"{rules.name} is played by {whole.min_players}-{whole.max_players} "
                          f"players, the record has {count}")
    rounds = _field(record, "rounds", list)
    active = [True] * count
    totals = [0] * count
    first = first_seat(seed, count) if seeded else None
    actions = turns = 0
    outcome = None
    for index, entry in enumerate(rounds):
        number = index + 1
        if outcome is not None:
            raise RecordError(f"the game was over after round {index}, yet round {number} "
                              "is recorded")
        if not isinstance(entry, dict):
            raise RecordError("a round is a JSON object", round=number)
        try:
            _fields(entry, ROUND_FIELDS, "the round")
            if not same(entry["number"], number):
                raise RecordError(f"number: the round is number {number}, the record says "
                                  f"{entry['number']!r}")
            recorded_first = _field(entry, "first", int)
            if first is None:
                first = recorded_first
            elif number > 1:
                first = round_first(first, active)
            if recorded_first != first:
                raise RecordError(f"seat {recorded_first} plays first, but the first player "
                                  f"moves one seat each round: seat {first} (decision 12)")
            if not same(entry["active"], active):
                raise RecordError(f"the seats in play are {active}, not {entry['active']!r}")
            dealt = _deal_from_json(entry["deal"], count)
            if not same(dealt.to_json(), entry["deal"]):
                raise RecordError(f"deal: not as rami writes it (cards in the contract's codes): "
                                  f"{_brief(entry['deal'])}")
            if seeded and dealt != deal(rules, active, stream(seed, "deal", number)):
                raise RecordError("the deal is not the one the seed gives")
            played = _replay_round(rules, options, dealt, first, active, number, totals,
                                   entry, seed if seeded else None, on_play)
        except RecordError as error:
            if error.round is None:
                raise RecordError(error.message, round=number, turn=error.turn,
                                  action=error.action) from None
            raise
        actions += len(played.events)
        turns += played.turns
        assert played.result is not None
        totals = [total + score for total, score in zip(totals, played.result.scores,
                                                        strict=True)]
        if not same(entry["totals"], totals):
            raise RecordError(f"totals recorded {entry.get('totals')}, recomputed {totals}",
                              round=number)
        outcome = game_after_round(whole, options, totals, active, number)
        if not same(entry["eliminated"], list(outcome.eliminated)):
            raise RecordError(f"eliminated recorded {entry.get('eliminated')}, recomputed "
                              f"{list(outcome.eliminated)}", round=number)
        for seat in outcome.eliminated:
            active[seat] = False
        if not outcome.over:
            outcome = None
    if outcome is None:
        raise RecordError(f"the record stops after {len(rounds)} round(s) but the game is not "
                          "over")
    for key, value in (("totals", totals), ("winners", list(outcome.winners)),
                       ("losers", list(outcome.losers)), ("draw", outcome.draw),
                       ("end", outcome.reason)):
        if not same(record.get(key), value):
            raise RecordError(f"{key} recorded {record.get(key)!r}, recomputed {value!r}")
    return ReplaySummary(len(rounds), actions, turns)


def _field(data: dict[str, Any], key: str, kind: type) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(f"{key}: expected {kind.__name__}, got {value!r}")
    return value


def _replay_round(rules, options, dealt, first, active, number, totals, entry, seed,
                  on_play=None) -> Round:
    recorded = _field(entry, "actions", list)
    reshuffles = [event for event in recorded if isinstance(event, dict) and "reshuffle" in event]

    def reshuffler(cards: list[Card], count: int) -> list[Card]:
        if count > len(reshuffles):
            raise RecordError(f"reshuffle {count} happens but is not recorded")
        order = list(cards_from_json(reshuffles[count - 1].get("stock"), "reshuffle.stock"))
        if seed is not None and order != seeded_reshuffles(cards, count):
            raise RecordError(f"reshuffle {count} is not the one the seed gives")
        return order

    seeded_stream = random_reshuffler(stream(seed, "reshuffle", number)) if seed is not None \
        else None
    given: list[list[Card]] = []

    def seeded_reshuffles(cards: list[Card], count: int) -> list[Card]:
        assert seeded_stream is not None
        while len(given) < count:
            given.append(seeded_stream(cards, len(given) + 1))
        return given[count - 1]

    rnd = Round(rules, options, dealt, first=first, active=active, number=number,
                scores=totals, reshuffler=reshuffler)
    script = _Script(rnd, recorded)
    checked = 0
    while True:
        checked = _compare(rnd, recorded, checked)
        if rnd.over:
            break
        try:
            action = script.action()
            if on_play is not None and isinstance(action, Play):
                on_play(number, rnd.turns + 1, rnd.to_move,
                        rnd._judged(rnd.position(), action), action)
            rnd.apply(action)
        except RecordError as error:
            raise RecordError(error.message, turn=rnd.turns + 1,
                              action=len(rnd.events) + 1) from None
        except IllegalActionError as error:
            raise RecordError(f"illegal: {'; '.join(error.problems)}", turn=rnd.turns + 1,
                              action=len(rnd.events) + 1) from None
        except GameInternalError as error:
            raise RecordError(str(error), turn=rnd.turns + 1,
                              action=len(rnd.events) + 1) from None
        except NotationError as error:
            raise RecordError(f"unreadable action: {error}", turn=rnd.turns + 1,
                              action=len(rnd.events) + 1) from None
    if len(recorded) > len(rnd.events):
        raise RecordError(f"the round is over after action {len(rnd.events)}, yet "
                          f"{len(recorded) - len(rnd.events)} more are recorded",
                          turn=rnd.turns, action=len(rnd.events) + 1)
    assert rnd.result is not None
    end = entry["end"]
    want = {"reason": rnd.result.reason, "winners": list(rnd.result.winners),
            "rami_sec": rnd.result.rami_sec}
    if not same(end, want):
        raise RecordError(f"the round ends {want}, the record says {end}")
    if not same(entry["scores"], list(rnd.result.scores)):
        raise RecordError(f"scores recorded {entry.get('scores')}, recomputed "
                          f"{list(rnd.result.scores)}")
    hands = [[str(card) for card in hand] for hand in rnd.hands()]
    if not same(entry["hands"], hands):
        raise RecordError(f"the hands left at the end are {hands}, not {entry['hands']}")
    return rnd


def _compare(rnd: Round, recorded: list[Any], checked: int) -> int:
    """The events the engine logged must be the recorded ones (drawn cards, tables...)."""
    for at in range(checked, len(rnd.events)):
        mine = rnd.events[at]
        theirs = recorded[at] if at < len(recorded) else None
        if not same(mine, theirs):
            raise RecordError(f"the engine gives {_brief(mine)}, the record has "
                              f"{_brief(theirs)}", turn=rnd.turns, action=at + 1)
    return len(rnd.events)
