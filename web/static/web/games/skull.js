// Skull: discs on mats (flowers and a skull), bids, the challenge.
import { h, owner } from "../dom.js";
import { disc, discBack } from "../pieces.js";

export const name = "Skull";
export const seats = [3, 12];
export const options = [
  { name: "two_sets", label: "Two sets (7–12 seats)", kind: "bool", default: false },
  { name: "two_tribes", label: "Two tribes (each person plays two seats)", kind: "bool", default: false },
];

export function seatInfo(ctx, seat) {
  const p = ctx.pub;
  const stack = p.stacks[seat];
  const faceDown = stack.height - stack.revealed.length;
  return [
    h("span", { class: `mat ${p.mats[seat]}`, title: `mat ${p.mats[seat]} side up`, "data-stat": "mat" }, p.mats[seat] === "flower" ? "mat ✿ (1 success)" : "mat"),
    h("span", { class: "stat", title: "cards owned / in hand" }, `${p.cards[seat]} cards · ${p.hand_sizes[seat]} in hand`),
    h(
      "span",
      { class: "stack", "data-seat-stack": seat, title: `stack of ${stack.height}` },
      Array.from({ length: faceDown }, () => discBack(seat)),
      stack.revealed.map((card) => disc(card, seat)),
    ),
    p.people[seat] !== seat ? h("span", { class: "tag" }, `tribe of ${ctx.name(p.people[seat])}`) : null,
    p.phase === "prepare" ? h("span", { class: "tag" }, p.placed[seat] ? "placed" : "placing…") : null,
    p.bidder === seat ? h("span", { class: "tag warn" }, `bid ${p.bid}`) : null,
    p.passed[seat] ? h("span", { class: "tag" }, "passed") : null,
    p.challenger === seat ? h("span", { class: "tag warn" }, "challenger") : null,
  ];
}

export function table(ctx) {
  const p = ctx.pub;
  const lc = p.last_challenge;
  const center = h(
    "section",
    { class: "center", "aria-label": "table" },
    h(
      "div",
      { class: "claim-box" },
      h("span", { class: "muted" }, `Round ${p.round} · ${p.phase.replace("_", " ")} · cards on mats ${p.on_mats}`),
      h("span", { class: "big", "data-claim": p.bid ?? "" }, p.bid ? `bid ${p.bid}` : "no bid"),
      p.challenger !== null ? h("span", {}, `${ctx.name(p.challenger)} turns ${p.bid}: ${p.flowers_revealed} flower${p.flowers_revealed === 1 ? "" : "s"} so far`) : null,
    ),
    p.bids.length
      ? h("ol", { class: "claims", "aria-label": "bids" }, p.bids.map((b) => h("li", {}, `${ctx.name(b.seat)}: `, b.pass ? "pass" : h("strong", {}, String(b.count)))))
      : null,
    p.reveals.length
      ? h("div", { class: "reveal" }, h("p", {}, "Turned so far:"), h("div", { class: "cards" }, p.reveals.map((r) => disc(r.card, r.seat))))
      : null,
    lc
      ? h(
          "p",
          { class: "reveal" },
          `Last challenge (round ${lc.round}): ${ctx.name(lc.challenger)} bid ${lc.bid} and `,
          h("strong", {}, lc.success ? "succeeded" : `hit ${ctx.name(lc.skull_owner)}'s skull`),
          ".",
        )
      : null,
    p.winner !== null ? h("p", { class: "big" }, `${ctx.name(p.winner)} wins`) : null,
  );
  const w = owner(ctx);
  const mine = h("section", { class: "private", "data-private": "", "aria-label": `${w.your} discs` });
  if (ctx.priv) {
    mine.append(
      ...[
      h("h3", {}, `${w.Your} hand`),
      h("div", { class: "cards hand" }, ctx.priv.hand.map((c) => disc(c, ctx.me))),
      h("h4", {}, `${w.Your} stack (bottom first)`),
      h("div", { class: "cards" }, ctx.priv.stack.length ? ctx.priv.stack.map((c) => disc(c, ctx.me)) : h("span", { class: "muted" }, "empty")),
      ctx.priv.lost.length ? h("p", {}, "Lost: ", ctx.priv.lost.map((c) => disc(c, ctx.me))) : null,
      ].filter(Boolean),
    );
  }
  return [center, mine];
}

export function look(ctx, type, param, value) {
  if (param === "card") return disc(value, ctx.me);
  if (param === "seat") return ctx.name(value);
  return String(value);
}

export function describe(e, name) {
  switch (e.type) {
    case "match_started":
      return `${name(e.starter)} starts.`;
    case "round_started":
      return `Round ${e.round}: ${name(e.starter)} starts.`;
    case "placed":
      return `${name(e.seat)} places a card.`;
    case "preparation_done":
      return `Everyone has placed; ${name(e.next)} to play.`;
    case "added":
      return `${name(e.seat)} adds a card (stack ${e.height}).`;
    case "bid":
      return `${name(e.seat)} bids ${e.count}.`;
    case "passed":
      return `${name(e.seat)} passes.`;
    case "challenge":
      return `${name(e.seat)} must turn ${e.count} flowers.`;
    case "revealed":
      return `${name(e.by)} turns ${name(e.seat)}'s card: ${e.card} (${e.flowers}/${e.needed}).`;
    case "challenge_won":
      return `${name(e.seat)} wins the challenge (${e.successes} success${e.successes === 1 ? "" : "es"}).`;
    case "challenge_lost":
      return `${name(e.seat)} hit ${name(e.skull_owner)}'s skull.`;
    case "card_lost":
      return `${name(e.seat)} loses a card (${e.cards_left} left).`;
    case "eliminated":
      return `${name(e.seat)} is out.`;
    case "choose_starter":
      return `${name(e.seat)} chooses the next starter.`;
    case "starter_chosen":
      return `${name(e.by)} chose ${name(e.seat)} to start.`;
    default:
      return null;
  }
}
