"""Games as records: :class:`rami.game.session.GameSession` rebuilt from its journal (a journal
that does not replay refused), and the log: a turn told as moves numbered as the table before
it, the cards a bot took from your melds named, the log in French."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from support.games import drive

from rami.cards import Card
from rami.game import GameOptions
from rami.game.human_tell import turn_lines
from rami.game.session import GameSession, ReplayError
from rami.game.turn_text import took, turn_moves
from rami.lang import ENGLISH, FRENCH
from rami.melds import Meld
from rami.solver.explain import replay_moves

GAMES = [
    ("rami-chinois", ["beginner", "confirmed"], 3),
    ("rami-51", ["confirmed"], 5),
    ("rami-fou", ["beginner", "beginner"], 2),
    ("bfmania-30", ["expert"], 4),
]


@pytest.mark.parametrize(("rules", "levels", "seed"), GAMES)
def test_a_session_replays_from_its_journal(rules: str, levels: list[str], seed: int) -> None:
    options = GameOptions(max_rounds=2)
    session = GameSession(rules, levels, seed, options)
    marks = drive(session, seed + 10)
    assert session.decisions == len(marks) and session.phase == "game-over"
    assert session.journal.count({"action": "next"}) == len(session.rounds) - 1
    for cut in (marks[0], marks[len(marks) // 2], marks[-1]):
        rebuilt = GameSession(rules, levels, seed, options, journal=session.journal[:cut])
        assert rebuilt.decisions == marks.index(cut) + 1
        assert rebuilt.journal == session.journal[:cut]
    rebuilt = GameSession(rules, levels, seed, options, journal=session.journal)
    for language in (ENGLISH, FRENCH):
        assert rebuilt.to_json(0, language) == session.to_json(0, language)


def test_a_journal_that_does_not_replay_is_refused() -> None:
    options = GameOptions(max_rounds=1)
    over = GameSession("rami-51", ["beginner"], 5, options)
    drive(over, 1)
    with pytest.raises(ReplayError, match="left over"):  # an answer after the game's end
        GameSession(
            "rami-51",
            ["beginner"],
            5,
            options,
            journal=[*over.journal, {"action": "draw", "source": "stock"}],
        )
    session = GameSession("rami-51", ["beginner"], 5)
    drive(session, 1, decisions=6)
    journal = list(session.journal)
    with pytest.raises(ReplayError, match="expected 'draw'"):  # a round dealt mid-round
        GameSession("rami-51", ["beginner"], 5, journal=[*journal, {"action": "next"}])
    plays = [index for index, entry in enumerate(journal) if entry["action"] == "play"]
    forged = [dict(entry) for entry in journal]
    forged[plays[0]]["discard"] = "KH" if forged[plays[0]]["discard"] != "KH" else "2C"
    with pytest.raises(ReplayError, match="refused"):
        GameSession("rami-51", ["beginner"], 5, journal=forged)
    with pytest.raises(ReplayError):
        GameSession("rami-51", ["beginner"], 5, journal=[{"action": "dance"}])


# ------------------------------------------------------------------------------ the log


def _turns(session: GameSession) -> Iterator[tuple[list[Meld], dict[str, Any]]]:
    """Each play entry of the log, with the table as it lay before it."""
    table: list[Meld] = []
    for entry in session.log:
        if entry["kind"] == "deal":
            table = []
        if entry["kind"] != "play":
            continue
        yield table, entry
        if entry["table"] is not None:
            table = [Meld.of(map(Card.parse, cards)) for cards in entry["table"]]


@pytest.mark.parametrize("seed", [1, 5])
def test_a_turn_is_told_as_moves_numbered_as_the_table_before_it(seed: int) -> None:
    session = GameSession("rami-chinois", ["confirmed"], seed, GameOptions(max_rounds=1))
    drive(session, 7, "confirmed")
    checked = moved = 0
    for before, entry in _turns(session):
        played = [Card.parse(card) for card in entry["played"]]
        after = [Meld.of(map(Card.parse, cards)) for cards in entry["table"] or []]
        sent = session.entry_json(entry)
        if entry["table"] is None:
            assert sent["moves"] == ([f"discard {entry['discard']}"] if entry["discard"] else [])
            continue
        # The moves, made on the table before, give the table after in its order: a meld keeps
        # its number from turn to turn, new melds come after.
        piles = replay_moves(before, entry["_moves"], played)
        assert [piles[number] for number in sorted(piles)] == [meld.counts() for meld in after]
        if entry["seat"] != 0:  # the same words as rami play prints for a bot's turn
            lines = turn_lines(before, after, played, entry["discard"])
            assert [line.split(". ", 1)[1] for line in lines] == sent["moves"]
            assert not any("your hand" in move for move in sent["moves"])
            moved += any(move.startswith("move ") for move in sent["moves"])
        else:
            assert sent["took"] == [] and any("from your hand" in m for m in sent["moves"])
        checked += 1
    assert checked >= 4 and moved >= 1


def test_took_names_the_cards_a_bot_took_from_your_melds() -> None:
    mine, theirs = Meld.parse("5H 6H 7H 8H"), Meld.parse("QS QD QC")
    before = [mine, theirs]
    # A bot moves 8H off your run and QC off its own set, and lays them with its hand cards.
    after = [
        Meld.parse("5H 6H 7H"),
        Meld.parse("QS QD"),
        Meld.parse("8S 8D 8H"),
        Meld.parse("QC QH QH"),
    ]
    moves = turn_moves(before, after, [Card.parse(c) for c in ("8S", "8D", "QH", "QH")])
    assert took(moves, [0, 1], 0) == [Card.parse("8H")]
    assert took(moves, [1, 1], 0) == []
    assert took(moves, [0, 0], 0) == sorted([Card.parse("8H"), Card.parse("QC")])
    session = GameSession("rami-chinois", ["confirmed"], 5, GameOptions(max_rounds=1))
    drive(session, 7, "confirmed")
    taken = [entry for _, entry in _turns(session) if entry["took"]]
    assert taken and all(entry["seat"] == 1 for entry in taken)
    for entry in taken:  # each card taken was moved by a move of the turn
        moved = " ".join(
            move
            for move in session.entry_json(entry)["moves"]
            if move.startswith(("move ", "split "))
        )
        assert all(card in moved for card in entry["took"])


def test_the_log_in_french() -> None:
    session = GameSession("rami-51", ["confirmed"], 5, GameOptions(max_rounds=1))
    drive(session, 3, decisions=40)
    english = session.to_json(0)["events"]
    french = session.to_json(0, FRENCH)["events"]
    assert [{k: v for k, v in e.items() if k not in ("text", "moves")} for e in english] == [
        {k: v for k, v in e.items() if k not in ("text", "moves")} for e in french
    ]
    assert french[0]["text"].startswith("Manche 1 : ")
    bots = [fr["text"] for fr in french if fr.get("seat") == 1]
    assert bots and all(text.startswith("P2 (confirmé) ") for text in bots)
    for en, fr in zip(english, french, strict=True):
        assert en["text"] != fr["text"]
        if en["kind"] == "draw" and en["card"]:
            assert Card.parse(en["card"]).text(FRENCH) in fr["text"]
        if en["kind"] == "play" and en["discard"]:
            assert fr["moves"][-1] == f"défaussez {Card.parse(en['discard']).text(FRENCH)}"
        assert not re.search(r"\b(draws?|lays?|discards?|from|the)\b", fr["text"]), fr["text"]
