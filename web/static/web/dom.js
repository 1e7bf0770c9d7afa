// A tiny DOM builder: text always goes in as text (display names are user input), never as HTML.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") el.className = value;
    else if (name.startsWith("on") && typeof value === "function") {
      el.addEventListener(name.slice(2), value);
    } else if (name === "dataset") Object.assign(el.dataset, value);
    else if (value === true) el.setAttribute(name, "");
    else el.setAttribute(name, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

export function clear(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

export function ordinal(n) {
  const s = ["th", "st", "nd", "rd"];
  const v = n % 100;
  return n + (s[(v - 20) % 10] || s[v] || s[0]);
}

export function title(text) {
  return String(text).charAt(0).toUpperCase() + String(text).slice(1);
}

// The words of a private section: the seat's own at the table ("Your hand"), a named seat's in
// the replay viewer, where every seat's hand is shown ("Ada's hand").
export function owner(ctx) {
  const o = ctx.owner;
  return o
    ? { Your: `${o}'s`, your: `${o}'s`, You: o, you: o, hold: "holds", have: "has" }
    : { Your: "Your", your: "your", You: "You", you: "you", hold: "hold", have: "have" };
}

// "Ada's", or "your" for the player's own seat ("Ada (you)"; in two tribes "Ada (you, 1st
// tribe)" stays a name: "Ada (you, 1st tribe)'s" reads better than a bare "your").
export function poss(name) {
  return name.endsWith(" (you)") ? "your" : `${name}'s`;
}
