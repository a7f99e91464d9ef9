// What the camera says, on every phone: a proposal ("the beach at 5.2 left the island") that the
// remover's phone confirms or rejects with one tap, a question with its choices, the island it
// read while it is laid (each position correctable before one confirmation), and a banner when
// the board and the game disagree. The camera never acts: the table waits for the tap.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { byseat, hexLabel } from "./players.js";

function tileAt(snapshot, choice) {
  const terrain = snapshot.state.tiles[choice.name];
  return terrain ? t("camera.choice", { tile: t(`tile.${terrain}`), hex: hexLabel(choice.name) }) : hexLabel(choice.name);
}

function outOfSync(sync, ctx) {
  const hexes = sync.hexes.map((x) => hexLabel(x.name)).join(", ");
  return h("div", { class: "camera-banner", role: "alert", dataset: { camera: "out-of-sync", hexes: sync.hexes.map((x) => x.name).join(" ") } },
    h("p", { text: t("camera.out_of_sync", { hexes }) }),
    ctx.me !== null && ctx.authorised
      ? h("button", { class: "secondary wide", dataset: { camera: "ignore" }, onclick: () => ctx.intent("reject_proposal", { id: sync.id }) }, t("camera.ignore"))
      : null);
}

const TERRAINS = ["beach", "forest", "mountain"];
// This phone's corrections to the island proposed (a tap turns a position to the next terrain).
let edits = { id: null, layout: {} };

function counts(layouts) {
  const n = Object.fromEntries(TERRAINS.map((x) => [x, 0]));
  for (const layout of layouts) for (const x of Object.values(layout)) n[x] += 1;
  return n;
}

function islandCard(proposal, ctx) {
  if (edits.id !== proposal.id) edits = { id: proposal.id, layout: {} };
  const layout = { ...proposal.layout, ...edits.layout };
  const laid = ctx.snapshot.state.tiles;
  // The camera's proposal keeps the box's counts (the table checked it): corrections must too.
  const box = counts([laid, proposal.layout]);
  const now = counts([laid, layout]);
  const right = TERRAINS.every((x) => now[x] === box[x]);
  const mine = ctx.me !== null && ctx.authorised;
  const turn = (name) => {
    const next = TERRAINS[(TERRAINS.indexOf(layout[name]) + 1) % TERRAINS.length];
    edits.layout = { ...edits.layout, [name]: next };
    ctx.redraw();
  };
  const cells = Object.keys(layout).map((name) => {
    const doubtful = proposal.doubtful.includes(name);
    return h("button", {
      class: `position ${layout[name]}${doubtful ? " doubtful" : ""}`,
      dataset: { position: name, terrain: layout[name] },
      "aria-label": `${name}: ${t(`terrain.${layout[name]}`)}`,
      onclick: mine ? () => turn(name) : null,
      disabled: mine ? null : true,
    }, name, doubtful ? "?" : "");
  });
  const tally = TERRAINS.map((x) => `${t(`terrain.${x}`)} ${now[x]}/${box[x]}`).join(" · ");
  return h("section", { class: "proposal", dataset: { camera: "proposal", proposal: proposal.id, kind: "layout" } },
    h("h3", { text: t("camera.island") }),
    h("div", { class: "positions" }, cells),
    h("p", { class: right ? "tally" : "tally wrong", dataset: { right: right ? "yes" : "no" }, text: tally }),
    mine
      ? [h("button", {
        class: right ? "big wide" : "big wide disabled", dataset: { confirm: "layout" },
        onclick: () => right && ctx.intent("confirm_proposal", Object.keys(edits.layout).length ? { id: proposal.id, layout: edits.layout } : { id: proposal.id }),
      }, t("camera.island_confirm")),
      h("button", { class: "secondary wide", dataset: { reject: "" }, onclick: () => ctx.intent("reject_proposal", { id: proposal.id }) }, t("camera.reject_island"))]
      : h("p", { class: "waiting", text: t("camera.island_waiting") }));
}

function proposalCard(proposal, ctx) {
  if (proposal.kind === "layout") return islandCard(proposal, ctx);
  const { snapshot } = ctx;
  const mine = ctx.me !== null && ctx.authorised && snapshot.state.actor === ctx.me;
  const confirm = (choice) => ctx.intent("confirm_proposal", { id: proposal.id, hex: choice.hex });
  const reject = () => ctx.intent("reject_proposal", { id: proposal.id });
  const [best] = proposal.choices;
  const remover = byseat(snapshot, snapshot.state.turn);
  let answers;
  if (!mine) {
    answers = h("p", { class: "waiting", text: t("camera.waiting", { name: remover?.name ?? "" }) });
  } else if (proposal.question) {
    answers = h("div", { class: "grid" },
      proposal.choices.map((c) => h("button", { class: "pick", dataset: { confirm: c.name }, onclick: () => confirm(c) }, tileAt(snapshot, c))),
      h("button", { class: "secondary", dataset: { reject: "" }, onclick: reject }, t("camera.none")));
  } else {
    answers = h("div", { class: "grid" },
      h("button", { class: "big", dataset: { confirm: best.name }, onclick: () => confirm(best) }, t("camera.confirm")),
      h("button", { class: "secondary", dataset: { reject: "" }, onclick: reject }, t("camera.reject")));
  }
  return h("section", { class: "proposal", dataset: { camera: "proposal", proposal: proposal.id } },
    h("h3", { text: proposal.question ? t("camera.question") : t("camera.proposal", { tile: tileAt(snapshot, best) }) }),
    answers);
}

// The camera's part of the play screen: null when it has nothing to say.
// ctx: {snapshot, me (this phone's seat or null), authorised, intent(name, args), redraw()}
export function cameraPanel(ctx) {
  const camera = ctx.snapshot.camera;
  if (!camera) return null;
  return h("div", { class: "camera" },
    camera.out_of_sync ? outOfSync(camera.out_of_sync, ctx) : null,
    camera.proposal ? proposalCard(camera.proposal, ctx) : null);
}

// The hexes the camera speaks of, marked on the board drawn (an SVG from board.js).
export function markCamera(svg, snapshot) {
  const camera = snapshot.camera;
  const mark = (hexes, name) => {
    for (const x of hexes || []) svg.querySelector(`[data-hex="${x.hex}"]`)?.classList.add(name);
  };
  mark(camera?.proposal?.choices, "proposed");
  mark(camera?.out_of_sync?.hexes, "disagree");
  const island = camera?.proposal?.layout;
  if (!island) return;
  const layout = edits.id === camera.proposal.id ? { ...island, ...edits.layout } : island;
  for (const [name, terrain] of Object.entries(layout)) {
    svg.querySelector(`[data-name="${name}"]`)?.classList.add("proposed", `proposed-${terrain}`);
  }
}
