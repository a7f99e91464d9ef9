// The page's words: one flat catalogue per language (web/i18n/<lang>.json), English behind
// every other so that a missing line shows English rather than a key.

export const LANGUAGES = ["en", "es", "fr"];
const STORED = "companion.lang";

let words = {};
let english = {};
let current = "en";
// A ruleset's own words: under the 1986 rules, "creature.serpent@1986" (a sea monster) before
// "creature.serpent" (a sea serpent).
let variant = "";

export function setVariant(name) {
  variant = name || "";
}

async function fetchCatalogue(lang) {
  const response = await fetch(`/i18n/${lang}.json`, { cache: "no-cache" });
  if (!response.ok) throw new Error(`no catalogue for ${lang}`);
  return response.json();
}

// The language to use: the phone's own choice, else the server's, else the browser's.
export function choose(serverLang) {
  const stored = localStorage.getItem(STORED);
  if (LANGUAGES.includes(stored)) return stored;
  if (LANGUAGES.includes(serverLang)) return serverLang;
  for (const tag of navigator.languages || []) {
    const base = tag.slice(0, 2).toLowerCase();
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

export async function load(lang) {
  if (!Object.keys(english).length) english = await fetchCatalogue("en");
  words = lang === "en" ? english : await fetchCatalogue(lang).catch(() => english);
  current = words === english ? "en" : lang;
  document.documentElement.lang = current;
}

export async function switchTo(lang) {
  localStorage.setItem(STORED, lang);
  await load(lang);
}

export function language() {
  return current;
}

export function has(key) {
  return key in words || key in english;
}

function lookup(key) {
  if (variant) {
    const own = words[`${key}@${variant}`] ?? english[`${key}@${variant}`];
    if (own !== undefined) return own;
  }
  return words[key] ?? english[key];
}

// t("wait.player", {name: "Ana"}) -> "Waiting for Ana."; a missing key shows itself, to be noticed.
export function t(key, params = {}) {
  const text = lookup(key) ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

// A sentence starts with a capital, whatever a placeholder put first ("la persona de Ana…").
export const capital = (s) => (s ? s[0].toUpperCase() + s.slice(1) : s);
