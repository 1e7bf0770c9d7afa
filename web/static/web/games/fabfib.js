// Fab Fib: three cards passed around with claims; life; the Fab Fib memory of passed cards.
import { h, owner, poss } from "../dom.js";
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

export const stats = {
  claims: ["Claims", "claims declared"],
  bluffs: ["Bluffs", "claims that were not true when declared"],
  bluffs_called: ["Bluffs called", "own bluffs that the next player called"],
  bluffs_passed: ["Bluffs passed on", "own bluffs that the next player accepted"],
  calls: ["Calls", "calls made"],
  calls_right: ["Calls right", "calls that caught a bluff"],
  accepts: ["Accepts", "claims accepted"],
  damage_taken: ["Damage taken", "skulls on the revealed cards that cost this player life (counted in full, even beyond the life left)"],
  damage_dealt: ["Damage dealt", "the life the other side lost on a call; a 1000 counts its skulls once per player it hit"],
  thousands: ["1000s", "times three zeros were revealed in this player's hand"],
};

export function cardWords(card) {
  return `${card.digit} with ${card.skulls} skull${card.skulls === 1 ? "" : "s"}`;
}

// Why the loser lost that much: the skulls on the three revealed cards.
function skullSum(cards) {
  return cards.map((c) => c.skulls).join(" + ");
}

function reveal(ctx, r) {
  if (!r) return null;
  if (r.kind === "thousand") {
    return h(
      "div",
      { class: "reveal" },
      h("p", {}, `1000! ${ctx.name(r.seat)} held three zeros (${r.moment}): everyone else lost ${r.damage} life, the skulls on the three zeros (${skullSum(r.cards)}).`),
      h("div", { class: "cards" }, r.cards.map((c) => fabCard(c, r.seat))),
    );
  }
  return h(
    "div",
    { class: "reveal" },
    h(
      "p",
      {},
      `Round ${r.round}: ${ctx.name(r.caller)} called ${poss(ctx.name(r.claimant))} ${r.claim} — `,
      h("strong", {}, r.true ? "it was true" : "a bluff"),
      `; ${ctx.name(r.loser)} lost ${r.damage} life: the skulls on the three cards (${skullSum(r.cards)}).`,
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
    mine.appendChild(h("h2", {}, `${w.Your} hand`));
    if (priv.hand) mine.appendChild(h("div", { class: "cards hand" }, priv.hand.map((c) => fabCard(c, ctx.me))));
    else mine.appendChild(h("p", { class: "muted" }, `${w.You} ${w.hold} no cards now.`));
    if (priv.memory) {
      const m = priv.memory;
      mine.appendChild(
        h(
          "div",
          { class: "memory", "data-memory": "" },
          h("h3", {}, `What ${w.you} passed on in round ${m.round} (claimed ${m.claim})`),
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
    if (plain) return cardWords(card);
    return fabCard(card, ctx.me);
  }
  return String(value);
}

export function paramLabel(ctx, entry, name) {
  if (name === "value") return "Your claim";
  if (name === "cards") return "Cards to exchange";
  return null;
}

export function entryLabel(ctx, entry) {
  if (entry.type === "claim") return ctx.pub?.claim ? `Claim higher than ${ctx.pub.claim}` : "Make a claim";
  if (entry.type === "exchange") return "Exchange 1 to 3 cards first (once)";
  return null;
}

export function choiceLabel(ctx, entry, action) {
  if (action.type === "claim" && action.value) return `Claim ${action.value}`;
  if (action.type === "exchange" && action.cards) {
    const n = action.cards.length;
    return `Exchange ${n} card${n === 1 ? "" : "s"}`;
  }
  return null;
}

export function actionText(ctx, action) {
  const hand = ctx.priv?.hand;
  switch (action.type) {
    case "claim":
      return `claim ${action.value}`;
    case "call":
      return `call ${ctx.pub?.claim ?? "the claim"}`;
    case "accept":
      return `accept ${ctx.pub?.claim ?? "the claim"}`;
    case "exchange":
      return hand
        ? `exchange ${action.cards.map((i) => cardWords(hand[i])).join(", ")}`
        : `exchange ${action.cards.length} card${action.cards.length === 1 ? "" : "s"}`;
    default:
      return null;
  }
}

// An event's private part in words ("you drew 7 with 2 skulls, …").
export function privateText(ctx, e) {
  const p = e.private;
  const cards = p.cards ? p.cards.map(cardWords).join(", ") : null;
  const w = owner(ctx);
  if (e.type === "round_started" && cards) return `${w.You} drew ${cards}`;
  if (e.type === "accept" && cards) return `${w.You} received ${cards}`;
  if (e.type === "exchange" && cards) return `${w.You} now ${w.hold} ${cards}`;
  return null;
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
      return `${name(e.caller)} calls ${poss(name(e.claimant))} ${e.claim}: the cards are ${e.cards.map(cardWords).join(", ")}, ${e.true ? "so it was true" : "a bluff"}; ${name(e.loser)} loses ${e.damage} life (the skulls on the cards).`;
    case "thousand":
      return `1000 for ${name(e.seat)}! Everyone else loses ${e.damage} life (the skulls on the three zeros).`;
    case "eliminated":
      return `${e.seats.map(name).join(", ")} ${e.seats.length === 1 ? "is" : "are"} out.`;
    default:
      return null;
  }
}
