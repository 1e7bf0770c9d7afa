// Fab Fib: three cards passed around with claims; life; the Fab Fib memory of passed cards.
import { h, owner } from "../dom.js";
import { cardBack, fabCard } from "../pieces.js";

export const name = "Fab Fib";
export const seats = [3, 10];
export const options = [{ name: "life", label: "Starting life", kind: "int", min: 1, max: 30, default: 12 }];

export function seatInfo(ctx, seat) {
  const p = ctx.pub;
  const life = p.life[seat];
  const max = ctx.view.options.life || 12;
  return [
    h(
      "span",
      { class: "stat life", title: "life", "data-stat": "life" },
      `♥ ${life}`,
      h("meter", { min: 0, max: Math.max(max, life), value: life, "aria-label": "life" }),
    ),
    p.holder === seat && p.phase !== "over"
      ? h("span", { class: "tag" }, p.phase === "respond" ? "passed the cards" : "holds the cards")
      : null,
    p.responder === seat ? h("span", { class: "tag warn" }, "must call or accept") : null,
  ];
}

function reveal(ctx, r) {
  if (!r) return null;
  if (r.kind === "thousand") {
    return h(
      "div",
      { class: "reveal" },
      h("p", {}, `1000! ${ctx.name(r.seat)} held three zeros (${r.moment}): everyone else lost ${r.damage}.`),
      h("div", { class: "cards" }, r.cards.map((c) => fabCard(c, r.seat))),
    );
  }
  return h(
    "div",
    { class: "reveal" },
    h(
      "p",
      {},
      `Round ${r.round}: ${ctx.name(r.caller)} called ${ctx.name(r.claimant)}'s ${r.claim} — `,
      h("strong", {}, r.true ? "it was true" : "a bluff"),
      `; ${ctx.name(r.loser)} lost ${r.damage} life.`,
    ),
    h("div", { class: "cards" }, r.cards.map((c) => fabCard(c, r.claimant))),
  );
}

export function table(ctx) {
  const p = ctx.pub;
  const priv = ctx.priv;
  const center = h(
    "section",
    { class: "center", "aria-label": "table" },
    h(
      "div",
      { class: "claim-box" },
      h("span", { class: "muted" }, `Round ${p.round} · standing claim`),
      h("span", { class: "big", "data-claim": p.claim ?? "" }, p.claim ?? "—"),
      p.holder !== null && p.phase !== "over"
        ? h("span", {}, `cards with ${ctx.name(p.holder)} `, cardBack(3))
        : null,
    ),
    h(
      "ol",
      { class: "claims", "aria-label": "claims this round" },
      p.claims.map((c) =>
        h(
          "li",
          {},
          `${ctx.name(c.seat)}`,
          c.exchanged ? ` exchanged ${c.exchanged}` : "",
          c.claim ? h("strong", {}, ` ${c.claim}`) : " …",
        ),
      ),
    ),
    h("p", { class: "piles" }, `Draw pile ${p.draw_pile} · discard pile ${p.discard_pile}`),
    reveal(ctx, p.last_reveal),
  );
  const w = owner(ctx);
  const mine = h("section", { class: "private", "data-private": "", "aria-label": `${w.your} cards` });
  if (priv) {
    mine.appendChild(h("h3", {}, `${w.Your} hand`));
    if (priv.hand) mine.appendChild(h("div", { class: "cards hand" }, priv.hand.map((c) => fabCard(c, ctx.me))));
    else mine.appendChild(h("p", { class: "muted" }, `${w.You} ${w.hold} no cards now.`));
    if (priv.memory) {
      const m = priv.memory;
      mine.appendChild(
        h(
          "div",
          { class: "memory", "data-memory": "" },
          h("h4", {}, `What ${w.you} passed on in round ${m.round} (claimed ${m.claim})`),
          h("div", { class: "cards faded" }, m.cards.map((c) => fabCard(c, ctx.me))),
          m.possibly_changed ? h("p", { class: "tag warn" }, "may have changed since") : null,
        ),
      );
    }
  }
  return [center, mine];
}

export function look(ctx, type, param, value, plain) {
  if (param === "cards" && ctx.priv?.hand) {
    const card = ctx.priv.hand[value];
    if (plain) return `${card.digit} (${card.skulls} skulls)`;
    return fabCard(card, ctx.me);
  }
  return String(value);
}

export function describe(e, name) {
  switch (e.type) {
    case "match_started":
      return `${name(e.starter)} starts.`;
    case "round_started":
      return `Round ${e.round}: ${name(e.starter)} draws three cards.`;
    case "claim":
      return `${name(e.seat)} claims ${e.claim}.`;
    case "accept":
      return `${name(e.seat)} accepts ${e.claim}.`;
    case "exchange":
      return `${name(e.seat)} exchanges ${e.count} card${e.count === 1 ? "" : "s"}.`;
    case "reshuffle":
      return `The discard pile is shuffled into a new draw pile (${e.cards} cards).`;
    case "call":
      return `${name(e.caller)} calls ${e.claim}: ${e.true ? "true" : "a bluff"}; ${name(e.loser)} loses ${e.damage} life.`;
    case "thousand":
      return `1000 for ${name(e.seat)}! Everyone else loses ${e.damage}.`;
    case "eliminated":
      return `${e.seats.map(name).join(", ")} out.`;
    default:
      return null;
  }
}
