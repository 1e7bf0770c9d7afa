// Quick play (docs/matchmaking.md): a "Play now" button per game that queues, shows the time
// waited and lets the player cancel; the challenges received; the rematch of a finished match.
// The public API only.

import { api } from "./api.js";
import { clear, h } from "./dom.js";
import { playerLink, playerName } from "./people.js";

// "Play now" accepts a table from the game's smallest to two seats more (within its range).
const WIDER = 2;
// Bots fill the free seats after this long (seconds), at the basic level.
const BOTS_AFTER = 60;
const POLL_MS = 1000;

function errorWords(error) {
  return error?.message || String(error);
}

// A panel of "Play now" buttons; `games` maps a game id to its module (its `name` and `seats`
// range), `open(matchId)` shows a match once the queue has seated the player.
export function quickPlayPanel(games, open) {
  const names = Object.fromEntries(Object.entries(games).map(([id, g]) => [id, g.name]));
  const status = h("p", { id: "queue-status", role: "status", "aria-live": "polite" });
  const buttons = h("div", { class: "quick-play-buttons" });
  const panel = h(
    "section",
    { class: "card-panel", id: "quick-play", "aria-label": "quick play" },
    h("h2", {}, "Play now"),
    h("p", { class: "muted" }, `Seated with players near your level; bots fill the table after ${BOTS_AFTER} s.`),
    buttons,
    status,
  );
  let timer = null;
  let ticket = null;

  const stop = () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };

  const showIdle = () => {
    clear(status);
    for (const b of buttons.querySelectorAll("button")) b.disabled = false;
  };

  const showWaiting = () => {
    for (const b of buttons.querySelectorAll("button")) b.disabled = true;
    const cancel = h(
      "button",
      {
        type: "button",
        id: "queue-cancel",
        onclick: async () => {
          stop();
          try {
            await api.request("DELETE", `/queue/${ticket.id}/`);
          } catch (error) {
            if (error.status !== 409) clear(status, h("span", { class: "error" }, errorWords(error)));
          }
          await poll(false);
        },
      },
      "Cancel",
    );
    const estimate = ticket.estimate === null ? "" : ` (usually about ${Math.round(ticket.estimate)} s)`;
    clear(
      status,
      `Looking for a ${names[ticket.game] || ticket.game} table: waited ${Math.round(ticket.waited)} s${estimate}. `,
      cancel,
    );
  };

  // Read my tickets: a waiting one is shown and polled; one matched since is opened.
  async function poll(again = true) {
    stop();
    if (!panel.isConnected && ticket) return;
    try {
      const { tickets } = await api.get("/queue/");
      const waiting = tickets.find((t) => t.status === "waiting");
      if (ticket && !waiting) {
        const mine = tickets.find((t) => t.id === ticket.id);
        ticket = null;
        if (mine?.match) return open(mine.match);
      }
      ticket = waiting || null;
      if (ticket) showWaiting();
      else showIdle();
    } catch (error) {
      clear(status, h("span", { class: "error" }, errorWords(error)));
    }
    if (ticket && again) timer = setTimeout(poll, POLL_MS);
  }

  for (const [game, { seats: [lo, most] }] of Object.entries(games)) {
    const hi = Math.min(most, lo + WIDER);
    buttons.appendChild(
      h(
        "button",
        {
          type: "button",
          "data-game": game,
          onclick: async () => {
            try {
              ticket = await api.post("/queue/", { game, seats_min: lo, seats_max: hi, bots_after: BOTS_AFTER });
              showWaiting();
              timer = setTimeout(poll, POLL_MS);
            } catch (error) {
              clear(status, h("span", { class: "error" }, errorWords(error)));
            }
          },
        },
        `Play ${names[game] || game} now`,
      ),
    );
  }
  poll();
  return panel;
}

// The rematch of a finished match: offer or accept, decline, and the new match once started.
export function rematchPanel(matchId, open) {
  const body = h("div", {});
  const panel = h("section", { class: "card-panel", id: "rematch", "aria-label": "rematch" }, h("h2", {}, "Rematch"), body);
  let timer = null;

  const act = (method) => async () => {
    try {
      await api.request(method, `/matches/${matchId}/rematch/`);
    } catch (error) {
      clear(body, h("p", { class: "error" }, errorWords(error)));
      return;
    }
    load();
  };

  async function load() {
    if (timer) clearTimeout(timer);
    let offer;
    try {
      offer = await api.get(`/matches/${matchId}/rematch/`);
    } catch (error) {
      if (error.status === 403) panel.hidden = true; // a spectator: no rematch to offer
      else clear(body, h("p", { class: "error" }, errorWords(error)));
      return;
    }
    const me = api.user?.id;
    if (offer.status === "started") {
      clear(body, h("p", {}, "The rematch has started. "), h("button", { type: "button", id: "rematch-open", onclick: () => open(offer.match) }, "Open it"));
      return;
    }
    if (offer.status === "none") {
      clear(body, h("button", { type: "button", id: "rematch-offer", onclick: act("POST") }, "Offer a rematch"));
      return;
    }
    if (offer.status !== "open") {
      clear(body, h("p", { class: "muted" }, `The rematch was ${offer.status}.`));
      return;
    }
    const mine = offer.accepted.includes(me);
    clear(
      body,
      h("p", {}, mine ? `Waiting for ${offer.waiting_for.length} player(s) to accept.` : "A rematch is offered."),
      mine ? null : h("button", { type: "button", id: "rematch-accept", onclick: act("POST") }, "Accept"),
      " ",
      h("button", { type: "button", id: "rematch-decline", onclick: act("DELETE") }, mine ? "Withdraw" : "Decline"),
    );
    if (panel.isConnected || !timer) timer = setTimeout(load, 2000);
  }

  load();
  return panel;
}

// The challenges you received (accept or decline the open ones) and those you sent (withdraw
// an open one), the started ones to open; each player's name opens their card.
export function challengesPanel(games, open) {
  const names = Object.fromEntries(Object.entries(games).map(([id, g]) => [id, g.name]));
  const list = h("ul", { class: "plain" });
  const panel = h("section", { class: "card-panel", id: "challenges", "aria-label": "challenges" }, h("h2", {}, "Challenges"), list);

  const answer = (id, verb) => async () => {
    try {
      const challenge = await api.post(`/challenges/${id}/${verb}/`, undefined);
      if (challenge.match) return open(challenge.match);
    } catch (error) {
      list.prepend(h("li", { class: "error" }, errorWords(error)));
      return;
    }
    load();
  };

  async function load() {
    let challenges;
    try {
      ({ challenges } = await api.get("/challenges/"));
    } catch (error) {
      clear(list, h("li", { class: "error" }, errorWords(error)));
      return;
    }
    const me = api.user?.id;
    const shown = challenges.filter((c) => c.status === "open" || c.status === "started");
    const who = new Map();
    for (const id of new Set(shown.flatMap((c) => [c.challenger, ...c.players]))) who.set(id, await playerName(id));
    const person = (id) => playerLink({ id, name: who.get(id) });
    clear(list);
    for (const c of shown) {
      const game = names[c.game] || c.game;
      const seats = 1 + c.players.length + c.bots.length;
      const sent = c.challenger === me;
      const mine = c.accepted.includes(me);
      const others = c.players.filter((p) => p !== me);
      list.appendChild(
        h(
          "li",
          { "data-challenge": c.id, "data-sent": String(sent) },
          `${game}, ${seats} seats, ${c.time_control}: `,
          sent ? ["to ", others.flatMap((p, i) => (i ? [", ", person(p)] : [person(p)]))] : ["from ", person(c.challenger)],
          " ",
          c.status === "started"
            ? h("button", { type: "button", class: "challenge-open", onclick: () => open(c.match) }, "Open")
            : sent
              ? [h("span", { class: "muted" }, "waiting for them to accept "), h("button", { type: "button", class: "challenge-decline", onclick: answer(c.id, "decline") }, "Withdraw")]
              : [
                  mine ? h("span", { class: "muted" }, "accepted, waiting for the others ") : h("button", { type: "button", class: "challenge-accept", onclick: answer(c.id, "accept") }, "Accept"),
                  " ",
                  h("button", { type: "button", class: "challenge-decline", onclick: answer(c.id, "decline") }, "Decline"),
                ],
        ),
      );
    }
    if (!shown.length) list.appendChild(h("li", { class: "muted" }, "No challenges."));
  }

  load();
  return panel;
}
