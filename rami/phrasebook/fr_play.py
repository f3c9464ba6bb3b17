"""The phrase book in French, the part that ``rami play``'s terminal says to the person
(:mod:`rami.game.human` and the modules it tells the game with); :mod:`rami.phrasebook.fr`
holds it in its book, and the English part, :mod:`rami.phrasebook.en_play`, has the same
keys and fields."""

from __future__ import annotations

BOOK: dict[str, str] = {
    "play.help": (
        "Commandes (les mots des commandes restent en anglais) :\n"
        "  draw stock | draw discard     piocher dans le talon ou prendre dans la défausse ; "
        "court : stock, pile\n"
        "  lay 7P 8P 9P                  poser une nouvelle combinaison de votre main\n"
        "  add 8T to 3                   ajouter des cartes de votre main à la combinaison 3\n"
        "  move 5T from 3 to 5           déplacer des cartes de la combinaison 3 vers la 5 (un "
        "nouveau numéro : nouvelle combinaison)\n"
        "  split 1 after 6C              couper la combinaison 1 après 6C ; la suite devient une "
        "nouvelle combinaison\n"
        "  swap 5C in 3                  mettre 5C à la place du joker de la combinaison 3\n"
        "  discard 2P                    finir votre tour par cette défausse\n"
        "  done                          finir votre tour (variantes sans défausse, ou pour "
        "sortir)\n"
        "  undo                          annuler votre dernier coup de ce tour\n"
        "  hint [1|2|3]                  un conseil pour la pioche, une réclamation ou votre "
        "tour,\n"
        "                                depuis les coups déjà joués (3 : tout le tour, coup par "
        "coup)\n"
        "  play hint | ph                suivre le conseil (l'arbitre juge le tour)\n"
        "  table | hand                  montrer la table, votre main\n"
        "  claim | pass                  (rami fou) prendre la dernière défausse hors de votre "
        "tour, ou non\n"
        "  quit                          quitter la partie (avec --out, 'rami play --resume "
        "FICHIER' la reprend)\n"
        "  help | ?                      cette liste (dans un terminal : les flèches éditent la "
        "ligne, haut/bas rappellent)"
    ),
    "play.title.rummikub": "Rummikub (tuiles écrites comme des cartes)",
    "play.welcome": "{title} : vous contre {levels} (graine {seed}). Tapez 'help'.",
    "play.note": "Note : {note}.",
    "play.or": " ou ",
    "play.source.stock": "le talon (stock)",
    "play.source.discard": "la défausse (discard)",
    "play.ask-draw": "Piocher dans {sources} ? ",
    "play.ask-claim": ("Réclamer {card} (et une carte de pénalité du talon) ? claim / pass "),
    "play.ask-move": "Votre coup ? ",
    "play.pause": "Appuyez sur Entrée pour distribuer la manche {number} (ou tapez quit). ",
    "play.top": "Dessus de la défausse : {card}",
    "play.table": "Table :",
    "play.table-empty": "Table : (vide)",
    "play.hand": "Votre main ({count}) : {cards}{opened}",
    "play.opened": " (ouvert)",
    "play.others": "Les autres : {others} ; talon {stock} ; dessus de la défausse {top}",
    "play.other.one": "{seat} : {count} carte{opened}",
    "play.other.many": "{seat} : {count} cartes{opened}",
    "play.you-claim": "Vous réclamez {card} et la carte de pénalité {penalty}",
    "play.you-take": "Vous prenez {card} dans la défausse",
    "play.you-draw": "Vous piochez {card}",
    "play.laid": "posé {cards} comme combinaison {target}",
    "play.added": "ajouté {cards} à la combinaison {target}",
    "play.moved": "déplacé {cards} de la combinaison {source} vers la combinaison {target}",
    "play.split": (
        "coupé la combinaison {source} après {card} : {cards} est la combinaison {target}"
    ),
    "play.shifted": "combinaison {target} : les jokers se placent là où ils vont",
    "play.swapped": (
        "mis {cards} à la place du joker dans la combinaison {target} ; le joker est dans votre "
        "main{relay}"
    ),
    "play.relay": " et doit être reposé ce tour-ci",
    "play.undone": "annulé",
    "play.nothing-to-undo": "rien à annuler ce tour-ci",
    "play.no-discard": "{rules} se joue sans défausse : tapez 'done'",
    "play.end-with-discard": "finissez votre tour par 'discard CARTE'",
    "play.draw-where": "piocher où ? {choices}",
    "play.draw-only": "{rules} ne vous laisse piocher que dans {sources} : {draws}",
    "play.no-claim-draw": (
        "aucune réclamation à répondre maintenant : votre tour commence par piocher ({draws})"
    ),
    "play.draw-first": "piochez d'abord ({draws}), puis jouez vos coups",
    "play.answer-claim": (
        "{card} vient d'être défaussée : répondez d'abord 'claim' (la prendre, avec une carte "
        "de pénalité) ou 'pass'"
    ),
    "play.then-discard": "puis 'discard CARTE'",
    "play.then-done": "puis 'done'",
    "play.no-draw": (
        "{rules} se joue sans pioche : jouez vos coups, {end} (un tour qui ne pose rien "
        "pioche une carte)"
    ),
    "play.drawn-already": (
        "vous avez déjà pioché ce tour-ci ({card}{where}) : jouez vos coups, {end}"
    ),
    "play.from-pile": " dans la défausse",
    "play.no-claim-play": (
        "aucune réclamation à répondre maintenant : c'est à vous de jouer ({end})"
    ),
    "play.empty": "commande vide : tapez 'help' pour la liste",
    "play.not-asked": "'{verb}' n'est pas demandé maintenant ; tapez 'help'",
    "play.refused": "Refusé par l'arbitre :",
    "play.fix": "Corrigez le tour (undo, d'autres coups) et soumettez-le à nouveau.",
    "play.referee-refused": "l'arbitre a refusé le tour",
    "play.changed": (
        "combinaison {number} ({meld}) changée, mais vous n'avez pas encore ouvert : {then}"
    ),
    "play.open-then-add": (
        "posez d'abord les combinaisons de votre ouverture depuis votre main, puis ajoutez à "
        "la table"
    ),
    "play.open-from-hand": "votre ouverture pose de nouvelles combinaisons de votre main seulement",
    "play.accepted": "Tour accepté par l'arbitre.",
    "play.header.person": (
        "=== Manche {number} : {first} commencez. Totaux : {totals} ; {end}. ==="
    ),
    "play.header.bot": "=== Manche {number} : {first} commence. Totaux : {totals} ; {end}. ===",
    "play.points.one": "{count} point",
    "play.points.many": "{count} points",
    "play.end.rounds": "manche {number} sur {rounds} ; le plus haut total gagne",
    "play.end.reacher-loses": "qui atteint {points} perd ; le plus petit total gagne",
    "play.end.elimination": "qui atteint {points} est éliminé ; le dernier joueur restant gagne",
    "play.end.target": (
        "la partie finit avec la manche où un joueur atteint {points} ; le plus petit total gagne"
    ),
    "play.end.max-rounds.one": " ; {count} manche au plus",
    "play.end.max-rounds.many": " ; {count} manches au plus",
    "play.draw-stock": "{who} pioche dans le talon.",
    "play.left.one": "({count} carte en main)",
    "play.left.many": "({count} cartes en main)",
    "play.lays-nothing": "{who} ne pose rien {left}.",
    "play.lays-nothing-discards": "{who} ne pose rien, défausse {card} {left}.",
    "play.plays": "{who} joue {cards} {left}, coups ({count}) :",
    "play.rearranges": "{who} réarrange la table {left}, coups ({count}) :",
    "play.round-over": "=== Fin de la manche {number} : {why}{winners}{sec}. ===",
    "play.round-hand": "  {name} : {hand} -> {score} (total {total})",
    "play.out.person": "  {who} êtes éliminé de la partie.",
    "play.out.bot": "  {who} est éliminé de la partie.",
    "play.totals": "Totaux : {totals}.",
    "play.game-over": "Fin de la partie : {winners}. Totaux : {totals}.{record}",
    "play.record-in": " Le relevé de la partie est dans {out}.",
    "play.win.you": "{winners} gagnez",
    "play.win.several": "{winners} gagnent",
    "play.win.one": "{winners} gagne",
    "play.tie": " (égalité)",
    "play.abandoned": "Partie abandonnée.{kept}",
    "play.interrupted": "Partie interrompue.{kept}",
    "play.kept": (
        " La partie jusqu'ici est gardée dans {out} : 'rami play --resume {out}' la reprend."
    ),
    "play.resumed.one": (
        "Partie reprise de {path} : {count} action enregistrée rejouée devant l'arbitre."
    ),
    "play.resumed.many": (
        "Partie reprise de {path} : {count} actions enregistrées rejouées devant l'arbitre."
    ),
}
