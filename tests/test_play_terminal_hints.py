"""``rami play``: hints at every decision (the draw, a claim, the turn, from the moves already
made), ``play hint``, and the messages a player reads in plain words."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from support.views import seat_view as view  # the other seat opened
from typer.testing import CliRunner

from rami.cards import Card, parse_cards
from rami.cli.main import app
from rami.game import Claim, Draw, Play
from rami.game.actions import IllegalActionError
from rami.game.advice import advise
from rami.game.human import QuitGame, TerminalPlayer
from rami.notation import parse_table
from rami.position import Position
from rami.referee import validate_turn
from rami.rules import get_ruleset

BOTH = ("stock", "discard")


def person(*typed: str) -> tuple[TerminalPlayer, list[str]]:
    """A person at the terminal who types ``typed``, one line a prompt; what is shown."""
    shown: list[str] = []
    lines: Iterator[str] = iter(typed)

    def read(prompt: str) -> str | None:
        shown.append(prompt)
        line = next(lines, None)
        if line is not None:
            shown.append(f"> {line}")
        return line

    return TerminalPlayer(read, shown.append), shown


def after(shown: list[str], typed: str, count: int = 1) -> list[str]:
    """The lines shown after the ``count``-th time ``typed`` was typed, up to the next prompt."""
    at = [index for index, line in enumerate(shown) if line == f"> {typed}"][count - 1]
    lines = []
    for line in (line for shown_line in shown[at + 1 :] for line in shown_line.splitlines()):
        if line.endswith("? ") or line.endswith("pass "):
            break
        lines.append(line)
    return lines


def test_a_hint_at_the_draw_and_play_hint_takes_the_advised_card() -> None:
    seen = view(
        "bfmania-51", "KS 2C 5D 9C", "7H 8H 9H", phase="draw", opened=True, pile="3D TH", draws=BOTH
    )
    player, shown = person("hint", "ph")
    assert player.act(seen) == Draw("discard")
    advice = advise(seen).text
    assert advice.startswith("Take TH from the discard pile")
    assert after(shown, "hint") == [advice]
    assert after(shown, "ph") == [advice]
    stock = view(
        "bfmania-51", "KS 2C 5D 9C", "7H 8H 9H", phase="draw", opened=True, pile="3D 4S", draws=BOTH
    )
    player, shown = person("hint 2", "play hint")
    assert player.act(stock) == Draw("stock")
    assert after(shown, "hint 2")[0].startswith("Draw from the stock: 4S makes no meld")


def test_a_hint_at_the_claim_and_play_hint_claims() -> None:
    seen = view(
        "rami-fou", "5H 6H 9C 9D KS", "JS QS KS", phase="claim", opened=True, pile="7H", claim="7H"
    )
    player, shown = person("hint", "ph")
    assert player.act(seen) == Claim(True)
    assert after(shown, "hint")[0].startswith("Claim 7H: with it and the penalty card")
    useless = view(
        "rami-fou", "5H 2H 9D 4D KS", "JS QS KS", phase="claim", opened=True, pile="7C", claim="7C"
    )
    player, shown = person("hint", "ph")
    assert player.act(useless) == Claim(False)
    assert after(shown, "hint") == ["Pass: 7C makes no meld with your hand or the table."]


def test_the_whole_turn_is_told_as_moves_and_play_hint_plays_it() -> None:
    seen = view("bfmania-51", "KS KD 4C 6C 8D 8H 5H 6H 7H", "2S 3S 4S", opened=True)
    player, shown = person("hint 3", "ph")
    action = player.act(seen)
    assert after(shown, "hint 3") == [
        "Your best turn (2 moves):",
        "  1. lay 5H 6H 7H 8H from your hand as meld 2",
        "  2. discard 8D to end your turn",
        "8D: it makes no meld with your other cards.",
    ]
    assert isinstance(action, Play) and action.discard == Card.parse("8D")
    assert validate_turn(seen.position(), action.table, action.played, action.discard).legal


def test_a_hint_starts_from_the_moves_already_made() -> None:
    seen = view("bfmania-51", "KS KD 4C 6C 8D 8H 5H 6H 7H 9S", "2S 3S 4S", opened=True)
    player, shown = person("lay 5H 6H 7H", "hint 3", "ph")
    action = player.act(seen)
    hint = after(shown, "hint 3")
    assert hint[1] == "  1. add 8H from your hand to meld 2"  # meld 2: the one just laid
    assert not any("lay 5H" in line for line in hint)
    assert isinstance(action, Play)
    assert sorted(map(str, action.played)) == sorted(map(str, parse_cards("5H 6H 7H 8H")))
    assert validate_turn(seen.position(), action.table, action.played, action.discard).legal


def test_the_draw_speaks_plain_words() -> None:
    """Rami 51: a card taken from the discard pile is laid in the same turn, in the opening
    for a player not yet opened; the terminal says so without the rules' numbers."""
    hand = "9S 9H 2C 5D KH 4S 7C 7D JS QD 3H AD 8C 6H"
    seen = view("rami-51", hand, phase="draw", pile="6S 9D", draws=BOTH)
    player, shown = person("draw discard", "stock")
    assert player.act(seen) == Draw("stock")
    refused = after(shown, "draw discard")
    assert refused == [
        "  you could not lay 9D in your opening this turn, and a card taken from "
        "the discard pile must be laid in the same turn, in the opening: draw "
        "from the stock"
    ]
    drawn = view("rami-chinois", "AS 5D 9C *", drawn="*")
    player, shown = person("quit")
    with pytest.raises(QuitGame):
        player.act(drawn)
    assert "You draw a joker" in shown


def test_a_lay_off_before_the_opening_is_refused_with_one_reason() -> None:
    rules = get_ruleset("bfmania-51")
    position = Position(parse_table("7H 8H 9H"), parse_cards("TH 2C 5D KS"), False, rules)
    problems = validate_turn(
        position, parse_table("7H 8H 9H TH"), parse_cards("TH"), Card.parse("KS")
    ).problems
    assert len(problems) > 1
    player, shown = person()
    player.refused(IllegalActionError(problems, "round 1"))
    assert shown == [
        "Refused by the referee:",
        "  - meld 1 (7H 8H 9H) changed, but you have not opened yet: lay your "
        "opening melds from your hand first, then add to the table",
        "Fix the turn (undo, more moves) and submit it again.",
    ]


def test_a_whole_game_played_by_the_hints() -> None:
    """Every decision answered by 'play hint': the referee accepts each turn, and no message
    speaks of the rules' decision numbers or of the solver."""
    for rules, seed in (("bfmania-51", 5), ("rami-fou", 2)):
        result = CliRunner().invoke(
            app,
            ["play", "--rules", rules, "--vs", "expert", "--seed", str(seed)],
            input="hint\nph\n" * 12 + "quit\n",
            prog_name="rami",
        )
        assert result.exit_code == 0, result.output
        out = result.stdout
        assert "Traceback" not in out and "Refused" not in out
        assert out.count("Turn accepted by the referee.") >= 4
        assert "decision" not in out and "solver" not in out
        assert "hints come once" not in out and "not asked now" not in out


def test_a_hint_numbers_the_melds_as_the_person_does_when_one_is_emptied() -> None:
    """Meld 2 moved whole onto meld 1 keeps its number, empty: a new meld is meld 3."""
    seen = view("rami-chinois", "8S 9H TH JH KD 2C", "2S 3S 4S | 5S 6S 7S", opened=True)
    player, shown = person(
        "move 5S 6S 7S from 2 to 1", "hint 3", "lay 9H TH JH as meld 3", "hint 3", "ph"
    )
    action = player.act(seen)
    hint = after(shown, "hint 3")
    assert "from the start" not in hint[0]
    assert "  1. lay 9H TH JH from your hand as meld 3" in hint
    assert "  laid 9H TH JH as meld 3" in shown  # the hint's numbers are the ones to type
    assert "  1. add 8S from your hand to meld 1" in after(shown, "hint 3", 2)
    assert isinstance(action, Play)
    assert validate_turn(seen.position(), action.table, action.played, action.discard).legal
