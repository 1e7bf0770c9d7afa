// The replay viewer: the revealed record of a finished match (GET /api/matches/{id}/replay/),
// stepped through action by action, with every private part (hands, draws, dice) now public.
// The page checks the revealed seed against the commitment published when the match started;
// `manage.py replay FILE` re-runs the whole record with the engine.

import { clear, h, ordinal } from "./dom.js";

async function sha256Hex(hex) {
  const bytes = new Uint8Array(hex.match(/../g).map((b) => parseInt(b, 16)));
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

function flat(event) {
  return { type: event.type, ...event.public };
}

function valueText(v) {
  if (v === null || v === undefined) return "—";
  if (Array.isArray(v)) return v.map(valueText).join(" ");
  if (typeof v === "object") {
    if ("digit" in v && "skulls" in v) return `${v.digit}${"\u2620".repeat(v.skulls)}`;
    return Object.entries(v).map(([k, x]) => `${k} ${valueText(x)}`).join(", ");
  }
  return String(v);
}

export function replayScreen(app, id, { api, GAMES, seatName }) {
  const state = { alive: true, stop() { this.alive = false; } };
  const root = h("section", { class: "replay", id: "replay" }, h("p", { class: "muted" }, "Loading the replay…"));
  clear(app, root);
  (async () => {
    let record;
    let match;
    try {
      [record, match] = await Promise.all([api.get(`/matches/${id}/replay/`), api.get(`/matches/${id}/`)]);
    } catch (error) {
      clear(root, h("p", { class: "error", role: "alert" }, error.message), h("a", { href: "#/" }, "Back"));
      return;
    }
    const game = GAMES[record.game];
    const me = match.you?.seats || [];
    const name = (seat) => seatName(match, seat, me);
    const verified = await sha256Hex(record.seed).then((d) => d === record.seed_commitment).catch(() => null);
    const steps = [{ n: 0, seat: null, action: null, events: record.setup.events }, ...record.steps];
    let at = 0;
    const slider = h("input", { type: "range", min: 0, max: steps.length - 1, value: 0, id: "replay-slider", "aria-label": "step" });
    const body = h("div", { class: "replay-step", "aria-live": "polite" });
    const go = (n) => {
      at = Math.max(0, Math.min(steps.length - 1, n));
      slider.value = at;
      draw();
    };
    const btn = (label, text, fn, idName) => h("button", { type: "button", "aria-label": label, id: idName, onclick: fn }, text);

    function draw() {
      // Fold the events up to this step: the latest value of each per-seat list (life, points,
      // noses, scores...) and the latest private part of every seat.
      const pub = {};
      const priv = {};
      for (const step of steps.slice(0, at + 1)) {
        for (const e of step.events) {
          for (const [k, v] of Object.entries(e.public)) {
            if (Array.isArray(v) && v.length === record.seats && k !== "placements") pub[k] = v;
          }
          for (const [seat, p] of Object.entries(e.private || {})) priv[seat] = { ...(priv[seat] || {}), ...p };
        }
      }
      const step = steps[at];
      const keys = Object.keys(pub);
      clear(
        body,
        h(
          "h2",
          { id: "replay-at" },
          at === 0 ? "Set-up" : `Step ${at} of ${steps.length - 1}: ${name(step.seat)}`,
          step.by_bot ? h("span", { class: "tag warn" }, "bot, after a deadline") : null,
        ),
        step.action ? h("p", { class: "replay-action" }, h("strong", {}, step.action.type), " ", valueText(Object.fromEntries(Object.entries(step.action).filter(([k]) => k !== "type")))) : null,
        h(
          "ol",
          { class: "replay-events" },
          step.events.map((e) =>
            h(
              "li",
              {},
              (game && game.describe(flat(e), name)) || `${e.type.replaceAll("_", " ")} ${valueText(e.public)}`,
              Object.entries(e.private || {}).map(([seat, p]) => h("div", { class: "muted small" }, `${name(Number(seat))} saw: ${valueText(p)}`)),
            ),
          ),
        ),
        h(
          "div",
          { class: "scroll" },
          h(
            "table",
            { class: "stats" },
            h("caption", {}, "After this step"),
            h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "seat"), keys.map((k) => h("th", { scope: "col" }, k.replaceAll("_", " "))), h("th", { scope: "col" }, "hidden until the end"))),
            h(
              "tbody",
              {},
              Array.from({ length: record.seats }, (_, seat) =>
                h("tr", {}, h("th", { scope: "row" }, name(seat)), keys.map((k) => h("td", {}, valueText(pub[k][seat]))), h("td", {}, valueText(priv[seat]))),
              ),
            ),
          ),
        ),
      );
    }

    slider.addEventListener("input", () => go(Number(slider.value)));
    root.addEventListener("keydown", (event) => {
      if (event.target.tagName === "INPUT") return;
      if (event.key === "ArrowRight") go(at + 1);
      else if (event.key === "ArrowLeft") go(at - 1);
    });
    clear(
      root,
      h("h1", {}, `Replay: ${game?.name || record.game}`),
      h(
        "p",
        { id: "seed-check", "data-verified": String(verified) },
        "Seed ",
        h("code", { class: "small" }, record.seed.slice(0, 16) + "…"),
        verified === true ? " matches the commitment published at the start (SHA-256)." : verified === false ? " does NOT match the commitment!" : " (this browser cannot hash it here).",
      ),
      h(
        "p",
        {},
        "Result: ",
        record.result.placements.map((p, seat) => `${name(seat)} ${ordinal(p)}`).join(", "),
      ),
      h(
        "div",
        { class: "replay-controls", role: "group", "aria-label": "replay controls" },
        btn("first step", "⏮", () => go(0), "replay-first"),
        btn("previous step", "◀", () => go(at - 1), "replay-prev"),
        slider,
        btn("next step", "▶", () => go(at + 1), "replay-next"),
        btn("last step", "⏭", () => go(steps.length - 1), "replay-last"),
      ),
      body,
      h("p", {}, h("a", { href: `#/match/${id}` }, "Back to the table"), " · ", h("a", { href: "#/" }, "Lobby")),
    );
    draw();
  })();
  return state;
}
