// Setting up a game: the players (names, colours, who starts), the rules (the base game, the
// kits and challenges, every option with its one line), and the table (tiles dealt or told,
// the island random or tapped in from the real board). Three steps; Start sends it all.

import { h } from "./dom.js";
import { t, has, capital } from "./i18n.js";
import { PALETTE } from "./players.js";
import { refusalFrom, refusalText } from "./words.js";

const errorLine = (said) => h("div", { class: "refusal", role: "alert" },
  said.rule ? h("strong", { text: said.rule }) : null, said.sentence ? h("p", { text: said.sentence }) : null);
import { CAPTAINS, flotillaSetup, flotillaRequest } from "./flotilla.js";

// Options shown only with their module: the squid's entry, the 1986 spinner and board.
const OPTION_MODULE = {
  squid_entry: "squid",
  spinner_sectors: "escape-1986",
  entrances_per_island: "escape-1986",
  layout_1986: "escape-1986",
  backs_1986: "escape-1986",
};
// The 1986 box plays only its own options and the two the base game shares with it
// (`creature_move`, `tiebreak`: E-1); the 30th edition's others answer questions of a game it
// is not (values, repellents, the squid, the dolphin tile, the winds).
const WITH_1986 = new Set(["creature_move", "tiebreak"]);
const offered = (o) =>
  (!OPTION_MODULE[o.name] || draft.modules.has(OPTION_MODULE[o.name])) &&
  (!draft.modules.has("escape-1986") || WITH_1986.has(o.name) || OPTION_MODULE[o.name] === "escape-1986");
const STEPS = ["players", "rules", "table"];
const BOT_CHOICES = ["person", "easy", "normal", "strong"];
const FLOTILLA_STEPS = ["players", "flotilla"];
const steps = () => (draft.kind === "flotilla" ? FLOTILLA_STEPS : STEPS);

let draft = null;
// The table that just played: a rematch starts with its players, names and colours, and its game.
let rematch = null;

function fresh(rules) {
  const colours = rules.colours;
  const { min, max } = rematch?.kind === "flotilla" ? CAPTAINS : rules.players;
  const again = rematch && rematch.players.length >= min && rematch.players.length <= max;
  const players = again
    ? rematch.players.map((p) => ({ name: p.name, colour: colours.includes(p.colour) ? p.colour : null, bot: p.bot || null }))
    : [0, 1].map((i) => ({ name: "", colour: colours[i], bot: null }));
  for (const p of players) p.colour ??= colours.find((c) => !players.some((q) => q.colour === c));
  return {
    step: 0,
    players,
    modules: new Set(["base"]),
    options: Object.fromEntries(rules.options.map((o) => [o.name, o.default])),
    mode: "physical",
    kind: again && rematch.kind === "flotilla" ? "flotilla" : "survive",
    roll: "entered",
    hints: false, // "suggest" on each person's phone: off unless the table wants it
    layout: null, // until chosen: as the tiles are (island)
    seed: "",
    busy: false,
    error: null,
  };
}

// `previous`: the snapshot of the game this phone was following, whose players a rematch keeps.
export function resetSetup(previous = null) {
  draft = null;
  if (previous?.players?.length) {
    rematch = { kind: previous.kind, players: previous.players.map((p) => ({ name: p.name, colour: p.colour, bot: p.bot })) };
  }
}

// A group's name as a screen reader says it: the question it answers, in the page's words.
const GROUP = { kind: "setup.game", count: "setup.players", mode: "setup.mode", layout: "setup.layout", bot: "setup.bot", hints: "setup.hints" };
const groupName = (name) => t(GROUP[name] || `option.${name}.title`);

function segmented(name, values, current, set, label) {
  return h("div", { class: "segmented", role: "radiogroup", "aria-label": groupName(name) },
    values.map((v) => h("button", {
      class: v === current ? "seg on" : "seg",
      role: "radio",
      "aria-checked": v === current ? "true" : "false",
      dataset: { [name]: v },
      onclick: () => set(v),
    }, label(v))));
}

// Players: the start player is seat 1, so choosing another start player turns the list round.
function playersStep(rules, redraw) {
  const { min, max } = draft.kind === "flotilla" ? CAPTAINS : rules.players;
  const used = (colour, except) => draft.players.some((p, i) => i !== except && p.colour === colour);
  const setCount = (n) => {
    while (draft.players.length < n) {
      const colour = rules.colours.find((c) => !used(c, -1));
      draft.players.push({ name: "", colour, bot: null });
    }
    draft.players.length = n;
    if (n < 5) draft.modules.delete("overpopulated");
    if (n > 4) for (const m of rules.modules) if (m.alone && draft.modules.delete(m.name)) draft.modules.add("base"); // E-4: 2–4 players
    redraw();
  };
  const rows = draft.players.map((p, i) => h("li", { class: "player-row", dataset: { seat: i + 1 } },
    h("div", { class: "row" },
      h("span", { class: "seat-number", text: t("setup.seat", { n: i + 1 }) }),
      h("input", {
        type: "text", maxlength: 40, value: p.name, placeholder: t("player.seat", { n: i + 1 }),
        "aria-label": t("setup.name", { n: i + 1 }), dataset: { name: i + 1 },
        oninput: (e) => { p.name = e.target.value; },
      }),
      i === 0
        ? h("span", { class: "starts", text: t("setup.starts") })
        : h("button", { class: "secondary small", dataset: { start: i + 1 }, onclick: () => {
            draft.players = [...draft.players.slice(i), ...draft.players.slice(0, i)];
            redraw();
          } }, t("setup.make_start"))),
    h("div", { class: "swatches", role: "radiogroup", "aria-label": t("setup.colour") },
      rules.colours.map((c) => h("button", {
        class: c === p.colour ? "swatch on" : "swatch",
        style: `background:${PALETTE[c] || c}`,
        role: "radio",
        "aria-checked": c === p.colour ? "true" : "false",
        "aria-label": t(`colour.${c}`),
        title: t(`colour.${c}`),
        dataset: { colour: c, seat: i + 1 },
        onclick: () => {
          const other = draft.players.findIndex((q, j) => j !== i && q.colour === c);
          if (other >= 0) draft.players[other].colour = p.colour; // swap, so colours stay unique
          p.colour = c;
          redraw();
        },
      }, h("span", { class: "swatch-name", text: t(`colour.${c}`) })))),
    // A seat the companion plays (Survive only), at a strength: a short-handed table.
    draft.kind === "survive" ? segmented("bot", BOT_CHOICES, p.bot || "person", (v) => { p.bot = v === "person" ? null : v; redraw(); }, (v) => t(`setup.bot.${v}`)) : null));
  const counts = [];
  for (let n = min; n <= max; n++) counts.push(n);
  return [
    h("p", { class: "option-title", text: t("setup.game") }),
    segmented("kind", ["survive", "flotilla"], draft.kind, (v) => {
      draft.kind = v;
      const range = v === "flotilla" ? CAPTAINS : rules.players;
      setCount(Math.min(Math.max(draft.players.length, range.min), range.max));
    }, (v) => t(`setup.game.${v}`)),
    h("h2", { text: t("setup.players") }),
    segmented("count", counts, draft.players.length, setCount, String),
    h("ol", { class: "players" }, rows),
    h("p", { class: "hint", text: t("setup.start_hint") }),
  ];
}

// A module played alone (the 1986 ruleset, E-7) is offered for 2–4 players (E-4); while it is
// on, nothing else is.
function moduleAllowed(module, count, lone) {
  if (module.alone) return count <= 4;
  if (lone) return false;
  if (module.name === "five-six") return false; // implied by 5 or 6 players
  if (module.name === "overpopulated") return count >= 5;
  if (module.needs) return draft.modules.has(module.needs);
  return true;
}

function rulesStep(rules, redraw) {
  const count = draft.players.length;
  const modules = rules.modules.filter((m) => m.playable && m.name !== "base");
  const lone = modules.find((m) => m.alone && draft.modules.has(m.name));
  const moduleRows = modules.map((m) => {
    const on = m.name === "five-six" ? count >= 5 : draft.modules.has(m.name);
    const allowed = moduleAllowed(m, count, lone);
    return h("li", { class: "module" },
      h("button", {
        class: on ? "toggle on" : "toggle",
        "aria-pressed": on ? "true" : "false",
        disabled: allowed ? null : true,
        dataset: { module: m.name },
        onclick: () => {
          if (m.alone) draft.modules = new Set([draft.modules.has(m.name) ? "base" : m.name]);
          else if (draft.modules.has(m.name)) {
            draft.modules.delete(m.name);
            for (const other of rules.modules) if (other.needs === m.name) draft.modules.delete(other.name);
          } else draft.modules.add(m.name);
          redraw();
        },
      }, has(`module.${m.name}`) ? t(`module.${m.name}`) : m.text),
      h("p", { class: "explain", text: t(`module.${m.name}.explain`) }));
  });
  const options = rules.options.filter(offered);
  const optionRows = options.map((o) => h("li", { class: "option" },
    h("p", { class: "option-title", text: t(`option.${o.name}.title`) }),
    h("p", { class: "explain", text: has(`option.${o.name}`) ? t(`option.${o.name}`) : o.text }),
    segmented(o.name, o.values, draft.options[o.name], (v) => { draft.options[o.name] = v; redraw(); }, (v) => t(`value.${v}`))));
  return [
    h("h2", { text: t("setup.rules") }),
    h("p", { class: "explain", text: t(lone ? "module.alone.explain" : "module.base.explain") }),
    h("ul", { class: "modules" }, moduleRows),
    h("h2", { text: t("setup.options") }),
    h("ul", { class: "options" }, optionRows),
    Object.keys(rules.unverified || {}).length ? h("p", { class: "hint", text: t("setup.unverified") }) : null,
  ];
}

// Real tiles lie on the table already: the island is "as laid there" unless the table chooses;
// dealt tiles are shuffled by the companion.
const island = () => draft.layout ?? (draft.mode === "physical" ? "table" : "random");

const rings = () => draft.modules.has("escape-1986") && draft.options.layout_1986 === "rings";

function tableStep(redraw) {
  // The 1986 people carry no values (E-4): its tiles are all this choice is about.
  const v1986 = draft.modules.has("escape-1986") ? ".1986" : "";
  return [
    h("h2", { text: t("setup.table") }),
    h("p", { class: "option-title", text: t(`setup.mode${v1986}`) }),
    segmented("mode", ["physical", "digital"], draft.mode, (v) => { draft.mode = v; redraw(); }, (v) => t(`setup.mode.${v}`)),
    h("p", { class: "explain", text: t(`setup.mode.${draft.mode}.explain${v1986}`) }),
    h("p", { class: "option-title", text: t("setup.layout") }),
    ...(rings()
      // E-5: the 1986 island is laid in rings by terrain: nothing is random, nothing to tap in.
      ? [h("p", { class: "explain", dataset: { layout: "rings" }, text: t("setup.layout.rings.explain") })]
      : [segmented("layout", ["table", "random"], island(), (v) => { draft.layout = v; redraw(); }, (v) => t(`setup.layout.${v}`)),
        h("p", { class: "explain", text: t(`setup.layout.${island()}.explain`) })]),
    h("p", { class: "option-title", text: t("setup.hints") }),
    segmented("hints", ["off", "on"], draft.hints ? "on" : "off", (v) => { draft.hints = v === "on"; redraw(); }, (v) => t(`setup.hints.${v}`)),
    h("p", { class: "explain", text: t("setup.hints.explain") }),
    h("details", { class: "advanced" },
      h("summary", { text: t("setup.advanced") }),
      h("label", { class: "field" }, t("setup.seed"),
        h("input", { type: "number", inputmode: "numeric", min: 0, value: draft.seed, dataset: { field: "seed" }, oninput: (e) => { draft.seed = e.target.value; } })),
      h("p", { class: "explain", text: t("setup.seed.explain") })),
  ];
}

// The body of POST /api/games.
function request() {
  if (draft.kind === "flotilla") return flotillaRequest(draft);
  const modules = [...draft.modules];
  const body = {
    players: draft.players.map((p, i) => (p.bot
      // A bot is called by its colour ("Bot Blue moves…") unless the table names it.
      ? { name: p.name.trim() || capital(t(`colour.${p.colour}`)), colour: p.colour, bot: p.bot }
      : { name: p.name.trim() || t("player.seat", { n: i + 1 }), colour: p.colour })),
    modules,
    // Only the options on the screen: one hidden keeps its default, whatever was tapped before.
    options: Object.fromEntries(Object.entries(draft.options).filter(([name]) => offered({ name }))),
    mode: draft.mode,
    layout: island(),
  };
  if (draft.hints) body.hints = true;
  if (draft.seed !== "" && /^\d+$/.test(String(draft.seed))) body.seed = Number(draft.seed);
  return body;
}

export function setupScreen({ rules, redraw, start, cancel }) {
  if (!draft) draft = fresh(rules);
  const step = steps()[draft.step];
  const body = step === "players" ? playersStep(rules, redraw) : step === "rules" ? rulesStep(rules, redraw)
    : step === "flotilla" ? flotillaSetup(draft, redraw) : tableStep(redraw);
  const last = draft.step === steps().length - 1;
  return h("section", { class: "setup screen-body", dataset: { step } },
    h("p", { class: "progress", text: t("setup.progress", { n: draft.step + 1, of: steps().length }) }),
    body,
    draft.error ? errorLine(refusalText(draft.error)) : null,
    h("div", { class: "footer-row sticky" },
      draft.step > 0
        ? h("button", { class: "secondary", dataset: { go: "back" }, onclick: () => { draft.step -= 1; redraw(); } }, t("common.back"))
        : h("button", { class: "secondary", dataset: { go: "cancel" }, onclick: cancel }, t("common.cancel")),
      last
        ? h("button", { class: "big", dataset: { go: "start" }, disabled: draft.busy ? true : null, onclick: async () => {
            draft.busy = true;
            draft.error = null;
            redraw();
            try {
              await start(request());
              draft = null;
            } catch (e) {
              draft.busy = false;
              draft.error = refusalFrom(e);
              redraw();
            }
          } }, t("setup.start"))
        : h("button", { class: "big", dataset: { go: "next" }, onclick: () => { draft.step += 1; redraw(); } }, t("common.next"))));
}
