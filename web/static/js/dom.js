// Building elements in one call, so that screens read as the tree they draw.
// h("button", {class: "big", onclick: go, dataset: {action: "done"}}, t("done.move"))

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  return fill(el, attrs, children);
}

const SVG = "http://www.w3.org/2000/svg";

export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  return fill(el, attrs, children);
}

function fill(el, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "text") el.textContent = value;
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

// Replace what a container shows; screens redraw whole, which keeps them free of stale state.
export function show(container, ...children) {
  container.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
}
