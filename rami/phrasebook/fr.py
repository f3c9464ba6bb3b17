"""The phrase book in French: every sentence and word rami says to a person, by key
(:mod:`rami.phrasebook`; the English book, :mod:`rami.phrasebook.en`, has the same keys and
the same fields)."""

from __future__ import annotations

from rami.phrasebook.fr_play import BOOK as PLAY

BOOK: dict[str, str] = {
    # The solver's sentences about a turn: its moves and its notes (rami.phrases).
    "solver.lay": "posez {cards} de votre main comme combinaison {target}",
    "solver.add": "ajoutez {cards} de votre main à la combinaison {target}",
    "solver.split": (
        "coupez {run} (combinaison {source}) après {cut} : {piece} devient la combinaison {target}"
    ),
    "solver.move": "déplacez {cards} de la combinaison {source} vers la combinaison {target}",
    "solver.slide_joker": (
        "dans la combinaison {target}, faites glisser le joker pour qu'il remplace {now} (et "
        "non plus {was})"
    ),
    "solver.slide_jokers": (
        "dans la combinaison {target}, faites glisser les jokers pour qu'ils remplacent {now} "
        "(et non plus {was})"
    ),
    "solver.replace_joker": (
        "mettez {card} de votre main à la place du joker dans la combinaison {target}"
    ),
    "solver.swap_to_hand": (
        "mettez {card} à la place du joker dans la combinaison {target} : le joker va dans "
        "votre main"
    ),
    "solver.swap_and_relay": (
        "mettez {card} à la place du joker dans la combinaison {target} : reposez le joker "
        "pendant ce tour"
    ),
    "solver.discard": "défaussez {card} pour finir votre tour",
    "solver.discard_going_out": "défaussez {card} : votre main est vide, vous sortez",
    "solver.empty_hand": "la main est vide",
    "solver.no_pure_run": (
        "pas d'ouverture possible : la main n'a pas de suite pure (3 cartes qui se suivent ou "
        "plus, sans joker)"
    ),
    "solver.no_opening_points_pure": (
        "pas d'ouverture possible : la main ne fait pas {points} points de combinaisons avec "
        "une suite pure"
    ),
    "solver.no_opening_points": (
        "pas d'ouverture possible : la main ne fait pas {points} points de combinaisons"
    ),
    "solver.not_opening": "la main pourrait ouvrir mais n'ouvre pas ce tour-ci",
    "solver.nothing_playable": "aucune carte de la main ne peut être jouée",
    "solver.nothing_in_time": "aucun coup trouvé dans le temps imparti",
    # The fixed words of rami solve's report and the hints (rami.phrases.word).
    "word.status": "Statut",
    "word.optimal": "optimal",
    "word.feasible": "non prouvé",
    "word.objective": "objectif",
    "word.points": "points",
    "word.cards": "cartes",
    "word.not minimised": "cartes déplacées non minimisées",
    "word.not proved": "Optimalité non prouvée : la limite de temps a arrêté la recherche.",
    "word.bounds": "Bornes prouvées",
    "word.note": "Note",
    "word.new table": "Nouvelle table",
    "word.empty": "(vide)",
    "word.played": "Cartes jouées",
    "word.hand left": "Main restante",
    "word.penalty": "Pénalité",
    "word.opens": "Vous ouvrez ce tour-ci.",
    "word.moved": "Cartes déplacées",
    "word.moves": "Coups",
    "word.no move": "(aucun : rien ne peut être joué)",
    "word.key move": "Coup clé",
    # The review's grades as a person reads them (rami.review).
    "grade.best": "meilleur coup",
    "grade.good": "bon coup",
    "grade.inaccuracy": "imprécision",
    "grade.mistake": "erreur",
    "grade.blunder": "gaffe",
    # The advice at a game's decisions (rami.game.advice_text).
    "advice.stock only": "Piochez dans le talon : c'est le seul endroit où piocher maintenant.",
    "advice.take lays": (
        "Prenez {card} dans la défausse : vous pouvez la poser ce tour-ci, dans {meld}."
    ),
    "advice.take builds": (
        "Prenez {card} dans la défausse : elle complète une combinaison de votre main pour "
        "votre ouverture."
    ),
    "advice.stock useless": (
        "Piochez dans le talon : {card} ne fait aucune combinaison avec votre main ni avec la "
        "table."
    ),
    "advice.stock stuck": (
        "Piochez dans le talon : après avoir pris {card}, vous ne pourriez pas finir votre "
        "tour (une carte prise dans la défausse ne peut pas être redéfaussée au même tour)."
    ),
    "advice.stock not laid": "Piochez dans le talon : {card} ne peut pas être posée ce tour-ci.",
    "advice.stock no meld yet": (
        "Piochez dans le talon : {card} ne peut pas être posée ce tour-ci, et elle ne complète "
        "aucune combinaison de votre main pour votre ouverture."
    ),
    "advice.stock not in opening": (
        "Piochez dans le talon : {card} ne peut pas être posée dans votre ouverture ce "
        "tour-ci, et une carte prise dans la défausse doit l'être."
    ),
    "advice.stock no gain": (
        "Piochez dans le talon : poser {card} ne vous laisserait pas moins de points qu'une "
        "carte du talon."
    ),
    "advice.claim": (
        "Réclamez {card} : avec elle et la carte de pénalité, votre main vaut mieux qu'en "
        "attendant votre tour."
    ),
    "advice.claim lays": (
        "Réclamez {card} : avec elle et la carte de pénalité, votre main vaut mieux qu'en "
        "attendant votre tour ; vous pouvez la poser dans {meld}."
    ),
    "advice.pass empty stock": "Passez : le talon est vide, il n'y a pas de carte de pénalité.",
    "advice.pass useless": (
        "Passez : {card} ne fait aucune combinaison avec votre main ni avec la table."
    ),
    "advice.pass no gain": (
        "Passez : {card} et une carte de pénalité vous laisseraient moins bien placé qu'en "
        "attendant votre tour."
    ),
    "advice.best turn": "Votre meilleur tour ({count}) :",
    "advice.why out": "{card} est votre dernière carte : vous sortez.",
    "advice.why dead": "{card} : aucune carte encore cachée ne ferait de combinaison avec elle.",
    "advice.why alone": "{card} : elle ne fait aucune combinaison avec vos autres cartes.",
    "advice.why fewest": (
        "{card} : des cartes que vous pouvez lâcher, c'est celle que le moins de cartes "
        "cachées compléteraient."
    ),
    "advice.why guarded": "{card} : {other} permettrait au joueur suivant de la poser.",
    "advice.why only": "{card} : la seule carte que vous pouvez lâcher.",
    "advice.jokers only": (
        "Défaussez {card} : votre main n'a que des jokers, et aucune combinaison ne peut les "
        "prendre."
    ),
    "advice.from start": (
        "Vos coups jusqu'ici ne mènent pas à un tour que les règles acceptent : cet indice "
        "part du début de votre tour ('undo' pour y revenir)."
    ),
    "advice.no hint": (
        "Pas d'indice cette fois (une erreur interne, notée pour un rapport). Votre partie "
        "continue."
    ),
    "advice.cannot follow": (
        "vous ne pourriez pas finir votre tour après avoir pris {card} (une carte prise dans "
        "la défausse ne peut pas être redéfaussée au même tour) : piochez dans le talon"
    ),
    "advice.cannot lay": (
        "vous ne pourriez pas poser {card} ce tour-ci, et une carte prise dans la défausse "
        "doit être posée au même tour : piochez dans le talon"
    ),
    "advice.cannot lay opening": (
        "vous ne pourriez pas poser {card} dans votre ouverture ce tour-ci, et une carte prise "
        "dans la défausse doit être posée au même tour, dans l'ouverture : piochez dans le "
        "talon"
    ),
    "advice.must lay": "vous devez poser {card} ce tour-ci",
    "advice.must lay opening": "vous devez poser {card} ce tour-ci, dans votre ouverture",
    "advice.hold": (
        "Ne posez rien ce tour-ci : gardez vos combinaisons en main jusqu'à pouvoir sortir en "
        "un seul tour. Posées maintenant, elles donnent aux autres des cartes à réarranger ; "
        "gardées, elles pourront toutes être posées au tour où vous sortez."
    ),
    "advice.open small": (
        "Ouvrez avec le moins de cartes : posez {cards} et gardez vos autres combinaisons en "
        "main jusqu'à pouvoir sortir en un seul tour (posées maintenant, elles donnent aux "
        "autres des cartes à réarranger)."
    ),
    "advice.hold discard": (
        "Ne posez rien et défaussez {card} : gardez vos combinaisons en main jusqu'à pouvoir "
        "sortir en un seul tour (posées maintenant, elles donnent aux autres des cartes à "
        "ajouter et des jokers à prendre)."
    ),
    "advice.a-joker": "un joker",
    # The puzzles' goal and the verdicts on an answer (rami.puzzles.words).
    "puzzle.goal-one": "Jouez la seule carte de votre main.",
    "puzzle.goal-all": "Jouez les {played} cartes de votre main.",
    "puzzle.goal-shed": (
        "Votre main ne peut pas être vidée : posez le plus de points possible (le meilleur "
        "coup laisse {points} en main)."
    ),
    "puzzle.short-all": (
        "légal, mais il joue {count} sur {cards} : le but est de toutes les jouer (reste : {left})"
    ),
    "puzzle.short-one": (
        "légal, mais il joue {count} sur {cards} : le but est de la jouer (reste : {left})"
    ),
    "puzzle.too-many-points": (
        "légal, mais il laisse {points} en main : le meilleur coup en laisse {goal}"
    ),
    "puzzle.solved-intended": "résolu : c'est la solution prévue",
    "puzzle.solved-other": (
        "résolu, par une autre voie que la solution prévue (cela compte quand même)"
    ),
    # Each puzzle theme's name and sentence (rami.puzzles.themes, rami.puzzles.words).
    "theme-name.all-cards": "main vidée",
    "theme.all-cards": "La main est vidée : toutes ses cartes sont jouées.",
    "theme-name.best-score": "meilleur score",
    "theme.best-score": "La main ne peut pas être vidée : se défaire du plus de points.",
    "theme-name.joker-swap": "échange de joker",
    "theme.joker-swap": "Une carte de la main prend la place d'un joker.",
    "theme-name.joker-freed": "joker libéré",
    "theme.joker-freed": "Un joker de la table quitte sa combinaison.",
    "theme-name.joker-from-hand": "joker de la main",
    "theme.joker-from-hand": "Un joker est joué depuis la main.",
    "theme-name.no-joker": "sans joker",
    "theme.no-joker": "Aucun joker sur la table ni dans la main.",
    "theme-name.borrow-from-set": "emprunt à une série",
    "theme.borrow-from-set": "Une carte est prise à une série de quatre, qui reste une série.",
    "theme-name.borrow-from-run": "emprunt à une suite",
    "theme.borrow-from-run": (
        "Une ou deux cartes sont prises au bout d'une suite, qui reste une suite."
    ),
    "theme-name.split-run": "suite coupée",
    "theme.split-run": "Une suite est coupée en deux.",
    "theme-name.merge-runs": "suites réunies",
    "theme.merge-runs": "Deux suites de la table sont réunies en une.",
    "theme-name.set-to-runs": "série défaite",
    "theme.set-to-runs": "Une série est défaite : deux de ses cartes ou plus vont dans des suites.",
    "theme-name.run-to-sets": "suite défaite",
    "theme.run-to-sets": "Deux cartes ou plus d'une suite vont dans des séries.",
    "theme-name.ace-high": "as haut",
    "theme.ace-high": (
        "Une suite passant par D-R-A (l'as au-dessus du roi) est construite ou changée."
    ),
    "theme-name.long-run": "longue suite",
    "theme.long-run": "Une suite de {long} cartes ou plus est construite ou changée.",
    "theme-name.twin-cards": "cartes jumelles",
    "theme.twin-cards": "Les deux exemplaires d'une carte (deux jeux) sont joués.",
    # The game log as the table sees it, person and bot apart (rami.game.session_text).
    "log.you": "Vous",
    "log.and": " et ",
    "log.nobody": "personne",
    "log.a-card": "une carte",
    "log.deal.person": "Manche {number} : vous commencez.",
    "log.deal.bot": "Manche {number} : {who} commence.",
    "log.game-over.person": "Fin de la partie : {winners} gagnez.",
    "log.game-over.several": "Fin de la partie : {winners} gagnent.",
    "log.game-over.one": "Fin de la partie : {winners} gagne.",
    "log.reshuffle": (
        "La défausse (sauf sa carte du dessus) est mélangée en un nouveau talon de {size} cartes."
    ),
    "log.claim.person": "{who} réclamez {card} et prenez une carte de pénalité{penalty}.",
    "log.claim.bot": "{who} réclame {card} et prend une carte de pénalité{penalty}.",
    "log.draw-discard.person": "{who} prenez {card} dans la défausse.",
    "log.draw-discard.bot": "{who} prend {card} dans la défausse.",
    "log.draw-stock.person": "{who} piochez {card}.",
    "log.draw-stock.bot": "{who} pioche {card}.",
    "log.lay.person": "{who} posez {cards}",
    "log.lay.bot": "{who} pose {cards}",
    "log.lay-nothing.person": "{who} ne posez rien",
    "log.lay-nothing.bot": "{who} ne pose rien",
    "log.discard.person": ", défaussez {card}",
    "log.discard.bot": ", défausse {card}",
    "log.rearranged": " (la table réarrangée)",
    "log.left.one": " ({count} carte en main).",
    "log.left.many": " ({count} cartes en main).",
    "log.round-over": (
        "Fin de la manche {round} : {reason} ; gagnée par {winners}. Scores : {scores}."
    ),
    "log.reason.out": "un joueur est sorti",
    "log.reason.stock": "le talon est épuisé",
    "log.reason.cap": "le nombre maximal de tours est atteint",
    "log.reason.blocked": "personne ne pouvait jouer",
    "log.reason.turn-limit": "la limite de tours du moteur est atteinte",
    "level.beginner": "débutant",
    "level.intermediate": "intermédiaire",
    "level.confirmed": "confirmé",
    "level.lookahead": "prévoyant",
    # A turn's review as a person reads it (rami.review).
    "review.illegal": "Tour illégal :",
    "review.grade": "Appréciation : {grade} ({lost})",
    "review.row": "{label} : {mine} (meilleur {best})",
    "review.penalty-left": "Pénalité restante",
    "review.cards-played": "Cartes jouées",
    "review.cards-moved": "Cartes déplacées",
    "review.missed": "Manqué : {move}",
    "review.not-proved": "Le meilleur tour n'a pas été prouvé optimal dans le temps imparti.",
    "review.best-turn": "Meilleur tour ({moves}) :",
    "review.better.one": "{count} point de mieux que le meilleur tour trouvé",
    "review.better.many": "{count} points de mieux que le meilleur tour trouvé",
    "review.no-loss": "aucun point perdu",
    "review.lost.one": "{count} point perdu",
    "review.lost.many": "{count} points perdus",
    # A whole game's review (rami.review.game).
    "game-review.header.one": "{label} : {count} tour revu",
    "game-review.header.many": "{label} : {count} tours revus",
    "game-review.turn": "  manche {round}, tour {turn}, place {seat} : {grade}",
    "game-review.turn-lost.one": " ({count} point perdu)",
    "game-review.turn-lost.many": " ({count} points perdus)",
    "game-review.missed": " ; manqué : {move}",
    "game-review.player": (
        "  place {seat} ({name}) : précision {accuracy} %, {lost} en {turns}{grades}"
    ),
    "game-review.player-lost.one": "{count} point perdu",
    "game-review.player-lost.many": "{count} points perdus",
    "game-review.turns.one": "{count} tour",
    "game-review.turns.many": "{count} tours",
    "game-review.grades": " : {grades}",
    # How many answers rami solve --top found, and why not more (rami.solver.alternatives).
    "top.exhausted-none": "aucune réponse distincte ({top} demandées)",
    "top.exhausted-one": "une seule réponse distincte ({top} demandées)",
    "top.exhausted-many": (
        "seulement {found} réponses distinctes existent, toutes listées ({top} demandées)"
    ),
    "top.stopped.one": "{count} réponse sur {top} trouvée avant la limite de temps",
    "top.stopped.many": "{count} réponses sur {top} trouvées avant la limite de temps",
    "top.best.one": "la meilleure réponse",
    "top.best.many": "les {count} meilleures réponses",
    "top.answers": "Réponses :",
    "top.answer": "Réponse {rank} sur {count} : {left}, {played}, {moved}",
    "top.left.one": "{count} point restant",
    "top.left.many": "{count} points restants",
    "top.played.one": "{count} carte jouée",
    "top.played.many": "{count} cartes jouées",
    "top.moved.one": "{count} déplacée",
    "top.moved.many": "{count} déplacées",
    # The one-line note on a turn (rami.phrases.turn_note).
    "note.goes-out-discard": "sortie : {played} sur {total}, défausse {card}",
    "note.goes-out-laid": "sortie : {played} sur {total}, la dernière carte posée",
    "note.only-card": "la seule carte jouée",
    "note.all-cards": "les {total} cartes jouées",
    "note.played": "{played} sur {total}",
    "note.played-count.one": "{count} carte jouée",
    "note.played-count.many": "{count} cartes jouées",
    "note.total.one": "{count}",
    "note.total.many": "{count}",
    "note.flat": "pas ouvert : forfait de {penalty}",
    "note.left.one": "{count} point restant",
    "note.left.many": "{count} points restants",
    "note.discard": "défausse {card}",
    # A move said of another player, and a turn's discard line (rami.game.turn_text).
    "turn.from-your-hand": " de votre main",
    "turn.your-hand": "votre main",
    "turn.their-hand": "sa main",
    "turn.discard": "défaussez {card}",
    # The hints' headings and level 1, what the best turn achieves (rami.hints).
    "hint.none": "aucune",
    "hint.heading": "{text} :",
    "hint.cannot-open": "Vous ne pouvez pas ouvrir ce tour-ci.",
    "hint.nothing-playable": "Aucune carte ne peut être jouée ce tour-ci.",
    "hint.all-cards": "jouer vos {played} cartes",
    "hint.only-card": "jouer votre seule carte",
    "hint.go-out": "sortir : jouer {played} et défausser la dernière",
    "hint.by-cards": "jouer {played} de vos {in_hand} (et vous défaire de {points})",
    "hint.by-points": "vous défaire de {points} (jouer {played} de vos {in_hand})",
    "hint.you-can": "Vous pouvez {phrase}.",
    "hint.you-can-open": "Vous pouvez ouvrir et {phrase}.",
    # What a player choosing a level should know in a preset (rami.game.levels).
    "level-note.holds-back": (
        "en {rules}, l'expert ouvre avec le moins de cartes possible et garde ses combinaisons "
        "en main jusqu'à pouvoir sortir en un seul tour"
    ),
    "level-note.holds-melds": (
        "en {rules}, l'expert garde ses combinaisons en main jusqu'à pouvoir sortir en un seul "
        "tour, sauf quand un joueur n'a plus que {cards} cartes ou moins"
    ),
    "level-note.lookahead": (
        "le prévoyant joue le tour de l'expert, sauf si, en poursuivant la manche sur quelques "
        "donnes au hasard des cartes qu'il ne voit pas, poser plus ou moins fait nettement "
        "mieux ; il réfléchit environ une demi-seconde par tour"
    ),
}

# What rami play's terminal says to the person (rami.game.human*), kept apart.
BOOK.update(PLAY)
