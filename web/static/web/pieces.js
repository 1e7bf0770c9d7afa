// Cards, dice and discs. Every face shown carries data-face (what it shows) and, on the
// table, data-owner (whose it is), so a test can compare the page with the API's view.

import { h } from "./dom.js";

export const SKULL = "\u2620";
export const FLOWER = "\u273F";
const DIE = ["\u2680", "\u2681", "\u2682", "\u2683", "\u2684", "\u2685"];

export function fabCard(card, owner) {
  const skulls = SKULL.repeat(card.skulls);
  return h(
    "span",
    {
      class: `card fab s${card.skulls}`,
      "data-face": `${card.digit}:${card.skulls}`,
      "data-owner": owner,
      title: `${card.digit} with ${card.skulls} skull${card.skulls === 1 ? "" : "s"}`,
    },
    h("b", {}, String(card.digit)),
    h("small", { "aria-hidden": "true" }, skulls),
  );
}

export const RANKS = ["bigfoot", "ghost", "alien", "witch", "dragon", "wild"];
const RANK_NAMES = {
  bigfoot: "Bigfoot",
  ghost: "Ghost",
  alien: "Alien",
  witch: "Witch",
  dragon: "Dragon",
  wild: "Wild",
};
export const rankName = (rank) => RANK_NAMES[rank] || rank;
// "2 Witches", "1 Ghost".
export const rankCount = (count, rank) => `${count} ${rankName(rank)}${count === 1 ? "" : rank === "witch" ? "es" : "s"}`;

export function fibberCard(rank, owner) {
  return h(
    "span",
    { class: `card fibber r-${rank}`, "data-face": rank, "data-owner": owner },
    h("b", { "aria-hidden": "true" }, rank === "wild" ? "\u2605" : rankName(rank).charAt(0)),
    h("small", {}, rankName(rank)),
  );
}

export function cardBack(count, label = "cards") {
  return h(
    "span",
    { class: "backs", title: `${count} ${label} face down`, "data-backs": count },
    h("span", { class: "card back", "aria-hidden": "true" }),
    h("span", { class: "count" }, `×${count}`),
  );
}

export function die(value, owner) {
  return h(
    "span",
    { class: "die", "data-face": String(value), "data-owner": owner, title: `die showing ${value}` },
    h("span", { "aria-hidden": "true" }, DIE[value - 1] || "?"),
    h("small", {}, String(value)),
  );
}

export function disc(kind, owner) {
  return h(
    "span",
    { class: `disc ${kind}`, "data-face": kind, "data-owner": owner, title: kind },
    h("span", { "aria-hidden": "true" }, kind === "skull" ? SKULL : FLOWER),
    h("small", {}, kind),
  );
}

export function discBack(owner) {
  return h("span", { class: "disc back", title: "face down", "data-owner": owner, "data-back": "1" });
}

const SCORE_NAMES = { max: "Max (2+1)" };
export function scoreName(score) {
  if (score === null || score === undefined) return "—";
  if (SCORE_NAMES[score]) return SCORE_NAMES[score];
  return score;
}
