"""Known answers of the lay-off solver (rami.solver.layoff) for the presets without rearrangement,
from each seed's own examples: bfmania-51 / bfmania-30 (seed 001), cafe-rummy (seed 002) and
rami-51 (seed 004).

Each test names its source. Every answer is also checked here by the referee (the solver already
does so before returning it).
"""

from __future__ import annotations

from collections import Counter

from support.checks import checked_solve as solved
from support.layoff_answers import cards, melds, result

from rami import solve
from rami.cards import JOKER, parse_cards
from rami.melds import opening_points
from rami.notation import parse_position
from rami.position import hand_penalty
from rami.rules import get_ruleset

# --- Seed 001: BFmania, rami 51 and rami 30 ------------------------------------------------------


def test_bfmania_51_seed_example_opens_with_59_points():
    """Seed 001, "Rami 51": "le 9, le 10 et le valet de cœur (29 points) avec un brelan de dames
    (30 points) font 59 points : la première pose est permise"."""
    solution = solved("- / 9H TH JH QS QD QC 2C 5D / bfmania-51")
    assert solution.opened and sorted(melds(solution)) == ["9H TH JH", "QS QD QC"]
    assert sum(opening_points(meld, solution.position.rules) for meld in solution.table) == 59
    assert result(solution) == (2, 6, "5D")  # the discard keeps the 2C: least penalty left
    # Without the third queen the run alone makes 29: no opening, nothing is laid.
    short = solved("- / 9H TH JH QS QD 2C 5D / bfmania-51")
    assert not short.opened and short.played == () and short.table == ()
    assert short.penalty_after == 9 + 10 + 10 + 10 + 10 + 2 + 5 - 10  # a 10-point card goes


def test_bfmania_30_three_kings_joker_included():
    """Seed 001, "Rami 30": "un brelan seul peut suffire, joker compris, comme trois rois
    (30 points)"; rami 51 needs 51 points and a pure run, so the same hand does not open."""
    solution = solved("- / KS KH * 2C 3C / bfmania-30")
    assert solution.opened and melds(solution) == ["KS KH *"]
    assert result(solution) == (2, 3, "3C")
    closed = solved("- / KS KH * 2C 3C / bfmania-51")
    assert not closed.opened and closed.played == ()
    assert closed.discard == JOKER and closed.penalty_after == 10 + 10 + 2 + 3


def test_bfmania_penalty_seed_example_48():
    """Seed 001, "La fin de la manche": a joker, an ace, a king and a 7 left count 20 + 11 + 10
    + 7 = 48; the solver discards the costliest card that ends the turn (the joker)."""
    rules = get_ruleset("bfmania-51")
    assert hand_penalty(parse_cards("* AH KD 7C"), rules) == 48
    solution = solved("- / * AH KD 7C / bfmania-51")
    assert solution.penalty_before == 48
    assert result(solution) == (28, 0, "*")


def test_bfmania_joker_swap_goes_to_the_hand_and_may_be_played_again():
    """Seed 001, "Reprendre un joker": "Il suffit de poser à sa place la vraie carte qu'il
    remplace ... Le joker repris va dans votre main, et vous pourrez le rejouer." Here it is
    played again at once, in a new meld of two real cards and the joker."""
    solution = solved("5D * 7D / 6D 9S 9H 2C / bfmania-51 opened")
    assert melds(solution) == ["5D 6D 7D", "9S 9H *"]
    assert result(solution) == (0, 3, "2C") and solution.hand == ()
    assert solution.cards_moved == 1  # the joker left its meld (decision 7)
    assert solution.moves[0].kind == "swap" and "goes to your hand" in solution.moves[0].text
    assert solution.moves[-1].kind == "discard"


def test_bfmania_swapped_joker_laid_back_in_its_meld_moves_nothing():
    """docs/rules.md decision 6: among equal penalty and cards played, the fewest cards moved; a
    joker
    swapped out and laid again on the same meld ends where it was (decision 7: nothing moved)."""
    solution = solved("5D * 7D | 9S 9H 9C / 6D 2C KD / bfmania-51 opened")
    assert result(solution) == (2, 1, "KD")
    assert solution.cards_moved == 0
    assert melds(solution)[1] == "9S 9H 9C"
    assert Counter(solution.table[0].cards)[JOKER] == 1
    # Going out by laying the last card, the swapped joker included.
    out = solved("5D * 7D / 6D / bfmania-51 opened")
    assert out.hand == () and out.penalty_after == 0 and out.played == cards("6D")


def test_bfmania_no_lay_off_or_swap_before_opening():
    """Seed 001: "Tant que vous n'avez pas fait votre première pose, vous ne pouvez ni compléter
    les combinaisons de la table, ni reprendre un joker" (docs/rules.md decision 4)."""
    solution = solved("5D * 7D | 2H 3H 4H / 6D 5H 9C / bfmania-30")
    assert solution.played == () and not solution.opened
    assert result(solution) == (11, 0, "9C")
    # Once the opening melds are down the player has opened and may lay off in the same turn
    # (decision 4, revised): TH goes on 7H 8H 9H, 2C is discarded.
    opening = solved("7H 8H 9H / KS KH KD TH 2C / bfmania-30")
    assert opening.opened and melds(opening) == ["7H 8H 9H TH", "KS KH KD"]
    assert result(opening) == (0, 4, "2C")
    assert [move.kind for move in opening.moves] == ["lay", "add", "discard"]


def test_bfmania_a_meld_keeps_two_real_cards():
    """Seed 001: "Une combinaison doit toutefois garder au moins deux vraies cartes" (docs/rules.md
    row "real cards per meld": >= 2), against rami 51's >= 1."""
    bfmania = solved("- / 7H * * 2C / bfmania-51 opened")
    assert bfmania.played == () and result(bfmania) == (20 + 7 + 2, 0, "*")
    rami_51 = solved("- / 7H * * 2C / rami-51 opened")  # 7H * * or set: 2C * *
    assert result(rami_51)[:2] == (0, 3) and len(rami_51.table[0].real_cards) == 1
    # Laid off, a joker may leave a run with two real cards (not so in Café Rummy).
    grown = solved("5D 6D * * / * 2C / bfmania-51 opened")
    assert grown.table[0].jokers == 3 and result(grown) == (0, 1, "2C")


def test_bfmania_goes_out_by_laying_the_last_card():
    """Seed 001: "Le joueur qui n'a plus de carte termine la manche, en posant sa dernière carte
    ou en la défaussant" (docs/rules.md row "going out": place or discard); rami 51 and Café Rummy
    keep one card for the discard (seeds 004 and 002)."""
    bfmania = solved("5D 6D 7D / 8D 9D TD / bfmania-51 opened")
    assert result(bfmania) == (0, 3, None) and bfmania.hand == ()  # laid off, or a new run
    for preset in ("rami-51", "cafe-rummy"):
        other = solved(f"5D 6D 7D / 8D 9D TD / {preset} opened")
        assert melds(other) == ["5D 6D 7D 8D 9D"] and result(other) == (0, 2, "TD")
    # A new meld of the whole hand: BFmania lays it, rami 51 cannot keep a card to discard.
    assert result(solved("- / 5D 6D 7D / bfmania-51 opened")) == (0, 3, None)
    assert result(solved("- / 5D 6D 7D / rami-51 opened")) == (11, 0, "7D")


def test_taken_discard_goes_back_only_as_the_last_card():
    """Seed 001: "La carte que vous venez de prendre sur la défausse ne se rejette pas dans le
    même tour, sauf si c'est la dernière carte de votre main" (docs/rules.md decision 8)."""
    free = solved("- / 4C 5C 6C 9H KD / bfmania-30 opened")
    assert result(free) == (9, 3, "KD")
    locked = solved("- / 4C 5C 6C 9H KD / bfmania-30 opened discard=KD")
    assert result(locked) == (10, 3, "9H")
    last = solved("7H 8H 9H / TH KD / bfmania-51 opened discard=KD")
    assert result(last) == (0, 1, "KD") and last.hand == ()
    # With two copies in hand, neither may go: identical copies are interchangeable, so the lock
    # covers the twin (decision 8, revised).
    two = solved("- / 4C 5C 6C KD KD 2S / cafe-rummy opened discard=KD")
    assert result(two) == (20, 3, "2S")
    twin = solved("7H 8H 9H / KC KC 2C / bfmania-51 opened discard=KC")
    assert result(twin) == (20, 0, "2C")


def test_lay_off_makes_q_k_a_and_a_2_3_never_k_a_2():
    """Seeds 001/002/004: the ace goes below the 2 or above the king, never both, no wrap
    (docs/rules.md "Run"); a lay-off turns J-Q-K into J-Q-K-A and 2-3-4 into A-2-3-4."""
    solution = solved("JH QH KH | 2S 3S 4S / AH AS 9D / rami-51 opened")
    assert melds(solution) == ["JH QH KH AH", "AS 2S 3S 4S"]
    assert result(solution) == (0, 2, "9D")
    wrap = solved("AH 2H 3H / KH 2C / rami-51 opened")
    assert wrap.played == () and result(wrap) == (2, 0, "KH")
    # A 12-card run takes one ace, at either end, never both (13 cards at most).
    long = solved("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH / AH AH 5C / bfmania-30 opened")
    assert len(long.table[0]) == 13 and result(long) == (5, 1, "AH")


# --- Seed 002: Café Rummy -------------------------------------------------------------------------


def test_cafe_joker_swap_after_opening_laid_again_the_same_turn():
    """Seed 002: "il faut avoir déjà ouvert, et le joker récupéré doit être reposé dans une
    combinaison pendant le même tour, avant de défausser" (docs/rules.md row "joker on the
    table")."""
    solution = solved("8S 9S * / TS 2C KD / cafe-rummy opened")
    assert solution.table[0].real_cards == cards("8S 9S TS")
    assert solution.table[0].jokers == 1  # laid again at an end of the same run
    assert result(solution) == (2, 1, "KD") and JOKER not in solution.hand
    assert "lay the joker again this turn" in solution.moves[0].text
    # Not opened: no swap (and nothing in this hand opens).
    closed = solved("8S 9S * / TS 2C KD / cafe-rummy")
    assert closed.played == () and closed.penalty_after == 12


def test_cafe_swapped_joker_is_never_the_final_discard():
    """Seed 002: "un joker qu'on vient de récupérer sur la table ne peut pas servir à cette
    défausse finale : il doit être rejoué dans une combinaison". Swapping the 6D would leave
    nothing to discard; the player goes out by discarding the 6D instead. BFmania may swap."""
    cafe = solved("5D * 7D / 6D / cafe-rummy opened")
    assert cafe.played == () and result(cafe) == (0, 0, "6D")
    assert melds(cafe) == ["5D * 7D"]
    bfmania = solved("5D * 7D / 6D / bfmania-51 opened")
    assert bfmania.played == cards("6D") and bfmania.penalty_after == 0


def test_cafe_never_discards_a_joker_except_as_the_last_card():
    """Seed 002: "un joker ne se défausse que comme dernière carte pour gagner la manche. À aucun
    autre moment." BFmania discards it (seed 001 sets no such rule)."""
    cafe = solved("9S 9H 9D 9C / * KS 2C / cafe-rummy opened")
    assert result(cafe) == (25 + 2, 0, "KS")
    bfmania = solved("9S 9H 9D 9C / * KS 2C / bfmania-51 opened")
    assert result(bfmania) == (10 + 2, 0, "*")
    last = solved("9S 9H 9D 9C / * / cafe-rummy opened")
    assert result(last) == (0, 0, "*")


def test_cafe_naturals_at_least_jokers():
    """Seed 002: "chaque combinaison contient au moins deux cartes naturelles et au moins autant
    de cartes naturelles que de jokers. Deux cartes et un joker, oui. Une carte et deux jokers,
    non." On new melds and on melds grown by lay-offs."""
    two_and_one = solved("- / 7H 8H * 2C / cafe-rummy opened")
    assert two_and_one.table[0].real_cards == cards("7H 8H")
    assert result(two_and_one) == (0, 3, "2C")
    one_and_two = solved("- / 7H * * 2C / cafe-rummy opened")
    assert one_and_two.played == () and result(one_and_two) == (25 + 25 + 2, 0, "7H")
    grown = solved("5D 6D * * / * 2C / cafe-rummy opened")  # a third joker: 2 naturals < 3
    assert grown.played == () and result(grown) == (25, 0, "2C")


def test_cafe_opening_any_one_meld_even_a_set_of_twos():
    """Seed 002: "Une seule combinaison valide suffit pour ouvrir, même un brelan de 2"."""
    solution = solved("- / 2S 2H 2D 9C KC / cafe-rummy")
    assert solution.opened and melds(solution) == ["2S 2H 2D"]
    assert result(solution) == (9, 3, "KC")


def test_cafe_seed_going_out_example():
    """Seed 002: "Il vous reste 4♣ 5♣ 6♣ 9♥. Vous posez la suite de trèfle, puis vous défaussez
    le 9♥. Main vide, manche gagnée." """
    solution = solved("- / 4C 5C 6C 9H / cafe-rummy opened")
    assert melds(solution) == ["4C 5C 6C"] and result(solution) == (0, 3, "9H")
    assert solution.hand == () and "you go out" in solution.moves[-1].text


def test_cafe_lay_off_examples():
    """Seed 002: "le 4♦ ou le 8♦ sur 5♦ 6♦ 7♦ ; le quatrième 9 sur un brelan de 9, s'il manque
    cette couleur" (a second 9S never joins: docs/rules.md "Set")."""
    solution = solved("5D 6D 7D | 9S 9H 9C / 4D 8D 9D 9S KC / cafe-rummy opened")
    assert solution.table[0].cards[:5] == cards("4D 5D 6D 7D 8D")  # the 9D may follow the 8D
    assert solution.played == cards("4D 8D 9D") and result(solution) == (9, 3, "KC")
    set_of_9 = solved("9S 9H 9C / 9D 9S KC / cafe-rummy opened")
    assert sorted(set_of_9.table[0].cards) == sorted(cards("9S 9H 9C 9D"))
    assert result(set_of_9) == (9, 1, "KC")


def test_cafe_penalties():
    """Seed 002: "R♠ D♥ V♣ A♦, c'est déjà 41 points"; a joker left in hand counts 25 (20 in
    BFmania and rami 51: docs/rules.md row "hand penalty")."""
    assert solved("- / KS QH JC AD / cafe-rummy").penalty_before == 41
    assert solved("- / KS QH JC AD * / cafe-rummy").penalty_before == 66
    assert solved("- / KS QH JC AD * / bfmania-30").penalty_before == 61


# --- Seed 004: rami 51 ----------------------------------------------------------------------------


def test_rami_51_opening_51_points_with_a_pure_run():
    """Seed 004: "vos combinaisons doivent totaliser au moins 51 points ... au moins une suite
    franche"; "11 points dans une suite Dame-Roi-As", "1 point dans une suite As-2-3"."""
    solution = solved("- / QH KH AH TS TD TC 2C / rami-51")
    assert solution.opened and result(solution) == (0, 6, "2C")  # 31 + 30 = 61
    low_ace = solved("- / AH 2H 3H TS TD TC 2C / rami-51")  # 6 + 30 = 36
    assert not low_ace.opened and low_ace.played == () and low_ace.penalty_after == 100
    no_pure_run = solved("- / QH * AH TS TD TC 2C / rami-51")
    assert not no_pure_run.opened and no_pure_run.penalty_after == 100


def test_rami_51_flat_100_when_not_opened():
    """Seed 004: "Un joueur n'ayant pas réussi à ouvrir subit une pénalité forfaitaire de 100
    points" (docs/rules.md row "not opened at round end"); BFmania counts the hand."""
    rami_51 = solved("- / 2C 3D 5H / rami-51")
    assert rami_51.penalty_before == 100 and rami_51.penalty_after == 100
    assert "not opened" in rami_51.message
    bfmania = solved("- / 2C 3D 5H / bfmania-51")
    assert bfmania.penalty_before == 10 and result(bfmania) == (5, 0, "5H")


def test_rami_51_jokers_stay_on_the_table():
    """docs/rules.md row "joker on the table": rami 51, stays; BFmania, swapped to the hand."""
    rami_51 = solved("5D * 7D / 6D 2C / rami-51 opened")
    assert rami_51.played == () and result(rami_51) == (2, 0, "6D")
    bfmania = solved("5D * 7D / 6D 2C / bfmania-51 opened")
    assert bfmania.penalty_after == 0 and bfmania.hand == ()


def test_rami_51_lays_off_only_never_rearranges():
    """docs/rules.md row "table rearrangement after opening": rami 51 lays off only; the 7H at the
    end
    of the run may not leave it for a set (rami chinois would)."""
    solution = solved("4H 5H 6H 7H / 7S 7D 2C / rami-51 opened")
    assert solution.played == () and melds(solution) == ["4H 5H 6H 7H"]
    assert solution.penalty_after == 9 and solution.discard in cards("7S 7D")
    chinois = solve(parse_position("4H 5H 6H 7H / 7S 7D 2C / rami-chinois opened"))
    assert chinois.cards_played == 2


def test_rami_51_fourteen_cards_dealt_then_a_draw():
    """Seed 004: "chaque joueur reçoit 14 cartes" (docs/rules.md row "cards dealt"): 15 cards after
    the draw solve like any hand."""
    solution = solved("- / QH KH AH TS TD TC 5S 6S 7S 8S KD KC 2C 3D 4H / rami-51")
    assert solution.opened and solution.penalty_after == 10 + 2 + 3 + 4
