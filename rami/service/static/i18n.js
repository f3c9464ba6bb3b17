// The page's words in English and French (docs/page.md, "Languages").
//
// The page's own words are written in English in the HTML and the scripts; FRENCH maps each to
// its French ({name} holes are filled by t()). The language comes from the browser
// (navigator.language), or from the page's switch once used (kept in localStorage); <html lang>
// follows it. Cards are written as `rami --lang fr` writes them (R♥ 10♦ D♠ V♣: docs/notation.md).
// What the service writes (the game's log, the referee's reasons) comes in the language asked
// with `lang` where the service takes one.
"use strict";

window.ramiText = (function () {
  const KEY = "rami-lang";
  const SUIT_SYMBOLS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  const FRENCH_RANKS = { T: "10", J: "V", Q: "D", K: "R" };
  const CARD_WORDS = {
    en: { ranks: { A: "ace", T: "10", J: "jack", Q: "queen", K: "king" },
      suits: { S: "spades", H: "hearts", D: "diamonds", C: "clubs" }, of: "of", joker: "joker" },
    fr: { ranks: { A: "as", T: "10", J: "valet", Q: "dame", K: "roi" },
      suits: { S: "pique", H: "c\u0153ur", D: "carreau", C: "tr\u00e8fle" }, of: "de", joker: "joker" },
  };

  const FRENCH = {
    // ------------------------------------------------------------ the HTML
    "rami: puzzles and games": "rami : probl\u00e8mes et parties",
    "puzzle": "probl\u00e8me",
    "game": "partie",
    "Mode": "Mode",
    "Puzzles": "Probl\u00e8mes",
    "Play a game": "Jouer une partie",
    "Choose a puzzle": "Choisir un probl\u00e8me",
    "Daily": "Du jour",
    "Tier": "Niveau",
    "any": "tous",
    "easy": "facile",
    "medium": "moyen",
    "hard": "difficile",
    "expert": "expert",
    "Theme": "Th\u00e8me",
    "Next puzzle": "Probl\u00e8me suivant",
    "Language": "Langue",
    "A game against bots": "Une partie contre des robots",
    "Rules": "R\u00e8gles",
    "Bots": "Robots",
    "Level": "Niveau",
    "Elo": "Elo",
    "Seed": "Graine",
    "random": "au hasard",
    "e.g. 500": "p. ex. 500",
    "Deal": "Distribuer",
    "A target Elo counts from the beginner (0) on the rules' measured ladder; above its top the bot plays the top level.":
      "Un Elo vis\u00e9 compte \u00e0 partir du d\u00e9butant (0) sur l\u2019\u00e9chelle mesur\u00e9e de ces r\u00e8gles ; au-del\u00e0 de son sommet, le robot joue le niveau du sommet.",
    "The other players and the piles": "Les autres joueurs et les piles",
    "Draw from the stock": "Piocher dans le talon",
    "Take the top of the discard pile": "Prendre la carte du dessus de la d\u00e9fausse",
    "Loading the puzzle\u2026": "Chargement du probl\u00e8me\u2026",
    "The table": "La table",
    "Table": "Table",
    "Your hand": "Votre main",
    "What happened": "Ce qui s'est pass\u00e9",
    "At the table": "\u00c0 la table",
    "Round scores": "Scores de la manche",
    "Hints": "Indices",
    "Solution": "Solution",
    "\u2190 Back": "\u2190 Retour",
    "Next step \u2192": "Coup suivant \u2192",
    "Close": "Fermer",
    "Actions": "Actions",
    "New meld": "Nouvelle combinaison",
    "Split": "Couper",
    "Undo": "Annuler",
    "Reset": "Recommencer",
    "Hint": "Indice",
    "Show solution": "Voir la solution",
    "Check": "V\u00e9rifier",
    "Draw stock": "Piocher",
    "Take discard": "Prendre la d\u00e9fausse",
    "Claim": "Prendre",
    "Pass": "Passer",
    "Discard": "D\u00e9fausser",
    "End turn": "Finir le tour",
    "Next round": "Manche suivante",
    "New game": "Nouvelle partie",
    "Go on": "Continuer",
    "Play the hint": "Jouer l'indice",
    "Pace of the bots": "Rythme des robots",
    "step by step": "coup par coup",
    "slow": "lent",
    "fast": "rapide",
    "New meld (N)": "Nouvelle combinaison (N)",
    "Split the run after the selected card (S)": "Couper la suite apr\u00e8s la carte choisie (S)",
    "Undo (U)": "Annuler (U)",
    "Check (C)": "V\u00e9rifier (C)",
    "End your turn by discarding the selected card": "Finir le tour en d\u00e9faussant la carte choisie",
    "Throw this game away?": "Abandonner cette partie ?",
    "The game in play is lost if you deal a new one.": "La partie en cours est perdue si vous en distribuez une nouvelle.",
    "Keep playing": "Continuer la partie",
    "Throw it away": "L'abandonner",
    "Playing with the keyboard": "Jouer au clavier",
    // mixed markup (translated whole)
    "Select cards, then a meld. Keys: <kbd>1</kbd>\u2013<kbd>9</kbd> meld, <kbd>N</kbd> new meld, <kbd>S</kbd> split, <kbd>U</kbd> undo, <kbd>?</kbd> help":
      "Choisissez des cartes, puis une combinaison. Touches : <kbd>1</kbd>\u2013<kbd>9</kbd> combinaison, <kbd>N</kbd> nouvelle, <kbd>S</kbd> couper, <kbd>U</kbd> annuler, <kbd>?</kbd> aide",
    "<i class=\"mark gold\"></i> from your hand <i class=\"mark cyan\"></i> moved from its meld<span class=\"game-only\"> <i class=\"mark violet\"></i> laid by the others since your turn</span>":
      "<i class=\"mark gold\"></i> de votre main <i class=\"mark cyan\"></i> d\u00e9plac\u00e9e de sa combinaison<span class=\"game-only\"> <i class=\"mark violet\"></i> pos\u00e9e par les autres depuis votre tour</span>",
    "go from card to card (and to the buttons)": "aller de carte en carte (et aux boutons)",
    "select or unselect the card": "choisir la carte, ou la rel\u00e2cher",
    "put the selected cards in that meld (two digits for meld 10 and up)":
      "mettre les cartes choisies dans cette combinaison (deux chiffres \u00e0 partir de 10)",
    "make a new meld of the selected cards": "faire une nouvelle combinaison des cartes choisies",
    "take cards from your hand back to it": "reprendre en main des cartes de votre main",
    "split the run after the selected card": "couper la suite apr\u00e8s la carte choisie",
    "undo": "annuler",
    "unselect everything": "tout rel\u00e2cher",
    "check your table (puzzles)": "v\u00e9rifier votre table (probl\u00e8mes)",
    "in a game: discard the selected card / end the turn": "en partie : d\u00e9fausser la carte choisie / finir le tour",
    "in a game: draw from the stock": "en partie : piocher dans le talon",
    "in a game: go on (the bots' next turn)": "en partie : continuer (le tour suivant des robots)",

    // ------------------------------------------------------------ the board (app.js)
    "run": "suite",
    "set": "s\u00e9rie",
    "empty": "vide",
    "not a meld yet": "pas encore une combinaison",
    "Put here": "Mettre ici",
    "Put the selected cards in meld {n}": "Mettre les cartes choisies dans la combinaison {n}",
    "Make a new meld {n} of the selected cards": "Faire une nouvelle combinaison {n} des cartes choisies",
    "meld {n}": "combinaison {n}",
    "in your hand": "dans votre main",
    "Your hand is empty.": "Votre main est vide.",
    "{n} card": "{n} carte",
    "{n} cards": "{n} cartes",
    "{n} card left": "{n} carte restante",
    "{n} cards left": "{n} cartes restantes",
    "Select one or more cards first (click them, or Enter on a focused card).":
      "Choisissez d'abord une ou plusieurs cartes (touchez-les, ou Entr\u00e9e sur la carte qui a le focus).",
    "{card} comes from the table: a table card never goes back to the hand.":
      "{card} vient de la table : une carte de la table ne revient jamais dans la main.",
    "There is no meld {n}.": "Il n'y a pas de combinaison {n}.",
    "Already in your hand.": "D\u00e9j\u00e0 dans votre main.",
    "Already in meld {n}.": "D\u00e9j\u00e0 dans la combinaison {n}.",
    "{cards} back to your hand.": "{cards} revien(nen)t dans votre main.",
    "{cards} to meld {n}.": "{cards} dans la combinaison {n}.",
    "{cards} to a new meld {n}.": "{cards} dans une nouvelle combinaison {n}.",
    "Select one card of a run: the run is split after it.": "Choisissez une carte d'une suite : la suite est coup\u00e9e apr\u00e8s elle.",
    "Select a card on the table: the run is split after it.": "Choisissez une carte de la table : la suite est coup\u00e9e apr\u00e8s elle.",
    "Meld {n} is not a run: only a run can be split.": "La combinaison {n} n'est pas une suite : seule une suite se coupe.",
    "{card} is the last card of meld {n}: nothing to split off.": "{card} est la derni\u00e8re carte de la combinaison {n} : rien \u00e0 couper.",
    "Split meld {n} after {card}.": "Combinaison {n} coup\u00e9e apr\u00e8s {card}.",
    "Nothing to undo.": "Rien \u00e0 annuler.",
    "Undone.": "Annul\u00e9.",
    "The solution is playing: press Reset to play yourself.": "La solution se joue : Recommencer pour jouer vous-m\u00eame.",
    "Selected {cards}: now choose a meld (or New meld).": "Choisi : {cards}. Touchez maintenant une combinaison (ou Nouvelle combinaison).",
    "Nothing selected.": "Aucune carte choisie.",
    "Solved! ": "R\u00e9solu ! ",
    "Solved (another way)! ": "R\u00e9solu (autrement) ! ",
    "Solved, with the solution shown: not counted. ": "R\u00e9solu, solution montr\u00e9e : non compt\u00e9. ",
    "Not solved yet. ": "Pas encore r\u00e9solu. ",
    "That table is not legal. ": "Cette table n'est pas r\u00e9guli\u00e8re. ",
    "1 rated play": "1 partie class\u00e9e",
    "{n} rated plays": "{n} parties class\u00e9es",
    "Your rating: {r}": "Votre classement : {r}",
    "This puzzle: {r}": "Ce probl\u00e8me : {r}",
    "Move some cards first: nothing has changed on the table.": "D\u00e9placez d'abord des cartes : rien n'a chang\u00e9 sur la table.",
    "Checking\u2026": "V\u00e9rification\u2026",
    "That was the last hint: Show solution plays the turn.": "C'\u00e9tait le dernier indice : Voir la solution joue le tour.",
    "Asking for hint {n}\u2026": "Demande de l'indice {n}\u2026",
    "Hint {n} of 3": "Indice {n} sur 3",
    "More hint": "Encore un indice",
    "No more hints": "Plus d'indice",
    "The whole turn:": "Le tour entier :",
    "The solution: press Next step to play it move by move.": "La solution : Coup suivant la joue coup par coup.",
    "Cannot play \"{move}\" from here: press Reset, then Show solution.": "Impossible de jouer \u00ab {move} \u00bb d'ici : Recommencer, puis Voir la solution.",
    "Step {n} of {total}: {move}": "Coup {n} sur {total} : {move}",
    "Step {n} of {total}: {move}. That is the solution.": "Coup {n} sur {total} : {move}. C'est la solution.",
    "Daily puzzle, {date}": "Probl\u00e8me du jour, {date}",
    "Puzzle {id}": "Probl\u00e8me {id}",
    "with jokers": "avec jokers",
    "No puzzle \"{id}\": a puzzle id is rc- and 10 hex digits.": "Aucun probl\u00e8me \u00ab {id} \u00bb : un identifiant est rc- et 10 chiffres hexad\u00e9cimaux.",
    "Loading\u2026": "Chargement\u2026",
    "{n} puzzle": "{n} probl\u00e8me",
    "{n} puzzles": "{n} probl\u00e8mes",
    "No puzzle has that tier and theme: choose another.": "Aucun probl\u00e8me de ce niveau et de ce th\u00e8me : choisissez-en un autre.",
    "Back to the start.": "Retour au d\u00e9but.",
    "solved": "r\u00e9solu",
    "solved with a hint": "r\u00e9solu avec un indice",
    "solution seen": "solution vue",
    "{n} solved": "{n} r\u00e9solus",
    "Solved puzzles": "Probl\u00e8mes r\u00e9solus",

    // ------------------------------------------------------------ the game (game.js)
    "beginner": "d\u00e9butant",
    "novice": "novice",
    "intermediate": "interm\u00e9diaire",
    "confirmed": "confirm\u00e9",
    "lookahead": "pr\u00e9voyant",
    "target Elo\u2026": "Elo vis\u00e9\u2026",
    "not offered at this table": "pas propos\u00e9 \u00e0 cette table",
    "Target Elo of bot {n}": "Elo vis\u00e9 du robot {n}",
    "Dealing\u2026": "Distribution\u2026",
    "You": "Vous",
    "opened": "ouvert",
    "{n} pts": "{n} pts",
    "took {cards}": "a pris {cards}",
    "stock {n}": "talon {n}",
    "discard {n}": "d\u00e9fausse {n}",
    "no discard pile": "pas de d\u00e9fausse",
    "The discard pile, top last": "La d\u00e9fausse, le dessus en dernier",
    "Round {n}": "Manche {n}",
    "{name} played first": "{name} a jou\u00e9 en premier",
    "You played first": "Vous avez jou\u00e9 en premier",
    "game to {n}": "partie en {n}",
    "seed {n}": "graine {n}",
    "Note: {note}.": "Note : {note}.",
    "Game over": "Partie finie",
    "Round {n} over": "Manche {n} finie",
    "hand laid down": "main \u00e9tal\u00e9e",
    "round": "manche",
    "total": "total",
    "{names} win ({reason}).": "{names} gagnent ({reason}).",
    "{names} wins ({reason}).": "{names} gagne ({reason}).",
    "You win ({reason}).": "Vous gagnez ({reason}).",
    "the target is reached": "le score vis\u00e9 est atteint",
    "the others are eliminated": "les autres sont \u00e9limin\u00e9s",
    "the rounds agreed are played": "les manches convenues sont jou\u00e9es",
    "the most rounds are played": "le nombre maximal de manches est jou\u00e9",
    " and ": " et ",
    "Your turn: draw from the stock.": "\u00c0 vous : piochez dans le talon.",
    "Your turn: draw from the stock or take the {card} from the discard pile.": "\u00c0 vous : piochez dans le talon ou prenez le {card} de la d\u00e9fausse.",
    "Claim the {card} (you also take a penalty card from the stock), or pass?": "Prendre le {card} (avec une carte de p\u00e9nalit\u00e9 du talon), ou passer ?",
    "You drew {card}. ": "Vous avez pioch\u00e9 {card}. ",
    "Lay what you can, then select one card of your hand and press Discard (or End turn when your hand is empty).":
      "Posez ce que vous pouvez, puis choisissez une carte de votre main et D\u00e9fausser (ou Finir le tour si votre main est vide).",
    "Lay what you can, then press End turn.": "Posez ce que vous pouvez, puis Finir le tour.",
    "Round over: the hands are laid down and counted. Next round deals again.": "Manche finie : les mains sont \u00e9tal\u00e9es et compt\u00e9es. Manche suivante redistribue.",
    "Game over. New game deals another.": "Partie finie. Nouvelle partie en distribue une autre.",
    "Round {n}: your {count} cards are dealt. Look at your hand, then press Go on.":
      "Manche {n} : vos {count} cartes sont distribu\u00e9es. Regardez votre main, puis Continuer.",
    "The bots are playing\u2026": "Les robots jouent\u2026",
    "Not now.": "Pas maintenant.",
    "The referee refuses this turn.": "L'arbitre refuse ce tour.",
    "Select the one card of your hand to discard, then press Discard.": "Choisissez la carte de votre main \u00e0 d\u00e9fausser, puis D\u00e9fausser.",
    "Wait for your turn.": "Attendez votre tour.",
    "Deal a game first.": "Distribuez d'abord une partie.",
    "Choose the rules and the bots, then Deal.": "Choisissez les r\u00e8gles et les robots, puis Distribuer.",
    "{name}'s turn ({n} of {total}): press Go on for the next.": "Tour de {name} ({n} sur {total}) : Continuer pour le suivant.",
    "Moves: {moves}": "Coups : {moves}",
    "{cards} taken from meld {n}": "{cards} pris dans la combinaison {n}",
    "{cards} taken from your melds": "{cards} pris dans vos combinaisons",
    "Asking for a hint\u2026": "Demande d'un indice\u2026",
    "Hint: {text}": "Indice : {text}",
    "The hint is filled in: press {action} to play it.": "L'indice est en place : {action} pour le jouer.",
  };

  function detect() {
    try {
      const kept = window.localStorage.getItem(KEY);
      if (kept === "en" || kept === "fr") return kept;
    } catch (error) { /* storage off */ }
    const asked = (navigator.languages && navigator.languages[0]) || navigator.language || "en";
    return asked.toLowerCase().startsWith("fr") ? "fr" : "en";
  }

  let lang = detect();

  // The text in the page's language, its {name} holes filled from `args`.
  function t(text, args) {
    const found = lang === "fr" && Object.prototype.hasOwnProperty.call(FRENCH, text)
      ? FRENCH[text] : text;
    if (!args) return found;
    return found.replace(/\{(\w+)\}/g, (hole, name) => (name in args ? String(args[name]) : hole));
  }

  // A card as rami writes it in the page's language: 7C, KH, TD or 7♣, R♥, 10♦.
  function card(code) {
    if (lang !== "fr" || code === "*" || !code) return code;
    const rank = code.slice(0, -1);
    return (FRENCH_RANKS[rank] || rank) + (SUIT_SYMBOLS[code.slice(-1)] || code.slice(-1));
  }

  function cards(codes) {
    return codes.map(card).join(" ");
  }

  // A card in words, for screen readers: "king of hearts", "roi de cœur".
  function cardName(code) {
    const words = CARD_WORDS[lang];
    if (code === "*") return words.joker;
    const rank = code.slice(0, -1);
    return `${words.ranks[rank] || rank} ${words.of} ${words.suits[code.slice(-1)]}`;
  }

  // A card's picture: the server's (rami.svg), in the page's language (in French a jack, queen
  // or king shows V, D, R and the picture's name is French: GET /svg/cards/{card}.svg?lang=fr).
  function cardSrc(image, code) {
    const url = `/svg/cards/${code === "*" ? "joker" : code}.svg`;
    image.src = lang === "fr" ? `${url}?lang=fr` : url;
  }

  // The static page: its text nodes, the elements marked data-t-html (markup inside, translated
  // whole), and the labels, titles and placeholders. The English is kept to switch back.
  const originals = new Map();
  const ATTRIBUTES = ["aria-label", "title", "placeholder"];

  function normal(text) {
    return text.replace(/\s+/g, " ").trim();
  }

  function translateNode(node) {
    if (!originals.has(node)) originals.set(node, node.nodeValue);
    const english = originals.get(node);
    const key = normal(english);
    if (!key || !Object.prototype.hasOwnProperty.call(FRENCH, key)) return;
    node.nodeValue = lang === "fr" ? english.replace(english.trim(), FRENCH[key]) : english;
  }

  function apply() {
    document.documentElement.lang = lang;
    document.title = t("rami: puzzles and games");
    document.querySelectorAll("[data-t-html]").forEach((element) => {
      if (!element.dataset.en) element.dataset.en = normal(element.innerHTML);
      element.innerHTML = t(element.dataset.en);
    });
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, {
      acceptNode: (node) => (node.parentElement.closest("[data-t-html], [data-dynamic], script, style")
        ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
    });
    const nodes = [];
    while (walker.nextNode()) nodes.push(walker.currentNode);
    nodes.forEach(translateNode);
    for (const name of ATTRIBUTES) {
      document.querySelectorAll(`[${name}]`).forEach((element) => {
        if (element.closest("[data-dynamic]")) return;
        const kept = `en${name.replace(/-(\w)/g, (m, c) => c.toUpperCase()).replace(/^\w/, (c) => c.toUpperCase())}`;
        if (!(kept in element.dataset)) element.dataset[kept] = element.getAttribute(name);
        element.setAttribute(name, t(element.dataset[kept]));
      });
    }
    const menu = document.getElementById("lang");
    if (menu) menu.value = lang;
  }

  function set(wanted) {
    lang = wanted === "fr" ? "fr" : "en";
    try {
      window.localStorage.setItem(KEY, lang);
    } catch (error) { /* kept for this visit */ }
    apply();
    document.dispatchEvent(new CustomEvent("rami-lang", { detail: lang }));
  }

  document.addEventListener("DOMContentLoaded", () => {
    apply();
    const menu = document.getElementById("lang");
    if (menu) menu.addEventListener("change", () => set(menu.value));
  });

  return { t, card, cards, cardName, cardSrc, set, apply, lang: () => lang, french: FRENCH };
})();
