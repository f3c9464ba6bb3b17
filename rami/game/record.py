"""The game record (decision 13) and its replay.

A record is one JSON object per game, self-contained: the format and version, the rules (the
ruleset string), the options, the seed, the players, and for each round the deal (every hand,
the turned card, the stock top first), every action in order, how the round ended, the scores
and the totals; then the final totals and the winners. docs/game.md shows one.

:func:`replay` plays every round again from its deal through the same engine, the recorded
actions standing in for the players: every turn is judged again by the referee, every draw must
give the recorded card, every card is accounted for after each step, and the round ends, scores
and game result must come out as recorded. The deal and the reshuffles are also checked against
the seed (``"shuffle": "sha256-streams-v1"``). Reading records and checking their shape is
:mod:`rami.game.record_io`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
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
from rami.game.checks import judged_position
from rami.game.deck import Deal, deal, random_reshuffler, stream
from rami.game.match import RECORD_FORMAT, RECORD_VERSION, SHUFFLE, first_seat, round_first
from rami.game.presets import GameOptions, GameRules, game_rules
from rami.game.record_io import (
    MAX_RECORD_BYTES,
    NOT_BOTS,
    OPTIONAL_FIELDS,
    PLAYER_FIELDS,
    RECORD_FIELDS,
    ROUND_FIELDS,
    RecordError,
    brief,
    check_fields,
    check_players,
    decode_record,
    field_of,
    game_label,
    read_records,
    record_file,
    same,
    whole_number,
)
from rami.game.rounds import Round
from rami.game.scoring import game_after_round
from rami.game.state import CLAIM, DRAW
from rami.position import Position
from rami.rules import Ruleset, get_ruleset

#: rami.game.record_io's names stay importable from here.
__all__ = [
    "MAX_RECORD_BYTES",
    "NOT_BOTS",
    "OPTIONAL_FIELDS",
    "PLAYER_FIELDS",
    "RECORD_FIELDS",
    "ROUND_FIELDS",
    "PlayWatcher",
    "RecordError",
    "ReplaySummary",
    "decode_record",
    "game_label",
    "read_records",
    "record_file",
    "replay",
    "same",
]


@dataclass
class ReplaySummary:
    rounds: int
    actions: int
    turns: int


class RecordedActions:
    """Stands in for the players: answers each request from the recorded actions."""

    def __init__(self, rnd: Round, actions: list[Any]) -> None:
        self.rnd = rnd
        self.actions = actions

    def next_event(self) -> dict[str, Any]:
        at = len(self.rnd.events)
        if at >= len(self.actions):
            raise RecordError(
                "the record stops while the round is still being played "
                f"(seat {self.rnd.to_move} to {self.rnd.phase})"
            )
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
                raise RecordError(f"seat {seat} is to draw, but the record has {brief(event)}")
            return Draw(source)
        if "played" not in event:
            raise RecordError(f"seat {seat} is to play, but the record has {brief(event)}")
        table = table_from_json(event["table"], "table") if "table" in event else rnd.state.table
        discard = event.get("discard")
        return Play(
            table,
            cards_from_json(event["played"], "played"),
            None if discard is None else card_from_json(discard, "discard"),
        )


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


def replay(record: Any, label: str = "game", on_play: PlayWatcher | None = None) -> ReplaySummary:
    """Replay one record; RecordError names the round, turn and action at fault."""
    try:
        return _replay(record, label, on_play)
    except RecordError as error:
        if not error.game:
            error = RecordError(
                error.message, game=label, round=error.round, turn=error.turn, action=error.action
            )
        raise error from None
    except RamiError as error:
        raise RecordError(str(error), game=label) from None


def _replay(record: Any, label: str, on_play: PlayWatcher | None = None) -> ReplaySummary:
    game = _read_header(record)
    players = field_of(record, "players", list)
    check_players(players)
    count = len(players)
    whole = game.whole
    if not whole.min_players <= count <= whole.max_players:
        raise RecordError(
            f"{game.rules.name} is played by {whole.min_players}-"
            f"{whole.max_players} players, the record has {count}"
        )
    rounds = field_of(record, "rounds", list)
    active = [True] * count
    totals = [0] * count
    first = first_seat(game.seed, count) if game.seeded else None
    actions = turns = 0
    outcome = None
    for index, entry in enumerate(rounds):
        number = index + 1
        if outcome is not None:
            raise RecordError(
                f"the game was over after round {index}, yet round {number} is recorded"
            )
        if not isinstance(entry, dict):
            raise RecordError("a round is a JSON object", round=number)
        try:
            first, dealt = _round_start(game, entry, number, first, active)
            played = _replay_round(
                game.rules,
                game.options,
                dealt,
                first,
                active,
                number,
                totals,
                entry,
                game.seed if game.seeded else None,
                on_play,
            )
        except RecordError as error:
            if error.round is None:
                raise RecordError(
                    error.message, round=number, turn=error.turn, action=error.action
                ) from None
            raise
        actions += len(played.events)
        turns += played.turns
        assert played.result is not None
        totals = [total + score for total, score in zip(totals, played.result.scores, strict=True)]
        if not same(entry["totals"], totals):
            raise RecordError(
                f"totals recorded {entry.get('totals')}, recomputed {totals}", round=number
            )
        outcome = game_after_round(whole, game.options, totals, active, number)
        if not same(entry["eliminated"], list(outcome.eliminated)):
            raise RecordError(
                f"eliminated recorded {entry.get('eliminated')}, recomputed "
                f"{list(outcome.eliminated)}",
                round=number,
            )
        for seat in outcome.eliminated:
            active[seat] = False
        if not outcome.over:
            outcome = None
    if outcome is None:
        raise RecordError(f"the record stops after {len(rounds)} round(s) but the game is not over")
    for key, value in (
        ("totals", totals),
        ("winners", list(outcome.winners)),
        ("losers", list(outcome.losers)),
        ("draw", outcome.draw),
        ("end", outcome.reason),
    ):
        if not same(record.get(key), value):
            raise RecordError(f"{key} recorded {record.get(key)!r}, recomputed {value!r}")
    return ReplaySummary(len(rounds), actions, turns)


@dataclass(frozen=True)
class _Header:
    """A record's rules, options and seed, checked."""

    rules: Ruleset
    whole: GameRules
    options: GameOptions
    #: The seed (0 when the record has none).
    seed: int | str
    #: The record names its shuffle: the deals and reshuffles must be the seed's.
    seeded: bool


def _read_header(record: Any) -> _Header:
    """The record's format, fields, rules, options, seed and shuffle, checked in that order."""
    if not isinstance(record, dict):
        raise RecordError("a record is a JSON object")
    if not (
        same(record.get("format"), RECORD_FORMAT) and same(record.get("version"), RECORD_VERSION)
    ):
        raise RecordError(
            f"not a {RECORD_FORMAT} record of version {RECORD_VERSION} "
            f"(format {record.get('format')!r}, version {record.get('version')!r})"
        )
    check_fields(record, RECORD_FIELDS, "record", OPTIONAL_FIELDS)
    rules = get_ruleset(field_of(record, "rules", str))
    whole = game_rules(rules)
    options = GameOptions.from_json(field_of(record, "options", dict)).resolved(rules)
    raw_seed = record.get("seed")
    if "seed" in record and (not isinstance(raw_seed, int | str) or isinstance(raw_seed, bool)):
        raise RecordError(f"seed: expected a whole number or a string, got {raw_seed!r}")
    seeded = "shuffle" in record
    if seeded and not same(record["shuffle"], SHUFFLE):
        raise RecordError(
            f"shuffle: unknown shuffle {record['shuffle']!r} (this version deals with {SHUFFLE!r})"
        )
    if seeded and "seed" not in record:
        raise RecordError(f"the record names its shuffle ({SHUFFLE!r}) but no seed")
    if "game" in record:
        whole_number(record["game"], "game")
    seed: int | str = raw_seed if isinstance(raw_seed, int | str) else 0
    return _Header(rules, whole, options, seed, seeded)


def _round_start(
    game: _Header, entry: dict[str, Any], number: int, first: int | None, active: list[bool]
) -> tuple[int, Deal]:
    """A round's number, first seat, seats in play and deal, checked: the first seat and the
    deal."""
    check_fields(entry, ROUND_FIELDS, "the round")
    if not same(entry["number"], number):
        raise RecordError(
            f"number: the round is number {number}, the record says {entry['number']!r}"
        )
    recorded_first = field_of(entry, "first", int)
    if first is None:
        first = recorded_first
    elif number > 1:
        first = round_first(first, active)
    if recorded_first != first:
        raise RecordError(
            f"seat {recorded_first} plays first, but the first player "
            f"moves one seat each round: seat {first} (decision 12)"
        )
    if not same(entry["active"], active):
        raise RecordError(f"the seats in play are {active}, not {entry['active']!r}")
    dealt = _deal_from_json(entry["deal"], len(active))
    if not same(dealt.to_json(), entry["deal"]):
        raise RecordError(
            f"deal: not as rami writes it (cards in the contract's codes): {brief(entry['deal'])}"
        )
    if game.seeded and dealt != deal(game.rules, active, stream(game.seed, "deal", number)):
        raise RecordError("the deal is not the one the seed gives")
    return first, dealt


def _replay_round(
    rules: Ruleset,
    options: GameOptions,
    dealt: Deal,
    first: int,
    active: Sequence[bool],
    number: int,
    totals: Sequence[int],
    entry: dict[str, Any],
    seed: int | str | None,
    on_play: PlayWatcher | None = None,
) -> Round:
    recorded = field_of(entry, "actions", list)
    reshuffles = [event for event in recorded if isinstance(event, dict) and "reshuffle" in event]

    seeded_stream = (
        random_reshuffler(stream(seed, "reshuffle", number)) if seed is not None else None
    )
    given: list[list[Card]] = []

    def seeded_reshuffles(cards: list[Card], count: int) -> list[Card]:
        assert seeded_stream is not None
        while len(given) < count:
            given.append(seeded_stream(cards, len(given) + 1))
        return given[count - 1]

    def reshuffler(cards: list[Card], count: int) -> list[Card]:
        if count > len(reshuffles):
            raise RecordError(f"reshuffle {count} happens but is not recorded")
        order = list(cards_from_json(reshuffles[count - 1].get("stock"), "reshuffle.stock"))
        if seed is not None and order != seeded_reshuffles(cards, count):
            raise RecordError(f"reshuffle {count} is not the one the seed gives")
        return order

    rnd = Round(
        rules,
        options,
        dealt,
        first=first,
        active=active,
        number=number,
        scores=totals,
        reshuffler=reshuffler,
    )
    script = RecordedActions(rnd, recorded)
    checked = 0
    while True:
        checked = _compare(rnd, recorded, checked)
        if rnd.over:
            break
        try:
            action = script.action()
            if on_play is not None and isinstance(action, Play):
                on_play(
                    number,
                    rnd.turns + 1,
                    rnd.to_move,
                    judged_position(rnd.rules, rnd.position(), action),
                    action,
                )
            rnd.apply(action)
        except RecordError as error:
            raise RecordError(
                error.message, turn=rnd.turns + 1, action=len(rnd.events) + 1
            ) from None
        except IllegalActionError as error:
            raise RecordError(
                f"illegal: {'; '.join(error.problems)}",
                turn=rnd.turns + 1,
                action=len(rnd.events) + 1,
            ) from None
        except GameInternalError as error:
            raise RecordError(str(error), turn=rnd.turns + 1, action=len(rnd.events) + 1) from None
        except NotationError as error:
            raise RecordError(
                f"unreadable action: {error}", turn=rnd.turns + 1, action=len(rnd.events) + 1
            ) from None
    if len(recorded) > len(rnd.events):
        raise RecordError(
            f"the round is over after action {len(rnd.events)}, yet "
            f"{len(recorded) - len(rnd.events)} more are recorded",
            turn=rnd.turns,
            action=len(rnd.events) + 1,
        )
    assert rnd.result is not None
    end = entry["end"]
    want = {
        "reason": rnd.result.reason,
        "winners": list(rnd.result.winners),
        "rami_sec": rnd.result.rami_sec,
    }
    if not same(end, want):
        raise RecordError(f"the round ends {want}, the record says {end}")
    if not same(entry["scores"], list(rnd.result.scores)):
        raise RecordError(
            f"scores recorded {entry.get('scores')}, recomputed {list(rnd.result.scores)}"
        )
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
            raise RecordError(
                f"the engine gives {brief(mine)}, the record has {brief(theirs)}",
                turn=rnd.turns,
                action=at + 1,
            )
    return len(rnd.events)
