// The page's game mode: a game against bots held by the server (docs/page.md, /games).
//
// The server deals, plays the bots and judges every turn with the referee; this script only
// shows what seat 0 sees (its hand, the table, the discard pile and what each player took from
// it, the others' hand sizes, the stock's size, the log) and sends its answers. The bots' turns
// that came back with an answer are shown one at a time (bots.js: the table as it stood after
// each). The board is the puzzle page's own (app.js, window.ramiBoard): the same clicks, drags,
// keys, undo and reset.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const T = window.ramiText;
  const t = T.t;
  const LEVELS = ["beginner", "novice", "intermediate", "confirmed", "expert", "lookahead"];
  const TARGET = "elo"; // the level option asking a bot by a target Elo, sent as elo:N
  const ACTIONS = ["draw-stock", "draw-discard", "claim-take", "claim-pass", "discard", "end-turn",
    "next-round", "go-on", "game-hint", "play-hint"];

  let game = null; // the last answer of the server (GET /games/{id})
  let busy = false;
  let looked = null; // "id:round" whose hand was shown before its first question (rami fou)

  const board = () => window.ramiBoard;
  const bots = () => window.ramiBots;

  // Every request names the page's language (the service writes its log and reasons in it).
  async function call(path, body) {
    const options = body === undefined ? {} : {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    };
    const sep = path.includes("?") ? "&" : "?";
    const response = await fetch(`${path}${sep}lang=${T.lang()}`, options);
    let data = null;
    try {
      data = await response.json();
    } catch (error) {
      data = { error: `${response.status} ${response.statusText}`, problems: [] };
    }
    return { ok: response.ok, status: response.status, data };
  }

  function asked(phase) {
    return game !== null && game.phase === phase && !bots().playing() && !waitingLook();
  }

  // Rami fou asks a claim as the round is dealt: the hand is shown first, and the question
  // comes once the person presses Go on.
  function waitingLook() {
    return game !== null && game.phase === "claim" && looked !== `${game.id}:${game.view.round}`;
  }

  // ------------------------------------------------------------------ set-up

  async function loadRulesets() {
    const answer = await call("/rulesets");
    if (!answer.ok) return;
    const select = $("game-rules");
    select.replaceChildren();
    for (const preset of answer.data) {
      const option = document.createElement("option");
      option.value = preset.name;
      option.textContent = preset.title;
      select.appendChild(option);
    }
  }

  function fillLevels() {
    document.querySelectorAll("#setup-form select.level").forEach((select, index) => {
      for (const level of [...LEVELS, TARGET]) {
        const option = document.createElement("option");
        option.value = level;
        select.appendChild(option);
      }
      select.value = index === 0 ? "beginner" : "confirmed";
      select.addEventListener("change", showLevels);
    });
    labelLevels();
    showLevels();
  }

  // What the server seats per preset and table size (GET /bot/levels), fetched once a preset.
  const seatable = new Map();

  async function offerLevels() {
    const rules = $("game-rules").value;
    if (!rules) return;
    if (!seatable.has(rules)) {
      const answer = await call(`/bot/levels?rules=${encodeURIComponent(rules)}`);
      if (!answer.ok) return; // the menus stay whole: the server still refuses with its reason
      seatable.set(rules, answer.data);
    }
    if (rules !== $("game-rules").value) return; // another preset chosen meanwhile
    const offered = seatable.get(rules);
    const players = 1 + parseInt($("game-bots").value, 10);
    const table = offered.tables.find((entry) => entry.players === players);
    const allowed = new Set(table ? table.levels : []);
    if (offered.target_elo) allowed.add(TARGET);
    document.querySelectorAll("#setup-form select.level").forEach((select) => {
      for (const option of select.options) option.disabled = !allowed.has(option.value);
      if (select.selectedOptions[0] && select.selectedOptions[0].disabled) select.value = "expert";
    });
    labelLevels();
    showLevels();
  }

  function labelLevels() {
    document.querySelectorAll("#setup-form select.level option").forEach((option) => {
      option.textContent = option.value === TARGET ? t("target Elo\u2026") : t(option.value);
      option.title = option.disabled ? t("not offered at this table") : "";
    });
    document.querySelectorAll("#setup-form input.elo").forEach((input, index) => {
      input.setAttribute("aria-label", t("Target Elo of bot {n}", { n: index + 1 }));
    });
  }

  // As many level selects as bots; a select on "target Elo" shows its number input (game-elo-N,
  // disabled while hidden so that the form asks no value nobody sees).
  function showLevels() {
    const count = parseInt($("game-bots").value, 10);
    document.querySelectorAll("#setup-form select.level").forEach((select, index) => {
      select.closest("label").hidden = index >= count;
      const input = $(select.id.replace("level", "elo"));
      input.disabled = input.closest("label").hidden = index >= count || select.value !== TARGET;
    });
    $("setup-note").hidden = !document.querySelector("#setup-form input.elo:enabled");
  }

  async function deal(event) {
    if (event) event.preventDefault();
    const count = parseInt($("game-bots").value, 10);
    const levels = [...document.querySelectorAll("#setup-form select.level")].slice(0, count)
      .map((select) => select.value === TARGET
        ? `elo:${Number($(select.id.replace("level", "elo")).value)}` : select.value);
    const body = { rules: $("game-rules").value, bots: levels, lang: T.lang() };
    const seed = $("game-seed").value.trim();
    if (seed) body.seed = parseInt(seed, 10);
    board().say(t("Dealing\u2026"));
    const answer = await call("/games", body);
    if (!answer.ok) {
      board().say(answer.data.error, "bad");
      return;
    }
    $("game-log").replaceChildren();
    remember(answer.data.id);
    window.history.replaceState(null, "", "#game");
    show(answer.data, { table: [], events: answer.data.events });
  }

  // The game's id is kept for this tab, so that a reload finds the game again (the server
  // keeps it for half an hour unused).
  function remember(id) {
    try {
      if (id) window.sessionStorage.setItem("rami-game", id);
      else window.sessionStorage.removeItem("rami-game");
    } catch (error) { /* storage off: a reload starts afresh */ }
  }

  function remembered() {
    try {
      return window.sessionStorage.getItem("rami-game");
    } catch (error) {
      return null;
    }
  }

  async function resume(id) {
    const answer = await call(`/games/${encodeURIComponent(id)}?since=0`);
    if (!answer.ok) {
      remember(null);
      return false;
    }
    $("game-log").replaceChildren();
    remember(id);
    show(answer.data);
    return true;
  }

  // ------------------------------------------------------------------ showing the game

  // The game as the server answered. `played`: the table before the answer and the events that
  // came with it, whose bots' turns are shown one at a time first (at the pace chosen).
  function show(state, played) {
    const before = game;
    game = state;
    document.body.classList.add("in-game");
    $("game-setup").hidden = true;
    $("game-bar").hidden = false;
    $("game-log-box").hidden = false;
    showNotes(state);
    const opened = before && before.id === state.id ? before.view.opened : null;
    if (played && bots().start(state, played.table, played.events, { addLog, showBoard, showButtons }, opened)) {
      return;
    }
    addLog(state.events);
    settle(state, before);
  }

  // The game as it stands after the answer (and after the bots' turns were shown).
  function settle(state) {
    const view = state.view;
    if (window.ramiAdvice) window.ramiAdvice.reset(); // a new decision: its hints from level 1
    if (state.phase !== "claim") looked = `${state.id}:${view.round}`;
    showPlayers(state);
    showPiles(state, view);
    const laid = state.events.filter((entry) => entry.kind === "play" && entry.seat !== 0
      && entry.round === view.round).flatMap((entry) => entry.played);
    showBoard({ table: view.table, hand: view.hand }, asked("play") ? view.drawn : null, laid);
    showRounds(state);
    showButtons(state);
    board().say(prompt(state), state.phase === "game-over" ? "good" : "");
    if (state.phase === "round-over" || state.phase === "game-over") {
      $("round-summary").scrollIntoView({ block: "nearest" });
    } else if (state.phase === "play" && window.matchMedia("(max-height: 500px)").matches) {
      // A phone on its side: the hand and the messages docked below leave the table little
      // room; the turn starts with the table's top at the top of the screen.
      $("table").scrollIntoView({ block: "start" });
    }
  }

  function showBoard(position, drawn, laid, taken) {
    board().load(position, drawn, laid, taken);
  }

  function showNotes(state) {
    // What to know about the levels seated: the library's notes, as `rami play` prints them.
    $("game-notes").textContent = state.notes.map((note) => t("Note: {note}.", { note })).join(" ");
    $("game-notes").hidden = state.notes.length === 0;
  }

  function addLog(events) {
    const list = $("game-log");
    for (const entry of events) {
      const item = document.createElement("li");
      item.textContent = entry.text;
      if (entry.moves && entry.moves.length) {
        const moves = document.createElement("span");
        moves.className = "log-moves";
        moves.textContent = ` ${t("Moves: {moves}", { moves: entry.moves.join("; ") })}`;
        item.appendChild(moves);
      }
      item.className = `log-${entry.kind}`;
      if (entry.seat !== undefined) item.dataset.seat = entry.seat;
      list.appendChild(item);
    }
    while (list.children.length > 200) list.firstElementChild.remove();
    list.scrollTop = list.scrollHeight;
  }

  // A player's name in the page's language: You, or P2 (beginner) with the level's word.
  function playerName(state, seat) {
    if (seat === 0) return t("You");
    const level = state.players[seat].level;
    return `P${seat + 1} (${LEVELS.includes(level) ? t(level) : level})`;
  }

  // One chip a player: cards in hand, opened, the running total (the game's totals, this round
  // counted once it is over), and the discards the player took that are still in the hand.
  function showPlayers(state, turn) {
    const view = state.view;
    const box = $("opponents");
    box.replaceChildren();
    state.players.forEach((player, seat) => {
      const chip = document.createElement("div");
      const moving = turn === undefined ? state.to_move === seat : turn === seat;
      chip.className = "player" + (seat === 0 ? " you" : "") + (moving ? " to-move" : "")
        + (view.active[seat] ? "" : " out");
      chip.dataset.seat = seat;
      const name = document.createElement("strong");
      name.textContent = playerName(state, seat);
      const info = document.createElement("span");
      info.className = "small";
      const size = view.hand_sizes[seat];
      info.textContent = t(size === 1 ? "{n} card" : "{n} cards", { n: size })
        + (view.opened[seat] ? `, ${t("opened")}` : "")
        + ` \u00b7 ${t("{n} pts", { n: state.totals[seat] })}`;
      info.className = "small totals";
      chip.append(name, info);
      const known = (view.known || [])[seat] || [];
      if (known.length) {
        const took = document.createElement("span");
        took.className = "small took";
        took.textContent = t("took {cards}", { cards: T.cards(known) });
        chip.appendChild(took);
      }
      box.appendChild(chip);
    });
  }

  function cardImage(code) {
    const image = document.createElement("img");
    image.alt = T.card(code);
    image.dataset.card = code;
    T.cardSrc(image, code);
    return image;
  }

  // The stock, and the discard pile whole (top last) where the preset has one: rami chinois
  // has none, and shows none.
  function showPiles(state, view) {
    $("stock-count").textContent = t("stock {n}", { n: view.stock_size });
    const pile = view.discard_pile;
    const hasPile = state.discard_rule || pile.length > 0;
    $("discard-pile").hidden = !hasPile;
    $("discard-row").hidden = !hasPile || pile.length < 2; // one card: the pile's top shows it
    const top = pile[pile.length - 1];
    $("discard-top").replaceChildren(...(top ? [cardImage(top)] : []));
    $("discard-count").textContent = t("discard {n}", { n: pile.length });
    const row = $("discard-row");
    row.setAttribute("aria-label", t("The discard pile, top last"));
    row.replaceChildren(...pile.map(cardImage));
    const first = view.first === 0 ? t("You played first")
      : t("{name} played first", { name: playerName(state, view.first) });
    const parts = [state.title, t("Round {n}", { n: view.round }), first];
    if (view.target) parts.push(t("game to {n}", { n: view.target }));
    parts.push(t("seed {n}", { n: state.seed }));
    $("game-info").textContent = parts.join(" \u00b7 ");
  }

  function showRounds(state) {
    const box = $("round-summary");
    const over = state.phase === "round-over" || state.phase === "game-over";
    box.hidden = !over;
    if (!over) return;
    const last = state.rounds[state.rounds.length - 1];
    box.replaceChildren();
    const title = document.createElement("h3");
    title.textContent = state.phase === "game-over" ? t("Game over") : t("Round {n} over", { n: last.number });
    const table = document.createElement("table");
    const head = table.insertRow();
    for (const text of ["", t("hand laid down"), t("round"), t("total")]) {
      const cell = document.createElement("th");
      cell.textContent = text;
      head.appendChild(cell);
    }
    state.players.forEach((player, seat) => {
      const row = table.insertRow();
      if (last.winners.includes(seat)) row.className = "winner";
      for (const text of [playerName(state, seat), T.cards(last.hands[seat]) || "\u2014",
        (last.scores[seat] > 0 ? "+" : "") + last.scores[seat], last.totals[seat]]) {
        row.insertCell().textContent = text;
      }
    });
    box.append(title, table);
    if (state.result) {
      const result = document.createElement("p");
      result.className = "result";
      const winners = state.result.winners;
      const names = winners.map((seat) => playerName(state, seat)).join(t(" and "));
      // Why the game ended (rami.game.scoring: target, elimination, rounds, max-rounds), in words.
      const why = { "target": t("the target is reached"), "elimination": t("the others are eliminated"),
        "rounds": t("the rounds agreed are played"), "max-rounds": t("the most rounds are played") };
      const reason = why[state.result.reason] || state.result.reason;
      result.textContent = winners.length === 1 && winners[0] === 0 ? t("You win ({reason}).", { reason })
        : t(winners.length > 1 ? "{names} win ({reason})." : "{names} wins ({reason}).", { names, reason });
      box.appendChild(result);
    }
  }

  function showButtons(state) {
    const playing = bots().playing();
    const looking = waitingLook();
    const phase = playing || looking ? "wait" : state.phase;
    const view = state.view;
    const set = (id, on) => { $(id).hidden = !on; };
    set("draw-stock", phase === "draw");
    set("draw-discard", phase === "draw" && view.draws.includes("discard"));
    set("claim-take", phase === "claim");
    set("claim-pass", phase === "claim");
    set("discard", phase === "play" && state.discard_rule);
    set("end-turn", phase === "play");
    set("next-round", phase === "round-over");
    set("go-on", playing || looking);
    set("game-hint", ["draw", "claim", "play"].includes(phase));
    if (phase !== "draw" && phase !== "claim" && phase !== "play") set("play-hint", false);
    set("new-game", true);
    $("stock-pile").disabled = phase !== "draw";
    $("discard-pile").disabled = !(phase === "draw" && view.draws.includes("discard"));
    for (const id of ["new-meld", "split", "undo", "reset"]) $(id).hidden = phase !== "play";
  }

  function prompt(state) {
    const view = state.view;
    if (waitingLook()) {
      return t("Round {n}: your {count} cards are dealt. Look at your hand, then press Go on.",
        { n: view.round, count: view.hand.length });
    }
    switch (state.phase) {
      case "draw":
        return view.draws.includes("discard")
          ? t("Your turn: draw from the stock or take the {card} from the discard pile.",
            { card: T.card(view.discard_pile[view.discard_pile.length - 1]) })
          : t("Your turn: draw from the stock.");
      case "claim":
        return t("Claim the {card} (you also take a penalty card from the stock), or pass?",
          { card: T.card(view.claim_card) });
      case "play": {
        const drawn = view.drawn ? t("You drew {card}. ", { card: T.card(view.taken_discard || view.drawn) }) : "";
        return drawn + (state.discard_rule
          ? t("Lay what you can, then select one card of your hand and press Discard (or End turn when your hand is empty).")
          : t("Lay what you can, then press End turn."));
      }
      case "round-over":
        return t("Round over: the hands are laid down and counted. Next round deals again.");
      default:
        return state.result ? t("Game over. New game deals another.") : "";
    }
  }

  // ------------------------------------------------------------------ answers

  async function act(path, body) {
    if (busy || !game || bots().playing()) return;
    busy = true;
    document.body.classList.add("waiting");
    board().say(t("The bots are playing\u2026"));
    const table = game.view.table;
    // The count of decisions seen and the log's length: a request sent again after a lost
    // answer is not applied twice, and is answered with the game as the first one left it.
    const sent = { ...body, decisions: game.decisions };
    const url = `/games/${game.id}/${path}?since=${game.event_count}`;
    try {
      let answer;
      try {
        answer = await call(url, sent);
      } catch (lost) {
        answer = await call(url, sent); // once more: the network dropped the answer
      }
      if (answer.ok) {
        show(answer.data, { table, events: answer.data.events });
      } else if (answer.data.problems && answer.data.problems.length) {
        const title = answer.status === 409 ? t("Not now.") : t("The referee refuses this turn.");
        board().problems(title, answer.data.problems);
      } else {
        board().say(answer.data.error, "bad");
      }
    } catch (error) {
      board().say(error.message, "bad");
    } finally {
      busy = false;
      document.body.classList.remove("waiting");
    }
  }

  function discard() {
    const chosen = board().selectedHand();
    if (chosen.length !== 1) {
      board().say(t("Select the one card of your hand to discard, then press Discard."), "bad");
      return;
    }
    act("play", { table: board().table(), discard: chosen[0] });
  }

  function endTurn() {
    act("play", { table: board().table(), discard: null });
  }

  function goOn() {
    if (bots().playing()) {
      bots().next();
      return;
    }
    if (waitingLook()) {
      looked = `${game.id}:${game.view.round}`;
      showButtons(game);
      board().say(prompt(game));
    }
  }

  // ------------------------------------------------------------------ the mode

  function open() {
    $("mode-game").setAttribute("aria-pressed", "true");
    $("mode-puzzle").setAttribute("aria-pressed", "false");
    board().setMode("game", () => {
      if (asked("play") && !busy) return true;
      board().say(game ? prompt(game) || t("Wait for your turn.") : t("Deal a game first."));
      return false;
    });
    window.history.replaceState(null, "", "#game");
    if (game) {
      show(game);
      return;
    }
    const id = remembered();
    newGame();
    if (id) resume(id);
  }

  // New game: a game still in play is thrown away only once the person says so.
  function askNewGame() {
    if (!game || game.phase === "game-over") {
      newGame();
      return;
    }
    const dialog = $("confirm-new");
    dialog.returnValue = "";
    dialog.showModal();
  }

  function newGame() {
    bots().stop();
    document.body.classList.remove("in-game");
    $("game-setup").hidden = false;
    $("game-bar").hidden = true;
    $("game-log-box").hidden = true;
    $("round-summary").hidden = true;
    for (const id of ACTIONS) $(id).hidden = true;
    board().load({ table: [], hand: [] });
    board().say(t("Choose the rules and the bots, then Deal."));
    game = null;
    remember(null);
  }

  function close(quiet) {
    bots().finish();
    $("mode-game").setAttribute("aria-pressed", "false");
    $("mode-puzzle").setAttribute("aria-pressed", "true");
    for (const id of ["new-meld", "split", "undo", "reset"]) $(id).hidden = false;
    if (!quiet) window.history.replaceState(null, "", location.pathname);
    board().setMode("puzzle", null, quiet);
  }

  function onKey(event) {
    if (!document.body.classList.contains("game-mode") || !game) return;
    if (event.target.closest("select, input, textarea, dialog")) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key.toLowerCase();
    if (key === "d" && asked("play") && game.discard_rule) discard();
    else if (key === "e" && asked("play")) endTurn();
    else if (key === "t" && asked("draw")) act("draw", { source: "stock" });
    else if (key === "g" && (bots().playing() || waitingLook())) goOn();
    else return;
    event.preventDefault();
  }

  // The language switched: the menus' words, and the game again in that language.
  function relabel() {
    labelLevels();
    if (game && document.body.classList.contains("game-mode")) {
      bots().finish();
      resume(game.id);
    }
  }

  function start() {
    fillLevels();
    loadRulesets().then(offerLevels);
    $("game-bots").addEventListener("change", offerLevels);
    $("game-rules").addEventListener("change", offerLevels);
    $("setup-form").addEventListener("submit", deal);
    $("mode-game").addEventListener("click", open);
    $("mode-puzzle").addEventListener("click", () => close(false));
    $("draw-stock").addEventListener("click", () => act("draw", { source: "stock" }));
    $("stock-pile").addEventListener("click", () => act("draw", { source: "stock" }));
    $("draw-discard").addEventListener("click", () => act("draw", { source: "discard" }));
    $("discard-pile").addEventListener("click", () => act("draw", { source: "discard" }));
    $("claim-take").addEventListener("click", () => act("claim", { take: true }));
    $("claim-pass").addEventListener("click", () => act("claim", { take: false }));
    $("discard").addEventListener("click", discard);
    $("end-turn").addEventListener("click", endTurn);
    $("next-round").addEventListener("click", () => act("next", {}));
    $("go-on").addEventListener("click", goOn);
    $("new-game").addEventListener("click", askNewGame);
    $("confirm-new").addEventListener("close", () => {
      if ($("confirm-new").returnValue === "throw") newGame();
    });
    $("game-hint").addEventListener("click", () => window.ramiAdvice && window.ramiAdvice.ask(game, act));
    document.addEventListener("keydown", onKey);
    document.addEventListener("rami-lang", relabel);
    for (const id of [...ACTIONS, "new-game"]) $(id).hidden = true;
    if (location.hash === "#game") open();
  }

  window.ramiGame = {
    state: () => game, open, close, settle: (state) => settle(state), prompt: () => prompt(game),
    showPlayers, showPiles, asked, playerName,
  };

  document.addEventListener("DOMContentLoaded", start);
})();
