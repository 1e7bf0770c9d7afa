// Fibber: cards played face down as the Silver Nose's rank (standard) or one at a time on the
// rank in play (easy); noses; the pile.
import { h, owner } from "../dom.js";
import { cardBack, fibberCard, rankName } from "../pieces.js";

export const name = "Fibber";
export const seats = [2, 6];
export const options = [
  { name: "variant", label: "Rules", kind: "choice", choices: ["standard", "easy"], default: "standard" },
  { name: "max_plays", label: "Safety end after plays (standard)", kind: "int", min: 50, max: 2000, default: 300, only: { variant: "standard" } },
];

export function seatInfo(ctx, seat) {
  const p = ctx.pub;
  const easy = p.variant === "easy";
  const noses = easy ? p.totals?.[seat] ?? p.noses[seat] : p.nose_counts[seat];
  return [
    h("span", { class: "stat", "data-stat": "noses", title: easy ? "noses in total" : "noses worn" }, `${noses} nose${noses === 1 ? "" : "s"}`),
    !easy && p.silver_nose === seat ? h("span", { class: "tag warn" }, "Silver Nose") : null,
    h("span", { class: "stat", title: "cards in hand" }, cardBack(p.hand_sizes[seat])),
    p.dealer === seat ? h("span", { class: "tag" }, "dealer") : null,
    p.phase === "call" && p.waiting?.includes(seat) ? h("span", { class: "tag warn" }, "call or pass") : null,
    p.passed?.includes(seat) ? h("span", { class: "tag" }, "passed") : null,
  ];
}

export function table(ctx) {
  const p = ctx.pub;
  const easy = p.variant === "easy";
  const lastPlay = p.last_play
    ? h("p", {}, `Last play: ${ctx.name(p.last_play.seat)} — "I saw ${p.last_play.count} ${rankName(p.last_play.rank)}"`)
    : null;
  const call = p.last_call
    ? h(
        "div",
        { class: "reveal" },
        h(
          "p",
          {},
          `${ctx.name(p.last_call.caller)} called ${ctx.name(p.last_call.player)}'s ${p.last_call.count} × ${rankName(p.last_call.rank)}: `,
          h("strong", {}, p.last_call.fib ? "a fib" : "true"),
          `; ${ctx.name(p.last_call.loser)} took a ${p.last_call.nose} nose`,
          p.last_call.pile_taken ? ` and the pile (${p.last_call.pile_taken})` : "",
          ".",
        ),
        p.last_call.cards
          ? h("div", { class: "cards" }, p.last_call.cards.map((c) => fibberCard(c, p.last_call.player)))
          : null,
      )
    : null;
  const head = easy
    ? h(
        "div",
        { class: "claim-box" },
        h("span", { class: "muted" }, `Easy rules · round ${p.round} of ${p.rounds}`),
        h("span", { class: "big" }, p.rank_in_play ? rankName(p.rank_in_play) : "new sequence"),
      )
    : h(
        "div",
        { class: "claim-box" },
        h("span", { class: "muted" }, `Deal ${p.deal} · Silver Nose on`),
        h("span", { class: "big" }, p.silver_nose_rank ? rankName(p.silver_nose_rank) : "worn"),
        h("span", { class: "muted" }, `plain noses left ${p.table_noses} · plays ${p.plays}/${p.max_plays}`),
      );
  const center = h(
    "section",
    { class: "center", "aria-label": "table" },
    head,
    h("p", { class: "piles" }, "Pile ", cardBack(p.pile), p.set_aside ? ` · set aside ${p.set_aside}` : ""),
    h(
      "ol",
      { class: "claims", "aria-label": "plays in the pile" },
      p.pile_plays.slice(-8).map((play) => h("li", {}, `${ctx.name(play.seat)}: ${play.count} × ${rankName(play.rank)}`)),
    ),
    lastPlay,
    call,
    easy && p.scores
      ? h("p", {}, "Noses of the finished rounds: ", p.scores.map((n, seat) => `${ctx.name(seat)} ${n}`).join(" · "))
      : null,
  );
  const w = owner(ctx);
  const mine = h("section", { class: "private", "data-private": "", "aria-label": `${w.your} cards` });
  if (ctx.priv) {
    mine.appendChild(h("h3", {}, `${w.Your} hand (${ctx.priv.hand.length})`));
    mine.appendChild(h("div", { class: "cards hand" }, ctx.priv.hand.map((c) => fibberCard(c, ctx.me))));
  }
  return [center, mine];
}

export function look(ctx, type, param, value, plain) {
  if (param === "cards" && ctx.priv?.hand) {
    const rank = ctx.priv.hand[value];
    return plain ? rankName(rank) : fibberCard(rank, ctx.me);
  }
  if (param === "rank") return rankName(value);
  return String(value);
}

export function describe(e, name) {
  switch (e.type) {
    case "match_started":
      return `${e.variant === "easy" ? "Easy" : "Standard"} rules; ${name(e.dealer)} deals.`;
    case "dealt":
      return `Deal ${e.deal ?? ""}: ${name(e.starter)} starts.`;
    case "play":
      return `${name(e.seat)}: "I saw ${e.count} ${rankName(e.rank)}" (${e.hand_size} left).`;
    case "pass":
      return `${name(e.seat)} lets it stand.`;
    case "play_stood":
      return `Everybody passed: ${name(e.seat)}'s play stands.`;
    case "call":
      return `${name(e.caller)} calls FIBBER on ${name(e.player)}: ${e.fib ? "a fib" : "true"}; ${name(e.loser)} takes a nose.`;
    case "hand_emptied":
      return `${name(e.seat)} emptied their hand and returns ${e.noses_returned} noses.`;
    case "round_over":
      return `Round ${e.round} over.`;
    default:
      return null;
  }
}
