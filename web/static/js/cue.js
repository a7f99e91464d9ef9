// The phone tells its player that their turn has come without being looked at: a vibration
// where the phone has one, a short tone when the player switched sound on (off by default: a
// table of phones all beeping is noise), and the screen kept awake while the page is open, so
// that it is not dark when the turn comes (the Screen Wake Lock API: only where the browser
// offers it, which is on a secure origin or 127.0.0.1).

import { h } from "./dom.js";
import { t } from "./i18n.js";

const SOUND = "companion.sound";
let following = null; // the game whose turns are watched
let wasMine = null; // null: the first state seen, which is no news
let lock = null;

export function soundOn() {
  return localStorage.getItem(SOUND) === "on";
}

function tone() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  const context = new Context();
  const beep = context.createOscillator();
  const volume = context.createGain();
  beep.frequency.value = 660;
  volume.gain.value = 0.2;
  beep.connect(volume).connect(context.destination);
  beep.onended = () => context.close();
  beep.start();
  beep.stop(context.currentTime + 0.2);
}

// Called with every state drawn: `mine` is whether this phone has something to decide now.
export function cueTurn(game, mine) {
  if (game !== following) {
    following = game;
    wasMine = null;
  }
  if (mine && wasMine === false) {
    navigator.vibrate?.([150, 80, 150]);
    if (soundOn()) tone();
  }
  wasMine = mine;
}

// Ask for the screen to stay on, and again whenever the page comes back into view (the browser
// lets the lock go when the page is hidden).
export function keepAwake() {
  const ask = () => {
    if (lock || document.visibilityState !== "visible" || !navigator.wakeLock) return;
    navigator.wakeLock.request("screen").then((sentinel) => {
      lock = sentinel;
      sentinel.addEventListener("release", () => { lock = null; });
    }).catch(() => { /* refused (battery saver, a hidden page): the screen sleeps as usual */ });
  };
  document.addEventListener("visibilitychange", ask);
  ask();
}

// The bar's sound switch: a tone on this phone when its turn comes.
export function soundToggle(redraw) {
  const on = soundOn();
  const label = t("cue.sound");
  return h("button", { class: "icon sound-toggle", dataset: { sound: on ? "on" : "off" }, "aria-label": label, "aria-pressed": on ? "true" : "false", title: label, onclick: () => {
    localStorage.setItem(SOUND, on ? "off" : "on");
    if (!on) tone(); // the tap that switches it on lets the browser play it, and shows what it sounds like
    redraw();
  } }, "♪");
}
