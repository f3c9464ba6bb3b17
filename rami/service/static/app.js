// The rami puzzle page: plain JavaScript, no library, no build step (docs/page.md).
//
// The board is a list of melds (numbered as `rami solve` numbers them: the table's melds keep
// 1..n, new melds are numbered on) and the hand; every card is one object with a unique id and
// the place it started from. "Check" sends the moves that take each card from where it started
// to where it lies now (the move language of `rami solve`) to POST /puzzles/check.
"use strict";

(function () {
  const RANKS = { A: 1, T: 10, J: 11, Q: 12, K: 13 };
  const SUITS = ["S", "H", "D", "C"];
  const TOP_RANK = 14; // the ace above the king
  const PUZZLE_ID = /^rc-[0-9a-f]{10}$/; // as GET /puzzles/{puzzle_id} documents it

  const $ = (id) => document.getElementById(id);
  const T = window.ramiText; // the page's words in English or French (i18n.js)
  const t = T.t;

  let puzzle = null; // the spoiler-free puzzle (GET /puzzles/{id})
  let base = null; // the position the board starts from: the puzzle's, or the game turn's
  let mode = "puzzle"; // or "game" (game.js plays a game against bots on the same board)
  let canMove = () => true; // game.js: may the cards move now (your turn, after the draw)?
  let marked = null; // the card to mark (the one just drawn), by uid
  let fresh = []; // table cards the others laid since your last turn, by uid
  let gone = []; // table cards a bot's turn (shown by bots.js) took from another meld, by uid
  // A finger's tap or drag is handled at its pointerup: the click Chromium may send after it
  // (or not: after a drag it eats the next tap's click) is not one more.
  let touched = { x: 0, y: 0, at: 0 };
  let board = null; // {melds: [{number, cards: [uid]}], hand: [uid]}
  let cards = {}; // uid -> {code, origin: number | "hand"}
  let history = [];
  let selected = [];
  let hintLevel = 0;
  let helped = { hints: 0, solution: false }; // for the solved-puzzle history
  let replay = null; // {moves, step}
  let solved = false;
  let listing = []; // ids of the puzzles of the chosen tier and theme
  let digits = "";
  let digitTimer = null;

  // ------------------------------------------------------------------ cards

  function rankOf(code) {
    const letter = code.slice(0, -1);
    return RANKS[letter] || parseInt(letter, 10);
  }

  function isJoker(code) {
    return code === "*";
  }

  function cardName(code) {
    return T.cardName(code);
  }

  function meldCards(meld) {
    // A meld of the JSON position: a list of cards, or {"kind", "cards"}.
    return Array.isArray(meld) ? meld : meld.cards;
  }

  // Lay out a multiset of cards as a meld, as rami.melds.arrange does: a run first (jokers in
  // the gaps, then above the top card, then below the bottom one), else a set.
  function arrange(codes) {
    const real = codes.filter((c) => !isJoker(c));
    const jokers = codes.length - real.length;
    const run = arrangeRun(real, jokers);
    if (run && codes.length >= 3) return { kind: "run", cards: run };
    const set = arrangeSet(real, jokers);
    if (set && codes.length >= 3) return { kind: "set", cards: set };
    if (run) return { kind: "short", cards: run };
    if (set) return { kind: "short", cards: set };
    const sorted = real.slice().sort((a, b) =>
      SUITS.indexOf(a.slice(-1)) - SUITS.indexOf(b.slice(-1)) || rankOf(a) - rankOf(b));
    return { kind: "bad", cards: sorted.concat(Array(jokers).fill("*")) };
  }

  function arrangeRun(real, jokers) {
    if (!real.length) return null;
    const suit = real[0].slice(-1);
    if (real.some((c) => c.slice(-1) !== suit)) return null;
    for (const ace of [1, 14]) {
      const value = (c) => (rankOf(c) === 1 ? ace : rankOf(c));
      const values = real.map(value).sort((a, b) => a - b);
      if (new Set(values).size !== values.length) return null;
      const gaps = values[values.length - 1] - values[0] + 1 - values.length;
      const spare = jokers - gaps;
      if (spare < 0) continue;
      const up = Math.min(spare, TOP_RANK - values[values.length - 1]);
      const low = values[0] - (spare - up);
      const high = values[values.length - 1] + up;
      if (low < 1) continue;
      const byValue = {};
      real.forEach((c) => { byValue[value(c)] = c; });
      const laid = [];
      for (let v = low; v <= high; v++) laid.push(byValue[v] || "*");
      return laid;
    }
    return null;
  }

  function arrangeSet(real, jokers) {
    if (!real.length) return null;
    const rank = rankOf(real[0]);
    if (real.some((c) => rankOf(c) !== rank)) return null;
    const suits = real.map((c) => c.slice(-1));
    if (new Set(suits).size !== suits.length || real.length + jokers > 4) return null;
    const sorted = real.slice().sort((a, b) => SUITS.indexOf(a.slice(-1)) - SUITS.indexOf(b.slice(-1)));
    return sorted.concat(Array(jokers).fill("*"));
  }

  // ------------------------------------------------------------------ the board

  function newBoard(position) {
    cards = {};
    let next = 0;
    const make = (code, origin) => {
      const uid = `c${next++}`;
      cards[uid] = { code, origin };
      return uid;
    };
    const melds = position.table.map((meld, index) => ({
      number: index + 1,
      original: true,
      cards: meldCards(meld).map((code) => make(code, index + 1)),
    }));
    return { melds, hand: position.hand.map((code) => make(code, "hand")) };
  }

  function snapshot() {
    return JSON.parse(JSON.stringify(board));
  }

  function meldOf(number) {
    return board.melds.find((m) => m.number === number);
  }

  function whereIs(uid) {
    if (board.hand.includes(uid)) return "hand";
    const meld = board.melds.find((m) => m.cards.includes(uid));
    return meld ? meld.number : null;
  }

  function originalCount() {
    return base.table.length;
  }

  function nextNumber() {
    return Math.max(originalCount(), ...board.melds.map((m) => m.number)) + 1;
  }

  // Empty new melds go; the new melds left are numbered on from the table's, in order.
  function tidy() {
    board.melds = board.melds.filter((m) => m.original || m.cards.length);
    let number = originalCount();
    board.melds.filter((m) => !m.original).sort((a, b) => a.number - b.number)
      .forEach((m) => { m.number = ++number; });
    board.melds.sort((a, b) => a.number - b.number);
    board.melds.forEach((m) => { m.cards = ordered(m); });
  }

  function ordered(meld) {
    const codes = meld.cards.map((uid) => cards[uid].code);
    const original = meld.original && base.table[meld.number - 1];
    if (original && sameCards(codes, meldCards(original))) {
      // Unchanged: as it lay (jokers where they stood).
      const left = meld.cards.slice();
      return meldCards(original).map((code) => {
        const at = left.findIndex((uid) => cards[uid].code === code);
        return left.splice(at, 1)[0];
      });
    }
    const laid = arrange(codes).cards;
    const left = meld.cards.slice();
    return laid.map((code) => {
      const at = left.findIndex((uid) => cards[uid].code === code);
      return left.splice(at, 1)[0];
    });
  }

  function sameCards(a, b) {
    return a.length === b.length && a.slice().sort().join() === b.slice().sort().join();
  }

  // Move the selected cards (or `uids`) to a meld number, "new" or "hand".
  function moveTo(target, uids) {
    uids = (uids || selected).slice();
    let fresh_meld = false;
    if (!canMove()) return false;
    if (!uids.length) {
      say(t("Select one or more cards first (click them, or Enter on a focused card)."));
      return false;
    }
    if (target === "hand") {
      const fromTable = uids.filter((uid) => cards[uid].origin !== "hand");
      if (fromTable.length) {
        say(t("{card} comes from the table: a table card never goes back to the hand.",
          { card: cardName(cards[fromTable[0]].code) }), "bad");
        return false;
      }
    } else if (target === "new") {
      target = nextNumber();
      fresh_meld = true;
    } else if (!meldOf(target) && target !== nextNumber()) {
      say(t("There is no meld {n}.", { n: target }), "bad");
      return false;
    }
    if (uids.every((uid) => whereIs(uid) === target)) {
      say(target === "hand" ? t("Already in your hand.") : t("Already in meld {n}.", { n: target }));
      return false;
    }
    history.push(snapshot());
    for (const uid of uids) {
      const from = whereIs(uid);
      if (from === "hand") board.hand = board.hand.filter((u) => u !== uid);
      else meldOf(from).cards = meldOf(from).cards.filter((u) => u !== uid);
    }
    if (target === "hand") {
      board.hand.push(...uids);
    } else {
      let meld = meldOf(target);
      if (!meld) {
        meld = { number: target, original: false, cards: [] };
        board.melds.push(meld);
      }
      meld.cards.push(...uids);
    }
    selected = [];
    tidy();
    clearVerdict();
    render();
    // Every move is said in the status line (a live region: screen readers read it out).
    const moved = T.cards(uids.map((uid) => cards[uid].code));
    const number = whereIs(uids[0]);
    if (target === "hand") say(t("{cards} back to your hand.", { cards: moved }));
    else if (fresh_meld) say(t("{cards} to a new meld {n}.", { cards: moved, n: number }));
    else say(t("{cards} to meld {n}.", { cards: moved, n: number }));
    return true;
  }

  // Split the run holding the selected card after that card: the rest becomes a new meld.
  function split() {
    if (!canMove()) return;
    if (selected.length !== 1) {
      say(t("Select one card of a run: the run is split after it."));
      return;
    }
    const uid = selected[0];
    const number = whereIs(uid);
    const meld = number === "hand" ? null : meldOf(number);
    if (!meld) {
      say(t("Select a card on the table: the run is split after it."));
      return;
    }
    const layout = arrange(meld.cards.map((u) => cards[u].code));
    if (layout.kind !== "run") {
      say(t("Meld {n} is not a run: only a run can be split.", { n: number }), "bad");
      return;
    }
    const at = meld.cards.indexOf(uid);
    if (at === meld.cards.length - 1) {
      say(t("{card} is the last card of meld {n}: nothing to split off.",
        { card: cardName(cards[uid].code), n: number }), "bad");
      return;
    }
    moveTo("new", meld.cards.slice(at + 1));
    say(t("Split meld {n} after {card}.", { n: number, card: T.card(cards[uid].code) }));
  }

  function undo() {
    if (!history.length) {
      say(t("Nothing to undo."));
      return;
    }
    board = history.pop();
    selected = [];
    if (replay && replay.step > 0) replay.step -= 1;
    clearVerdict();
    render();
    say(t("Undone."));
  }

  function reset() {
    if (!base) return;
    board = newBoard(base);
    history = [];
    selected = [];
    if (replay) replay.step = 0;
    clearVerdict();
    render();
  }

  // The moves that take every card from where it started to where it lies now.
  function movesText() {
    const lines = [];
    for (const meld of board.melds) {
      const groups = new Map();
      for (const uid of meld.cards) {
        const origin = cards[uid].origin;
        if (origin === meld.number) continue;
        if (!groups.has(origin)) groups.set(origin, []);
        groups.get(origin).push(cards[uid].code);
      }
      const origins = [...groups.keys()].sort((a, b) =>
        (a === "hand") - (b === "hand") || a - b);
      for (const origin of origins) {
        const codes = groups.get(origin).join(" ");
        lines.push(origin === "hand" ? `add ${codes} to ${meld.number}`
          : `move ${codes} from ${origin} to ${meld.number}`);
      }
    }
    return lines;
  }

  // ------------------------------------------------------------------ drawing

  function cardButton(uid, place) {
    const card = cards[uid];
    const button = document.createElement("button");
    button.type = "button";
    button.className = "card";
    button.dataset.uid = uid;
    button.dataset.card = card.code;
    button.draggable = true;
    const here = whereIs(uid);
    if (card.origin === "hand" && here !== "hand") button.classList.add("from-hand");
    if (card.origin !== "hand" && here !== card.origin) button.classList.add("moved");
    if (here === "hand" && uid === marked) button.classList.add("drawn");
    if (here !== "hand" && fresh.includes(uid)) button.classList.add("fresh");
    if (here !== "hand" && gone.includes(uid)) button.classList.add("taken");
    const isSelected = selected.includes(uid);
    button.classList.toggle("selected", isSelected);
    button.setAttribute("aria-pressed", String(isSelected));
    button.setAttribute("aria-label", `${cardName(card.code)}, ${place}`);
    const image = document.createElement("img");
    image.dataset.card = card.code;
    T.cardSrc(image, card.code);
    image.alt = "";
    image.draggable = false;
    button.appendChild(image);
    button.addEventListener("click", () => {
      pick(uid);
    });
    touchDrag(button, uid);
    button.addEventListener("dragstart", (event) => {
      if (!selected.includes(uid)) selected = [uid];
      event.dataTransfer.setData("text/plain", selected.join(","));
      event.dataTransfer.effectAllowed = "move";
      highlightSelection();
    });
    return button;
  }

  // A card pressed: with cards selected elsewhere, a card of a meld takes them to that meld
  // (as its Put here button does); otherwise the card is selected or unselected.
  function pick(uid) {
    const here = whereIs(uid);
    if (here !== "hand" && here !== null && selected.length && !selected.includes(uid)
        && !selected.some((other) => whereIs(other) === here) && !(replay && replay.active)) {
      moveTo(here);
      return;
    }
    toggle(uid);
  }

  function toggle(uid) {
    if (replay && replay.active) {
      say(t("The solution is playing: press Reset to play yourself."));
      return;
    }
    selected = selected.includes(uid) ? selected.filter((u) => u !== uid) : [...selected, uid];
    highlightSelection();
    updateTargets();
    if (selected.length) {
      const codes = T.cards(selected.map((u) => cards[u].code));
      say(t("Selected {cards}: now choose a meld (or New meld).", { cards: codes }));
    } else {
      say(t("Nothing selected."));
    }
  }

  function highlightSelection() {
    document.querySelectorAll(".card").forEach((button) => {
      const on = selected.includes(button.dataset.uid);
      button.classList.toggle("selected", on);
      button.setAttribute("aria-pressed", String(on));
    });
  }

  function dropZone(element, target) {
    element.addEventListener("dragover", (event) => {
      event.preventDefault();
      element.classList.add("over");
    });
    element.addEventListener("dragleave", () => element.classList.remove("over"));
    element.addEventListener("drop", (event) => {
      event.preventDefault();
      element.classList.remove("over");
      const uids = (event.dataTransfer.getData("text/plain") || "").split(",").filter((u) => cards[u]);
      if (uids.length) moveTo(target, uids);
    });
  }

  // Dragging with a finger (or a pen): pointer events, since HTML drag and drop is the mouse's.
  // The card follows the finger; where it is let go (a meld, the New meld box, the hand) gets
  // the selection, or the card alone if it was not selected.
  function touchDrag(button, uid) {
    let start = null;
    let ghost = null;
    let zone = null;
    const finish = () => {
      if (ghost) ghost.remove();
      if (zone) zone.classList.remove("over");
      ghost = zone = start = null;
    };
    button.addEventListener("pointerdown", (event) => {
      if (event.pointerType === "mouse" || !event.isPrimary) return;
      start = { x: event.clientX, y: event.clientY, id: event.pointerId };
    });
    button.addEventListener("pointermove", (event) => {
      if (!start || event.pointerId !== start.id) return;
      if (!ghost) {
        if (Math.hypot(event.clientX - start.x, event.clientY - start.y) < 8) return;
        if (!canMove()) { start = null; return; }
        // The card alone if it was not selected; the targets' buttons show once it is let go,
        // so that nothing moves under the finger.
        if (!selected.includes(uid)) selected = [uid];
        highlightSelection();
        ghost = button.cloneNode(true);
        ghost.className = "card drag-ghost";
        ghost.removeAttribute("id");
        if (selected.length > 1) ghost.dataset.count = selected.length;
        document.body.appendChild(ghost);
      }
      event.preventDefault();
      ghost.style.left = `${event.clientX}px`;
      ghost.style.top = `${event.clientY}px`;
      const under = dropUnder(event.clientX, event.clientY);
      if (under !== zone) {
        if (zone) zone.classList.remove("over");
        zone = under;
        if (zone) zone.classList.add("over");
      }
    });
    button.addEventListener("pointerup", (event) => {
      if (!start || event.pointerId !== start.id) return;
      const dragged = Boolean(ghost);
      const target = dragged ? dropTarget(dropUnder(event.clientX, event.clientY)) : null;
      finish();
      touched = { x: event.clientX, y: event.clientY, at: Date.now() };
      if (!dragged) {
        pick(uid); // a tap
        return;
      }
      if (target === null || !moveTo(target, selected)) updateTargets();
    });
    button.addEventListener("pointercancel", finish);
  }

  function dropUnder(x, y) {
    const element = document.elementFromPoint(x, y);
    return element ? element.closest(".drop") : null;
  }

  function dropTarget(zone) {
    if (!zone) return null;
    if (zone.id === "hand") return "hand";
    if (zone.id === "new-meld-zone") return "new";
    return zone.dataset.number ? parseInt(zone.dataset.number, 10) : null;
  }

  function render() {
    const focused = document.activeElement && document.activeElement.dataset
      ? document.activeElement.dataset.uid : null;
    const table = $("table");
    table.replaceChildren();
    for (const meld of board.melds) {
      const codes = meld.cards.map((uid) => cards[uid].code);
      const layout = arrange(codes);
      const box = document.createElement("div");
      box.className = "meld drop";
      box.dataset.number = meld.number;
      if (!meld.original) box.classList.add("new");
      if (!codes.length) box.classList.add("empty");
      else if (layout.kind === "bad" || layout.kind === "short") box.classList.add("invalid");
      const head = document.createElement("div");
      head.className = "meld-head";
      const badge = document.createElement("span");
      badge.className = "badge";
      badge.textContent = meld.number;
      const label = document.createElement("span");
      label.className = "kind";
      label.textContent = t(!codes.length ? "empty" : layout.kind === "run" ? "run"
        : layout.kind === "set" ? "set" : "not a meld yet");
      const here = document.createElement("button");
      here.type = "button";
      here.className = "here";
      here.textContent = t("Put here");
      here.setAttribute("aria-label", t("Put the selected cards in meld {n}", { n: meld.number }));
      here.addEventListener("click", () => moveTo(meld.number));
      head.append(badge, label, here);
      const row = document.createElement("div");
      row.className = "cards";
      meld.cards.forEach((uid) => row.appendChild(cardButton(uid, t("meld {n}", { n: meld.number }))));
      box.append(head, row);
      box.addEventListener("click", (event) => {
        if (event.target === box || event.target === row || event.target === head
            || event.target === badge || event.target === label) {
          if (selected.length) moveTo(meld.number);
        }
      });
      dropZone(box, meld.number);
      table.appendChild(box);
    }
    const fresh = document.createElement("button");
    fresh.type = "button";
    fresh.className = "meld new-meld drop";
    fresh.id = "new-meld-zone";
    fresh.innerHTML = `<span class="badge new">${nextNumber()}</span><span>${t("New meld")}</span>`;
    fresh.setAttribute("aria-label", t("Make a new meld {n} of the selected cards", { n: nextNumber() }));
    fresh.addEventListener("click", () => moveTo("new"));
    dropZone(fresh, "new");
    table.appendChild(fresh);

    const hand = $("hand");
    hand.replaceChildren();
    board.hand.forEach((uid) => hand.appendChild(cardButton(uid, t("in your hand"))));
    if (!board.hand.length) {
      const done = document.createElement("p");
      done.className = "muted small";
      done.textContent = t("Your hand is empty.");
      hand.appendChild(done);
    }
    const count = board.hand.length;
    const cardsLeft = count === 1 ? "{n} card left" : "{n} cards left";
    $("penalty").textContent = !count ? "" : t(mode === "puzzle" ? cardsLeft : count === 1 ? "{n} card" : "{n} cards", { n: count });
    $("undo").disabled = !history.length;
    updateTargets();
    if (focused) {
      const again = document.querySelector(`.card[data-uid="${focused}"]`);
      if (again) again.focus();
    }
  }

  function updateTargets() {
    document.body.classList.toggle("choosing", selected.length > 0);
    $("split").disabled = selected.length !== 1 || whereIs(selected[0]) === "hand";
  }

  // ------------------------------------------------------------------ messages

  function say(text, tone) {
    const status = $("status");
    status.className = "status" + (tone ? ` ${tone}` : "");
    status.textContent = text;
  }

  function clearVerdict() {
    // A solved table that changes is no longer the answer.
    solved = false;
    document.body.classList.remove("is-solved");
  }

  function showVerdict(result) {
    const status = $("status");
    status.replaceChildren();
    const head = document.createElement("strong");
    const list = document.createElement("ul");
    for (const reason of result.reasons || []) {
      const item = document.createElement("li");
      item.textContent = reason;
      list.appendChild(item);
    }
    if (result.solved && helped.solution) {
      // The solution was shown: the table is right, but the puzzle is not counted as solved.
      status.className = "status";
      head.textContent = t("Solved, with the solution shown: not counted. ");
      keepSolved();
    } else if (result.solved) {
      solved = true;
      status.className = "status good";
      head.textContent = t(result.intended ? "Solved! " : "Solved (another way)! ");
      document.body.classList.add("is-solved");
      keepSolved();
    } else {
      status.className = "status bad";
      head.textContent = t(result.legal ? "Not solved yet. " : "That table is not legal. ");
    }
    status.append(head, list);
  }

  // ------------------------------------------------------------------ attempts and ratings
  //
  // When the server keeps attempts (GET /puzzles/ratings says "recording"), the page reports
  // each attempt at a puzzle (POST /puzzles/attempts) under a random player id kept in this
  // browser (nothing personal), and shows the player's rating and the puzzle's (docs/puzzles.md,
  // "Ratings"). An attempt is reported once: when solved, when the solution is shown, or when
  // the player leaves the puzzle after a check or a hint (leaving untouched reports nothing).

  const PLAYER_KEY = "rami-player";
  let player = null;
  let recording = null; // null: not known yet; false: the server keeps no attempts
  let attempt = null; // {id, shownAt, firstCheckMs, wrongChecks, hints, solutionShown, solved, reported}

  function playerId() {
    if (player) return player;
    try {
      player = localStorage.getItem(PLAYER_KEY);
    } catch (error) {
      player = null;
    }
    if (!player || !/^[A-Za-z0-9_-]{8,64}$/.test(player)) {
      const bytes = new Uint8Array(12);
      crypto.getRandomValues(bytes);
      player = "p-" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
      try {
        localStorage.setItem(PLAYER_KEY, player);
      } catch (error) {
        // Kept for this visit only.
      }
    }
    return player;
  }

  function startAttempt(id) {
    if (attempt && attempt.id === id && !attempt.reported) return; // back from the game mode
    leaveAttempt();
    attempt = { id, shownAt: Date.now(), firstCheckMs: null, wrongChecks: 0, hints: 0,
      solutionShown: false, solved: false, reported: false };
  }

  function noteCheck(result) {
    if (!attempt || attempt.reported || !puzzle || attempt.id !== puzzle.id) return;
    if (attempt.firstCheckMs === null) attempt.firstCheckMs = Date.now() - attempt.shownAt;
    if (result.solved) {
      attempt.solved = true;
      report(false);
    } else {
      attempt.wrongChecks += 1;
    }
  }

  function noteHint(level) {
    if (attempt && !attempt.reported) attempt.hints = Math.max(attempt.hints, level);
  }

  function noteSolution() {
    if (!attempt || attempt.reported) return;
    attempt.solutionShown = true;
    report(false);
  }

  function leaveAttempt() {
    if (attempt && !attempt.reported && (attempt.firstCheckMs !== null || attempt.hints)) {
      report(true);
    }
  }

  async function report(leaving) {
    const sent = attempt;
    sent.reported = true;
    if (recording !== true) return;
    const body = {
      puzzle: sent.id, player: playerId(), solved: sent.solved,
      first_check_ms: sent.firstCheckMs === null ? null : Math.min(sent.firstCheckMs, 604800000),
      hints: Math.min(sent.hints, 100), solution_shown: sent.solutionShown,
      wrong_checks: Math.min(sent.wrongChecks, 10000),
    };
    try {
      const response = await fetch("/puzzles/attempts", {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body), keepalive: true,
      });
      if (!response.ok) return;
      const answer = await response.json();
      const same = !leaving && puzzle && puzzle.id === sent.id;
      showRatings(answer.player_rating, same ? answer.puzzle_rating : undefined);
    } catch (error) {
      // Not recorded: the puzzle plays on.
    }
  }

  function ratingText(rating) {
    return `${Math.round(rating.rating)} \u00b1 ${Math.round(rating.deviation)}`;
  }

  function ratingsBox() {
    let box = $("ratings");
    if (!box) {
      box = document.createElement("p");
      box.id = "ratings";
      box.className = "tags ratings muted small";
      box.setAttribute("aria-live", "polite");
      $("tags").after(box);
    }
    return box;
  }

  function showRatings(own, forPuzzle) {
    const box = ratingsBox();
    if (own) box.dataset.player = ratingText(own);
    if (forPuzzle) {
      const plays = forPuzzle.games === 1 ? t("1 rated play") : t("{n} rated plays", { n: forPuzzle.games });
      box.dataset.puzzle = `${ratingText(forPuzzle)} (${plays})`;
    } else if (forPuzzle === null) {
      delete box.dataset.puzzle;
    }
    const parts = [];
    if (box.dataset.player) parts.push(t("Your rating: {r}", { r: box.dataset.player }));
    if (box.dataset.puzzle) parts.push(t("This puzzle: {r}", { r: box.dataset.puzzle }));
    // A server that records keeps the line, empty until the ratings come, so that the table
    // below never moves when they do.
    box.textContent = parts.length ? parts.join(" \u00b7 ") : "\u00a0";
    box.hidden = !parts.length && recording !== true;
  }

  // Whether the server records attempts, asked once beside the first puzzle (the puzzle is
  // shown when both answers are in, the ratings line already in its place); a failed answer
  // leaves it unknown, asked again with the next puzzle's ratings.
  let probe = null;

  function probeRecording() {
    if (!probe) {
      probe = api(`/puzzles/ratings?player=${encodeURIComponent(playerId())}&limit=1`).then(
        (answer) => { recording = answer.recording; },
        () => {},
      );
    }
    return probe;
  }

  async function loadRatings(id) {
    if (recording === false) return;
    const params = new URLSearchParams({ player: playerId(), puzzle: id });
    try {
      const answer = await api(`/puzzles/ratings?${params}`);
      recording = answer.recording;
      if (!recording || !puzzle || puzzle.id !== id) return;
      showRatings(answer.players[0], answer.puzzles[0]);
    } catch (error) {
      // No ratings shown: the puzzle plays on.
    }
  }

  async function offeredPuzzle() {
    // Near the player's rating (GET /puzzles/next), when the server rates and no tier or
    // theme is chosen; null otherwise.
    if (recording !== true || $("tier").value || $("theme").value) return null;
    try {
      const offer = await api(`/puzzles/next?player=${encodeURIComponent(playerId())}`);
      return offer.puzzle.id;
    } catch (error) {
      return null;
    }
  }

  // ------------------------------------------------------------------ the service

  async function api(path, options) {
    const response = await fetch(path, options);
    let body = null;
    try {
      body = await response.json();
    } catch (error) {
      body = { error: `${response.status} ${response.statusText}` };
    }
    if (!response.ok) throw new Error(body.error || `${response.status}`);
    return body;
  }

  async function check() {
    if (!puzzle) return;
    const moves = movesText();
    if (!moves.length) {
      say(t("Move some cards first: nothing has changed on the table."));
      return;
    }
    say(t("Checking\u2026"));
    try {
      const result = await api("/puzzles/check", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ id: puzzle.id, moves: moves.join("\n"), lang: T.lang() }),
      });
      showVerdict(result);
      noteCheck(result);
    } catch (error) {
      say(error.message, "bad");
    }
  }

  async function hint() {
    if (!puzzle) return;
    if (hintLevel >= 3) {
      say(t("That was the last hint: Show solution plays the turn."));
      return;
    }
    const level = hintLevel + 1;
    $("hint").disabled = true;
    say(t("Asking for hint {n}\u2026", { n: level }));
    try {
      const result = await api(`/puzzles/${puzzle.id}/hint?level=${level}&lang=${T.lang()}`);
      hintLevel = level;
      noteHint(level);
      helped.hints = Math.max(helped.hints, level);
      const box = $("hints");
      box.hidden = false;
      const item = document.createElement("div");
      item.className = "hint";
      item.dataset.level = level;
      const title = document.createElement("strong");
      title.textContent = t("Hint {n} of 3", { n: level });
      item.append(title, ...hintBody(result));
      box.appendChild(item);
      const moves = level === 3 && result.solution ? result.solution.moves : null;
      say(`${title.textContent}: ${moves ? `${t("The whole turn:")} ${moves.map((m) => m.text).join("; ")}` : result.hint}`);
      $("hint").textContent = t(level < 3 ? "More hint" : "No more hints");
    } catch (error) {
      say(error.message, "bad");
    } finally {
      $("hint").disabled = hintLevel >= 3;
    }
  }

  // A hint's words; the whole turn (level 3) as its moves, with a button that plays them on the
  // board one step at a time (as the solution does).
  function hintBody(result) {
    const moves = result.level === 3 && result.solution ? result.solution.moves : null;
    if (!moves) {
      const text = document.createElement("p");
      text.textContent = result.hint;
      return [text];
    }
    const lead = document.createElement("p");
    lead.textContent = t("The whole turn:");
    const list = document.createElement("ol");
    list.className = "hint-moves";
    for (const move of moves) {
      const item = document.createElement("li");
      item.textContent = move.text;
      list.appendChild(item);
    }
    const play = document.createElement("button");
    play.type = "button";
    play.className = "ghost play-hint";
    play.textContent = t("Play the hint");
    play.addEventListener("click", () => startReplay(moves));
    return [lead, list, play];
  }

  // The moves of the solution (or of the last hint) on the board, one step at a time.
  function startReplay(moves) {
    reset();
    replay = { moves, step: 0, active: true };
    const list = $("replay-moves");
    list.replaceChildren();
    moves.forEach((move) => {
      const item = document.createElement("li");
      item.textContent = move.text;
      list.appendChild(item);
    });
    $("replay").hidden = false;
    updateReplay();
    say(t("The solution: press Next step to play it move by move."));
    $("step").focus({ preventScroll: true }); // the table stays where it is
  }

  async function showSolution() {
    if (!puzzle) return;
    try {
      const answer = await api(`/puzzles/${puzzle.id}/solution?lang=${T.lang()}`);
      noteSolution();
      helped.solution = true;
      startReplay(answer.moves);
    } catch (error) {
      say(error.message, "bad");
    }
  }

  function step() {
    if (!replay || replay.step >= replay.moves.length) return;
    const move = replay.moves[replay.step];
    const from = move.from === null ? "hand" : move.from;
    const pool = from === "hand" ? board.hand.slice() : (meldOf(from) || { cards: [] }).cards.slice();
    const uids = [];
    for (const code of move.cards) {
      const at = pool.findIndex((uid) => cards[uid].code === code);
      if (at < 0) {
        say(t("Cannot play \"{move}\" from here: press Reset, then Show solution.", { move: move.text }), "bad");
        return;
      }
      uids.push(pool.splice(at, 1)[0]);
    }
    const target = meldOf(move.to) ? move.to : "new";
    const before = replay.step;
    replay.active = false;
    if (moveTo(target, uids)) replay.step = before + 1;
    replay.active = true;
    // The meld the step changed, in view and clear of the hand docked below (its scroll margin).
    const changed = document.querySelector(`.meld[data-number="${whereIs(uids[0])}"]`);
    if (changed) changed.scrollIntoView({ block: "nearest" });
    updateReplay();
    const words = { n: replay.step, total: replay.moves.length, move: move.text };
    if (replay.step === replay.moves.length) {
      say(t("Step {n} of {total}: {move}. That is the solution.", words), "good");
    } else {
      say(t("Step {n} of {total}: {move}", words));
    }
  }

  function updateReplay() {
    if (!replay) return;
    [...$("replay-moves").children].forEach((item, index) => {
      item.classList.toggle("done", index < replay.step);
      item.classList.toggle("current", index === replay.step);
    });
    $("step").disabled = replay.step >= replay.moves.length;
    $("step-back").disabled = replay.step === 0;
  }

  function stepBack() {
    if (replay && replay.step > 0) undo();
    updateReplay();
  }

  function show(data) {
    puzzle = data;
    base = puzzle.position;
    marked = null;
    fresh = [];
    gone = [];
    board = newBoard(base);
    history = [];
    selected = [];
    hintLevel = 0;
    helped = { hints: 0, solution: false };
    solved = false;
    replay = null;
    document.body.classList.remove("is-solved");
    $("replay").hidden = true;
    $("hints").hidden = true;
    $("hints").replaceChildren();
    $("hint").disabled = false;
    $("hint").textContent = t("Hint");
    showHeading();
    if (location.hash.slice(1) !== data.id && !data.date) history_replace(data.id);
    say("");
    render();
    startAttempt(data.id);
    showRatings(undefined, null);
    loadRatings(data.id);
  }

  // The puzzle's title, goal and chips (its tier, themes, id, and how it was solved before).
  function showHeading() {
    const data = puzzle;
    const day = data.date ? t("Daily puzzle, {date}", { date: data.date }) : t("Puzzle {id}", { id: data.id });
    $("title").textContent = day;
    $("goal").textContent = data.goal.text;
    const tags = $("tags");
    tags.replaceChildren();
    const names = data.theme_names || data.themes; // as the server says them in the language asked
    const chips = [[t(data.tier), "tier"], ...names.map((theme) => [theme, "theme"])];
    if (!data.themes.includes("no-joker")) chips.splice(1, 0, [t("with jokers"), "rules"]);
    const before = solvedBefore()[data.id];
    if (before) chips.push([t(before.solution ? "solution seen" : before.hints ? "solved with a hint" : "solved"),
      before.solution || before.hints ? "solved helped" : "solved"]);
    for (const [text, kind] of chips) {
      const chip = document.createElement("span");
      chip.className = `chip ${kind}`;
      chip.textContent = text;
      tags.appendChild(chip);
    }
    const idChip = document.createElement("span");
    idChip.className = "chip id";
    idChip.textContent = data.id;
    tags.appendChild(idChip);
    showSolvedCount();
  }

  // ------------------------------------------------------------------ solved puzzles
  //
  // Kept in this browser (localStorage "rami-solved"): {id: {at, hints, solution}}, the hints
  // asked (the highest level) and whether the solution was shown before the table was checked
  // right. A clean solve replaces a helped one, never the other way round.

  const SOLVED_KEY = "rami-solved";

  function solvedBefore() {
    try {
      const kept = JSON.parse(window.localStorage.getItem(SOLVED_KEY) || "{}");
      return kept && typeof kept === "object" ? kept : {};
    } catch (error) {
      return {};
    }
  }

  function keepSolved() {
    if (!puzzle) return;
    const all = solvedBefore();
    const now = { at: new Date().toISOString().slice(0, 10), hints: helped.hints, solution: helped.solution };
    const was = all[puzzle.id];
    const score = (entry) => (entry.solution ? 2 : entry.hints ? 1 : 0);
    if (!was || score(now) < score(was)) all[puzzle.id] = now;
    try {
      window.localStorage.setItem(SOLVED_KEY, JSON.stringify(all));
    } catch (error) { /* not kept */ }
    showHeading();
  }

  function showSolvedCount() {
    const all = Object.values(solvedBefore());
    const clean = all.filter((entry) => !entry.solution).length;
    $("solved-count").textContent = all.length ? t("{n} solved", { n: clean }) : "";
    $("solved-count").title = t("Solved puzzles");
  }

  function history_replace(id) {
    window.history.replaceState(null, "", `#${id}`);
  }

  async function load(id) {
    if (id && !PUZZLE_ID.test(id)) {
      // Not an id (say #themes): GET /puzzles/{id} would be another endpoint, or a 422.
      say(t("No puzzle \"{id}\": a puzzle id is rc- and 10 hex digits.", { id }), "bad");
      return;
    }
    say(t("Loading\u2026"));
    try {
      const where = id ? `/puzzles/${encodeURIComponent(id)}` : "/puzzles/daily";
      const [data] = await Promise.all([api(`${where}?lang=${T.lang()}`), probeRecording()]);
      show(data);
      if (!id) window.history.replaceState(null, "", location.pathname);
    } catch (error) {
      say(error.message, "bad");
    }
  }

  async function refreshListing() {
    const params = new URLSearchParams();
    if ($("tier").value) params.set("tier", $("tier").value);
    if ($("theme").value) params.set("theme", $("theme").value);
    try {
      const result = await api(`/puzzles?${params}`);
      listing = result.puzzles.map((p) => p.id);
      $("count").textContent = t(result.count === 1 ? "{n} puzzle" : "{n} puzzles", { n: result.count });
    } catch (error) {
      say(error.message, "bad");
    }
  }

  async function nextPuzzle() {
    const offered = await offeredPuzzle();
    if (offered) {
      await load(offered);
      return;
    }
    await refreshListing();
    if (!listing.length) {
      say(t("No puzzle has that tier and theme: choose another."), "bad");
      return;
    }
    const at = puzzle ? listing.indexOf(puzzle.id) : -1;
    await load(listing[(at + 1) % listing.length]);
  }

  // The theme menu, its names and sentences in the page's language (again when it switches).
  async function loadThemes() {
    try {
      const themes = await api(`/puzzles/themes?lang=${T.lang()}`);
      const select = $("theme");
      for (const theme of themes) {
        if (!theme.count) continue;
        let option = [...select.options].find((each) => each.value === theme.name);
        if (!option) {
          option = document.createElement("option");
          option.value = theme.name;
          select.appendChild(option);
        }
        option.textContent = `${theme.title} (${theme.count})`;
        option.title = theme.description;
      }
    } catch (error) {
      say(error.message, "bad");
    }
  }

  // The puzzle's goal and themes again in the page's language (the date of a daily kept).
  async function retell() {
    const shown = puzzle;
    try {
      const texts = await api(`/puzzles/${encodeURIComponent(shown.id)}?lang=${T.lang()}`);
      if (puzzle !== shown) return;
      puzzle.goal = { ...puzzle.goal, text: texts.goal.text };
      puzzle.theme_names = texts.theme_names;
      if (mode === "puzzle") showHeading();
    } catch (error) { /* the heading stays in the language it came in */ }
  }

  // ------------------------------------------------------------------ keyboard

  function onKey(event) {
    if (event.target.closest("select, input, textarea, dialog")) return;
    if (event.ctrlKey && event.key.toLowerCase() === "z") {
      event.preventDefault();
      undo();
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key;
    if (/^[0-9]$/.test(key)) {
      event.preventDefault();
      digits += key;
      clearTimeout(digitTimer);
      const highest = nextNumber();
      const number = parseInt(digits, 10);
      if (number * 10 > highest) {
        digits = "";
        moveTo(number);
      } else {
        digitTimer = setTimeout(() => {
          const wanted = parseInt(digits, 10);
          digits = "";
          if (wanted) moveTo(wanted);
        }, 700);
      }
      return;
    }
    const actions = {
      n: () => moveTo("new"), h: () => moveTo("hand"), s: split, u: undo,
      c: () => (mode === "puzzle" ? check() : null), "?": () => $("help").showModal(),
      Escape: () => { selected = []; highlightSelection(); updateTargets(); say(""); },
    };
    const action = actions[key] || actions[key.toLowerCase()];
    if (action) {
      event.preventDefault();
      action();
    }
  }

  // ------------------------------------------------------------------ start

  // The action bar is fixed at the bottom and wraps on a phone: its height, measured, is what the
  // page leaves free under the hand and the messages (style.css, --bar-h).
  // The dock's (the hand and the messages) too: what a card or a meld brought into view (by
  // the keyboard's focus, say) keeps free below it (--dock-h).
  function followBar() {
    const bar = document.querySelector(".actions");
    const dock = document.querySelector(".dock");
    const measure = () => {
      document.documentElement.style.setProperty("--bar-h", `${bar.offsetHeight}px`);
      document.documentElement.style.setProperty("--dock-h", `${dock.offsetHeight}px`);
    };
    measure();
    if (window.ResizeObserver) {
      const observer = new ResizeObserver(measure);
      observer.observe(bar);
      observer.observe(dock);
    }
  }

  function start() {
    followBar();
    $("new-meld").addEventListener("click", () => moveTo("new"));
    $("split").addEventListener("click", split);
    $("undo").addEventListener("click", undo);
    $("reset").addEventListener("click", () => { replay = null; $("replay").hidden = true; reset(); say(t("Back to the start.")); });
    $("check").addEventListener("click", check);
    $("hint").addEventListener("click", hint);
    $("show-solution").addEventListener("click", showSolution);
    $("step").addEventListener("click", step);
    $("step-back").addEventListener("click", stepBack);
    $("daily").addEventListener("click", () => load(null));
    $("next").addEventListener("click", nextPuzzle);
    $("tier").addEventListener("change", nextPuzzle);
    $("theme").addEventListener("change", nextPuzzle);
    dropZone($("hand"), "hand");
    $("hand").addEventListener("click", (event) => {
      if (!event.target.closest(".card") && selected.length) moveTo("hand");
    });
    document.addEventListener("keydown", onKey);
    document.addEventListener("click", (event) => {
      // The click after a finger's tap or drag on a card, already handled (it may land on what
      // moved under the finger: the card rises when selected).
      if (Date.now() - touched.at < 800 && Math.hypot(event.clientX - touched.x,
        event.clientY - touched.y) < 40) {
        event.stopPropagation();
        event.preventDefault();
        touched.at = 0;
      }
    }, true);
    // An address typed into the open tab: #game opens the game mode, a puzzle id that puzzle.
    window.addEventListener("hashchange", () => {
      const id = location.hash.slice(1);
      if (id === "game") {
        if (mode !== "game" && window.ramiGame) window.ramiGame.open();
        return;
      }
      if (!id) return;
      if (mode === "game" && window.ramiGame) window.ramiGame.close(true);
      if (!puzzle || id !== puzzle.id) load(id);
      else show(puzzle);
    });
    document.addEventListener("rami-lang", relabel);
    window.addEventListener("pagehide", leaveAttempt);
    loadThemes();
    refreshListing();
    if (location.hash !== "#game") load(location.hash.slice(1) || null);
  }

  // The language switched: the board's words, the puzzle's heading, the menus' counts again.
  function relabel() {
    if (board) render();
    loadThemes();
    if (puzzle) retell();
    if (puzzle && mode === "puzzle") {
      showHeading();
      $("hint").textContent = t(hintLevel === 0 ? "Hint" : hintLevel < 3 ? "More hint" : "No more hints");
      refreshListing();
    }
    say("");
  }

  // For the browser tests and the curious: the board as the service would read it.
  window.ramiPage = { movesText: () => movesText().join("\n"), board: () => board };

  // What game.js uses: the same board, started from a game turn's position.
  window.ramiBoard = {
    setMode(name, guard, quiet) {
      mode = name;
      canMove = guard || (() => true);
      selected = [];
      document.body.classList.toggle("game-mode", name === "game");
      if (name === "puzzle" && !quiet) {
        if (puzzle) show(puzzle);
        else load(null);
      }
    },
    load(position, drawn, laid, taken) {
      base = { table: position.table, hand: position.hand };
      board = newBoard(base);
      // The cards the others laid: one table card per code named (the last melds first).
      const left = (laid || []).slice();
      fresh = [];
      for (const meld of board.melds.slice().reverse()) {
        for (const uid of meld.cards) {
          const at = left.indexOf(cards[uid].code);
          if (at >= 0) {
            fresh.push(uid);
            left.splice(at, 1);
          }
        }
      }
      // The cards a bot took from a meld on the table (bots.js), wherever they lie now.
      const took = (taken || []).slice();
      gone = [];
      for (const meld of board.melds) {
        for (const uid of meld.cards) {
          const at = took.indexOf(cards[uid].code);
          if (at >= 0) {
            gone.push(uid);
            took.splice(at, 1);
          }
        }
      }
      // One card of that code (the hand may hold its twin): the last one, as dealt sorted.
      marked = drawn ? board.hand.filter((uid) => cards[uid].code === drawn).pop() || null : null;
      history = [];
      selected = [];
      render();
    },
    // A whole table laid on the board from the turn's start (a game hint played): meld i of
    // `table` becomes meld i + 1, each card taken from where it is first looked for (its own
    // meld, then the hand, then any meld); `discard` (a hand card) is selected. Undo goes back.
    arrange(table, discard) {
      if (!canMove()) return false;
      const before = snapshot();
      board = newBoard(base);
      const pool = [...board.hand, ...board.melds.flatMap((meld) => meld.cards)];
      const used = new Set();
      // Which copy of a card goes where (two decks: a card may lie in a meld and in the hand):
      // a meld keeps its own copies first, then the table's other copies go where the table
      // asks (a table card never stays behind in its old meld while the hand's copy is played),
      // and only then the hand's.
      const slots = table.map((codes) => codes.map(() => null));
      const passes = [
        (uid, number) => cards[uid].origin === number,
        (uid) => cards[uid].origin !== "hand",
        (uid) => cards[uid].origin === "hand",
        () => true,
      ];
      for (const fits of passes) {
        table.forEach((codes, index) => codes.forEach((code, at) => {
          if (slots[index][at] !== null) return;
          const uid = pool.find((u) => !used.has(u) && cards[u].code === code && fits(u, index + 1));
          if (uid === undefined) return;
          used.add(uid);
          slots[index][at] = uid;
        }));
      }
      const melds = table.map((codes, index) => ({
        number: index + 1, original: index < originalCount(),
        cards: slots[index].filter((uid) => uid !== null),
      }));
      for (const meld of board.melds) {
        if (meld.number > melds.length) melds.push({ number: meld.number, original: true, cards: [] });
        // A table card the table given leaves out stays in its meld.
        const left = meld.cards.filter((uid) => !used.has(uid));
        if (left.length) melds.find((m) => m.number === meld.number).cards.push(...left);
      }
      board.melds = melds;
      board.hand = board.hand.filter((uid) => !used.has(uid));
      history = [before];
      selected = discard ? board.hand.filter((uid) => cards[uid].code === discard).slice(-1) : [];
      tidy();
      render();
      return true;
    },
    // The melds in number order, as card lists (the table's melds first, emptied ones as []).
    table: () => board.melds.map((m) => m.cards.map((uid) => cards[uid].code)),
    selectedHand: () => selected.filter((uid) => whereIs(uid) === "hand").map((uid) => cards[uid].code),
    handSize: () => board.hand.length,
    say,
    problems(title, reasons) {
      showVerdict({ solved: false, legal: true, reasons });
      $("status").querySelector("strong").textContent = title + " ";
    },
  };

  document.addEventListener("DOMContentLoaded", start);
})();
