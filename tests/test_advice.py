"""Advice at every decision of a game (rami.game.advice): the expert bot's draw, claim and
discard, the solver's best turn, told in plain words in English and French."""

from __future__ import annotations

from collections import Counter

import pytest
from support.views import seat_view as view  # the other seat opened

from rami.cards import Card, parse_cards
from rami.errors import SolverBugError
from rami.game import Claim, Draw, Play
from rami.game.advice import Advice, advise, advised_action
from rami.game.expert import ExpertBot
from rami.game.fallback import FAILURES
from rami.hints import make_hint
from rami.lang import FRENCH
from rami.melds import Meld
from rami.notation import parse_table
from rami.referee import validate_turn
from rami.solver.api import solve

BOTH = ("stock", "discard")


def test_take_a_discard_that_lays_and_say_where() -> None:
    seen = view(
        "bfmania-51", "KS 2C 5D 9C", "7H 8H 9H", phase="draw", opened=True, pile="3D TH", draws=BOTH
    )
    advice = advise(seen)
    assert advice.phase == "draw" and advice.draw == "discard"
    assert advice.text == (
        "Take TH from the discard pile: you can lay it this turn, in 7H 8H 9H TH."
    )
    assert advised_action(seen, advice) == Draw("discard") == ExpertBot().act(seen)
    french = advise(seen, language=FRENCH)
    assert french.draw == "discard"
    assert french.text == (
        "Prenez 10♥ dans la défausse : vous pouvez la poser ce tour-ci, dans 7♥ 8♥ 9♥ 10♥."
    )


def test_a_discard_that_makes_no_meld_is_left_for_the_stock() -> None:
    seen = view(
        "bfmania-51", "KS 2C 5D 9C", "7H 8H 9H", phase="draw", opened=True, pile="3D 4S", draws=BOTH
    )
    advice = advise(seen)
    assert advice.draw == "stock" and advised_action(seen, advice) == Draw("stock")
    assert advice.text == "Draw from the stock: 4S makes no meld with your hand or the table."
    assert advise(seen, language=FRENCH).text == (
        "Piochez dans le talon : 4♠ ne fait aucune combinaison avec votre main ni avec la table."
    )


def test_a_discard_towards_the_opening_and_one_that_cannot_be_laid() -> None:
    hand = "9S 9H 2C 5D KH 4S 7C 7D JS QD 3H AD 8C"
    builds = view("bfmania-51", hand, phase="draw", pile="6S 9D", draws=BOTH)
    advice = advise(builds)
    assert advice.draw == "discard"
    assert "completes a meld in your hand towards your opening" in advice.text
    # Rami 51 lays the card taken from the discard pile in the same turn: not this nine.
    rami51 = view("rami-51", hand + " 6H", phase="draw", pile="6S 9D", draws=BOTH)
    advice = advise(rami51)
    assert advice.draw == "stock" == ExpertBot().draw(rami51)
    assert advice.text == "Draw from the stock: 9D cannot be laid this turn."
    assert "decision" not in advice.text and "solver" not in advice.text


def test_the_stock_alone_when_the_rules_offer_no_choice() -> None:
    seen = view("rami-fou", "KS 2C 5D 9C", phase="draw", pile="3D", draws=("stock",))
    advice = advise(seen)
    assert advice.draw == "stock" and advice.text.startswith("Draw from the stock")


def test_a_claim_worth_taking_and_one_not() -> None:
    worth = view(
        "rami-fou", "5H 6H 9C 9D KS", "JS QS KS", phase="claim", opened=True, pile="7H", claim="7H"
    )
    advice = advise(worth)
    assert advice.phase == "claim" and advice.claim is True
    assert advised_action(worth, advice) == Claim(True)
    assert advice.text.startswith("Claim 7H: with it and the penalty card")
    assert "5H 6H 7H" in advice.text
    assert advise(worth, language=FRENCH).text.startswith("Réclamez 7♥ :")
    no_gain = view(
        "rami-fou", "5H 2H 9C 4D KS", "JS QS KS", phase="claim", opened=True, pile="7C", claim="7C"
    )
    advice = advise(no_gain)
    assert advice.claim is False is ExpertBot().claim(no_gain)
    assert advice.text == (
        "Pass: 7C and a penalty card would leave you worse off than waiting for your turn."
    )
    useless = view(
        "rami-fou", "5H 2H 9D 4D KS", "JS QS KS", phase="claim", opened=True, pile="7C", claim="7C"
    )
    advice = advise(useless)
    assert advice.claim is False and advised_action(useless, advice) == Claim(False)
    assert advice.text == "Pass: 7C makes no meld with your hand or the table."
    empty = view(
        "rami-fou",
        "5H 6H 9C 9D KS",
        "JS QS KS",
        phase="claim",
        opened=True,
        pile="7H",
        claim="7H",
        stock=0,
    )
    assert advise(empty).text == "Pass: the stock is empty, there is no penalty card to take."


def test_the_play_names_the_turn_as_moves_and_the_discard_and_why() -> None:
    seen = view("bfmania-51", "KS KD 4C 6C 8D 8H 5H 6H 7H", "2S 3S 4S", opened=True, pile="5C")
    advice = advise(seen)
    assert advice.phase == "play" and advice.discard == Card.parse("8D")
    assert advice.moves == (
        "lay 5H 6H 7H 8H from your hand as meld 2",
        "discard 8D to end your turn",
    )
    assert advice.text.splitlines() == [
        "Your best turn (2 moves):",
        "  1. lay 5H 6H 7H 8H from your hand as meld 2",
        "  2. discard 8D to end your turn",
        "8D: it makes no meld with your other cards.",
    ]
    play = advised_action(seen, advice)
    assert isinstance(play, Play)
    assert validate_turn(seen.position(), play.table, play.played, play.discard).legal
    french = advise(seen, language=FRENCH)
    assert french.moves == (
        "posez 5♥ 6♥ 7♥ 8♥ de votre main comme combinaison 2",
        "défaussez 8♦ pour finir votre tour",
    )
    assert french.text.startswith("Votre meilleur tour (2 coups) :")


def test_the_discard_is_the_experts_dead_card() -> None:
    """5H and 7H wait for a 6H, and both 6H are in the discard pile: the expert lets one go."""
    seen = view("bfmania-51", "5H 7H 9C 9D 3S", "JS QS KS", opened=True, pile="6H 6H")
    advice = advise(seen)
    expert = ExpertBot().act(seen)
    assert isinstance(expert, Play) and advice.discard == expert.discard
    assert advice.text.endswith(
        f"{advice.discard}: no card still unseen would make a meld with it."
    )


def test_levels_one_and_two_are_the_play_hints() -> None:
    seen = view("bfmania-51", "KS KD 4C 6C 8D 8H 5H 6H 7H", "2S 3S 4S", opened=True)
    solution = solve(seen.position(), min_moves=True, time_limit=2.0, wall_clock=False)
    for level in (1, 2):
        advice = advise(seen, level=level)
        assert advice.text == make_hint(solution, level).text
        assert advice.table is None and advice.moves == ()
        assert advised_action(seen, advice) is None
    with pytest.raises(ValueError, match="1, 2 or 3"):
        advise(seen, level=4)


def test_the_hint_starts_from_the_moves_already_made() -> None:
    seen = view("bfmania-51", "KS KD 4C 6C 8D 8H 5H 6H 7H 9S", "2S 3S 4S", opened=True)
    working = parse_table("2S 3S 4S | 5H 6H 7H")
    advice = advise(seen, working=working)
    assert "from the start" not in advice.text
    assert advice.moves[0] == "add 8H from your hand to meld 2"
    play = advised_action(seen, advice)
    assert isinstance(play, Play)
    assert validate_turn(seen.position(), play.table, play.played, play.discard).legal
    # A table that is no table (a meld of two cards): the hint starts from the turn's start.
    broken = advise(seen, working=(*parse_table("2S 3S 4S"), Meld.of(parse_cards("5H 6H"))))
    assert broken.text.startswith("Your moves so far do not lead to a turn the rules accept")
    assert broken.moves[0] == "lay 5H 6H 7H 8H from your hand as meld 2"


def test_the_same_view_gets_the_same_advice() -> None:
    views = [
        view(
            "rami-fou",
            "5H 6H 9C 9D KS",
            "JS QS KS",
            phase="claim",
            opened=True,
            pile="7H",
            claim="7H",
        ),
        view("bfmania-51", "KS KD 4C 6C 8D 8H", "2S 3S 4S", opened=True, pile="5C"),
    ]
    for seen in views:
        assert advise(seen).to_json() == advise(seen).to_json()


def test_a_solver_failure_gives_no_hint_and_is_logged(monkeypatch: pytest.MonkeyPatch) -> None:
    import rami.game.advice as advice_module

    def broken(*args: object, **kwargs: object) -> None:
        raise SolverBugError("the referee refused the solver's answer")

    monkeypatch.setattr(advice_module, "timed_solve", broken)
    seen = view("bfmania-51", "KS KD 4C 6C 8D 8H", "2S 3S 4S", opened=True)
    before = len(FAILURES)
    advice = advise(seen)
    assert advice == Advice(
        "play", "No hint this time (an internal error, logged for a report). Your game goes on."
    )
    assert len(FAILURES) == before + 1 and FAILURES[-1]["level"] == "hint"
    assert advise(seen, language=FRENCH).text.startswith("Pas d'indice cette fois")


def test_to_json() -> None:
    seen = view("bfmania-51", "KS KD 4C 6C 8D 8H 5H 6H 7H", "2S 3S 4S", opened=True)
    data = advise(seen).to_json()
    assert set(data) == {"phase", "text", "draw", "claim", "table", "discard", "moves"}
    assert data["table"] == [["2S", "3S", "4S"], ["5H", "6H", "7H", "8H"]]
    assert data["discard"] == "8D" and data["draw"] is None and data["claim"] is None
    left = Counter(seen.hand)
    left.subtract(parse_cards("5H 6H 7H 8H 8D"))
    assert +left


def test_taking_a_discard_no_turn_could_follow_is_said_in_plain_words() -> None:
    from rami.game.advice import can_follow, taking_problem, taking_reminder

    # Two 7H and nothing to lay: neither copy may be discarded the turn one is taken.
    stuck = view("bfmania-51", "7H", "2S 3S 4S", phase="draw", opened=True, pile="7H", draws=BOTH)
    assert not can_follow(stuck)
    assert taking_problem(stuck) == (
        "you could not end your turn after taking 7H (a card taken from the discard pile may "
        "not be discarded in the same turn): draw from the stock"
    )
    assert taking_problem(stuck, FRENCH).startswith(
        "vous ne pourriez pas finir votre tour après avoir pris 7♥"
    )
    assert advise(stuck).draw == "stock"
    hand = "9S 9H 2C 5D KH 4S 7C 7D JS QD 3H AD 8C 6H"
    rami51 = view("rami-51", hand, phase="draw", pile="6S 9D", draws=BOTH)
    assert can_follow(rami51)
    assert taking_problem(rami51) == (
        "you could not lay 9D in your opening this turn, and a card taken from the discard "
        "pile must be laid in the same turn, in the opening: draw from the stock"
    )
    fine = view(
        "rami-51", "KS 2C 5D 9C", "7H 8H 9H", phase="draw", opened=True, pile="3D TH", draws=BOTH
    )
    assert taking_problem(fine) is None
    assert taking_reminder(fine) == "you must lay TH this turn"
    assert taking_reminder(view("bfmania-51", "KS", phase="draw", pile="TH", draws=BOTH)) is None


def _same_turn(one: Play, other: Play) -> bool:
    """The same turn: the same cards played, discard and melds (in any order)."""
    melds = sorted(sorted(map(str, meld.cards)) for meld in one.table)
    return (
        sorted(one.played) == sorted(other.played)
        and one.discard == other.discard
        and melds == sorted(sorted(map(str, meld.cards)) for meld in other.table)
    )


def test_an_opened_player_is_told_to_hold_as_the_expert_does() -> None:
    """Rami chinois, opened, the stock far from out: the solver's whole turn would lay 7H 8H 9H,
    the expert keeps it for the turn it goes out; the advice is the expert's, in words."""
    seen = view("rami-chinois", "7H 8H 9H KS 2C", "3D 4D 5D", opened=True)
    assert solve(seen.position()).cards_played == 3  # what the solver alone would lay
    advice = advise(seen)
    assert advice.text.startswith("Lay nothing this turn: keep your melds in your hand")
    assert advice.moves == () and advice.table == seen.table
    action = advised_action(seen, advice)
    assert isinstance(action, Play) and action.played == ()
    assert _same_turn(action, ExpertBot().act(seen))
    assert validate_turn(seen.position(), action.table, action.played, action.discard).legal
    assert advise(seen, level=1).text == advice.text
    assert advise(seen, language=FRENCH).text.startswith("Ne posez rien ce tour-ci")


def test_an_unopened_player_is_told_to_open_with_the_fewest_cards() -> None:
    seen = view("rami-chinois", "7H 8H 9H TH 4C 4D 4S KS", "-")
    full = solve(seen.position())
    advice = advise(seen)
    action = advised_action(seen, advice)
    assert isinstance(action, Play) and 0 < len(action.played) < full.cards_played
    assert advice.text.startswith("Open with the fewest cards: lay ")
    assert _same_turn(action, ExpertBot().act(seen))
    assert validate_turn(seen.position(), action.table, action.played, action.discard).legal


def test_a_turn_that_goes_out_is_advised_whole() -> None:
    seen = view("rami-chinois", "7H 8H 9H", "3D 4D 5D", opened=True)
    advice = advise(seen)
    action = advised_action(seen, advice)
    assert isinstance(action, Play) and sorted(action.played) == sorted(seen.hand)
    assert "Lay nothing" not in advice.text


def test_near_the_end_of_the_stock_the_whole_turn_is_advised() -> None:
    seen = view("rami-chinois", "7H 8H 9H KS 2C", "3D 4D 5D", opened=True, stock=1)
    action = advised_action(seen, advise(seen))
    assert isinstance(action, Play) and len(action.played) == 3


def test_cafe_rummy_holds_its_melds_and_discards_as_the_expert_does() -> None:
    seen = view("cafe-rummy", "7H 8H 9H KS 2C QD", "-", opened=False)
    advice = advise(seen)
    action = advised_action(seen, advice)
    expert = ExpertBot().act(seen)
    assert isinstance(action, Play) and _same_turn(action, expert)
    assert action.played == () and action.discard is not None
    assert advice.text.startswith(f"Lay nothing and discard {action.discard}")
    assert advice.moves[-1] == f"discard {action.discard} to end your turn"
