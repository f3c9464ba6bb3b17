"""The phrase book in English: every sentence and word rami says to a person, by key
(:mod:`rami.phrasebook`; the French book, :mod:`rami.phrasebook.fr`, has the same keys and
the same fields)."""

from __future__ import annotations

from rami.phrasebook.en_play import BOOK as PLAY

BOOK: dict[str, str] = {
    # The solver's sentences about a turn: its moves and its notes (rami.phrases).
    "solver.lay": "lay {cards} from your hand as meld {target}",
    "solver.add": "add {cards} from your hand to meld {target}",
    "solver.split": "split {run} (meld {source}) after {cut}: {piece} becomes meld {target}",
    "solver.move": "move {cards} from meld {source} to meld {target}",
    "solver.slide_joker": "in meld {target}, slide the joker to stand for {now} (not {was})",
    "solver.slide_jokers": "in meld {target}, slide the jokers to stand for {now} (not {was})",
    "solver.replace_joker": "put {card} from your hand in place of the joker in meld {target}",
    "solver.swap_to_hand": (
        "put {card} in place of the joker in meld {target}: the joker goes to your hand"
    ),
    "solver.swap_and_relay": (
        "put {card} in place of the joker in meld {target}: lay the joker again this turn"
    ),
    "solver.discard": "discard {card} to end your turn",
    "solver.discard_going_out": "discard {card}: your hand is empty, you go out",
    "solver.empty_hand": "the hand is empty",
    "solver.no_pure_run": "no opening possible: the hand holds no pure run (3+ in a row, no joker)",
    "solver.no_opening_points_pure": (
        "no opening possible: the hand cannot make {points} points of melds with a pure run"
    ),
    "solver.no_opening_points": (
        "no opening possible: the hand cannot make {points} points of melds"
    ),
    "solver.not_opening": "the hand could open but does not this turn",
    "solver.nothing_playable": "no card of the hand can be played",
    "solver.nothing_in_time": "no play found within the time limit",
    # The fixed words of rami solve's report and the hints (rami.phrases.word).
    "word.status": "Status",
    "word.optimal": "optimal",
    "word.feasible": "feasible",
    "word.objective": "objective",
    "word.points": "points",
    "word.cards": "cards",
    "word.not minimised": "cards moved not minimised",
    "word.not proved": "Not proved optimal: the time limit stopped the search.",
    "word.bounds": "Proved bounds",
    "word.note": "Note",
    "word.new table": "New table",
    "word.empty": "(empty)",
    "word.played": "Cards played",
    "word.hand left": "Hand left",
    "word.penalty": "Penalty",
    "word.opens": "Opens this turn.",
    "word.moved": "Cards moved",
    "word.moves": "Moves",
    "word.no move": "(none: nothing can be played)",
    "word.key move": "Key move",
    # The review's grades as a person reads them (rami.review).
    "grade.best": "best",
    "grade.good": "good",
    "grade.inaccuracy": "inaccuracy",
    "grade.mistake": "mistake",
    "grade.blunder": "blunder",
    # The advice at a game's decisions (rami.game.advice_text).
    "advice.stock only": "Draw from the stock: it is the only place to draw from now.",
    "advice.take lays": "Take {card} from the discard pile: you can lay it this turn, in {meld}.",
    "advice.take builds": (
        "Take {card} from the discard pile: it completes a meld in your hand towards your opening."
    ),
    "advice.stock useless": (
        "Draw from the stock: {card} makes no meld with your hand or the table."
    ),
    "advice.stock stuck": (
        "Draw from the stock: after taking {card} you could not end your turn (a card taken "
        "from the discard pile may not be discarded in the same turn)."
    ),
    "advice.stock not laid": "Draw from the stock: {card} cannot be laid this turn.",
    "advice.stock no meld yet": (
        "Draw from the stock: {card} cannot be laid this turn, and it completes no meld in "
        "your hand towards your opening."
    ),
    "advice.stock not in opening": (
        "Draw from the stock: {card} cannot be laid in your opening this turn, and a card "
        "taken from the discard pile must be."
    ),
    "advice.stock no gain": (
        "Draw from the stock: laying {card} would not leave you fewer points than a card from "
        "the stock."
    ),
    "advice.claim": (
        "Claim {card}: with it and the penalty card your hand is worth more than waiting for "
        "your turn."
    ),
    "advice.claim lays": (
        "Claim {card}: with it and the penalty card your hand is worth more than waiting for "
        "your turn; you can lay it in {meld}."
    ),
    "advice.pass empty stock": "Pass: the stock is empty, there is no penalty card to take.",
    "advice.pass useless": "Pass: {card} makes no meld with your hand or the table.",
    "advice.pass no gain": (
        "Pass: {card} and a penalty card would leave you worse off than waiting for your turn."
    ),
    "advice.best turn": "Your best turn ({count}):",
    "advice.why out": "{card} is your last card: you go out.",
    "advice.why dead": "{card}: no card still unseen would make a meld with it.",
    "advice.why alone": "{card}: it makes no meld with your other cards.",
    "advice.why fewest": (
        "{card}: of the cards you may let go, the fewest unseen cards would complete it."
    ),
    "advice.why guarded": "{card}: {other} would let the next player lay it.",
    "advice.why only": "{card}: the only card you may let go.",
    "advice.jokers only": "Discard {card}: your hand holds jokers only, and no meld can take them.",
    "advice.from start": (
        "Your moves so far do not lead to a turn the rules accept: this hint starts from the "
        "start of your turn ('undo' to get back there)."
    ),
    "advice.no hint": (
        "No hint this time (an internal error, logged for a report). Your game goes on."
    ),
    "advice.cannot follow": (
        "you could not end your turn after taking {card} (a card taken from the discard pile "
        "may not be discarded in the same turn): draw from the stock"
    ),
    "advice.cannot lay": (
        "you could not lay {card} this turn, and a card taken from the discard pile must be "
        "laid in the same turn: draw from the stock"
    ),
    "advice.cannot lay opening": (
        "you could not lay {card} in your opening this turn, and a card taken from the discard "
        "pile must be laid in the same turn, in the opening: draw from the stock"
    ),
    "advice.must lay": "you must lay {card} this turn",
    "advice.must lay opening": "you must lay {card} this turn, in your opening",
    "advice.hold": (
        "Lay nothing this turn: keep your melds in your hand until you can go out in one turn. "
        "Laid now, they give the others cards to rearrange; kept, they can all go down in the "
        "turn you go out."
    ),
    "advice.open small": (
        "Open with the fewest cards: lay {cards} and keep your other melds in your hand until "
        "you can go out in one turn (laid now, they give the others cards to rearrange)."
    ),
    "advice.hold discard": (
        "Lay nothing and discard {card}: keep your melds in your hand until you can go out in "
        "one turn (laid now, they give the others cards to lay off and jokers to take)."
    ),
    "advice.a-joker": "a joker",
    # The puzzles' goal and the verdicts on an answer (rami.puzzles.words).
    "puzzle.goal-one": "Play the only card of your hand.",
    "puzzle.goal-all": "Play all {played} cards of your hand.",
    "puzzle.goal-shed": (
        "Your hand cannot be emptied: shed as many points as you can (the best play leaves "
        "{points} in hand)."
    ),
    "puzzle.short-all": (
        "legal, but it plays {count} of {cards}: the goal is to play them all (left: {left})"
    ),
    "puzzle.short-one": (
        "legal, but it plays {count} of {cards}: the goal is to play it (left: {left})"
    ),
    "puzzle.too-many-points": "legal, but it leaves {points} in hand: the best play leaves {goal}",
    "puzzle.solved-intended": "solved: this is the intended solution",
    "puzzle.solved-other": "solved, by another route than the intended solution (it still counts)",
    # Each puzzle theme's name and sentence (rami.puzzles.themes, rami.puzzles.words).
    "theme-name.all-cards": "all-cards",
    "theme.all-cards": "The hand is emptied: every card is played.",
    "theme-name.best-score": "best-score",
    "theme.best-score": "The hand cannot be emptied: shed the most points.",
    "theme-name.joker-swap": "joker-swap",
    "theme.joker-swap": "A hand card takes a joker's place.",
    "theme-name.joker-freed": "joker-freed",
    "theme.joker-freed": "A joker of the table leaves its meld.",
    "theme-name.joker-from-hand": "joker-from-hand",
    "theme.joker-from-hand": "A joker is played from the hand.",
    "theme-name.no-joker": "no-joker",
    "theme.no-joker": "No joker on the table or in the hand.",
    "theme-name.borrow-from-set": "borrow-from-set",
    "theme.borrow-from-set": "A card is taken from a set of four, which stays a set.",
    "theme-name.borrow-from-run": "borrow-from-run",
    "theme.borrow-from-run": "One or two end cards are taken from a run, which stays a run.",
    "theme-name.split-run": "split-run",
    "theme.split-run": "A run is cut in two.",
    "theme-name.merge-runs": "merge-runs",
    "theme.merge-runs": "Two runs of the table are joined into one.",
    "theme-name.set-to-runs": "set-to-runs",
    "theme.set-to-runs": "A set is broken up: two or more of its cards go into runs.",
    "theme-name.run-to-sets": "run-to-sets",
    "theme.run-to-sets": "Two or more cards of a run go into sets.",
    "theme-name.ace-high": "ace-high",
    "theme.ace-high": "A run through Q-K-A (the ace above the king) is built or changed.",
    "theme-name.long-run": "long-run",
    "theme.long-run": "A run of {long} cards or more is built or changed.",
    "theme-name.twin-cards": "twin-cards",
    "theme.twin-cards": "Both copies of a card (two decks) are played.",
    # The game log as the table sees it, person and bot apart (rami.game.session_text).
    "log.you": "You",
    "log.and": " and ",
    "log.nobody": "nobody",
    "log.a-card": "a card",
    "log.deal.person": "Round {number}: You play first.",
    "log.deal.bot": "Round {number}: {who} plays first.",
    "log.game-over.person": "Game over: {winners} win.",
    "log.game-over.several": "Game over: {winners} win.",
    "log.game-over.one": "Game over: {winners} wins.",
    "log.reshuffle": (
        "The discard pile (less its top) is shuffled into a new stock of {size} cards."
    ),
    "log.claim.person": "{who} claim {card} and take a penalty card{penalty}.",
    "log.claim.bot": "{who} claims {card} and takes a penalty card{penalty}.",
    "log.draw-discard.person": "{who} draw {card} from the discard pile.",
    "log.draw-discard.bot": "{who} draws {card} from the discard pile.",
    "log.draw-stock.person": "{who} draw {card} from the stock.",
    "log.draw-stock.bot": "{who} draws {card} from the stock.",
    "log.lay.person": "{who} lay {cards}",
    "log.lay.bot": "{who} lays {cards}",
    "log.lay-nothing.person": "{who} lay nothing",
    "log.lay-nothing.bot": "{who} lays nothing",
    "log.discard.person": ", discard {card}",
    "log.discard.bot": ", discards {card}",
    "log.rearranged": " (the table rearranged)",
    "log.left.one": " ({count} card left).",
    "log.left.many": " ({count} cards left).",
    "log.round-over": "Round {round} over: {reason}; won by {winners}. Scores {scores}.",
    "log.reason.out": "a player went out",
    "log.reason.stock": "the stock ran out",
    "log.reason.cap": "the turn cap was reached",
    "log.reason.blocked": "nobody could play",
    "log.reason.turn-limit": "the engine's turn limit was reached",
    "level.beginner": "beginner",
    "level.intermediate": "intermediate",
    "level.confirmed": "confirmed",
    "level.lookahead": "lookahead",
    # A turn's review as a person reads it (rami.review).
    "review.illegal": "Illegal turn:",
    "review.grade": "Grade: {grade} ({lost})",
    "review.row": "{label}: {mine} (best {best})",
    "review.penalty-left": "Penalty left",
    "review.cards-played": "Cards played",
    "review.cards-moved": "Cards moved",
    "review.missed": "Missed: {move}",
    "review.not-proved": "The best turn was not proved optimal within the time limit.",
    "review.best-turn": "Best turn ({moves}):",
    "review.better.one": "{count} point better than the best found",
    "review.better.many": "{count} points better than the best found",
    "review.no-loss": "no point lost",
    "review.lost.one": "{count} point lost",
    "review.lost.many": "{count} points lost",
    # A whole game's review (rami.review.game).
    "game-review.header.one": "{label}: {count} turns reviewed",
    "game-review.header.many": "{label}: {count} turns reviewed",
    "game-review.turn": "  round {round}, turn {turn}, seat {seat}: {grade}",
    "game-review.turn-lost.one": " ({count} points lost)",
    "game-review.turn-lost.many": " ({count} points lost)",
    "game-review.missed": "; missed: {move}",
    "game-review.player": (
        "  seat {seat} ({name}): accuracy {accuracy}%, {lost} over {turns}{grades}"
    ),
    "game-review.player-lost.one": "{count} points lost",
    "game-review.player-lost.many": "{count} points lost",
    "game-review.turns.one": "{count} turns",
    "game-review.turns.many": "{count} turns",
    "game-review.grades": ": {grades}",
    # How many answers rami solve --top found, and why not more (rami.solver.alternatives).
    "top.exhausted-none": "only 0 distinct answers exist, all listed (asked for {top})",
    "top.exhausted-one": "only 1 distinct answer exist (asked for {top})",
    "top.exhausted-many": "only {found} distinct answers exist, all listed (asked for {top})",
    "top.stopped.one": "{count} of {top} answers found before the time limit",
    "top.stopped.many": "{count} of {top} answers found before the time limit",
    "top.best.one": "the 1 best answer",
    "top.best.many": "the {count} best answers",
    "top.answers": "Answers:",
    "top.answer": "Answer {rank} of {count}: {left}, {played}, {moved}",
    "top.left.one": "{count} points left",
    "top.left.many": "{count} points left",
    "top.played.one": "{count} card played",
    "top.played.many": "{count} cards played",
    "top.moved.one": "{count} moved",
    "top.moved.many": "{count} moved",
    # The one-line note on a turn (rami.phrases.turn_note).
    "note.goes-out-discard": "goes out: {played} of {total} played, discard {card}",
    "note.goes-out-laid": "goes out: {played} of {total} played, the last card laid",
    "note.only-card": "the only card played",
    "note.all-cards": "all {total} cards played",
    "note.played": "{played} of {total} played",
    "note.played-count.one": "{count}",
    "note.played-count.many": "{count}",
    "note.total.one": "{count} card",
    "note.total.many": "{count} cards",
    "note.flat": "not opened: flat {penalty}",
    "note.left.one": "{count} points left",
    "note.left.many": "{count} points left",
    "note.discard": "discard {card}",
    # A move said of another player, and a turn's discard line (rami.game.turn_text).
    "turn.from-your-hand": " from your hand",
    "turn.your-hand": "your hand",
    "turn.their-hand": "their hand",
    "turn.discard": "discard {card}",
    # The hints' headings and level 1, what the best turn achieves (rami.hints).
    "hint.none": "none",
    "hint.heading": "{text}:",
    "hint.cannot-open": "You cannot open this turn.",
    "hint.nothing-playable": "No card can be played this turn.",
    "hint.all-cards": "play all {played} cards",
    "hint.only-card": "play your only card",
    "hint.go-out": "go out: play {played} and discard the last one",
    "hint.by-cards": "play {played} of {in_hand} (shedding {points})",
    "hint.by-points": "shed {points} (play {played} of {in_hand})",
    "hint.you-can": "You can {phrase}.",
    "hint.you-can-open": "You can open and {phrase}.",
    # What a player choosing a level should know in a preset (rami.game.levels).
    "level-note.holds-back": (
        "in {rules} the expert opens with as few cards as it can and keeps its melds in the "
        "hand until it can go out in one turn"
    ),
    "level-note.holds-melds": (
        "in {rules} the expert keeps its melds in the hand until it can go out in one turn, "
        "unless a player is down to {cards} cards or fewer"
    ),
    "level-note.lookahead": (
        "the lookahead plays the expert's turn unless, played on over a few random deals of "
        "the cards it cannot see, laying more or less does clearly better; it thinks about "
        "half a second a turn"
    ),
}

# What rami play's terminal says to the person (rami.game.human*), kept apart.
BOOK.update(PLAY)
