// The turn panel: the step and whose it is, in large letters; movement points left; what the
// roll allows; and the answers only this phone may give — a tile's back or a die face (told by
// the player whose turn it is), a red tile to play, a defensive tile against an attack.

import { h } from "./dom.js";
import { t, has } from "./i18n.js";
import { byseat, fill, ink, personLabel, creatureLabel, hexLabel } from "./players.js";
import { describe, placeValues } from "./moves.js";
import { refusalText } from "./words.js";

const GREEN = ["shark", "whale", "boat", "whirlpool", "volcano", "dolphin"];
const DIE_ORDER = ["serpent", "shark", "whale", "dolphin", "boat", "starfish"];
const DISTANCES = ["1", "2", "3", "D"];

function chip(player) {
  return h("span", { class: "chip", style: `background:${fill(player)};color:${ink(player)}` }, player.name);
}

// "Step 2 · Move" and "Ana's turn" (or "Your turn").
function headline(snapshot, me) {
  const view = snapshot.state;
  const phase = view.phase;
  const turn = byseat(snapshot, view.turn);
  const setup = ["terrain", "place", "boat"].includes(phase);
  const whose = setup
    ? (typeof view.actor === "number" ? byseat(snapshot, view.actor) : null)
    : turn;
  return h("header", { class: "turn-head", dataset: { phase } },
    h("div", { class: "step", text: t(spinning(view) && phase === "roll" ? "phase.spin" : `phase.${phase}`) }),
    whose
      ? h("div", { class: "whose" }, whose.seat === me ? h("strong", { text: t("turn.yours") }) : [chip(whose), " ", t("turn.theirs")])
      : null);
}

// What the roll lets the roller move, in words: the red die or the two dive dice.
export function rollMeaning(view) {
  if (!view.roll) return null;
  const [kind, dist] = view.roll.split(" ");
  if (view.rules.modules.includes("escape-1986")) return spinMeaning(view, kind, dist);
  const squid = view.rules.modules.includes("squid") && (kind === "whale" || kind === "starfish");
  let text;
  if (dist === undefined) text = t("roll.means", { face: t(`face.${kind}`), what: t(`roll.red.${kind}`) });
  else text = t("roll.dive", { face: t(`face.${kind}`), distance: t(`distance.${dist}`), what: t(`dive.kind.${kind}`), how: t(`dive.dist.${dist}`) });
  return h("p", { class: "roll-meaning", dataset: { roll: view.roll } }, text, squid ? ` ${t("roll.squid")}` : "");
}

// The 1986 ruleset spins a spinner where the base game rolls a die (E-1).
const spinning = (view) => view.rules.modules.includes("escape-1986");

// The 1986 spinner's result and what it allows (E-1): how far, and which creatures can.
function spinMeaning(view, kind, move) {
  const may = view.pending.may_move;
  const which = may ? (may.length ? t("spin.may", { creatures: may.map(creatureLabel).join(", ") }) : t("spin.none")) : "";
  return h("p", { class: "roll-meaning", dataset: { roll: view.roll } },
    t("roll.spin", { kind: t(`spin.kind.${kind}`), move: t(`spin.move.${move}`) }), " ",
    // A dolphin never attacks (E-3), so it never stops early.
    t(move === "dive" ? "spin.how.dive" : kind === "dolphin" ? "spin.how.dolphin" : "spin.how.steps"), which ? ` ${which}` : "");
}

function points(view, me) {
  if (view.phase !== "move") return null;
  const pips = [0, 1, 2].map((i) => h("span", { class: i < view.points ? "pip on" : "pip" }));
  return h("p", { class: "points", dataset: { points: view.points } }, h("span", { class: "pips", "aria-hidden": "true" }, pips), t(me === view.turn ? "turn.points" : "turn.points.watch", { n: view.points }));
}

function button(label, onclick, data = {}, cls = "big") {
  // A button not ready yet says so to a screen reader too (it stays tappable, to explain why).
  return h("button", { class: cls, onclick, dataset: data, "aria-disabled": cls.split(" ").includes("disabled") ? "true" : null }, label);
}

// The outcomes of a table decision this phone tells: a terrain, a tile's back, a die face.
function tellPanel(ctx) {
  const { snapshot, act, intent, ui } = ctx;
  const view = snapshot.state;
  const outcomes = snapshot.outcomes || [];
  if (!outcomes.length) return null;
  const pick = (a) => button(describe(a, ctx.board, snapshot), () => act(a), { outcome: a.join(" ") }, "pick");
  if (view.phase === "terrain") {
    return h("section", { class: "tell" },
      h("h3", { text: t("tell.terrain", { hex: ctx.nextHex ?? "" }) }),
      h("div", { class: "grid" }, outcomes.map(pick)));
  }
  if (view.phase === "back") {
    const terrain = view.pending.terrain;
    const shown = ["dive-dice", "escape-1986"].some((m) => view.rules.modules.includes(m)); // a dolphin tile is shown at once (D-2, E-3)
    const green = outcomes.filter((a) => GREEN.includes(a[1]) && !(a[1] === "dolphin" && !shown));
    const red = outcomes.filter((a) => !green.includes(a));
    const secret = red.find((a) => a[1] === "red");
    const named = red.filter((a) => a[1] !== "red");
    return h("section", { class: "tell" },
      h("h3", { text: t("tell.back", { tile: t(`tile.${terrain}`), hex: hexLabel(view.pending.hex || "") }) }),
      green.length ? h("p", { class: "label", text: t("tell.green") }) : null,
      h("div", { class: "grid" }, green.map(pick)),
      red.length ? h("p", { class: "label", text: t("tell.red") }) : null,
      secret ? button(t("back.red"), () => act(secret), { outcome: "back red" }, "pick wide red") : null,
      named.length ? h("details", { class: "private" },
        h("summary", { text: t("tell.red_private") }),
        h("div", { class: "grid" }, named.map((a) => button(t(`back.${a[1]}`), () => act(a), { outcome: a.join(" ") }, "pick red")))) : null);
  }
  if (view.phase === "roll" && view.mode !== "physical") {
    // Dealt tiles, yet the table may still roll its own dice: the companion's roll first, the
    // real die's faces one tap away.
    const told = tellPanel({ ...ctx, snapshot: { ...snapshot, state: { ...view, mode: "physical" } } });
    told.querySelector("[data-intent=roll]")?.remove();
    const dive = outcomes[0][0] === "dive";
    const spinner = outcomes[0][0] === "spin";
    return h("section", { class: "tell" },
      button(t(spinner ? "tell.spin" : dive ? "tell.roll_dive" : "tell.roll"), () => intent("roll"), { intent: "roll" }, "big wide roll"),
      h("details", { class: "own-dice", dataset: { dice: "table" } },
        h("summary", { text: t("tell.own_dice") }), told));
  }
  if (view.phase === "roll" && outcomes[0][0] === "spin") {
    const spin = button(t("tell.spin"), () => intent("roll"), { intent: "roll" }, view.mode === "physical" ? "secondary wide" : "big wide roll");
    // Two short questions (the creature, then its move) rather than one button per sector.
    const chosen = ui.dive?.spin || null;
    const kinds = [...new Set(outcomes.map((a) => a[1]))];
    const pickKind = (k) => ctx.setDive({ spin: k });
    return h("section", { class: "tell", dataset: { spinStep: chosen ? "move" : "kind" } },
      h("h3", { text: t("tell.spin_kind") }),
      h("div", { class: "grid" }, kinds.map((k) => button(t(`spin.kind.${k}`), () => pickKind(k), { spin: "kind", face: k }, chosen === k ? "pick on" : "pick"))),
      chosen ? [h("h3", { text: t("tell.spin_move") }),
        h("div", { class: "grid" }, outcomes.filter((a) => a[1] === chosen).map((a) =>
          button(t(`spin.move.${a[2]}`), () => act(a), { outcome: a.join(" ") }, "pick")))] : null,
      spin);
  }
  if (view.phase === "roll") {
    const dive = outcomes[0][0] === "dive";
    const physical = view.mode === "physical";
    const roll = button(t(dive ? "tell.roll_dive" : "tell.roll"), () => intent("roll"), { intent: "roll" }, physical ? "secondary wide" : "big wide roll");
    if (!physical) return h("section", { class: "tell" }, roll);
    if (!dive) {
      return h("section", { class: "tell" },
        h("h3", { text: t("tell.face") }),
        h("div", { class: "grid" }, outcomes.map(pick)),
        roll);
    }
    const chosen = ui.dive || {};
    const kinds = DIE_ORDER.filter((k) => outcomes.some((a) => a[1] === k));
    const dists = DISTANCES.filter((d) => outcomes.some((a) => a[2] === d));
    const ready = outcomes.find((a) => a[1] === chosen.kind && a[2] === chosen.dist);
    return h("section", { class: "tell" },
      h("h3", { text: t("tell.dive_kind") }),
      h("div", { class: "grid" }, kinds.map((k) =>
        button(t(`face.${k}`), () => ctx.setDive({ ...chosen, kind: k }), { die: "kind", face: k }, chosen.kind === k ? "pick on" : "pick"))),
      h("h3", { text: t("tell.dive_distance") }),
      h("div", { class: "grid" }, dists.map((d) =>
        button(t(`distance.${d}`), () => ctx.setDive({ ...chosen, dist: d }), { die: "distance", face: d }, chosen.dist === d ? "pick on" : "pick"))),
      ready ? h("p", { class: "roll-meaning" }, t("roll.dive", { face: t(`face.${chosen.kind}`), distance: t(`distance.${chosen.dist}`), what: t(`dive.kind.${chosen.kind}`), how: t(`dive.dist.${chosen.dist}`) })) : null,
      button(t("tell.dive_enter"), () => ready && act(ready), { outcome: "dive" }, ready ? "big wide" : "big wide disabled"),
      roll);
  }
  return null;
}

// The defensive-tile question: only the attacked player's phone is asked (B-29, B-43).
function defence(ctx) {
  const { snapshot, act } = ctx;
  const view = snapshot.state;
  const beast = view.pending.creature ? creatureLabel(view.pending.creature) : "";
  const kind = (view.pending.creature || "").replace(/\d+$/, "");
  const canRepel = (snapshot.legal || []).some((a) => a[0] === "repel");
  return h("section", { class: "question", dataset: { question: "defence" } },
    h("h3", { text: t(`defence.${kind === "whale" ? "whale" : "shark"}`, { creature: beast, hex: hexLabel(view.pending.hex || "") }) }),
    canRepel ? button(t(`defence.play.${kind === "whale" ? "whale" : "shark"}`), () => act(["repel"]), { action: "repel" }, "big wide red") : h("p", { text: t("defence.none") }),
    button(t("defence.decline"), () => act(["done"]), { action: "done" }, "secondary wide"));
}

function hint(view, legal) {
  const key = `hint.${view.phase}`;
  if (!legal?.length || !has(key)) return null;
  return h("p", { class: "hint", text: t(key) });
}

// What this phone decides now (its `legal` list), beyond the taps on the board.
function decide(ctx) {
  const { snapshot, act, ui } = ctx;
  const view = snapshot.state;
  const legal = snapshot.legal;
  if (!legal?.length) return null;
  if (view.phase === "defence") return defence(ctx);
  const parts = [hint(view, legal)];
  if (view.phase === "place") {
    const values = placeValues(legal);
    if (values.length) {
      parts.push(h("p", { class: "label", text: t("place.value") }),
        h("div", { class: "grid values" }, values.map((v) =>
          button(String(v), () => ctx.setValue(v), { value: v }, ui.value === v ? "pick on" : "pick"))));
    }
  }
  if (view.phase === "reveal") {
    const person = legal[0][1];
    parts.push(h("h3", { text: t("reveal.ask", { who: personLabel(snapshot, ctx.board.people[person]) }) }),
      h("div", { class: "grid values" }, legal.map((a) => button(String(a[2]), () => act(a), { action: a.join(" ") }, "pick"))));
  }
  for (const a of ctx.taps.buttons) {
    if (a[0] === "play") parts.push(button(describe(a, ctx.board, snapshot), () => act(a), { action: a.join(" ") }, "big wide red"));
  }
  if (view.phase === "creature" && view.pending.creature === null && !ctx.taps.sources.size && legal.length === 1) {
    parts.push(h("p", { class: "hint", text: t("hint.creature_none") }));
  }
  const done = legal.find((a) => a[0] === "done");
  if (done) parts.push(button(t(`done.${view.phase}`), () => act(done), { action: "done" }, "big wide done"));
  return h("section", { class: "decide" }, parts);
}

// The roll awaited: the spinner (1986), the two dive dice or the red die; at a digital table
// nothing is entered on a phone, a button rolls.
function rollWait(view) {
  const what = spinning(view) ? "wait.table.spin" : view.rules.modules.includes("dive-dice") ? "wait.table.roll.dive" : "wait.table.roll";
  return view.mode === "physical" ? what : `${what}.digital`;
}

// Whom the table waits for, when it is not this phone.
function waiting(ctx) {
  const { snapshot, me } = ctx;
  const view = snapshot.state;
  if (snapshot.legal?.length || snapshot.outcomes?.length || view.phase === "over") return null;
  let text;
  if (view.phase === "defence") text = t("wait.defence");
  else if (view.actor === "table") {
    const key = view.phase === "roll" ? rollWait(view) : `wait.table.${view.phase}`;
    text = t(key, { name: byseat(snapshot, view.turn).name });
  }
  else if (typeof view.actor === "number" && view.actor !== me) text = t("wait.player", { name: byseat(snapshot, view.actor).name });
  else return null;
  return h("p", { class: "waiting", dataset: { waiting: view.phase } }, text);
}

function hand(snapshot, me) {
  if (me === null) return null;
  const mine = snapshot.state.hands.find((x) => x.seat === me);
  if (!mine?.count) return null;
  const tiles = (mine.tiles || []).map((tile) => `${t(`terrain.${tile.terrain}`)}: ${tile.back ? t(`back.${tile.back}`) : t("back.unknown")}`);
  return h("p", { class: "hand" }, t("hand.mine", { n: mine.count }), " ", tiles.join(" · "));
}

export function refusal(ui, snapshot) {
  const r = ui.refusal;
  if (!r) return null;
  const said = refusalText(r, snapshot);
  return h("div", { class: "refusal", role: "alert", dataset: { rule: r.rule || "", key: r.key || "" } },
    said.rule ? h("strong", { text: said.rule }) : null,
    said.sentence ? h("p", { text: said.sentence }) : null);
}

function footer(ctx) {
  const { snapshot, me, authorised } = ctx;
  const view = snapshot.state;
  const parts = [];
  if (snapshot.can_undo && me !== null && me === view.turn) {
    parts.push(button(t("turn.undo"), () => ctx.intent("undo"), { intent: "undo" }, "secondary"));
  }
  if (authorised && me !== null) parts.push(button(t(spinning(view) ? "fix.open.1986" : "fix.open"), ctx.openFix, { fix: "open" }, "secondary"));
  return parts.length ? h("div", { class: "footer-row" }, parts) : null;
}

export function turnPanel(ctx) {
  const view = ctx.snapshot.state;
  return h("div", { class: "turn", dataset: { mine: ctx.snapshot.legal?.length || ctx.snapshot.outcomes?.length ? "yes" : "no" } },
    headline(ctx.snapshot, ctx.me),
    points(view, ctx.me),
    rollMeaning(view),
    refusal(ctx.ui, ctx.snapshot),
    tellPanel(ctx),
    decide(ctx),
    waiting(ctx),
    hand(ctx.snapshot, ctx.me),
    ctx.happenings,
    footer(ctx));
}
