"""The phrase book in English, the part that ``rami play``'s terminal says to the person
(:mod:`rami.game.human` and the modules it tells the game with); :mod:`rami.phrasebook.en`
holds it in its book, and the French part, :mod:`rami.phrasebook.fr_play`, has the same
keys and fields."""

from __future__ import annotations

BOOK: dict[str, str] = {
    "play.help": (
        "Commands:\n"
        "  draw stock | draw discard     take a card (where the rules let you choose); short: "
        "stock, pile\n"
        "  lay 7H 8H 9H                  lay a new meld from your hand\n"
        "  add 8C to 3                   add hand cards to meld 3\n"
        "  move 5C from 3 to 5           move table cards from meld 3 to meld 5 (a new number: "
        "new meld)\n"
        "  split 1 after 6H              cut meld 1 after 6H; the rest becomes a new meld\n"
        "  swap 5H in 3                  put 5H in place of the joker of meld 3\n"
        "  discard 2S                    end your turn with this discard\n"
        "  done                          end your turn (presets without a discard, or going out)\n"
        "  undo                          take back your last move this turn\n"
        "  hint [1|2|3]                  a hint at the draw, at a claim or for your turn, from "
        "the\n"
        "                                moves made so far (3: the whole turn, as moves)\n"
        "  play hint | ph                do what the hint says (the referee judges the turn)\n"
        "  table | hand                  show the table, your hand\n"
        "  claim | pass                  (rami fou) take the last discard out of turn, or not\n"
        "  quit                          leave the game (with --out, 'rami play --resume FILE' "
        "goes on)\n"
        "  help | ?                      this list (at a terminal: arrows edit the line, up/down "
        "recall)"
    ),
    "play.title.rummikub": "Rummikub (tiles written as cards)",
    "play.welcome": "{title}: you against {levels} (seed {seed}). Type 'help'.",
    "play.note": "Note: {note}.",
    "play.or": " or ",
    "play.source.stock": "stock",
    "play.source.discard": "discard",
    "play.ask-draw": "Draw from {sources}? ",
    "play.ask-claim": "Claim {card} (and a penalty card from the stock)? claim / pass ",
    "play.ask-move": "Your move? ",
    "play.pause": "Press Enter to deal round {number} (or type quit). ",
    "play.top": "Top of the discard pile: {card}",
    "play.table": "Table:",
    "play.table-empty": "Table: (empty)",
    "play.hand": "Your hand ({count}): {cards}{opened}",
    "play.opened": " (opened)",
    "play.others": "Others: {others}; stock {stock}; discard pile top {top}",
    "play.other.one": "{seat}: {count} cards{opened}",
    "play.other.many": "{seat}: {count} cards{opened}",
    "play.you-claim": "You claim {card} and the penalty card {penalty}",
    "play.you-take": "You draw {card} from the discard pile",
    "play.you-draw": "You draw {card}",
    "play.laid": "laid {cards} as meld {target}",
    "play.added": "added {cards} to meld {target}",
    "play.moved": "moved {cards} from meld {source} to meld {target}",
    "play.split": "split meld {source} after {card}: {cards} is meld {target}",
    "play.shifted": "meld {target}: the jokers stand where they fit",
    "play.swapped": (
        "put {cards} in place of the joker in meld {target}; the joker is in your hand{relay}"
    ),
    "play.relay": " and must be laid again this turn",
    "play.undone": "undone",
    "play.nothing-to-undo": "nothing to undo this turn",
    "play.no-discard": "{rules} has no discard: type 'done'",
    "play.end-with-discard": "end your turn with 'discard CARD'",
    "play.draw-where": "draw from where? {choices}",
    "play.draw-only": "{rules} lets you draw from the {sources} only: {draws}",
    "play.no-claim-draw": (
        "there is no claim to answer now: your turn starts with a draw ({draws})"
    ),
    "play.draw-first": "you draw first ({draws}), then play your moves",
    "play.answer-claim": (
        "{card} has just been discarded: answer 'claim' (take it, and a penalty card) or "
        "'pass' first"
    ),
    "play.then-discard": "then 'discard CARD'",
    "play.then-done": "then 'done'",
    "play.no-draw": (
        "{rules} has no draw: play your moves, {end} (a turn that lays nothing draws a card)"
    ),
    "play.drawn-already": (
        "you have drawn already this turn ({card}{where}): play your moves, {end}"
    ),
    "play.from-pile": " from the discard pile",
    "play.no-claim-play": "there is no claim to answer now: it is your turn to play ({end})",
    "play.empty": "empty command: type 'help' for the list",
    "play.not-asked": "'{verb}' is not asked now; type 'help'",
    "play.refused": "Refused by the referee:",
    "play.fix": "Fix the turn (undo, more moves) and submit it again.",
    "play.referee-refused": "the referee refused the turn",
    "play.changed": "meld {number} ({meld}) changed, but you have not opened yet: {then}",
    "play.open-then-add": "lay your opening melds from your hand first, then add to the table",
    "play.open-from-hand": "your opening lays new melds from your hand only",
    "play.accepted": "Turn accepted by the referee.",
    "play.header.person": ("=== Round {number}: {first} play first. Totals: {totals}; {end}. ==="),
    "play.header.bot": "=== Round {number}: {first} plays first. Totals: {totals}; {end}. ===",
    "play.points.one": "{count} point",
    "play.points.many": "{count} points",
    "play.end.rounds": "round {number} of {rounds}; the highest total wins",
    "play.end.reacher-loses": "whoever reaches {points} loses; the lowest total wins",
    "play.end.elimination": "whoever reaches {points} is out; the last player left wins",
    "play.end.target": (
        "the game ends with the round in which a player reaches {points}; the lowest total wins"
    ),
    "play.end.max-rounds.one": "; {count} rounds at most",
    "play.end.max-rounds.many": "; {count} rounds at most",
    "play.draw-stock": "{who} draws from the stock.",
    "play.left.one": "({count} card left)",
    "play.left.many": "({count} cards left)",
    "play.lays-nothing": "{who} lays nothing {left}.",
    "play.lays-nothing-discards": "{who} lays nothing, discards {card} {left}.",
    "play.plays": "{who} plays {cards} {left}, moves ({count}):",
    "play.rearranges": "{who} rearranges the table {left}, moves ({count}):",
    "play.round-over": "=== Round {number} over: {why}{winners}{sec}. ===",
    "play.round-hand": "  {name}: {hand} -> {score} (total {total})",
    "play.out.person": "  {who} are out of the game.",
    "play.out.bot": "  {who} is out of the game.",
    "play.totals": "Totals: {totals}.",
    "play.game-over": "Game over: {winners}. Totals: {totals}.{record}",
    "play.record-in": " The record is in {out}.",
    "play.win.you": "{winners} win",
    "play.win.several": "{winners} win",
    "play.win.one": "{winners} wins",
    "play.tie": " (a draw)",
    "play.abandoned": "Game abandoned.{kept}",
    "play.interrupted": "Interrupted.{kept}",
    "play.kept": " The game so far is kept in {out}: 'rami play --resume {out}' goes on with it.",
    "play.resumed.one": (
        "Game resumed from {path}: {count} recorded actions played again through the referee."
    ),
    "play.resumed.many": (
        "Game resumed from {path}: {count} recorded actions played again through the referee."
    ),
}
