// A Flotilla game on the phone (spec flotilla.md): the captains' VP, the VP supply and the end
// trigger; on the roller's phone, the faces of a dive or a research roll tapped in die by die
// (or rolled by the table, with "face distribution not verified" beside it when the dice file
// is not verified), then the choices the rules leave open — where the barrels go, which tiles
// get depletion markers, which colour each wild die counts as (the best first) — and at the end
// each captain's count and the ranking with its reasons. Actions are the JSON lists of
// companion/flotilla/game.py; the page only sends them and shows what the table says back.

import { h } from "./dom.js";
import { t, has } from "./i18n.js";
import { byseat, fill, ink } from "./players.js";
import { get } from "./api.js";
import { refusalText, refusalFrom } from "./words.js";

function refusalLine(ui, snapshot) {
  if (!ui.refusal) return null;
  const said = refusalText(ui.refusal, snapshot);
  return h("div", { class: "refusal", role: "alert", dataset: { rule: ui.refusal.rule || "", key: ui.refusal.key || "" } },
    said.rule ? h("strong", { text: said.rule }) : null,
    said.sentence ? h("p", { text: said.sentence }) : null);
}

// The stream's event kinds of a Flotilla game (app.js listens to them).
export const FLOTILLA_EVENTS = [
  "dive_started", "dive_rolled", "dived", "research_started", "research_rolled", "researched",
  "traded", "vp_taken", "end_triggered", "final_scoring", "tallied", "game_over", "enter_faces",
];
// Flotilla is for 3 to 5 captains (seed 002 setup; the dice file's "players", verified).
export const CAPTAINS = { min: 3, max: 5 };

// What this phone is filling in; dropped when the game moves to another step.
let form = { key: "", open: null };

function fresh(key) {
  return {
    key, open: null, faces: [], skiffs: [{ tile: "", depth: null, resource: null, barrels: 0 }],
    cardDice: {}, sonar: [], others: "", dice: 3, artifacts: {}, buy: {}, sell: {}, vp: 1,
    goods: null, // {reserve: {}, cargo: {}} once the seller tells what it holds (F-3, checked)
    count: { currency: 0, resources: 0, toxicity: 0, crew: 0, penalty_vp: 0 }, seals: {},
  };
}

export const colour = (c) => (has(`colour.${c}`) ? t(`colour.${c}`) : c);
const guildName = (g) => (has(`flotilla.guild.${g}`) ? t(`flotilla.guild.${g}`) : g);

function chip(player) {
  return h("span", { class: "chip", style: `background:${fill(player)};color:${ink(player)}` }, player.name);
}

// The dice file names its kinds (shallow, middle, deep) and notes in English: the page says them
// in its own language where the catalogue knows them.
const dieName = (name) => (has(`flotilla.kind.${name}`) ? t(`flotilla.kind.${name}`) : name);

function diveFace(icons) {
  return icons.length ? icons.map((i) => t(`flotilla.icon.${i}`)).join(" + ") : t("flotilla.icon.blank");
}

function researchFace(face, dice) {
  if (face.startsWith("currency:")) return t("flotilla.face.currency", { n: face.slice(9) });
  if (face === "wild" || face === "breakthrough") return t(`flotilla.face.${face}`);
  const guild = dice.guilds.find((g) => g.colour === face);
  return guild ? t("flotilla.face.colour", { colour: colour(face), guild: guildName(guild.guild) }) : face;
}

function counter(value, set, min, max, data) {
  return h("span", { class: "counter", dataset: data },
    h("button", { class: "secondary small", "aria-label": "−", disabled: value <= min ? true : null, onclick: () => set(value - 1) }, "−"),
    h("output", { text: String(value) }),
    h("button", { class: "secondary small", "aria-label": "+", disabled: value >= max ? true : null, onclick: () => set(value + 1) }, "+"));
}

function segmented(values, current, set, label, data) {
  return h("div", { class: "segmented", role: "radiogroup" }, values.map((v) => h("button", {
    class: v === current ? "seg on" : "seg", role: "radio", "aria-checked": v === current ? "true" : "false",
    dataset: { ...data, value: String(v) }, onclick: () => set(v),
  }, label(v))));
}

// -- what everyone sees ------------------------------------------------------------------------

export function captains(snapshot) {
  const view = snapshot.state;
  return h("ul", { class: "players-strip" }, snapshot.players.map((p) => h("li", {
    class: view.turn === p.seat && view.phase !== "over" ? "player turn" : "player", dataset: { seat: p.seat },
  }, chip(p), h("span", { class: "counts", text: t("flotilla.vp", { n: view.vp[p.seat] }) }),
  p.seat === view.viewer ? h("span", { class: "you", text: t("players.you") }) : null)));
}

export function supplyLine(snapshot) {
  const { supply, ending } = snapshot.state;
  const lines = [h("p", { class: "supply", dataset: { supply: supply.supply } },
    t("flotilla.supply", { n: supply.supply, each: supply.per_player }),
    supply.verified ? null : h("small", { class: "unverified", text: ` ${t("flotilla.supply.unverified")}` }))];
  if (supply.from_reserve) lines.push(h("p", { class: "hint", text: t("flotilla.reserve", { n: supply.from_reserve }) }));
  if (ending && ending.turns_left.length) {
    const names = ending.turns_left.map((s) => byseat(snapshot, s).name).join(", ");
    lines.push(h("p", { class: "ending", dataset: { ending: "yes" } }, t("flotilla.ending", { names })));
  }
  return lines;
}

// A digital roll says whether the dice file it was drawn from is verified.
function rolledNote(view, rolled) {
  return rolled && view.note ? h("span", { class: "not-verified", dataset: { note: "unverified" }, text: t("flotilla.not_verified") }) : null;
}

export function lastStep(snapshot) {
  const view = snapshot.state;
  const last = view.last;
  if (!last) return null;
  const name = byseat(snapshot, last.seat).name;
  const parts = [];
  if (last.kind === "dive") {
    const faces = last.faces.map(diveFace).join(" · ");
    for (const [c, n] of Object.entries(last.gained || {})) parts.push(t("flotilla.gained", { n, colour: colour(c) }));
    if (last.barrels_lost) parts.push(t("flotilla.lost", { n: last.barrels_lost }));
    if (last.toxicity) parts.push(t("flotilla.toxicity", { n: last.toxicity }));
    if (last.survivor) parts.push(t("flotilla.survivor", { n: last.survivor }));
    if (last.depleted.length) parts.push(t("flotilla.depleted", { tiles: last.depleted.join(", ") }));
    return h("div", { class: "tell last", dataset: { last: "dive" } },
      h("p", { class: "label", text: t("flotilla.last.dive", { name }) }),
      h("p", { class: "faces" }, faces, " ", rolledNote(view, last.rolled)),
      h("p", { class: "outcome", text: parts.join(" · ") || t("flotilla.nothing") }));
  }
  const dice = view.dice;
  if (last.currency) parts.push(t("flotilla.currency", { n: last.currency }));
  if (last.dial_raises) parts.push(t("flotilla.dials", { n: last.dial_raises }));
  for (const s of last.sets) parts.push(t("flotilla.set", { guild: guildName(s.guild), n: s.artifacts }));
  for (const [c, d] of Object.entries(last.wild)) parts.push(t("flotilla.wild_as", { dice: d.map((i) => i + 1).join(", "), colour: colour(c) }));
  return h("div", { class: "tell last", dataset: { last: "research" } },
    h("p", { class: "label", text: t("flotilla.last.research", { name }) }),
    h("p", { class: "faces" }, last.faces.map((f) => researchFace(f, dice)).join(" · "), " ", rolledNote(view, last.rolled)),
    h("p", { class: "outcome", text: parts.join(" · ") || t("flotilla.nothing") }));
}

// The last trade (F-3): what changed hands, what it cost and paid, and the VP past either end.
export function lastTrade(snapshot) {
  const trade = snapshot.state.trade;
  if (!trade) return null;
  const goods = (key, counts) => Object.entries(counts).filter(([, n]) => n).map(([c, n]) => t(key, { n, colour: colour(c) }));
  const parts = [...goods("flotilla.bought", trade.bought), ...goods("flotilla.sold", trade.sold),
    t("flotilla.trade.money", { cost: trade.cost, income: trade.income })];
  if (trade.vp) parts.push(t("flotilla.trade.vp", { n: trade.vp }) + (trade.vp_unverified ? ` ${t("flotilla.trade.vp.unverified")}` : ""));
  return h("div", { class: "tell last", dataset: { last: "trade" } },
    h("p", { class: "label", text: t("flotilla.last.trade", { name: byseat(snapshot, trade.seat).name }) }),
    h("p", { class: "outcome", text: parts.join(" · ") }));
}

// -- the roller's steps --------------------------------------------------------------------------

function turnSteps(ctx) {
  const { snapshot, act } = ctx;
  const verbs = snapshot.verbs || [];
  const open = (name) => () => { form.open = form.open === name ? null : name; ctx.redraw(); };
  const buttons = h("div", { class: "grid" }, ["dive", "research", "trade", "vp"].filter((v) => verbs.includes(v))
    .map((v) => h("button", { class: form.open === v ? "pick on" : "pick", dataset: { open: v }, onclick: open(v) }, t(`flotilla.verb.${v}`))));
  const forms = { dive: diveForm, research: researchForm, trade: tradeForm, vp: vpForm };
  return [
    buttons,
    form.open ? forms[form.open](ctx) : null,
    h("button", { class: "big done wide", dataset: { go: "done" }, onclick: () => act(["done"]) }, t("flotilla.done")),
  ];
}

// Typing a tile's name redraws nothing (the field keeps its focus and the phone's keyboard):
// the button that starts the dive is enabled there and then, once every skiff is filled in.
const diveReady = () => form.skiffs.every((s) => s.tile.trim() && s.depth !== null && s.resource);

function typed(skiff, value) {
  skiff.tile = value;
  const start = document.querySelector('[data-form="dive"] [data-go="dive"]');
  if (start) start.disabled = !diveReady();
}

function diveForm(ctx) {
  const { snapshot, redraw } = ctx;
  const dice = snapshot.state.dice;
  const rows = form.skiffs.map((s, i) => h("li", { class: "option", dataset: { skiff: i } },
    h("div", { class: "row" },
      h("input", { type: "text", maxlength: 12, value: s.tile, placeholder: t("flotilla.tile"), "aria-label": t("flotilla.tile"),
        dataset: { field: `tile-${i}` }, oninput: (e) => typed(s, e.target.value) }),
      form.skiffs.length > 1 ? h("button", { class: "secondary small", dataset: { remove: i }, onclick: () => { form.skiffs.splice(i, 1); redraw(); } }, "✕") : null),
    h("p", { class: "option-title", text: t("flotilla.depth") }),
    segmented(dice.dive.map((k) => k.depth), s.depth, (v) => { s.depth = v; redraw(); }, (v) => t("flotilla.depth.kind", { name: dieName(dice.dive.find((k) => k.depth === v).name) }), { depth: i }),
    h("p", { class: "option-title", text: t("flotilla.resource") }),
    segmented(dice.resources, s.resource, (v) => { s.resource = v; redraw(); }, colour, { resource: i }),
    h("p", { class: "option-title", text: t("flotilla.aboard") }),
    counter(s.barrels, (v) => { s.barrels = v; redraw(); }, 0, 4, { aboard: i })));
  const card = dice.dive.map((k) => h("div", { class: "row" }, h("span", { text: t("flotilla.depth.kind", { name: dieName(k.name) }) }),
    counter(form.cardDice[k.depth] || 0, (v) => { form.cardDice[k.depth] = v; redraw(); }, 0, 6, { card: k.depth })));
  const sonar = dice.icons.map((i) => h("button", { class: form.sonar.includes(i) ? "pick on" : "pick", dataset: { sonar: i },
    onclick: () => { form.sonar = form.sonar.includes(i) ? form.sonar.filter((x) => x !== i) : [...form.sonar, i]; redraw(); } }, t(`flotilla.icon.${i}`)));
  const ready = diveReady();
  const send = () => ctx.act(["dive", {
    skiffs: form.skiffs.map((s) => ({ tile: s.tile.trim(), depth: s.depth, resource: s.resource, barrels: s.barrels })),
    card_dice: Object.entries(form.cardDice).flatMap(([d, n]) => Array(n).fill(Number(d))),
    sonar: form.sonar,
    other_tiles: form.others.split(/[\s,;]+/).filter(Boolean),
  }]);
  return h("section", { class: "flotilla-form", dataset: { form: "dive" } },
    h("p", { class: "hint", text: t("flotilla.dive.explain") }),
    h("ol", { class: "options" }, rows),
    form.skiffs.length < 4 ? h("button", { class: "secondary wide", dataset: { go: "add-skiff" }, onclick: () => { form.skiffs.push({ tile: "", depth: null, resource: null, barrels: 0 }); redraw(); } }, t("flotilla.add_skiff")) : null,
    h("p", { class: "option-title", text: t("flotilla.card_dice") }), card,
    h("p", { class: "option-title", text: t("flotilla.sonar") }), h("div", { class: "grid" }, sonar),
    h("label", { class: "field" }, t("flotilla.other_tiles"),
      h("input", { type: "text", value: form.others, placeholder: "C1, C4", dataset: { field: "other-tiles" }, oninput: (e) => { form.others = e.target.value; } })),
    h("p", { class: "hint", text: t("flotilla.other_tiles.explain") }),
    h("button", { class: "big wide", dataset: { go: "dive" }, disabled: ready ? null : true, onclick: send }, t("flotilla.start_dive")));
}

function researchForm(ctx) {
  const { snapshot, redraw } = ctx;
  const dice = snapshot.state.dice;
  const max = dice.research_dice;
  return h("section", { class: "flotilla-form", dataset: { form: "research" } },
    h("p", { class: "option-title", text: t("flotilla.research_dice") }),
    segmented(Array.from({ length: max }, (_, i) => i + 1), form.dice, (v) => { form.dice = v; redraw(); }, String, { dice: "research" }),
    h("p", { class: "option-title", text: t("flotilla.artifacts") }),
    dice.guilds.map((g) => h("div", { class: "row" }, h("span", { text: guildName(g.guild) }),
      counter(form.artifacts[g.guild] || 0, (v) => { form.artifacts[g.guild] = v; redraw(); }, 0, 9, { artifacts: g.guild }))),
    h("button", { class: "big wide", dataset: { go: "research" }, onclick: () => ctx.act(["research", { dice: form.dice, artifacts: form.artifacts }]) }, t("flotilla.start_research")));
}

function tradeForm(ctx) {
  const { snapshot, redraw } = ctx;
  const market = snapshot.state.market;
  const rows = Object.entries(market).map(([c, m]) => h("li", { class: "option", dataset: { resource: c } },
    h("p", { class: "option-title", text: t("flotilla.price", { colour: colour(c), price: m.price }) }),
    h("div", { class: "row" }, h("span", { text: t("flotilla.buy") }), counter(form.buy[c] || 0, (v) => { form.buy[c] = v; redraw(); }, 0, 12, { buy: c })),
    h("div", { class: "row" }, h("span", { text: t("flotilla.sell") }), counter(form.sell[c] || 0, (v) => { form.sell[c] = v; redraw(); }, 0, 12, { sell: c }))));
  // F-3: only goods in the reserve sell; told here, the table checks the sale against them.
  const goods = form.goods;
  const held = (where, c) => counter(goods?.[where][c] || 0, (v) => { form.goods = { reserve: {}, cargo: {}, ...goods, [where]: { ...goods?.[where], [c]: v } }; redraw(); }, 0, 30, { [where]: c });
  const told = h("details", { class: "advanced", dataset: { goods: "told" }, open: goods ? true : null },
    h("summary", { text: t("flotilla.goods") }),
    h("p", { class: "explain", text: t("flotilla.goods.explain") }),
    h("ul", { class: "options" }, Object.keys(market).map((c) => h("li", { class: "option" },
      h("p", { class: "option-title", text: colour(c) }),
      h("div", { class: "row" }, h("span", { text: t("flotilla.goods.reserve") }), held("reserve", c)),
      h("div", { class: "row" }, h("span", { text: t("flotilla.goods.cargo") }), held("cargo", c))))));
  const deal = () => ({ buy: form.buy, sell: form.sell, ...(goods ? { reserve: goods.reserve, cargo: goods.cargo } : {}) });
  return h("section", { class: "flotilla-form", dataset: { form: "trade" } },
    h("p", { class: "hint", text: t("flotilla.trade.explain") }),
    h("ul", { class: "options" }, rows),
    told,
    h("button", { class: "big wide", dataset: { go: "trade" }, onclick: () => ctx.act(["trade", deal()]) }, t("flotilla.send_trade")));
}

function vpForm(ctx) {
  return h("section", { class: "flotilla-form", dataset: { form: "vp" } },
    h("div", { class: "row" }, h("span", { text: t("flotilla.vp_gained") }), counter(form.vp, (v) => { form.vp = v; ctx.redraw(); }, 1, 60, { vp: "gained" })),
    h("button", { class: "big wide", dataset: { go: "vp" }, onclick: () => ctx.act(["vp", form.vp]) }, t("flotilla.take_vp")));
}

// The faces of the dice awaited (or of a roll being fixed): one row of buttons per die, then one
// tap sends them all.
function facesPanel(ctx, step = ctx.snapshot.state.step, fixing = null) {
  const { snapshot, act, intent, ui } = ctx;
  const view = snapshot.state;
  const dice = view.dice;
  const diving = step.kind === "dive";
  const count = diving ? step.dice.length : step.dice;
  const rows = [];
  for (let i = 0; i < count; i++) {
    let faces;
    let title;
    if (diving) {
      const die = step.dice[i];
      const kind = dice.dive.find((k) => k.depth === die.depth);
      const known = kind.faces.map((f) => JSON.stringify(f));
      // The dice file's faces first; any single icon too, in case the real die differs from it.
      faces = [...kind.faces, ...[[], ...dice.icons.map((x) => [x]), ["sonar"]].filter((f) => !known.includes(JSON.stringify(f)))];
      const skiff = die.skiff === null ? t("flotilla.card_die") : t("flotilla.skiff_die", { tile: step.skiffs[die.skiff].tile });
      title = t("flotilla.die", { n: i + 1, name: dieName(die.name), what: skiff });
    } else {
      faces = dice.research;
      title = t("flotilla.research_die", { n: i + 1 });
    }
    const chosen = form.faces[i];
    rows.push(h("li", { class: "die-row", dataset: { die: i } },
      h("p", { class: "option-title", text: title }),
      h("div", { class: "grid" }, faces.map((f) => {
        const key = JSON.stringify(f);
        return h("button", { class: chosen !== undefined && JSON.stringify(chosen) === key ? "pick on" : "pick",
          dataset: { die: i, face: diving ? f.join("+") || "blank" : f },
          onclick: () => { form.faces[i] = f; ctx.redraw(); } }, diving ? diveFace(f) : researchFace(f, dice));
      }))));
  }
  const complete = form.faces.filter((f) => f !== undefined).length === count;
  const verb = diving ? "dive_faces" : "research_faces";
  if (fixing) {
    const correct = () => intent("correct", { seq: fixing.seq, action: [verb, form.faces.slice(0, count)] }).then(() => {
      if (!ui.refusal) ui.fixFaces = null;
      ctx.redraw();
    });
    return h("section", { class: "flotilla-roll", dataset: { roll: step.kind, fixing: fixing.seq } },
      h("p", { class: "option-title", text: t("flotilla.fix.explain") }),
      h("ol", { class: "dice" }, rows),
      h("button", { class: "big wide", dataset: { go: "fix-send" }, disabled: complete ? null : true, onclick: correct }, t("flotilla.fix.send")),
      h("button", { class: "secondary wide", dataset: { go: "fix-cancel" }, onclick: () => { ui.fixFaces = null; ctx.redraw(); } }, t("common.cancel")));
  }
  return h("section", { class: "flotilla-roll", dataset: { roll: step.kind } },
    ui.askFaces ? h("p", { class: "question", role: "alert", text: t("flotilla.asked") }) : null,
    view.roll === "digital" ? h("div", { class: "digital" },
      h("button", { class: "big roll wide", dataset: { go: "roll" }, onclick: () => intent("roll") }, t("flotilla.roll")),
      view.note ? h("p", { class: "not-verified", dataset: { note: "unverified" }, text: t("flotilla.not_verified") }) : null,
      h("p", { class: "hint", text: t("flotilla.or_enter") })) : h("p", { class: "hint", text: t("flotilla.enter") }),
    h("ol", { class: "dice" }, rows),
    h("button", { class: "big wide", dataset: { go: "faces" }, disabled: complete ? null : true, onclick: () => act([verb, form.faces.slice(0, count)]) }, t("flotilla.send_faces")));
}

function rolledFaces(view) {
  const step = view.step;
  const text = step.kind === "dive" ? step.faces.map(diveFace).join(" · ") : step.faces.map((f) => researchFace(f, view.dice)).join(" · ");
  return h("p", { class: "faces" }, t("flotilla.rolled", { faces: text }), " ", rolledNote(view, step.rolled));
}

function barrelsPanel(ctx) {
  const { snapshot, act } = ctx;
  const step = snapshot.state.step;
  return [
    h("p", { class: "option-title", text: t("flotilla.barrels", { n: step.resolved.barrels }) }),
    (snapshot.legal || []).map(([, placed], i) => h("button", { class: "choice wide", dataset: { option: i }, onclick: () => act(["barrels", placed]) },
      placed.map((n, s) => `${step.skiffs[s].tile} +${n}`).join(" · "))),
  ];
}

function depletePanel(ctx) {
  const { snapshot, act } = ctx;
  return [
    h("p", { class: "option-title", text: t("flotilla.deplete", { n: snapshot.state.step.resolved.depletion.markers }) }),
    (snapshot.legal || []).map(([, tiles], i) => h("button", { class: "choice wide", dataset: { option: i }, onclick: () => act(["deplete", tiles]) }, tiles.join(", "))),
  ];
}

// The wild dice: the assignment that yields most first, then every other one.
function wildPanel(ctx) {
  const { snapshot, act } = ctx;
  const step = snapshot.state.step;
  const yields = (r) => {
    const parts = Object.entries(r.wild).map(([c, d]) => t("flotilla.wild_as", { dice: d.map((i) => i + 1).join(", "), colour: colour(c) }));
    if (!parts.length) parts.push(t("flotilla.wild_unused"));
    const sets = r.sets.map((s) => t("flotilla.set", { guild: guildName(s.guild), n: s.artifacts }));
    return `${parts.join(", ")} → ${sets.join(", ") || t("flotilla.no_set")}`;
  };
  return [
    h("p", { class: "option-title", text: t("flotilla.wild", { dice: step.wild_dice.map((i) => i + 1).join(", ") }) }),
    h("p", { class: "label", text: t("flotilla.best") }),
    h("button", { class: "big wide", dataset: { wild: 0 }, onclick: () => act(["wild", step.options[0].wild]) }, yields(step.options[0])),
    step.options.length > 1 ? h("p", { class: "label", text: t("flotilla.alternatives") }) : null,
    step.options.slice(1).map((r, i) => h("button", { class: "choice wide", dataset: { wild: i + 1 }, onclick: () => act(["wild", r.wild]) }, yields(r))),
  ];
}

function tallyPanel(ctx) {
  const { snapshot, redraw, act } = ctx;
  const dice = snapshot.state.dice;
  const c = form.count;
  const field = (name, max) => h("div", { class: "row" }, h("span", { text: t(`flotilla.count.${name}`) }),
    counter(c[name], (v) => { c[name] = v; redraw(); }, name === "penalty_vp" ? -30 : 0, max, { count: name }));
  return h("section", { class: "flotilla-form", dataset: { form: "tally" } },
    h("p", { class: "hint", text: t("flotilla.tally.explain") }),
    field("currency", 200), field("resources", 60), field("toxicity", 30), field("crew", 30), field("penalty_vp", 30),
    h("p", { class: "option-title", text: t("flotilla.seals") }),
    dice.guilds.map((g) => h("div", { class: "row" }, h("span", { text: guildName(g.guild) }),
      counter(form.seals[g.guild] || 0, (v) => { form.seals[g.guild] = v; redraw(); }, 0, 9, { seals: g.guild }))),
    h("button", { class: "big wide", dataset: { go: "tally" }, onclick: () => act(["tally", { ...c, seals: form.seals }]) }, t("flotilla.send_tally")));
}

// -- fixing faces entered wrongly ---------------------------------------------------------------

// The roll whose faces this phone may fix: the one under way once its faces are in, else the last
// one resolved. The faces are a fact of the table: corrected (the turn is replayed from there),
// never undone.
function fixableRoll(view) {
  if (view.step?.faces) return view.step;
  return view.last?.declared ? { ...view.last.declared, faces: view.last.faces } : null;
}

async function startFix(ctx, roll) {
  const { snapshot, ui } = ctx;
  const verb = roll.kind === "dive" ? "dive_faces" : "research_faces";
  try {
    const rows = (await get(`/api/games/${snapshot.game}/actions`)).actions;
    const row = rows.filter((r) => r.status === "ok" && r.action[0] === verb).pop();
    if (!row) return;
    form.faces = [...row.action[1]];
    ui.fixFaces = { seq: row.seq, roll };
  } catch (e) {
    ui.refusal = refusalFrom(e);
  }
  ctx.redraw();
}

// -- the end ----------------------------------------------------------------------------------

const CRITERIA = { "most VP": "vp", "lower toxicity": "toxicity", "more crew cards": "crew", "more currency left": "currency", shared: "shared" };

export function ending(snapshot) {
  const result = snapshot.state.result;
  const name = (s) => byseat(snapshot, s).name;
  const scores = Object.fromEntries(result.scores.map((s) => [s.seat, s]));
  const rows = result.ranking.map((p) => {
    const s = scores[p.seat];
    const guilds = Object.values(s.guilds).reduce((a, b) => a + b, 0);
    return h("li", { class: `place place-${p.place}`, dataset: { seat: p.seat, place: p.place } },
      h("span", { class: "place-number", text: t("end.place", { n: p.place }) }), chip(byseat(snapshot, p.seat)),
      h("span", { class: "score", text: t("flotilla.score", { total: p.total, vp: s.vp, currency: s.currency, resources: s.resources, toxicity: s.toxicity, guilds }) }));
  });
  const reasons = result.reasons.map((r) => {
    const key = CRITERIA[r.criterion] || r.criterion;
    const numbers = r.seats.map((s) => (key === "shared" ? name(s) : `${name(s)} ${r.numbers[String(s)]}`)).join(" · ");
    return h("li", { class: "reason", dataset: { rule: r.rule, criterion: key, decided: r.decided ? "yes" : "no" } },
      h("strong", { text: t(`flotilla.criterion.${key}`) }), " ", numbers, key === "shared" || r.decided ? "" : ` — ${t("end.still_tied")}`,
      h("small", { text: ` (${r.rule})` }));
  });
  const guilds = result.guilds.filter((g) => g.most.length).map((g) => h("li", { class: "reason", dataset: { guild: g.guild } },
    h("strong", { text: `${guildName(g.guild)}:` }), " ",
    t("flotilla.guild.most", { names: g.most.map(name).join(", ") }),
    g.friendly ? `; ${t("flotilla.guild.friendly")}` : g.second.length ? `; ${t("flotilla.guild.second", { names: g.second.map(name).join(", ") })}` : "",
    h("small", { text: " (F-5)" })));
  const winners = result.winners.map(name).join(", ");
  return h("section", { class: "end" },
    h("h1", { text: result.winners.length > 1 ? t("end.winners", { names: winners }) : t("end.winner", { names: winners }) }),
    h("ol", { class: "ranking" }, rows),
    h("h2", { text: t("end.how") }),
    h("ul", { class: "reasons" }, reasons, guilds),
    result.unverified.length ? h("p", { class: "note", text: t("flotilla.penalty.unverified") }) : null);
}

// -- starting a game (the setup screen's second step) --------------------------------------------

// How the dice are rolled: faces entered from the real dice (the spec's first mode), or drawn by
// the table from the dice file; the VP supply per player and the seed stay under "advanced".
export function flotillaSetup(draft, redraw) {
  return [
    h("h2", { text: t("setup.table") }),
    h("p", { class: "option-title", text: t("flotilla.setup.roll") }),
    segmented(["entered", "digital"], draft.roll, (v) => { draft.roll = v; redraw(); }, (v) => t(`flotilla.setup.roll.${v}`), { roll: "mode" }),
    h("p", { class: "explain", text: t(`flotilla.setup.roll.${draft.roll}.explain`) }),
    h("details", { class: "advanced" },
      h("summary", { text: t("setup.advanced") }),
      // F-5: a tie for second most guild seals — lower toxicity then friendly, or friendly at once.
      h("p", { class: "option-title", text: t("flotilla.setup.second_ties") }),
      segmented(["toxicity", "friendly"], draft.second_ties || "toxicity", (v) => { draft.second_ties = v; redraw(); }, (v) => t(`flotilla.setup.second_ties.${v}`), { second_ties: "rule" }),
      h("label", { class: "field" }, t("flotilla.setup.vp"),
        h("input", { type: "number", inputmode: "numeric", min: 1, value: draft.vp ?? "", placeholder: "100", dataset: { field: "vp" }, oninput: (e) => { draft.vp = e.target.value; } })),
      h("p", { class: "explain", text: t("flotilla.supply.unverified") }),
      h("label", { class: "field" }, t("setup.seed"),
        h("input", { type: "number", inputmode: "numeric", min: 0, value: draft.seed, dataset: { field: "seed" }, oninput: (e) => { draft.seed = e.target.value; } }))),
  ];
}

// The body of POST /api/games for a Flotilla game.
export function flotillaRequest(draft) {
  const body = {
    kind: "flotilla",
    players: draft.players.map((p, i) => ({ name: p.name.trim() || t("player.seat", { n: i + 1 }), colour: p.colour })),
    roll: draft.roll,
  };
  if (/^\d+$/.test(String(draft.vp ?? ""))) body.vp_per_player = Number(draft.vp);
  if (draft.second_ties) body.second_ties = draft.second_ties;
  if (/^\d+$/.test(String(draft.seed))) body.seed = Number(draft.seed);
  return body;
}

// -- the screen ---------------------------------------------------------------------------------

export function flotillaScreen(ctx) {
  const { snapshot, ui, intent } = ctx;
  const view = snapshot.state;
  const key = `${view.phase}:${view.turn}:${view.step ? view.step.kind : ""}`;
  if (form.key !== key) {
    form = fresh(key);
    ui.askFaces = false;
    ui.refusal = null; // it answered a step that is over
    ui.fixFaces = null;
  }
  const mine = Boolean(snapshot.verbs && snapshot.verbs.length);
  // Done: the form empties, unless the table has already moved this phone to its next step.
  const act = (action) => ctx.act(action).then(() => {
    if (!ui.refusal && form.key === key) {
      form = fresh(key);
      ctx.redraw(); // the table may have redrawn this screen with the form still filled in
    }
  });
  const c = { ...ctx, act };
  let body;
  const roll = view.phase === "over" || view.viewer !== view.turn ? null : fixableRoll(view);
  if (view.phase === "over") body = ending(snapshot);
  else if (ui.fixFaces && roll) body = facesPanel(c, ui.fixFaces.roll, ui.fixFaces);
  else if (!mine) {
    const who = view.phase === "tally" ? view.actor : view.turn;
    body = h("p", { class: "waiting", text: t(`flotilla.waiting.${view.phase}`, { name: byseat(snapshot, who).name }) });
  } else if (view.phase === "turn") body = turnSteps(c);
  else if (view.phase === "roll") body = facesPanel(c);
  else if (view.phase === "tally") body = tallyPanel(c);
  else body = [rolledFaces(view), { barrels: barrelsPanel, deplete: depletePanel, wild: wildPanel }[view.phase](c)];
  const refusal = refusalLine(ui, snapshot);
  return h("section", { class: "flotilla screen-body", dataset: { kind: "flotilla", step: view.phase } },
    captains(snapshot),
    h("header", { class: "turn-head" },
      h("div", { class: "step", text: view.phase === "turn" && !mine ? t("flotilla.phase.turn.of", { name: byseat(snapshot, view.turn).name }) : t(`flotilla.phase.${view.phase}`) }),
      h("div", { class: "whose", text: t("flotilla.round", { n: view.round }) })),
    supplyLine(snapshot),
    refusal,
    body,
    view.phase === "over" ? null : lastStep(snapshot),
    view.phase === "over" ? null : lastTrade(snapshot),
    roll && !ui.fixFaces ? h("button", { class: "secondary wide", dataset: { go: "fix-faces" }, onclick: () => startFix(c, roll) }, t("flotilla.fix.open")) : null,
    snapshot.can_undo && view.viewer === view.turn ? h("button", { class: "secondary wide", dataset: { go: "undo" }, onclick: () => intent("undo") }, t("turn.undo")) : null);
}
