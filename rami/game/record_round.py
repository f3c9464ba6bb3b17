"""One recorded round played again and checked (decision 13): the recorded actions stand in
for the players, every event the engine logs must be the recorded one, and the round must end,
score and leave the hands as recorded. The game around the rounds is :mod:`rami.game.record`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
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
from rami.game.match import round_first
from rami.game.presets import GameOptions
from rami.game.record_io import ROUND_FIELDS, RecordError, brief, check_fields, field_of, same
from rami.game.rounds import Round
from rami.game.state import CLAIM, DRAW
from rami.position import Position
from rami.rules import Ruleset

#: Called before each play is replayed: (round, turn, seat, the position the referee judges
#: the play in, the play). ``rami review --game`` collects the turns this way.
PlayWatcher = Callable[[int, int, int, Position, Play], None]


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


def deal_from_json(data: Any, players: int) -> Deal:
    """A recorded deal read back, its shape checked."""
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


def round_start(
    rules: Ruleset,
    seed: int | str | None,
    entry: dict[str, Any],
    number: int,
    first: int | None,
    active: list[bool],
) -> tuple[int, Deal]:
    """A round's number, first seat, seats in play and deal, checked: the first seat and the
    deal (the seed's deal when ``seed`` is given: the record names its shuffle)."""
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
    dealt = deal_from_json(entry["deal"], len(active))
    if not same(dealt.to_json(), entry["deal"]):
        raise RecordError(
            f"deal: not as rami writes it (cards in the contract's codes): {brief(entry['deal'])}"
        )
    if seed is not None and dealt != deal(rules, active, stream(seed, "deal", number)):
        raise RecordError("the deal is not the one the seed gives")
    return first, dealt


def replay_round(
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
    """Round ``number`` played again from its deal with the recorded actions, every event
    compared with the record's, and its end, scores and hands checked."""
    recorded = field_of(entry, "actions", list)
    rnd = Round(
        rules,
        options,
        dealt,
        first=first,
        active=active,
        number=number,
        scores=totals,
        reshuffler=_recorded_reshuffles(recorded, seed, number),
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
        except (RecordError, IllegalActionError, GameInternalError, NotationError) as error:
            raise _at_action(rnd, error) from None
    _check_round_end(rnd, entry, recorded)
    return rnd


def _recorded_reshuffles(
    recorded: list[Any], seed: int | str | None, number: int
) -> Callable[[list[Card], int], list[Card]]:
    """The round's reshuffler: each reshuffle's order as recorded, and the seed's when the
    record is seeded."""
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

    return reshuffler


def _at_action(rnd: Round, error: RamiError | GameInternalError) -> RecordError:
    """``error``, met replaying the round's next action, as a RecordError naming that action."""
    if isinstance(error, RecordError):
        message = error.message
    elif isinstance(error, IllegalActionError):
        message = f"illegal: {'; '.join(error.problems)}"
    elif isinstance(error, NotationError):
        message = f"unreadable action: {error}"
    else:
        message = str(error)
    return RecordError(message, turn=rnd.turns + 1, action=len(rnd.events) + 1)


def _check_round_end(rnd: Round, entry: dict[str, Any], recorded: list[Any]) -> None:
    """The round ended where the record does, as it says: reason, winners, scores, hands."""
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
