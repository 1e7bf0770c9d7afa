// The replay viewer: a finished match stepped through from the set-up to the end, each step
// re-run by the server's engine from the revealed seed (GET /api/matches/{id}/replay/steps/{n}/)
// and drawn with the same game renderers as the live table: the public state and every seat's
// hand, dice or stack (everything is revealed after the end), or the table as one seat saw it.
// The record (GET /api/matches/{id}/replay/) gives the steps' actions and events at once; the
// page checks the revealed seed against the commitment published at the start and shows whether
// the engine's re-run matched the record up to the step shown. Neighbouring steps are fetched
// ahead, so stepping is smooth.

import { clear, h, ordinal } from "./dom.js";

const PREFETCH = [1, 2, -1]; // the steps fetched ahead of the one shown, nearest first
const KEPT = 400; // step answers kept in the page
const SETTLE_MS = 120; // dragging the slider: ask for a step not fetched yet once it rests

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

function actionText(action) {
  const params = Object.entries(action).filter(([k]) => k !== "type");
  return params.length ? valueText(Object.fromEntries(params)) : "";
}

export function replayScreen(app, id, { api, GAMES, seatName, describeGeneric }) {
  const screen = { alive: true, stop() { this.alive = false; } };
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
    if (!screen.alive) return;
    const game = GAMES[record.game];
    const me = match.you?.seats || [];
    const name = (seat) => seatName(match, seat, me);
    const plainName = (seat) => seatName(match, seat);
    const verified = await sha256Hex(record.seed).then((d) => d === record.seed_commitment).catch(() => null);
    const steps = [{ n: 0, seat: null, action: null, ...record.setup }, ...record.steps];
    const last = steps.length - 1;
    let at = 0;
    let looking = "all"; // "all": every seat's hand; "none": a spectator's eyes; "0", "1"…: that seat's

    // --- the steps re-run by the server, fetched ahead ---------------------------------------
    const answers = new Map(); // n -> Promise of the step's answer
    function load(n) {
      if (!answers.has(n)) {
        const promise = api.get(`/matches/${id}/replay/steps/${n}/`);
        promise.then((point) => (promise.settled = point)).catch(() => answers.delete(n)); // a failed fetch is tried again next time
        answers.set(n, promise);
        if (answers.size > KEPT) answers.delete(answers.keys().next().value);
      }
      return answers.get(n);
    }
    function loadAhead(n) {
      for (const d of PREFETCH) if (n + d >= 0 && n + d <= last) load(n + d).catch(() => {});
    }

    // --- controls -------------------------------------------------------------------------------
    const slider = h("input", {
      type: "range",
      min: 0,
      max: last,
      value: 0,
      id: "replay-slider",
      "aria-label": "step",
      "aria-valuetext": "Set-up",
    });
    const seatChoice = h(
      "select",
      { id: "replay-seat", "aria-label": "whose eyes" },
      h("option", { value: "all" }, "Every seat's hand (all revealed)"),
      h("option", { value: "none" }, "As a spectator saw it"),
      Array.from({ length: match.seat_count }, (_, seat) => h("option", { value: String(seat) }, `As seen by ${plainName(seat)}`)),
    );
    const heading = h("h2", { id: "replay-at" });
    const actionLine = h("p", { class: "replay-action" });
    const rerun = h("p", { id: "rerun-check", "data-matched": "", role: "status" }, "Re-running…");
    const table = h("div", { class: "replay-table", id: "replay-table", "data-step": "" });
    const events = h("ol", { class: "replay-events", "aria-label": "events of this step" });
    const next = h("div", { class: "replay-next", id: "replay-next-up" });
    const btn = (label, text, fn, idName) => h("button", { type: "button", "aria-label": label, title: label, id: idName, onclick: fn }, text);

    const go = (n) => {
      at = Math.max(0, Math.min(last, n));
      slider.value = at;
      draw();
    };

    // What the record says: drawn at once.
    function drawRecord() {
      const step = steps[at];
      slider.setAttribute("aria-valuetext", at === 0 ? "Set-up" : `Step ${at} of ${last}`);
      clear(
        heading,
        at === 0 ? "Set-up" : `Step ${at} of ${last}: ${name(step.seat)}`,
        step.by_bot ? h("span", { class: "tag warn", "data-by-bot": "" }, "bot, after a deadline") : null,
      );
      // The action in the live table's words; hand positions read from the step before, when
      // it is here already (else the words do without the cards' faces).
      const before = answers.get(at - 1)?.settled;
      const actx = before && step.seat !== null ? ctxFor(before, step.seat) : { match, view: null, pub: null, priv: null, me: step.seat, name, owner: plainName(step.seat) };
      const said = step.action && !step.join && game?.actionText ? game.actionText(actx, step.action) : null;
      clear(
        actionLine,
        step.action
          ? [
              step.join ? "took a seat" : step.by_bot ? "the bot played for them: " : `${name(step.seat)}: `,
              step.join ? null : h("strong", { "data-action-type": step.action.type }, said || `${step.action.type.replaceAll("_", " ")} ${actionText(step.action)}`.trim()),
            ]
          : h("span", { class: "muted" }, "The deal: no one has acted yet."),
      );
      clear(
        events,
        step.events.map((e) =>
          h(
            "li",
            {},
            (game && game.describe(flat(e), name)) || describeGeneric(flat(e), name),
            Object.entries(e.private || {}).map(([seat, p]) => {
              const who = plainName(Number(seat));
              const words = game?.privateText?.({ match, name, owner: who, me: Number(seat) }, { ...flat(e), private: p });
              return h("div", { class: "muted small", "data-private-part": seat }, words || `${who} saw: ${valueText(p)}`);
            }),
          ),
        ),
      );
    }

    // What the engine's re-run says: drawn when the step's answer is here.
    function ctxFor(point, seat) {
      const view = { ...point.view, seat, private: seat === null ? null : point.private[seat] ?? null };
      return {
        match,
        view,
        pub: view.public,
        priv: view.private,
        me: seat,
        name,
        owner: seat === null ? null : plainName(seat),
      };
    }

    function seatsStrip(point, eyes) {
      const ctx = ctxFor(point, eyes);
      const acted = point.step.seat;
      return h(
        "ol",
        { class: "seats", "aria-label": "seats" },
        Array.from({ length: point.view.seats }, (_, seat) =>
          h(
            "li",
            {
              class: `seat${point.view.to_act.includes(seat) ? " to-act" : ""}${eyes === seat ? " mine" : ""}${point.view.public?.out?.[seat] ? " out" : ""}`,
              "data-seat": seat,
            },
            h("span", { class: "seat-name" }, name(seat)),
            acted === seat && point.n > 0 ? h("span", { class: "tag" }, point.step.by_bot ? "acted (bot)" : "acted") : null,
            point.view.to_act.includes(seat) ? h("span", { class: "tag go" }, "to act next") : null,
            point.view.placements ? h("span", { class: "tag" }, ordinal(point.view.placements[seat])) : null,
            game ? h("span", { class: "seat-info" }, game.seatInfo(ctx, seat)) : null,
          ),
        ),
      );
    }

    function drawTable(point) {
      const all = looking === "all";
      const eyes = all || looking === "none" ? null : Number(looking);
      table.dataset.step = String(point.n);
      table.dataset.looking = looking;
      rerun.dataset.matched = String(point.matched);
      clear(
        rerun,
        point.matched
          ? `Re-run by the engine from the revealed seed: it matches the record up to ${point.n === 0 ? "the set-up" : `step ${point.n}`}.`
          : ["The engine's re-run does NOT match the record: ", point.differences.join("; "), "."],
      );
      rerun.classList.toggle("error", !point.matched);
      const parts = [seatsStrip(point, eyes)];
      if (eyes !== null && eyes >= point.view.seats) {
        // a late entrant (Fibber's Dice events) before they joined
        parts.push(h("p", { class: "muted" }, `${name(eyes)} had no seat yet at this step.`));
      }
      if (game) {
        const [center, mine] = game.table(ctxFor(point, eyes));
        const hands = all
          ? Array.from({ length: point.view.seats }, (_, seat) => {
              const section = game.table(ctxFor(point, seat))[1];
              section.dataset.seat = String(seat);
              section.classList.add("replay-hand");
              return section;
            })
          : eyes === null
            ? []
            : [mine];
        if (eyes !== null) mine.dataset.seat = String(eyes);
        parts.push(h("div", { class: "board" }, center, h("div", { class: "replay-hands" }, hands)));
      }
      table.replaceChildren(...parts.flat());
      // Who was to act then, and what they could do; the next step says what they did.
      const toAct = point.view.to_act;
      clear(
        next,
        toAct.length
          ? h(
              "ul",
              { class: "plain" },
              toAct.map((seat) =>
                h(
                  "li",
                  { "data-seat": seat },
                  h("strong", {}, `${name(seat)} to act`),
                  ", could: ",
                  point.legal_actions[seat].map((e) => e.label).join(" · ") || "—",
                ),
              ),
            )
          : h("p", { class: "muted" }, point.view.over ? "The match is over." : "Nobody to act."),
      );
    }

    let drawing = 0;
    async function draw() {
      drawRecord();
      const n = at;
      const ticket = ++drawing;
      table.setAttribute("aria-busy", "true");
      try {
        if (!answers.has(n)) {
          // Not fetched yet (a jump, or the slider dragged): wait until the step asked for
          // stays the same a moment, so a drag across the match is not a request per step.
          await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
          if (!screen.alive || ticket !== drawing) return;
        }
        const point = await load(n);
        if (!screen.alive || ticket !== drawing) return; // a later step was asked for meanwhile
        drawTable(point);
        table.removeAttribute("aria-busy");
        loadAhead(n);
      } catch (error) {
        if (!screen.alive || ticket !== drawing) return;
        table.removeAttribute("aria-busy");
        table.dataset.step = "";
        clear(table, h("p", { class: "error", role: "alert" }, `Step ${n}: ${error.message}`));
      }
    }

    slider.addEventListener("input", () => go(Number(slider.value)));
    seatChoice.addEventListener("change", () => {
      looking = seatChoice.value;
      draw();
    });
    root.addEventListener("keydown", (event) => {
      const tag = event.target.tagName;
      if (tag === "INPUT" || tag === "SELECT" || event.altKey || event.ctrlKey || event.metaKey) return;
      const moves = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: last };
      if (event.key in moves) {
        event.preventDefault();
        go(moves[event.key]);
      }
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
        { id: "replay-result" },
        "Result: ",
        record.result.placements
          .map((p, seat) => [p, seat])
          .sort((a, b) => a[0] - b[0] || a[1] - b[1])
          .map(([p, seat]) => `${ordinal(p)} ${name(seat)}`)
          .join(", "),
      ),
      h(
        "div",
        { class: "replay-controls", role: "group", "aria-label": "replay controls" },
        btn("first step", "|◀", () => go(0), "replay-first"),
        btn("previous step", "◀", () => go(at - 1), "replay-prev"),
        slider,
        btn("next step", "▶", () => go(at + 1), "replay-next"),
        btn("last step", "▶|", () => go(last), "replay-last"),
      ),
      h("div", { class: "row replay-eyes" }, h("label", { for: "replay-seat" }, "Show"), seatChoice),
      h("div", { class: "replay-step", "aria-live": "polite" }, heading, actionLine, events, rerun),
      table,
      h("section", { class: "replay-step", "aria-label": "then" }, h("h3", {}, "Then"), next),
      h("p", { class: "muted small" }, "← → step · Home/End: first/last"),
      h("p", {}, h("a", { href: `#/match/${id}` }, "Back to the table"), " · ", h("a", { href: "#/" }, "Lobby")),
    );
    draw();
    // Keyboard first: the arrows step at once (unless the reader has moved on already).
    const active = document.activeElement;
    if (!active || active === document.body || active === app) root.querySelector("#replay-next").focus({ preventScroll: true });
  })();
  return screen;
}
