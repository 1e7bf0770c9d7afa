// Fibber's Dice: a pair of dice under a cup per seat; announcements; points.
import { h, owner, poss } from "../dom.js";
import { die, scoreName } from "../pieces.js";

export const name = "Fibber's Dice";
export const seats = [2, 10];
export const options = [{ name: "points", label: "Starting points (empty: by table size)", kind: "int", min: 1, max: 10, default: null }];

export const stats = {
  announcements: ["Announcements", "announcements made"],
  fibs: ["Fibs", "announcements above the player's own roll"],
  fibs_called: ["Fibs called", "own fibs that were called"],
  fibs_passed: ["Fibs believed", "own fibs that the next player believed"],
  calls: ["Calls", "calls made"],
  calls_right: ["Calls right", "calls that caught a fib"],
  points_lost: ["Points lost", "points lost"],
  max_rolls: ["Max rolls", "rolls of a 2 and a 1, announced or not"],
};

function rollWords(roll) {
  return `${roll.dice.join(" and ")} (${scoreName(roll.score)})`;
}

export function seatInfo(ctx, seat) {
  const p = ctx.pub;
  return [
    h("span", { class: "stat", "data-stat": "points", title: "points" }, `● ${p.points[seat]} pt${p.points[seat] === 1 ? "" : "s"}`),
    p.starter === seat && p.phase !== "over" ? h("span", { class: "tag" }, "started") : null,
    p.announcer === seat ? h("span", { class: "tag" }, `announced ${scoreName(p.announcement)}`) : null,
  ];
}

export function table(ctx) {
  const p = ctx.pub;
  const r = p.last_reveal;
  const center = h(
    "section",
    { class: "center", "aria-label": "table" },
    h(
      "div",
      { class: "claim-box" },
      h("span", { class: "muted" }, `Sequence ${p.sequence} · standing announcement`),
      h("span", { class: "big", "data-claim": p.announcement ?? "" }, scoreName(p.announcement)),
      p.announcer !== null ? h("span", {}, `by ${ctx.name(p.announcer)}`) : null,
    ),
    h(
      "ol",
      { class: "claims", "aria-label": "announcements this sequence" },
      p.announcements.map((a) => h("li", {}, `${ctx.name(a.seat)}: `, h("strong", {}, scoreName(a.score)))),
    ),
    r
      ? h(
          "div",
          { class: "reveal" },
          h(
            "p",
            {},
            r.kind === "max" ? `${ctx.name(r.seat)} announced Max: ` : `${ctx.name(r.caller)} called ${poss(ctx.name(r.seat))} ${scoreName(r.score)}: `,
            `the dice show ${r.dice.join(" and ")}, ${scoreName(r.shown)}: `,
            h("strong", {}, r.true ? (r.kind === "max" ? "a real Max" : "it held") : "a fib"),
            r.kind === "max"
              ? `; ${ctx.name(r.loser)} lost a point${r.true ? " (nothing beats a Max)" : ""}.`
              : `; ${ctx.name(r.loser)} lost a point (${r.true ? "the dice show at least what was announced" : "the dice show less than announced"}).`,
          ),
          h("div", { class: "dice" }, r.dice.map((d) => die(d, r.seat))),
        )
      : null,
    h("p", { class: "muted small" }, "Scores, lowest first: ", p.score_order.map(scoreName).join(" · ")),
  );
  const w = owner(ctx);
  const mine = h("section", { class: "private", "data-private": "", "aria-label": `${w.your} dice` });
  if (ctx.priv) {
    mine.appendChild(h("h2", {}, `Under ${w.your} cup`));
    const roll = ctx.priv.roll;
    if (roll) mine.appendChild(h("div", { class: "dice" }, roll.dice.map((d) => die(d, ctx.me)), h("span", { class: "score" }, scoreName(roll.score))));
    else mine.appendChild(h("p", { class: "muted" }, `${w.You} ${w.have} not rolled in this sequence.`));
  }
  return [center, mine];
}

export function look(ctx, type, param, value) {
  if (param === "score") return scoreName(value);
  return String(value);
}

export function entryLabel(ctx, entry) {
  const standing = ctx.pub?.announcement;
  if (entry.type === "announce") return standing ? `Announce higher than ${scoreName(standing)}` : "Announce any score";
  if (entry.type === "believe") return `Believe ${scoreName(standing)}: roll, then announce higher`;
  if (entry.type === "call") return `Call ${scoreName(standing)}: the dice are shown`;
  return null;
}

export function paramLabel(ctx, entry, name) {
  return name === "score" ? "Your announcement" : null;
}

export function actionText(ctx, action) {
  const standing = scoreName(ctx.pub?.announcement);
  if (action.type === "announce") return `announce ${scoreName(action.score)}`;
  if (action.type === "believe") return `believe ${standing}`;
  if (action.type === "call") return `call ${standing}`;
  return null;
}

export function privateText(ctx, e) {
  const w = owner(ctx);
  const roll = e.private.roll ?? (e.private.dice ? e.private : null);
  return roll ? `${w.You} rolled ${rollWords(roll)}` : null;
}

export function describe(e, name) {
  switch (e.type) {
    case "match_started":
      return `${name(e.starter)} starts; everyone has ${e.points[0]} points.`;
    case "sequence_started":
      return `Sequence ${e.sequence}: ${name(e.starter)} rolls.`;
    case "announce":
      return `${name(e.seat)} announces ${scoreName(e.score)}.`;
    case "believe":
      return `${name(e.seat)} believes ${scoreName(e.score)} and rolls.`;
    case "call":
      return `${name(e.caller)} calls ${poss(name(e.seat))} ${scoreName(e.score)}: the dice show ${e.dice.join(" and ")}, ${e.true ? "it held" : "a fib"}; ${name(e.loser)} loses a point.`;
    case "max":
      return `Max announced by ${name(e.seat)}: the dice show ${e.dice.join(" and ")}, ${e.true ? "a real Max" : "not a Max"}; ${name(e.loser)} loses a point.`;
    case "eliminated":
      return `${name(e.seat)} is out.`;
    default:
      return null;
  }
}
