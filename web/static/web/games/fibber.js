// Fibber: cards played face down as the Silver Nose's rank (standard) or one at a time on the
// rank in play (easy); noses; the pile.
import { h, owner, poss } from "../dom.js";
import { cardBack, fibberCard, rankCount, rankName } from "../pieces.js";

export const name = "Fibber";
export const seats = [2, 6];
export const options = [
  { name: "variant", label: "Rules", kind: "choice", choices: ["standard", "easy"], default: "standard", choiceWords: { standard: "standard rules", easy: "easy rules (five rounds, one card a play)" } },
  { name: "max_plays", label: "Safety end after plays (standard)", kind: "int", min: 50, max: 2000, default: 300, only: { variant: "standard" } },
];

export const stats = {
  plays: ["Plays", "plays made"],
  fibs: ["Fibs", "plays that were fibs"],
  fibs_called: ["Fibs caught", "own fibs that were called"],
  fibs_stood: ["Fibs that stood", "own fibs nobody caught"],
  calls: ["Calls", "calls made"],
  calls_right: ["Calls right", "calls that caught a fib"],
  noses_taken: ["Noses taken", "noses taken, the Silver Nose included"],
  hands_emptied: ["Hands emptied", "plays that stood and left an empty hand"],
};

const ranks = (list) => list.map(rankName).join(", ");

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
    ? h("p", {}, `Last play: ${ctx.name(p.last_play.seat)} — "I saw ${rankCount(p.last_play.count, p.last_play.rank)}"`)
    : null;
  const call = p.last_call
    ? h(
        "div",
        { class: "reveal" },
        h(
          "p",
          {},
          `${ctx.name(p.last_call.caller)} called ${poss(ctx.name(p.last_call.player))} ${p.last_call.count} × ${rankName(p.last_call.rank)}: `,
          h("strong", {}, p.last_call.fib ? "a fib" : "true"),
          `; ${ctx.name(p.last_call.loser)} took ${p.last_call.nose === "silver" ? "the Silver Nose" : "a nose"}`,
          p.last_call.pile_taken ? ` and the pile (${p.last_call.pile_taken} card${p.last_call.pile_taken === 1 ? "" : "s"})` : "",
          ".",
          p.last_call.fib && !p.last_call.cards ? " The cards stay face down: a caught fib is not shown." : "",
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
    mine.appendChild(h("h2", {}, `${w.Your} hand (${ctx.priv.hand.length})`));
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

function lastPlayWords(ctx) {
  const play = ctx.pub?.last_play;
  if (!play) return "the last play";
  return `${poss(ctx.name(play.seat))} ${play.count === 1 ? "" : `${play.count} × `}${rankName(play.rank)}`;
}

// The rank a play is announced as: the one entry's only rank (easy), or the Silver Nose's.
function announcedRank(ctx, entry) {
  const only = entry.params?.rank?.one_of;
  if (only && only.length === 1) return only[0];
  if (entry.params?.rank) return null;
  return ctx.pub?.silver_nose_rank ?? ctx.pub?.rank_in_play ?? null;
}

export function entryLabel(ctx, entry) {
  const easy = ctx.pub?.variant === "easy";
  switch (entry.type) {
    case "call":
      return `Call FIBBER! on ${lastPlayWords(ctx)}`;
    case "pass":
      return ctx.pub?.phase === "last_call" ? `Let ${lastPlayWords(ctx)} stand: the round ends` : `Let ${lastPlayWords(ctx)} stand`;
    case "play": {
      const rank = announcedRank(ctx, entry);
      if (!rank) return "Start a sequence: play one card and name any rank";
      return easy ? `Play one card as ${rankName(rank)}` : `Play cards as ${rankName(rank)}`;
    }
    default:
      return null;
  }
}

export function paramLabel(ctx, entry, name) {
  if (name === "cards") return entry.params.cards.max === 1 ? "The card to play" : "Cards to play";
  if (name === "rank") return "Announce it as";
  return null;
}

export function choiceLabel(ctx, entry, action) {
  if (action.type !== "play" || !action.cards) return null;
  const rank = action.rank ?? announcedRank(ctx, entry);
  const n = action.cards.length;
  return `Play ${n} card${n === 1 ? "" : "s"} as ${rank ? rankName(rank) : "…"}`;
}

export function actionText(ctx, action) {
  const hand = ctx.priv?.hand;
  switch (action.type) {
    case "play": {
      const rank = action.rank ?? ctx.pub?.silver_nose_rank ?? ctx.pub?.rank_in_play;
      const cards = hand ? ranks(action.cards.map((i) => hand[i])) : `${action.cards.length} card${action.cards.length === 1 ? "" : "s"}`;
      return `play ${cards} as ${rank ? rankName(rank) : "the rank in play"}`;
    }
    case "call":
      return `call FIBBER! on ${lastPlayWords(ctx)}`;
    case "pass":
      return `let ${lastPlayWords(ctx)} stand`;
    default:
      return null;
  }
}

export function privateText(ctx, e) {
  const p = e.private;
  const w = owner(ctx);
  if (p.hand) return `${w.Your} hand: ${ranks(p.hand)}`;
  if (p.cards) return `${w.You} played ${ranks(p.cards)}`;
  if (p.taken) return `${w.You} picked up ${ranks(p.taken)}`;
  if (p.taken_back) return `${w.You} took back ${ranks([].concat(p.taken_back))}`;
  return null;
}

export function describe(e, name) {
  switch (e.type) {
    case "match_started":
      return `${e.variant === "easy" ? "Easy" : "Standard"} rules; ${name(e.dealer)} deals.`;
    case "dealt":
      return `Deal ${e.deal ?? ""}: ${name(e.starter)} starts.`;
    case "play":
      return `${name(e.seat)}: "I saw ${rankCount(e.count, e.rank)}" (${e.hand_size} left).`;
    case "pass":
      return `${name(e.seat)} lets it stand.`;
    case "play_stood":
      return `Everybody passed: ${poss(name(e.seat))} play stands.`;
    case "call":
      return (
        `${name(e.caller)} calls FIBBER on ${poss(name(e.player))} ${e.count} × ${rankName(e.rank)}: ` +
        (e.fib
          ? `a fib, and the cards stay face down; ${name(e.loser)} takes ${e.nose === "silver" ? "the Silver Nose" : "a nose"}`
          : `true (${ranks(e.cards || [])}); ${name(e.loser)} takes ${e.nose === "silver" ? "the Silver Nose" : "a nose"}`) +
        (e.pile_taken ? ` and the pile (${e.pile_taken} card${e.pile_taken === 1 ? "" : "s"}).` : ".")
      );
    case "hand_emptied":
      return `${name(e.seat)} emptied their hand and gives back ${e.noses_returned} nose${e.noses_returned === 1 ? "" : "s"}; the cards are dealt again.`;
    case "round_over":
      return `Round ${e.round} over: ${e.noses.map((n, seat) => `${name(seat)} ${n}`).join(", ")} (noses this round).`;
    default:
      return null;
  }
}
