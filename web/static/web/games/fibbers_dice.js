// Fibber's Dice: a pair of dice under a cup per seat; announcements; points.
import { h, owner } from "../dom.js";
import { die, scoreName } from "../pieces.js";

export const name = "Fibber's Dice";
export const seats = [2, 10];
export const options = [{ name: "points", label: "Starting points (empty: by table size)", kind: "int", min: 1, max: 10, default: null }];

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
            r.kind === "max" ? `${ctx.name(r.seat)} announced Max: ` : `${ctx.name(r.caller)} called ${ctx.name(r.seat)}'s ${scoreName(r.score)}: `,
            `shown ${scoreName(r.shown)}, `,
            h("strong", {}, r.true ? "it held" : "a fib"),
            `; ${ctx.name(r.loser)} lost a point.`,
          ),
          h("div", { class: "dice" }, r.dice.map((d) => die(d, r.seat))),
        )
      : null,
    h("p", { class: "muted small" }, "Scores, lowest first: ", p.score_order.map(scoreName).join(" · ")),
  );
  const w = owner(ctx);
  const mine = h("section", { class: "private", "data-private": "", "aria-label": `${w.your} dice` });
  if (ctx.priv) {
    mine.appendChild(h("h3", {}, `Under ${w.your} cup`));
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
      return `${name(e.caller)} calls ${scoreName(e.score)}: dice ${e.dice.join("+")}, ${e.true ? "it held" : "a fib"}; ${name(e.loser)} loses a point.`;
    case "max":
      return `Max announced by ${name(e.seat)}: dice ${e.dice.join("+")}; ${name(e.loser)} loses a point.`;
    case "eliminated":
      return `${name(e.seat)} is out.`;
    default:
      return null;
  }
}
