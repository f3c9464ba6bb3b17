// Hints in a game (docs/page.md, "Playing a game"): POST /games/{id}/hint at every decision
// the game asks of you (draw or take the discard, claim or pass, the turn and its discard).
//
// Each press asks one level more for the same decision (1 a nudge, 2 the key move, 3 the whole
// turn as moves), from the table as you have rearranged it so far. "Play the hint" answers the
// draw or the claim as advised, or lays the advised table on the board with the advised discard
// selected: you still press Discard or End turn (and can change it first).
"use strict";

window.ramiAdvice = (function () {
  const $ = (id) => document.getElementById(id);
  const T = window.ramiText;
  const t = T.t;

  let asked = { key: null, level: 0 };
  let advised = null; // {advice, game, act}: what Play the hint plays

  function decision(game) {
    return `${game.id}:${game.view.round}:${game.view.turn}:${game.phase}`;
  }

  async function ask(game, act) {
    if (!game || !["draw", "claim", "play"].includes(game.phase)) return;
    const key = decision(game);
    const level = asked.key === key ? Math.min(asked.level + 1, 3) : 1;
    const body = { level, lang: T.lang(), table: game.phase === "play" ? window.ramiBoard.table() : null };
    window.ramiBoard.say(t("Asking for a hint\u2026"));
    let answer = null;
    let response = null;
    try {
      response = await fetch(`/games/${encodeURIComponent(game.id)}/hint`, {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
      });
      answer = await response.json();
    } catch (error) {
      answer = { error: response ? `${response.status} ${response.statusText}` : error.message };
    }
    if (!response || !response.ok) {
      window.ramiBoard.say(answer.error || String(response && response.status), "bad");
      return;
    }
    asked = { key, level };
    $("game-hint").textContent = t(level < 3 ? "More hint" : "Hint");
    show(answer, game, act);
  }

  // The advice's words (at level 3 they list the turn's moves) in the status line, and Play the
  // hint in the action bar when the advice says what to do.
  function show(advice, game, act) {
    window.ramiBoard.say(t("Hint: {text}", { text: advice.text }), "hint");
    const playable = (advice.phase === "draw" && advice.draw)
      || (advice.phase === "claim" && advice.claim !== null && advice.claim !== undefined)
      || (advice.phase === "play" && advice.table);
    advised = playable ? { advice, game, act } : null;
    $("play-hint").hidden = !playable;
  }

  function playAdvised() {
    if (!advised) return;
    const { advice, game, act } = advised;
    advised = null;
    $("play-hint").hidden = true;
    play(advice, game, act);
  }

  function play(advice, game, act) {
    if (advice.phase === "draw") {
      act("draw", { source: advice.draw });
    } else if (advice.phase === "claim") {
      act("claim", { take: advice.claim });
    } else if (window.ramiBoard.arrange(advice.table, advice.discard)) {
      const action = game.discard_rule && advice.discard ? t("Discard") : t("End turn");
      window.ramiBoard.say(t("The hint is filled in: press {action} to play it.", { action }), "hint");
    }
  }

  function reset() {
    asked = { key: null, level: 0 };
    advised = null;
    $("game-hint").textContent = t("Hint");
    $("play-hint").hidden = true;
  }

  document.addEventListener("DOMContentLoaded", () => $("play-hint").addEventListener("click", playAdvised));

  return { ask, reset };
})();
