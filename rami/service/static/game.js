// The page's game mode: a game against bots held by the server (docs/page.md, /games).
//
// The server deals, plays the bots and judges every turn with the referee; this script only
// shows what seat 0 sees (its hand, the table, the discard pile, the others' hand sizes, the
// stock's size, the log) and sends its answers. The board is the puzzle page's own (app.js,
// window.ramiBoard): the same clicks, drags, keys, undo and reset.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const LEVELS = ["beginner", "novice", "intermediate", "confirmed", "expert"];
  const TARGET = "elo"; // the level option asking a bot by a target Elo, sent as elo:N

  let game = null; // the last answer of the server (GET /games/{id})
  let busy = false;
  let shownRounds = 0;

  const board = () => window.ramiBoard;

  async function call(path, body) {
    const options = body === undefined ? {} : {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    };
    const response = await fetch(path, options);
    let data = null;
    try {
      data = await response.json();
    } catch (error) {
      data = { error: `${response.status} ${response.statusText}`, problems: [] };
    }
    return { ok: response.ok, status: response.status, data };
  }

  function asked(phase) {
    return game !== null && game.phase === phase;
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
        option.textContent = level === TARGET ? "target Elo\u2026" : level;
        select.appendChild(option);
      }
      select.value = index === 0 ? "beginner" : "confirmed";
      select.addEventListener("change", showLevels);
    });
    showLevels();
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
    const bots = [...document.querySelectorAll("#setup-form select.level")].slice(0, count)
      .map((select) => select.value === TARGET
        ? `elo:${Number($(select.id.replace("level", "elo")).value)}` : select.value);
    const body = { rules: $("game-rules").value, bots };
    const seed = $("game-seed").value.trim();
    if (seed) body.seed = parseInt(seed, 10);
    board().say("Dealing\u2026");
    const answer = await call("/games", body);
    if (!answer.ok) {
      board().say(answer.data.error, "bad");
      return;
    }
    $("game-log").replaceChildren();
    shownRounds = 0;
    remember(answer.data.id);
    show(answer.data);
    window.history.replaceState(null, "", "#game");
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

  function show(state) {
    game = state;
    const view = state.view;
    document.body.classList.add("in-game");
    $("game-setup").hidden = true;
    $("game-bar").hidden = false;
    $("game-log-box").hidden = false;
    addLog(state.events);
    // What to know about the levels seated: the library's notes, as `rami play` prints them.
    $("game-notes").textContent = state.notes.map((note) => `Note: ${note}.`).join(" ");
    $("game-notes").hidden = state.notes.length === 0;
    showPlayers(state);
    showPiles(view);
    const laid = state.events.filter((entry) => entry.kind === "play" && entry.seat !== 0
      && entry.round === view.round).flatMap((entry) => entry.played);
    board().load({ table: view.table, hand: view.hand }, asked("play") ? view.drawn : null, laid);
    showRounds(state);
    showButtons(state);
    board().say(prompt(state), state.phase === "game-over" ? "good" : "");
  }

  function addLog(events) {
    const list = $("game-log");
    for (const entry of events) {
      const item = document.createElement("li");
      item.textContent = entry.text;
      item.className = `log-${entry.kind}`;
      if (entry.seat !== undefined) item.dataset.seat = entry.seat;
      list.appendChild(item);
    }
    while (list.children.length > 200) list.firstElementChild.remove();
    list.scrollTop = list.scrollHeight;
  }

  function showPlayers(state) {
    const view = state.view;
    const box = $("opponents");
    box.replaceChildren();
    state.players.forEach((player, seat) => {
      const chip = document.createElement("div");
      chip.className = "player" + (seat === 0 ? " you" : "") + (state.to_move === seat ? " to-move" : "")
        + (view.active[seat] ? "" : " out");
      chip.dataset.seat = seat;
      const name = document.createElement("strong");
      name.textContent = player.name;
      const info = document.createElement("span");
      info.className = "small";
      const size = view.hand_sizes[seat];
      info.textContent = `${size} card${size === 1 ? "" : "s"}${view.opened[seat] ? ", opened" : ""}`
        + ` \u00b7 ${view.scores[seat]} pts`;
      chip.append(name, info);
      box.appendChild(chip);
    });
  }

  function showPiles(view) {
    $("stock-count").textContent = `stock ${view.stock_size}`;
    const top = view.discard_pile[view.discard_pile.length - 1];
    const topBox = $("discard-top");
    topBox.replaceChildren();
    if (top) {
      const image = document.createElement("img");
      image.src = `/svg/cards/${top === "*" ? "joker" : top}.svg`;
      image.alt = top;
      image.dataset.card = top;
      topBox.appendChild(image);
    }
    $("discard-count").textContent = game.discard_rule || view.discard_pile.length
      ? `discard ${view.discard_pile.length}` : "no discard pile";
    const rounds = game.rounds.length;
    $("game-info").textContent = `${game.title} \u00b7 round ${view.round} \u00b7 seed ${game.seed}`
      + (view.target ? ` \u00b7 game to ${view.target}` : "") + (rounds ? "" : "");
  }

  function showRounds(state) {
    const box = $("round-summary");
    const over = state.phase === "round-over" || state.phase === "game-over";
    box.hidden = !over;
    if (!over) return;
    const last = state.rounds[state.rounds.length - 1];
    box.replaceChildren();
    const title = document.createElement("h3");
    title.textContent = state.phase === "game-over" ? "Game over" : `Round ${last.number} over`;
    const table = document.createElement("table");
    const head = table.insertRow();
    for (const text of ["", "hand laid down", "round", "total"]) {
      const cell = document.createElement("th");
      cell.textContent = text;
      head.appendChild(cell);
    }
    state.players.forEach((player, seat) => {
      const row = table.insertRow();
      if (last.winners.includes(seat)) row.className = "winner";
      for (const text of [player.name, last.hands[seat].join(" ") || "\u2014",
        (last.scores[seat] > 0 ? "+" : "") + last.scores[seat], last.totals[seat]]) {
        row.insertCell().textContent = text;
      }
    });
    box.append(title, table);
    if (state.result) {
      const result = document.createElement("p");
      result.className = "result";
      const names = state.result.winners.map((seat) => state.players[seat].name).join(" and ");
      result.textContent = `${names} ${names === "You" || state.result.winners.length > 1 ? "win" : "wins"}`
        + ` (${state.result.reason}).`;
      box.appendChild(result);
    }
    shownRounds = state.rounds.length;
  }

  function showButtons(state) {
    const phase = state.phase;
    const view = state.view;
    const set = (id, on) => { $(id).hidden = !on; };
    set("draw-stock", phase === "draw");
    set("draw-discard", phase === "draw" && view.draws.includes("discard"));
    set("claim-take", phase === "claim");
    set("claim-pass", phase === "claim");
    set("discard", phase === "play" && state.discard_rule);
    set("end-turn", phase === "play");
    set("next-round", phase === "round-over");
    set("new-game", true);
    $("stock-pile").disabled = phase !== "draw";
    $("discard-pile").disabled = !(phase === "draw" && view.draws.includes("discard"));
    for (const id of ["new-meld", "split", "undo", "reset"]) $(id).hidden = phase !== "play";
  }

  function prompt(state) {
    const view = state.view;
    switch (state.phase) {
      case "draw":
        return `Your turn: draw from the stock${view.draws.includes("discard")
          ? ` or take the ${view.discard_pile[view.discard_pile.length - 1]} from the discard pile` : ""}.`;
      case "claim":
        return `Claim the ${view.claim_card} (you also take a penalty card from the stock), or pass?`;
      case "play": {
        const drawn = view.drawn ? `You drew ${view.taken_discard || view.drawn}. ` : "";
        return drawn + (state.discard_rule
          ? "Lay what you can, then select one card of your hand and press Discard (or End turn when your hand is empty)."
          : "Lay what you can, then press End turn.");
      }
      case "round-over":
        return "Round over: the hands are laid down and counted. Next round deals again.";
      default:
        return state.result ? "Game over. New game deals another." : "";
    }
  }

  // ------------------------------------------------------------------ answers

  async function act(path, body) {
    if (busy || !game) return;
    busy = true;
    document.body.classList.add("waiting");
    board().say("The bots are playing\u2026");
    try {
      const answer = await call(`/games/${game.id}/${path}`, body);
      if (answer.ok) {
        show(answer.data);
      } else if (answer.data.problems && answer.data.problems.length) {
        const title = answer.status === 409 ? "Not now." : "The referee refuses this turn.";
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
      board().say("Select the one card of your hand to discard, then press Discard.", "bad");
      return;
    }
    act("play", { table: board().table(), discard: chosen[0] });
  }

  function endTurn() {
    act("play", { table: board().table(), discard: null });
  }

  // ------------------------------------------------------------------ the mode

  function open() {
    $("mode-game").setAttribute("aria-pressed", "true");
    $("mode-puzzle").setAttribute("aria-pressed", "false");
    board().setMode("game", () => {
      if (asked("play") && !busy) return true;
      board().say(game ? prompt(game) || "Wait for your turn." : "Deal a game first.");
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

  function newGame() {
    document.body.classList.remove("in-game");
    $("game-setup").hidden = false;
    $("game-bar").hidden = true;
    $("game-log-box").hidden = true;
    $("round-summary").hidden = true;
    for (const id of ["draw-stock", "draw-discard", "claim-take", "claim-pass", "discard",
      "end-turn", "next-round", "new-game"]) $(id).hidden = true;
    board().load({ table: [], hand: [] });
    board().say("Choose the rules and the bots, then Deal.");
    game = null;
    remember(null);
  }

  function close() {
    $("mode-game").setAttribute("aria-pressed", "false");
    $("mode-puzzle").setAttribute("aria-pressed", "true");
    for (const id of ["new-meld", "split", "undo", "reset"]) $(id).hidden = false;
    window.history.replaceState(null, "", location.pathname);
    board().setMode("puzzle");
  }

  function onKey(event) {
    if (!document.body.classList.contains("game-mode") || !game) return;
    if (event.target.closest("select, input, textarea, dialog")) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key.toLowerCase();
    if (key === "d" && asked("play") && game.discard_rule) discard();
    else if (key === "e" && asked("play")) endTurn();
    else if (key === "t" && asked("draw")) act("draw", { source: "stock" });
    else return;
    event.preventDefault();
  }

  function start() {
    fillLevels();
    loadRulesets();
    $("game-bots").addEventListener("change", showLevels);
    $("setup-form").addEventListener("submit", deal);
    $("mode-game").addEventListener("click", open);
    $("mode-puzzle").addEventListener("click", close);
    $("draw-stock").addEventListener("click", () => act("draw", { source: "stock" }));
    $("stock-pile").addEventListener("click", () => act("draw", { source: "stock" }));
    $("draw-discard").addEventListener("click", () => act("draw", { source: "discard" }));
    $("discard-pile").addEventListener("click", () => act("draw", { source: "discard" }));
    $("claim-take").addEventListener("click", () => act("claim", { take: true }));
    $("claim-pass").addEventListener("click", () => act("claim", { take: false }));
    $("discard").addEventListener("click", discard);
    $("end-turn").addEventListener("click", endTurn);
    $("next-round").addEventListener("click", () => act("next", {}));
    $("new-game").addEventListener("click", newGame);
    document.addEventListener("keydown", onKey);
    for (const id of ["draw-stock", "draw-discard", "claim-take", "claim-pass", "discard",
      "end-turn", "next-round", "new-game"]) $(id).hidden = true;
    if (location.hash === "#game") open();
  }

  window.ramiGame = { state: () => game };

  document.addEventListener("DOMContentLoaded", start);
})();
