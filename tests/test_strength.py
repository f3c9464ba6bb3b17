"""Matches on paired deals, the sequential test, and what the bots do a person can follow
(docs/game.md): rami.game.sprt, rami.game.paired, rami.game.discards, rami.game.fallback,
rami.game.mixed."""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rami.cards import Card, parse_cards
from rami.cli.main import app
from rami.errors import SolverBugError
from rami.game import View, fallback, make_bot
from rami.game.discards import feeds, guarded_discard
from rami.game.levels import bot_turn
from rami.game.mixed import LADDERS, MixedBot
from rami.game.paired import FIXED, Match, play_pair, run_match
from rami.game.presets import GameError, GameOptions
from rami.game.sprt import ACCEPTED, INCONCLUSIVE, MIN_PAIRS, REJECTED, Sprt, elo, interval
from rami.notation import parse_table
from rami.rules import get_ruleset
from rami.solver.api import solve

SPRT = Sprt(0.0, 30.0, 0.05, 0.05)


def test_elo_of_a_score_is_the_logistic_scale() -> None:
    assert elo(0.5) == 0.0
    assert elo(0.75) == pytest.approx(190.85, abs=0.01)
    assert elo(1.0) == math.inf and elo(0.0) == -math.inf


def test_a_sweep_gives_a_finite_lower_bound_not_a_zero_width_interval() -> None:
    swept = interval([1.0] * 100)
    assert swept.elo == math.inf and swept.high == math.inf
    assert 300 < swept.low < 1000  # 100 pairs won of 100: at least this much, not exactly


def test_a_simulated_sweep_has_an_open_bound_not_a_zero_width_interval() -> None:
    """Issue 35: `rami simulate` printed +921.3 [921.3, 921.3] for 100 wins of 100 (rami.game.elo:
    a bootstrap of identical games); now the bound the results leave open is +inf or -inf."""
    from rami.game.elo import game_pairs, ratings
    from rami.game.sprt import format_elo, rounded_elo

    swept = [game_pairs(["beginner", "confirmed"], [(1,), (0,)])] * 100
    _, confirmed = ratings(swept, ["beginner", "confirmed"], seed=3)
    assert confirmed.high == math.inf and 300 < confirmed.low < confirmed.elo
    assert (rounded_elo(confirmed.high), format_elo(rounded_elo(-math.inf))) == ("+inf", "-inf")
    lost = [game_pairs(["beginner", "expert"], [(0,), (1,)])] * 40
    _, expert = ratings(lost, ["expert", "beginner"], seed=3)
    assert expert.low == -math.inf and expert.elo < expert.high < 0
    mixed = [game_pairs(["beginner", "confirmed"], [(k % 3,), (1,)]) for k in range(60)]
    _, even = ratings(mixed, ["beginner", "confirmed"], seed=3)
    assert -math.inf < even.low < even.elo < even.high < math.inf  # both sides won some


def test_interval_narrows_with_more_pairs_and_holds_the_mean() -> None:
    few = interval([0.5, 0.75, 0.25, 1.0, 0.5] * 4)
    many = interval([0.5, 0.75, 0.25, 1.0, 0.5] * 40)
    assert many.half_width < few.half_width
    assert many.low < elo(0.6) < many.high


def test_sprt_rejects_identical_players_and_accepts_a_clear_gain() -> None:
    assert SPRT.verdict([0.5] * (MIN_PAIRS - 1), finished=False) is None
    assert SPRT.verdict([0.5] * MIN_PAIRS, finished=False) is None  # ten ties say little
    assert SPRT.verdict([0.5] * 40, finished=False) == REJECTED
    assert SPRT.verdict([1.0, 0.5, 1.0, 0.75] * 5, finished=False) == ACCEPTED
    assert SPRT.verdict([1.0, 0.0] * 6, finished=True) == INCONCLUSIVE


def test_a_pair_deals_each_side_what_the_other_was_dealt() -> None:
    """Identical players on a paired deal: the two games are mirror images, so the pair
    scores exactly one game of two, whoever the deal favoured."""
    match = Match(
        "rami-chinois", "beginner", "beginner", 1, 7, options=GameOptions(max_rounds=1), mode=FIXED
    ).checked()
    for index in range(4):
        result = play_pair({"match": match.to_json(), "index": index})
        assert result["error"] is None
        assert sum(result["scores"]) == 1.0


def test_three_seats_rotate_the_candidate_through_every_seat() -> None:
    match = Match(
        "rami-51",
        "beginner",
        "beginner",
        1,
        3,
        seats=3,
        options=GameOptions(max_rounds=1),
        mode=FIXED,
    ).checked()
    result = play_pair({"match": match.to_json(), "index": 0})
    assert len(result["scores"]) == 3 and sum(result["scores"]) == pytest.approx(1.5)


def test_a_match_reports_pairs_interval_and_the_pairing_gain() -> None:
    report = run_match(
        Match(
            "rami-chinois",
            "confirmed",
            "beginner",
            4,
            1,
            options=GameOptions(max_rounds=1),
            mode=FIXED,
        )
    )
    assert report["pairs"] == 4 and report["games"] == 8
    assert report["score"] > 0.5 and report["errors"] == [] and report["fallbacks"] == []
    assert report["move_ms"]["confirmed"]["moves"] > 0
    assert report["independent"]["width_ratio"] is not None


def test_rami_match_command_json_and_bad_input() -> None:
    runner = CliRunner()
    done = runner.invoke(
        app, ["match", "beginner", "beginner", "--pairs", "2", "--rounds", "1", "--fixed", "--json"]
    )
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["pairs"] == 2
    bad = runner.invoke(app, ["match", "grandmaster", "beginner"])
    assert bad.exit_code == 2 and "unknown level 'grandmaster'" in bad.output
    same = runner.invoke(app, ["match", "beginner", "beginner", "--elo0", "5", "--elo1", "5"])
    assert same.exit_code == 2 and "must be above H0" in same.output


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (["--elo1", "inf"], "finite numbers of Elo"),
        (["--elo0", "nan"], "finite numbers of Elo"),
        (["--alpha", "nan"], "alpha and beta"),
        (["--seats", "9"], "2 to 4 players, not 9"),
    ],
)
def test_rami_match_bad_input_under_json_is_a_json_error(options: list[str], words: str) -> None:
    """An unbounded hypothesis made an SPRT whose LLR was NaN, printed as `NaN` (not JSON);
    bad input under --json is the JSON error on stdout, exit 2, as everywhere in the CLI."""
    bad = CliRunner().invoke(app, ["match", "expert", "confirmed", *options, "--json"])
    assert bad.exit_code == 2
    error = json.loads(bad.stdout)
    assert error["exit_code"] == 2 and error["error"]["type"] == "GameError"
    assert words in error["error"]["message"]


def test_rami_simulate_bad_input_under_json_is_a_json_error(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "games.jsonl"
    level = runner.invoke(app, ["simulate", "--out", str(out), "--players", "a,b", "--json"])
    assert level.exit_code == 2 and not out.exists()
    assert "unknown bot level 'a'" in json.loads(level.stdout)["error"]["message"]
    for target in ("elo:nan", "elo:1e309"):
        endless = runner.invoke(
            app, ["simulate", "--out", str(out), "--players", f"{target},expert", "--json"]
        )
        assert endless.exit_code == 2
        assert "a target Elo must be finite" in json.loads(endless.stdout)["error"]["message"]
    out.write_text("kept\n")
    kept = runner.invoke(app, ["simulate", "--out", str(out), "--json"])
    assert kept.exit_code == 2 and "use --force" in json.loads(kept.stdout)["error"]["message"]
    assert out.read_text() == "kept\n"


def view(
    rules: str,
    hand: str,
    table: str,
    *,
    opened: tuple[bool, bool] = (True, True),
    sizes: tuple[int, int] | None = None,
) -> View:
    cards = parse_cards(hand)
    return View(
        rules=get_ruleset(rules),
        seat=0,
        phase="play",
        hand=cards,
        table=parse_table(table),
        discard_pile=(),
        stock_size=40,
        hand_sizes=sizes or (len(cards), 1),
        opened=opened,
        active=(True, True),
        known=((), ()),
        scores=(0, 0),
    )


def test_the_guard_keeps_a_card_the_next_player_could_lay_off() -> None:
    """Issue 35's case: 9C beside 9S 9H 9D with the next player opened at one card."""
    seen = view("bfmania-51", "9C KD", "9S 9H 9D")
    hand = Counter(parse_cards("9C KD"))
    assert feeds(Card.parse("9C"), seen.table, seen)
    assert guarded_discard(seen, seen.table, hand, Card.parse("9C"), None) == Card.parse("KD")
    # Not opened: nothing to feed; a cheaper alternative is not taken either.
    closed = view("bfmania-51", "9C KD", "9S 9H 9D", opened=(True, False))
    assert guarded_discard(closed, closed.table, hand, Card.parse("9C"), None) == Card.parse("9C")
    cheap = Counter(parse_cards("9C 2D"))
    assert guarded_discard(seen, seen.table, cheap, Card.parse("9C"), None) == Card.parse("9C")


def test_bot_moves_the_fewest_table_cards_among_its_best_turns() -> None:
    seen = view("rami-chinois", "2S 2D QC", "2H 2D 2C | 3S 4S 5S 6S | 7H 8H 9H TH")
    play = make_bot("confirmed").act(seen)
    best = solve(seen.position(), min_moves=True)
    assert sorted(play.played) == sorted(best.played)
    assert best.cards_moved == 0 and "2S 2H 2D 2C" in {str(m) for m in play.table} | {
        str(m) for m in play.table
    }


def test_a_solver_failure_falls_back_to_the_beginner_and_is_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(*args: object, **kwargs: object) -> object:
        raise SolverBugError("referee refused the answer")

    monkeypatch.setattr("rami.game.bots.timed_solve", broken)
    seen = view("rami-chinois", "AS 2S 3S 9C 9D 9H KH", "-", opened=(False, False))
    before = len(fallback.FAILURES)
    play = make_bot("confirmed").act(seen)
    assert play == make_bot("beginner").act(seen)
    assert len(fallback.FAILURES) == before + 1
    assert "referee refused" in fallback.FAILURES[-1]["error"]


def test_mixed_strength_ends_are_the_beginner_and_the_confirmed_bot() -> None:
    seen = view("rami-chinois", "AS 2S 3S 9C 9D 9H KH 7D", "4S 5S 6S")
    assert MixedBot(1, strength=0.0).act(seen) == make_bot("beginner").act(seen)
    assert MixedBot(1, strength=1.0).act(seen) == make_bot("confirmed").act(seen)
    assert MixedBot(1, strength=2.0).act(seen) == make_bot("expert").act(seen)
    with pytest.raises(GameError, match="between 0 and 2"):
        MixedBot(1, strength=2.5)


def test_above_the_confirmed_bot_the_lot_is_drawn_once_a_round() -> None:
    """Strength 1 to 2 mixes the confirmed bot and the expert by round: the expert's plan (hold
    back until it goes out) is kept over the round, never dropped on one turn."""
    from dataclasses import replace

    bot = MixedBot(3, strength=1.5)
    seen = view("rami-chinois", "AS 2S 3S 9C 9D 9H KH 7D", "4S 5S 6S", opened=(True, True))
    kinds = []
    for number in range(1, 21):
        picks = {
            bot.pick(replace(seen, round=number, turn=turn)) is bot.expert for turn in range(12)
        }
        assert len(picks) == 1
        kinds.append(picks.pop())
    assert 0 < sum(kinds) < len(kinds)


def test_target_elo_levels_are_parsed_and_bad_ones_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pytest.raises(GameError, match="elo:N"):
        make_bot("elo:strong")
    with pytest.raises(GameError, match="finite"):
        make_bot("elo:inf")
    seen = view("cafe-rummy", "AS 2S 3S", "-", opened=(False, False))
    assert bot_turn(seen, "elo:300") is not None  # Café Rummy's ladder is measured
    monkeypatch.delitem(LADDERS, "cafe-rummy")  # a preset whose ladder is not
    with pytest.raises(GameError, match="no measured ladder for cafe-rummy"):
        bot_turn(seen, "elo:300")


def test_a_hint_the_solver_fails_on_says_so_and_the_game_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from rami.game.human import hint_text

    def broken(*args: object, **kwargs: object) -> object:
        raise SolverBugError("referee refused the answer")

    monkeypatch.setattr("rami.solver.api.solve", broken)
    before = len(fallback.FAILURES)
    text = hint_text(view("rami-chinois", "AS 2S 3S", "-", opened=(False, False)), 1)
    assert "No hint this time" in text and "game goes on" in text
    assert fallback.FAILURES[-1]["level"] == "hint" and len(fallback.FAILURES) == before + 1


def test_the_level_menu_says_how_the_expert_plays_where_nothing_is_discarded() -> None:
    from rami.game.levels import level_note

    assert "keeps its melds in the hand" in (
        level_note("expert", get_ruleset("rami-chinois")) or ""
    )
    assert level_note("expert", get_ruleset("bfmania-51")) is None
    for held in ("cafe-rummy", "bfmania-30"):  # a discard, a table never rearranged
        note = level_note("expert", get_ruleset(held)) or ""
        assert note.startswith(
            f"in {held} the expert keeps its melds in the hand until it can "
            "go out in one turn, unless a player is down to 3 cards"
        ), note
    assert level_note("confirmed", get_ruleset("cafe-rummy")) is None
    assert level_note("confirmed", get_ruleset("rami-chinois")) is None
    played = CliRunner().invoke(
        app, ["play", "--rules", "rummikub", "--vs", "expert", "--seed", "3"], input="quit\n"
    )
    assert "Note: in rummikub the expert opens with as few cards" in played.output


def test_a_mixed_bot_draws_and_plays_a_turn_as_the_same_bot() -> None:
    """Found by play as a fuzzer (rami-51, 10,000 turns): the confirmed bot took a discard and
    the beginner played the turn without laying it (decision 10). One lot a turn now."""
    from dataclasses import replace

    bot = MixedBot(5, strength=0.5)
    seen = view("rami-51", "JS QS 9S TS 3S 7H", "4S 5S 6S 7S")
    picks = set()
    for turn in range(40):
        drawing = replace(seen, phase="draw", turn=turn, draws=("stock", "discard"))
        playing = replace(seen, phase="play", turn=turn)
        assert bot.pick(drawing) is bot.pick(playing)
        picks.add(bot.pick(playing) is bot.strong)
    assert picks == {True, False}


def test_a_target_elo_without_a_ladder_is_refused_before_the_game_starts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A session, a match and the level check refuse elo:N where no ladder was measured,
    before any bot plays (the bot's first turn may come after the person's)."""
    from rami.game.levels import check_level
    from rami.game.paired import Match
    from rami.game.session import GameSession

    assert GameSession("bfmania-30", ["elo:500"], 0).levels == ("elo:500",)
    monkeypatch.delitem(LADDERS, "bfmania-30")  # as if its ladder were not measured
    with pytest.raises(GameError, match="no measured ladder for bfmania-30"):
        GameSession("bfmania-30", ["elo:500"], 0)
    with pytest.raises(GameError, match="no measured ladder for bfmania-30"):
        Match("bfmania-30", "elo:500", "confirmed", 10, 1).checked()
    with pytest.raises(GameError, match="unknown bot level 'grandmaster'"):
        check_level("grandmaster", get_ruleset("rami-chinois"))
    check_level("elo:500", get_ruleset("rami-chinois"))
    assert GameSession("rami-chinois", ["elo:500"], 0).levels == ("elo:500",)


def test_the_rami_chinois_ladder_reaches_above_the_confirmed_bot() -> None:
    """docs/game.md "Measured": a target Elo above the confirmed bot's mixes in the expert by
    round; the ladder's top point caps it (the expert has no finite Elo)."""
    from rami.game.mixed import strength_for

    assert strength_for("rami-chinois", 876) == pytest.approx(1.0)
    assert strength_for("rami-chinois", 1074) == pytest.approx(1.5)
    assert 1.5 < strength_for("rami-chinois", 1200) < 1.8
    assert strength_for("rami-chinois", 5000) == pytest.approx(1.8)
    assert strength_for("rami-chinois", -50) == 0.0
