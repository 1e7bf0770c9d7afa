// Skull: discs on mats (flowers and a skull), bids, the challenge.
import { h, owner, poss } from "../dom.js";
import { disc, discBack } from "../pieces.js";

export const name = "Skull";
export const seats = [3, 12];
export const options = [
  { name: "two_sets", label: "Two sets (7–12 seats)", kind: "bool", default: false },
  { name: "two_tribes", label: "Two tribes (each person plays two seats)", kind: "bool", default: false },
];

export const stats = {
  skulls_placed: ["Skulls placed", "skulls put on the mat, at the start of a round or added"],
  bids: ["Bids", "opening bids and raises"],
  bids_with_own_skull: ["Bids over own skull", "bids made while the player's own skull lay on their mat"],
  challenges_won: ["Challenges won", "successful challenges"],
  challenges_lost: ["Challenges lost", "failed challenges"],
  skulls_sprung: ["Skulls sprung", "times this player's skull stopped a challenger (their own challenge included)"],
  cards_lost: ["Discs lost", "discs lost for good"],
};

// The seats Skull allows: 3 to 6, or 7 to 12 with two sets; an even number with two tribes.
export function seatRange(options) {
  const [lo, hi] = options.two_sets ? [7, 12] : [3, 6];
  return options.two_tribes ? [lo + (lo % 2), hi, 2] : [lo, hi, 1];
}

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

function turned(ctx, reveals) {
  return reveals.map((r) => `${poss(ctx.name(r.seat))} ${r.card}`).join(", ");
}

export function seatInfo(ctx, seat) {
  const p = ctx.pub;
  const stack = p.stacks[seat];
  const faceDown = stack.height - stack.revealed.length;
  return [
    h("span", { class: `mat ${p.mats[seat]}`, title: `mat ${p.mats[seat]} side up`, "data-stat": "mat" }, p.mats[seat] === "flower" ? "mat ✿ (1 success)" : "mat"),
    h("span", { class: "stat", title: "discs owned / in hand" }, `${plural(p.cards[seat], "disc")} · ${p.hand_sizes[seat]} in hand`),
    h(
      "span",
      { class: "stack", "data-seat-stack": seat, title: `stack of ${stack.height}` },
      Array.from({ length: faceDown }, () => discBack(seat)),
      stack.revealed.map((card) => disc(card, seat)),
    ),
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
      h("span", { class: "muted" }, `Round ${p.round} · ${PHASE_WORDS[p.phase] || p.phase.replaceAll("_", " ")} · discs on the mats: ${p.on_mats}`),
      h("span", { class: "big", "data-claim": p.bid ?? "" }, p.bid ? `bid ${p.bid}` : "no bid"),
      p.challenger !== null && p.phase !== "over" ? h("span", {}, `${ctx.name(p.challenger)} must turn ${p.bid}: ${plural(p.flowers_revealed, "flower")} so far`) : null,
    ),
    p.bids.length
      ? h("ol", { class: "claims", "aria-label": "bids" }, p.bids.map((b) => h("li", {}, `${ctx.name(b.seat)}: `, b.pass ? "pass" : h("strong", {}, String(b.count)))))
      : null,
    p.reveals.length
      ? h("div", { class: "reveal" }, h("p", {}, "Turned so far:"), h("div", { class: "cards" }, p.reveals.map((r) => disc(r.card, r.seat))))
      : null,
    lc
      ? h(
          "div",
          { class: "reveal", "data-last-challenge": "" },
          h(
            "p",
            {},
            `Last challenge (round ${lc.round}): ${ctx.name(lc.challenger)} had to turn ${plural(lc.bid, "flower")} and `,
            h("strong", {}, lc.success ? "succeeded" : `hit ${lc.skull_owner === lc.challenger ? "their own" : `${poss(ctx.name(lc.skull_owner))}`} skull`),
            lc.reveals?.length ? `. Turned: ${turned(ctx, lc.reveals)}.` : ".",
          ),
          lc.reveals?.length ? h("div", { class: "cards" }, lc.reveals.map((r) => disc(r.card, r.seat))) : null,
        )
      : null,
    p.winner !== null ? h("p", { class: "big" }, `${ctx.name(p.winner)} wins`) : null,
  );
  const w = owner(ctx);
  const mine = h("section", { class: "private", "data-private": "", "aria-label": `${w.your} discs` });
  if (ctx.priv) {
    mine.append(
      ...[
      h("h2", {}, `${w.Your} hand`),
      h("div", { class: "cards hand" }, ctx.priv.hand.map((c) => disc(c, ctx.me))),
      h("h3", {}, `${w.Your} stack (bottom first)`),
      h("div", { class: "cards" }, ctx.priv.stack.length ? ctx.priv.stack.map((c) => disc(c, ctx.me)) : h("span", { class: "muted" }, "empty")),
      ctx.priv.lost.length ? h("p", {}, "Lost: ", ctx.priv.lost.map((c) => disc(c, ctx.me))) : null,
      ].filter(Boolean),
    );
  }
  return [center, mine];
}

const PHASE_WORDS = {
  prepare: "everyone places a disc",
  turn: "add a disc or bid",
  bid: "bidding",
  reveal: "the challenge",
  choose_starter: "choosing who starts",
  over: "over",
};

export function look(ctx, type, param, value) {
  if (param === "card") return disc(value, ctx.me);
  if (param === "seat") return ctx.name(value);
  return String(value);
}

export function entryLabel(ctx, entry) {
  switch (entry.type) {
    case "place":
      return "Place a disc face down on your mat";
    case "add":
      return "Or add a disc on top of your stack";
    case "bid":
      return ctx.pub?.bid ? `Raise the bid above ${ctx.pub.bid}` : "Or start the bidding: how many discs you will turn without a skull";
    case "pass":
      return "Pass: out of this bidding (your discs stay on your mat)";
    case "reveal":
      return "Turn the top disc of another player's stack";
    case "choose_starter":
      return "Choose who starts the next round";
    default:
      return null;
  }
}

export function paramLabel(ctx, entry, name) {
  if (name === "count") return "Number of discs";
  if (name === "card") return "Disc";
  if (name === "seat") return "Player";
  return null;
}

export function choiceLabel(ctx, entry, action) {
  if (action.type === "bid" && action.count) return `Bid ${action.count}`;
  return null;
}

export function actionText(ctx, action) {
  switch (action.type) {
    case "place":
      return `place a ${action.card}`;
    case "add":
      return `add a ${action.card}`;
    case "bid":
      return `bid ${action.count}`;
    case "pass":
      return "pass";
    case "reveal":
      return `turn ${poss(ctx.name(action.seat))} top disc`;
    case "choose_starter":
      return `let ${ctx.name(action.seat)} start`;
    default:
      return null;
  }
}

export function privateText(ctx, e) {
  const w = owner(ctx);
  const card = e.private.card;
  if (!card) return null;
  if (e.type === "placed") return `${w.You} placed a ${card}`;
  if (e.type === "added") return `${w.You} added a ${card}`;
  if (e.type === "card_lost") return `${w.You} lost a ${card}`;
  return null;
}

export function describe(e, name) {
  switch (e.type) {
    case "match_started":
      return `${name(e.starter)} starts.`;
    case "round_started":
      return `Round ${e.round}: ${name(e.starter)} starts.`;
    case "placed":
      return `${name(e.seat)} places a disc.`;
    case "preparation_done":
      return `Everyone has placed; ${name(e.next)} to play.`;
    case "added":
      return `${name(e.seat)} adds a disc (${plural(e.height, "disc")} on the mat).`;
    case "bid":
      return `${name(e.seat)} bids ${e.count}.`;
    case "passed":
      return `${name(e.seat)} passes.`;
    case "challenge":
      return `${name(e.seat)} must turn ${plural(e.count, "flower")}.`;
    case "revealed":
      return `${name(e.by)} turns ${e.by === e.seat ? "their own" : `${poss(name(e.seat))}`} disc: a ${e.card} (${e.flowers} of ${e.needed} flowers).`;
    case "challenge_won":
      return `${name(e.seat)} wins the challenge (${e.successes} success${e.successes === 1 ? "" : "es"}).`;
    case "challenge_lost":
      return `${name(e.seat)} hit ${e.skull_owner === e.seat ? "their own" : `${poss(name(e.skull_owner))}`} skull.`;
    case "card_lost":
      return `${name(e.seat)} loses a disc, picked blind (${e.cards_left} left).`;
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
