// Joining the table: the QR code and address for the next phone, the table PIN once per
// phone, then a seat (a player's view) or watching (a spectator's).

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { fill, ink } from "./players.js";

function invite() {
  const template = document.getElementById("invite");
  const url = document.body.dataset.tableUrl || location.origin + "/";
  // While the table is its own Wi-Fi, the next phone joins the network first (one scan).
  const wifi = document.getElementById("wifi-invite");
  return h("section", { class: "invite" },
    wifi ? h("div", { class: "wifi-invite", dataset: { wifi: wifi.dataset.ssid } },
      wifi.content.cloneNode(true),
      h("p", { class: "wifi", text: t("join.wifi", { ssid: wifi.dataset.ssid, password: wifi.dataset.password }) })) : null,
    template ? template.content.cloneNode(true) : null,
    h("p", { class: "url" }, t("join.url"), " ", h("a", { href: url, dataset: { link: "table" } }, url)));
}

// What is typed in the PIN field outlives the screen: the screen is drawn again whenever the
// table tells anything (a move, a language chosen), and a phone must not lose the digits, or
// its keyboard, half-way through the PIN.
const pin = { typed: "", focused: false };

function pinForm(enterPin, error) {
  const send = (e) => {
    e.preventDefault();
    enterPin(pin.typed);
  };
  const input = h("input", {
    id: "pin", type: "password", inputmode: "numeric", autocomplete: "off", maxlength: 8, value: pin.typed || null,
    dataset: { field: "pin" },
    oninput: (e) => { pin.typed = e.target.value; },
    onfocus: () => { pin.focused = true; },
    onblur: () => { pin.focused = false; },
  });
  if (pin.focused) {
    queueMicrotask(() => {
      if (!input.isConnected) return;
      input.focus();
      input.setSelectionRange(pin.typed.length, pin.typed.length);
    });
  }
  return h("form", { class: "pin", onsubmit: send },
    h("label", { for: "pin", text: t("join.pin") }),
    input,
    h("button", { class: "big", type: "submit", dataset: { go: "pin" } }, t("join.pin_send")),
    error ? h("p", { class: "refusal", role: "alert", text: error }) : null);
}

export function joinScreen({ session, games, current, takeSeat, watch, setup, enterPin, pinError }) {
  const game = games.find((g) => g.id === current);
  const parts = [h("h1", { text: t("app.title") }), invite()];
  if (!session.authorised) parts.push(pinForm(enterPin, pinError));
  if (game) {
    parts.push(h("h2", { text: t("join.game", { n: game.id }) }),
      h("p", { class: "hint", text: t(session.authorised ? "join.choose" : "join.pin_first") }),
      h("div", { class: "seats" },
        // A bot's seat is the companion's: no phone takes it.
        session.authorised ? game.players.filter((p) => !p.bot).map((p) => h("button", {
          class: "seat big wide",
          style: `background:${fill(p)};color:${ink(p)}`,
          dataset: { seat: p.seat + 1 },
          onclick: () => takeSeat(game.id, p.seat + 1),
        }, t("join.i_am", { name: p.name }))) : null,
        h("button", { class: "secondary wide", dataset: { seat: "watch" }, onclick: () => watch(game.id) }, t("join.watch"))));
  } else {
    parts.push(h("p", { class: "hint", text: t("join.no_game") }));
  }
  if (session.authorised) {
    parts.push(h("button", { class: game ? "secondary wide" : "big wide", dataset: { go: "setup" }, onclick: setup }, t(game ? "join.new_game" : "join.setup")));
  }
  return h("section", { class: "join screen-body" }, parts);
}
