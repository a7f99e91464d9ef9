// The end: the ranking, and how each tie was broken — every step of the chain in words, with
// the numbers compared (result.reasons, from the engine's scoring) — and the game to take away.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { byseat, fill, ink } from "./players.js";

const CRITERIA = { points: "points", "people saved": "saved", "total value": "value", "turns taken": "turns", shared: "shared" };

function chip(player) {
  return h("span", { class: "chip", style: `background:${fill(player)};color:${ink(player)}` }, player.name);
}

function note(view) {
  const modules = view.rules.modules;
  const parts = [];
  if (view.rules.options.tiebreak !== "chain") parts.push(t("end.note.shared"));
  else if (modules.includes("escape-1986")) parts.push(t("end.note.1986"));
  else if (modules.includes("five-six")) parts.push(t("end.note.chain56"));
  else parts.push(t("end.note.chain"));
  if (modules.includes("all-equal")) parts.push(t("end.note.all_equal"));
  return parts.join(" ");
}

function reason(snapshot, r, result) {
  const key = CRITERIA[r.criterion] || r.criterion;
  const names = r.seats.map((seat) => byseat(snapshot, seat).name);
  if (key === "shared") {
    return h("li", { class: "reason", dataset: { rule: r.rule, criterion: key } },
      h("strong", { text: t("end.criterion.shared") }), " ", t("end.shared", { names: names.join(", ") }),
      h("small", { text: ` (${r.rule}: ${t(`rule.${r.rule}`)})` }));
  }
  const numbers = r.seats.map((seat) => `${byseat(snapshot, seat).name} ${r.numbers[String(seat)]}`).join(" · ");
  let outcome = r.decided ? t(`end.decided.${key === "turns" ? "fewest" : "most"}`) : t("end.still_tied");
  if (key === "turns" && r.decided && result.ended_on_seat !== null && result.ended_on_seat !== undefined) {
    outcome += ` ${t("end.turns_why", { name: byseat(snapshot, result.ended_on_seat).name })}`;
  }
  // The score itself is no tie: points, or in the 1986 ruleset the people saved (E-6).
  const score = key === "points" || (r.rule === "E-6" && key === "saved");
  const tie = r.seats.length > 1 && !score ? t("end.tie", { names: names.join(", ") }) + " " : "";
  return h("li", { class: "reason", dataset: { rule: r.rule, criterion: key, decided: r.decided ? "yes" : "no" } },
    h("strong", { text: t(`end.criterion.${key}`) }), " ", tie, numbers, " — ", outcome,
    h("small", { text: ` (${r.rule}: ${t(`rule.${r.rule}`)})` }));
}

// The same import through the web, for a phone whose browser will not open the app's link.
function webLink(game) {
  const link = h("a", { class: "button secondary", hidden: true, dataset: { link: "bgstats-web" } }, t("end.bgstats_web"));
  fetch(`/api/games/${game}/bgstats`, { headers: { Accept: "application/json" } })
    .then((r) => (r.ok ? r.json() : null))
    .then((answer) => {
      if (answer?.web_link) {
        link.href = answer.web_link;
        link.hidden = false;
      }
    })
    .catch(() => {});
  return link;
}

// The ranking and how it was reached: the phone's end screen, and the table screen's, large.
export function resultParts(snapshot) {
  const view = snapshot.state;
  const result = view.result;
  if (!result) return null;
  const rows = result.ranking.map((entry) => {
    const player = byseat(snapshot, entry.seat);
    return h("li", { class: `place place-${entry.place}`, dataset: { seat: entry.seat, place: entry.place } },
      h("span", { class: "place-number", text: t("end.place", { n: entry.place }) }),
      chip(player),
      h("span", { class: "score", text: t(view.rules.modules.includes("escape-1986") ? "end.score.1986" : "end.score", { points: entry.points, saved: entry.saved, turns: entry.turns }) }));
  });
  const winners = result.winners.map((seat) => byseat(snapshot, seat).name).join(", ");
  // E-6 ends a 1986 game on the volcano (said as B-30 is) or with everyone saved or lost.
  const volcano = !result.ended_by || (result.ended_by === "E-6" && result.ended_on_seat !== null && result.ended_on_seat !== undefined);
  const ended = volcano ? t("end.by.B-30", { name: byseat(snapshot, result.ended_on_seat ?? view.turn).name }) : t(`end.by.${result.ended_by}`);
  // Nobody saved anyone: no victory to announce; say so, and what the tie-break made of it.
  const nobody = result.ranking.every((entry) => !entry.saved);
  const shared = result.winners.length > 1;
  return [
    h("h1", { text: nobody && shared ? t("end.nobody_saved") : t(shared ? "end.winners" : "end.winner", { names: winners }) }),
    nobody ? h("p", { class: "nobody", dataset: { nobody: "saved" }, text: t(shared ? "end.nobody_shared" : "end.nobody_one") }) : null,
    h("p", { class: "ended", text: ended }),
    h("ol", { class: "ranking" }, rows),
    h("h2", { text: t("end.how") }),
    h("ul", { class: "reasons" }, result.reasons.map((r) => reason(snapshot, r, result))),
    h("p", { class: "note", text: note(view) }),
  ];
}

export function endScreen({ snapshot, game, newGame, authorised }) {
  const parts = resultParts(snapshot);
  if (!parts) return h("p", { text: t("end.waiting") });
  return h("section", { class: "end screen-body" },
    parts,
    h("div", { class: "links" },
      h("a", { class: "button secondary", href: `/api/games/${game}/export`, download: `atlantis-game-${game}.json`, dataset: { link: "export" } }, t("end.export")),
      h("a", { class: "button secondary", href: `/api/games/${game}/bgstats`, dataset: { link: "bgstats" } }, t("end.bgstats")),
      webLink(game)),
    authorised ? h("button", { class: "big wide", onclick: newGame, dataset: { go: "setup" } }, t("end.new_game")) : null);
}
