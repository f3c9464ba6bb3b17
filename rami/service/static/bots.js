// The bots' turns, one at a time (docs/page.md, "Playing a game").
//
// An answer of the server carries the events since the person's answer: the bots' draws and
// turns, up to the next question. They are shown a bot's turn at a time, each with the table as
// it stood after it (the play events carry the table when it changed), its moves, the cards it
// laid edged in violet and the cards it took out of melds you laid (the event's `took`) edged in
// red and named. The
// pace is the person's: step by step (Go on, or G, for the next), slow (a turn every 1.5 s; Go
// on skips ahead) or fast (no replay: the table as it stands). The pace is kept in localStorage.
"use strict";

window.ramiBots = (function () {
  const $ = (id) => document.getElementById(id);
  const T = window.ramiText;
  const t = T.t;
  const PACE_KEY = "rami-pace";
  const SLOW_MS = 1500;

  let run = null; // {state, steps, rest, at, logged, table, hooks, timer}

  function pace() {
    return $("pace").value;
  }

  function meldCards(meld) {
    return Array.isArray(meld) ? meld : meld.cards;
  }

  // The events cut into steps, each ending with a bot's turn; the rest (the person's own draw,
  // the round's end) comes with the table as it stands.
  function cut(events) {
    const steps = [];
    let current = [];
    for (const entry of events) {
      current.push(entry);
      if (entry.kind === "play" && entry.seat !== 0) {
        steps.push(current);
        current = [];
      }
    }
    return { steps, rest: current };
  }

  // The cards that left a meld of `before` for another meld: for each meld, the cards missing
  // from the meld of `after` that keeps most of it. [{from: meld number, cards: [codes]}].
  function takenFrom(before, after) {
    const melds = after.map((meld) => meldCards(meld).slice());
    const found = [];
    before.forEach((meld, index) => {
      const codes = meldCards(meld);
      let best = null;
      let kept = -1;
      for (const candidate of melds) {
        const left = candidate.slice();
        let count = 0;
        for (const code of codes) {
          const at = left.indexOf(code);
          if (at >= 0) {
            left.splice(at, 1);
            count += 1;
          }
        }
        if (count > kept) {
          kept = count;
          best = candidate;
        }
      }
      const left = (best || []).slice();
      const missing = codes.filter((code) => {
        const at = left.indexOf(code);
        if (at < 0) return true;
        left.splice(at, 1);
        return false;
      });
      if (missing.length) found.push({ from: index + 1, cards: missing });
    });
    return found;
  }

  // What the players and the piles were after each step: the answer's view with the events that
  // came after that step undone (hand sizes, the discard pile, the stock's size). A reshuffle or
  // a deal is not undone: before it, the view is the answer's.
  function undo(view, events) {
    const sizes = view.hand_sizes.slice();
    let pile = view.discard_pile.slice();
    let stock = view.stock_size;
    for (const entry of events.slice().reverse()) {
      if (entry.kind === "deal" || entry.kind === "reshuffle") return view;
      const seat = entry.seat;
      if (entry.kind === "play") {
        sizes[seat] += entry.played.length + (entry.discard ? 1 : 0);
        if (entry.discard) pile = pile.slice(0, -1);
      } else if (entry.kind === "draw") {
        sizes[seat] -= 1;
        if (entry.source === "discard") pile = [...pile, entry.card];
        else stock += 1;
      } else if (entry.kind === "claim") {
        sizes[seat] -= 2;
        pile = [...pile, entry.card];
        stock += 1;
      }
    }
    return { ...view, hand_sizes: sizes, discard_pile: pile, stock_size: stock };
  }

  function stateAfter(index) {
    const later = run.steps.slice(index + 1).flat().concat(run.rest);
    const view = undo(run.state.view, later);
    if (run.opened && view !== run.state.view) {
      // Opened by now: before the answer, or laid cards since and open in the answer.
      const laid = new Set(run.steps.slice(0, index + 1).flat()
        .filter((entry) => entry.kind === "play" && entry.played.length).map((entry) => entry.seat));
      view.opened = run.state.view.opened.map((now, seat) => run.opened[seat] || (now && laid.has(seat)));
    }
    return { ...run.state, view };
  }

  // The person's hand while the bots play: the final hand less the cards the person draws after.
  function handDuring(index) {
    const hand = run.state.view.hand.slice();
    const later = run.steps.slice(index + 1).flat().concat(run.rest);
    for (const entry of later) {
      if (entry.seat !== 0) continue;
      const got = entry.kind === "draw" ? [entry.card] : entry.kind === "claim" ? [entry.card, entry.penalty] : [];
      for (const code of got) {
        const at = code ? hand.indexOf(code) : -1;
        if (at >= 0) hand.splice(at, 1);
      }
    }
    return hand;
  }

  // `opened`: who had opened before the answer (null: not known, the answer's is shown).
  function start(state, table, events, hooks, opened) {
    stop();
    if (pace() === "fast") return false;
    const { steps, rest } = cut(events || []);
    if (!steps.length) return false;
    run = { state, steps, rest, at: 0, logged: 0, table: table || [], hooks, timer: null, opened };
    showStep();
    return true;
  }

  function showStep() {
    const step = run.steps[run.at];
    let laid = [];
    let taken = [];
    let seat = null;
    let moves = [];
    for (const entry of step) {
      if (entry.kind === "deal") run.table = [];
      if (entry.kind !== "play") continue;
      if (entry.table) {
        if (Array.isArray(entry.took)) {
          taken = entry.took.length ? [{ from: null, cards: entry.took }] : [];
        } else {
          taken = entry.seat === 0 ? [] : takenFrom(run.table, entry.table);
        }
        run.table = entry.table;
      }
      laid = entry.played;
      seat = entry.seat;
      moves = entry.moves || [];
    }
    run.hooks.addLog(step);
    run.logged = run.at + 1;
    const state = stateAfter(run.at);
    window.ramiGame.showPlayers(state, seat);
    window.ramiGame.showPiles(state, state.view);
    const marked = taken.flatMap((group) => group.cards);
    run.hooks.showBoard({ table: run.table, hand: handDuring(run.at) }, null, laid, marked);
    run.hooks.showButtons(run.state);
    const name = seat === null ? "" : window.ramiGame.playerName(run.state, seat);
    const lines = [t("{name}'s turn ({n} of {total}): press Go on for the next.",
      { name, n: run.at + 1, total: run.steps.length })];
    lines.push(...step.filter((entry) => entry.text).map((entry) => entry.text));
    if (moves.length) lines.push(t("Moves: {moves}", { moves: moves.join("; ") }));
    for (const group of taken) {
      lines.push(group.from === null ? t("{cards} taken from your melds", { cards: T.cards(group.cards) })
        : t("{cards} taken from meld {n}", { cards: T.cards(group.cards), n: group.from }));
    }
    window.ramiBoard.say(lines.join("\n"), "turn");
    showTurn(true);
    if (pace() === "slow") run.timer = setTimeout(next, SLOW_MS);
  }

  // A bot's turn on the screen (style.css: on a short screen the messages then follow the
  // table instead of lying over it, and are scrolled into view).
  function showTurn(on) {
    document.body.classList.toggle("bots-turn", on);
    if (on && window.matchMedia("(max-height: 500px)").matches) {
      $("status").scrollIntoView({ block: "end" });
    }
  }

  function next() {
    if (!run) return;
    clearTimeout(run.timer);
    run.at += 1;
    if (run.at < run.steps.length) showStep();
    else finish();
  }

  // The rest at once: the log's remaining lines, then the game as it stands.
  function finish() {
    if (!run) return;
    const done = run;
    clearTimeout(done.timer);
    run = null;
    showTurn(false);
    done.hooks.addLog(done.steps.slice(done.logged).flat().concat(done.rest));
    window.ramiGame.settle(done.state);
  }

  function stop() {
    if (run) clearTimeout(run.timer);
    run = null;
    showTurn(false);
  }

  document.addEventListener("DOMContentLoaded", () => {
    const menu = $("pace");
    try {
      const kept = window.localStorage.getItem(PACE_KEY);
      if (kept && [...menu.options].some((option) => option.value === kept)) menu.value = kept;
    } catch (error) { /* storage off */ }
    menu.addEventListener("change", () => {
      try {
        window.localStorage.setItem(PACE_KEY, menu.value);
      } catch (error) { /* kept for this visit */ }
      if (menu.value === "fast") finish();
      else if (run && menu.value === "slow") run.timer = setTimeout(next, SLOW_MS);
      else if (run) clearTimeout(run.timer);
    });
  });

  return { start, next, finish, stop, playing: () => run !== null, takenFrom };
})();
