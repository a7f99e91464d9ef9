// Bot seats on the phone: the bot's decision said in the phone's language from the table's data
// (a key and its parameters, like a refusal), with a button to say its move is made on the real
// board (a physical table waits for that); and, for a person's own seat when the game allows
// hints, the move the bot suggests with one line of why, asked for by this phone alone.

import { h } from "./dom.js";
import { t, capital } from "./i18n.js";
import { get } from "./api.js";
import { worded } from "./words.js";
import { describe } from "./moves.js";

// The decision every phone shows: "Bot Blue moves its person from 3.4 to 4.4".
export function botLine(snapshot, { authorised, intent }) {
  const move = snapshot.bot_move;
  if (snapshot.for_bot !== undefined && snapshot.state.phase !== "over") {
    // At a physical table a person tells the bot's die, tile back or saved value for it.
    return h("p", { class: "bot-move", dataset: { forBot: snapshot.for_bot }, text: worded("bot.tell", { seat: snapshot.for_bot }, snapshot) });
  }
  if (!move || snapshot.state.phase === "over") return null;
  const said = capital(worded(move.key, move.params, snapshot));
  return h("div", { class: move.waiting ? "bot-move waiting" : "bot-move", role: "status", dataset: { botMove: move.key, waiting: move.waiting ? "yes" : "no" } },
    h("p", { class: "bot-said", text: said }),
    move.waiting ? h("p", { class: "hint", text: t("bot.waiting") }) : null,
    // Any phone with the PIN may say it is done on the board, as NEXT on the panel does.
    move.waiting && authorised
      ? h("button", { class: "big wide", dataset: { go: "bot-done" }, onclick: () => intent("next") }, t("bot.done_on_board"))
      : null);
}

// A line of the game's log for a bot's decision (the stream's "bot" event).
export function botLogLine(e, snapshot) {
  return capital(worded(e.key, e.params, snapshot));
}

// -- suggest ------------------------------------------------------------------------------------

const WHY = { only: "suggest.why.only", told: "suggest.why.told", whim: "suggest.why.best", best: "suggest.why.best" };

// The hint asked for on this board (`version`): it goes when the board changes.
export function hintPanel({ game, snapshot, board, me, ui, redraw, act }) {
  if (!snapshot.settings?.hints || me === null || !snapshot.legal?.length) return null;
  const hint = ui.hint?.version === snapshot.version ? ui.hint : null;
  const ask = async () => {
    ui.hint = { version: snapshot.version, asking: true };
    redraw();
    try {
      const answer = await get(`/api/games/${game}/hint`);
      ui.hint = { version: snapshot.version, ...answer };
    } catch {
      ui.hint = { version: snapshot.version, failed: true };
    }
    redraw();
  };
  if (!hint) {
    return h("div", { class: "hint-ask" },
      h("button", { class: "secondary wide", dataset: { go: "suggest" }, onclick: ask }, t("suggest.ask")));
  }
  if (hint.asking) return h("p", { class: "hint", dataset: { suggest: "asking" }, text: t("suggest.asking") });
  if (hint.failed) return h("p", { class: "hint", dataset: { suggest: "failed" }, text: t("suggest.failed") });
  const gain = `${hint.why.gain >= 0 ? "+" : "−"}${Math.abs(hint.why.gain).toFixed(1)}`;
  return h("div", { class: "suggestion", dataset: { suggest: "shown" } },
    h("p", { class: "suggested", text: t("suggest.move", { move: describe(hint.action, board, snapshot) }) }),
    h("p", { class: "why", text: t(WHY[hint.why.reason] || "suggest.why.best", { n: hint.why.options, gain }) }),
    h("button", { class: "secondary wide", dataset: { go: "take-suggestion" }, onclick: () => act(hint.action) }, t("suggest.take")));
}
