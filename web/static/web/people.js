// Other players (docs/matchmaking.md): the card a player's name opens (Follow, Block, Challenge)
// and the People page (#/people): whom I follow, whether they are looking for a game now and
// their public matches, and whom I block, each with its undo. The REST API only: /api/follows/,
// /api/blocks/, /api/challenges/ and /api/players/{id}/ for a name the page has not seen.

import { api, ApiError } from "./api.js";
import { clear, h } from "./dom.js";

const POLL_MS = 5000; // the People page reads the follows again this often (who is looking)
const names = new Map(); // player id -> name, as the pages have seen it
let GAME_LIST = {}; // game id -> { name, seats: [lo, hi] }, given by the app

export function usePeopleGames(games) {
  GAME_LIST = games;
}

function errorWords(error) {
  return error instanceof ApiError || error?.message ? error.message : String(error);
}

function gameName(id) {
  return GAME_LIST[id]?.name || id;
}

// A player's name: one the pages have seen, else their public profile's.
export async function playerName(id) {
  if (names.has(id)) return names.get(id);
  try {
    const profile = await api.get(`/players/${encodeURIComponent(id)}/`);
    names.set(id, profile.player.name);
  } catch {
    return `Player ${id}`;
  }
  return names.get(id);
}

// Whom I follow (ids) and whom I block (ids), as the server has them now.
async function relations() {
  const [follows, blocks] = await Promise.all([api.get("/follows/"), api.get("/blocks/")]);
  for (const f of follows.follows) names.set(f.player.id, f.player.name);
  return { follows: follows.follows, following: new Set(follows.follows.map((f) => f.player.id)), blocked: new Set(blocks.players) };
}

// A player's name as a button that opens their card (my own name stays text).
export function playerLink(player, text = player.name) {
  if (!player || player.id === undefined || player.id === null) return text;
  if (player.name) names.set(player.id, player.name);
  if (api.user && player.id === api.user.id) return text;
  return h(
    "button",
    {
      type: "button",
      class: "link player-link",
      "data-player": player.id,
      "aria-haspopup": "dialog",
      title: `${player.name || text}: follow, block or challenge`,
      onclick: () => openCard({ id: player.id, name: player.name || names.get(player.id) || text }),
    },
    text,
  );
}

// --- the player card ------------------------------------------------------------------------

let dialog = null;

function cardDialog() {
  if (dialog?.isConnected) return dialog;
  dialog = h("dialog", { id: "player-card", class: "card-panel player-card", "aria-labelledby": "card-name" });
  dialog.addEventListener("click", (event) => {
    if (event.target === dialog) dialog.close(); // a click on the backdrop
  });
  document.body.appendChild(dialog);
  return dialog;
}

// The card of `player` ({ id, name }): Follow/Unfollow, Block/Unblock and a challenge to a
// game (disabled while I block them; the server refuses it when they block me).
export async function openCard(player) {
  const box = cardDialog();
  const err = h("p", { class: "error", role: "alert", hidden: true });
  const status = h("p", { class: "muted", id: "card-status", role: "status" });
  const body = h("div", { class: "card-body" }, h("p", { class: "muted" }, "Loading…"));
  clear(
    box,
    h("h2", { id: "card-name", "data-player": player.id }, player.name),
    err,
    body,
    status,
    h("p", {}, h("button", { type: "button", id: "card-close", onclick: () => box.close() }, "Close")),
  );
  if (!box.open) box.showModal();
  const fail = (error) => {
    err.textContent = errorWords(error);
    err.hidden = false;
  };

  async function draw() {
    let rel;
    try {
      rel = await relations();
    } catch (error) {
      fail(error);
      return;
    }
    const following = rel.following.has(player.id);
    const blocking = rel.blocked.has(player.id);
    const entry = rel.follows.find((f) => f.player.id === player.id);
    const act = (method, path, body, said) => async () => {
      err.hidden = true;
      try {
        await api.request(method, path, { body });
        status.textContent = said;
      } catch (error) {
        fail(error);
      }
      await draw();
    };
    const follow = h(
      "button",
      {
        type: "button",
        id: "card-follow",
        "data-following": String(following),
        disabled: blocking,
        onclick: following
          ? act("DELETE", `/follows/${player.id}/`, undefined, `You no longer follow ${player.name}.`)
          : act("POST", "/follows/", { player: player.id }, `You follow ${player.name}: they are on your People page.`),
      },
      following ? "Unfollow" : "Follow",
    );
    const block = h(
      "button",
      {
        type: "button",
        id: "card-block",
        class: blocking ? null : "danger",
        "data-blocking": String(blocking),
        onclick: blocking
          ? act("DELETE", `/blocks/${player.id}/`, undefined, `You no longer block ${player.name}.`)
          : act("POST", "/blocks/", { player: player.id }, `You block ${player.name}: you are never seated together and neither of you can challenge the other.`),
      },
      blocking ? "Unblock" : "Block",
    );
    clear(
      body,
      blocking
        ? h("p", { id: "card-blocked-note" }, "You block this player: unblock them to follow or challenge them.")
        : entry?.looking_for
          ? h("p", { class: "tag go", id: "card-looking" }, `Looking for a ${gameName(entry.looking_for)} game now`)
          : null,
      h("p", { class: "row" }, follow, " ", block),
      challengeForm(player, { blocking, fail, status, err }),
    );
  }
  await draw();
}

function challengeForm(player, { blocking, fail, status, err }) {
  const game = h(
    "select",
    { id: "card-game", disabled: blocking },
    Object.entries(GAME_LIST).map(([id, g]) => h("option", { value: id }, g.name)),
  );
  const how = h(
    "select",
    { id: "card-time", disabled: blocking },
    h("option", { value: "live" }, "live"),
    h("option", { value: "async" }, "turn by turn (async)"),
  );
  const send = h(
    "button",
    {
      type: "submit",
      class: "primary",
      id: "card-challenge",
      disabled: blocking,
      title: blocking ? "You block this player" : null,
    },
    "Challenge",
  );
  return h(
    "form",
    {
      class: "challenge-form",
      onsubmit: async (event) => {
        event.preventDefault();
        err.hidden = true;
        // The two of us, and bots (basic) up to the game's smallest table.
        const lowest = GAME_LIST[game.value]?.seats?.[0] || 2;
        const bots = Array(Math.max(0, lowest - 2)).fill("basic");
        send.disabled = true;
        try {
          const c = await api.post("/challenges/", { players: [player.id], game: game.value, time_control: how.value, bots });
          status.textContent = `Challenge sent (${gameName(c.game)}): the match starts when ${player.name} accepts. It is in your lobby's Challenges.`;
          status.dataset.challenge = c.id;
        } catch (error) {
          fail(error);
        } finally {
          send.disabled = blocking;
        }
      },
    },
    h("h3", {}, "Challenge to a match"),
    h("div", { class: "row" }, h("label", { for: "card-game" }, "Game"), game),
    h("div", { class: "row" }, h("label", { for: "card-time" }, "How"), how),
    send,
  );
}

// --- the People page ------------------------------------------------------------------------

// `ctx`: { alertBox, showError }. Returns the screen ({ stop() }).
export function peopleScreen(app, ctx) {
  let stopped = false;
  let timer = null;
  let shown = "";
  const err = ctx.alertBox();
  const status = h("p", { id: "people-status", role: "status" });
  const following = h("ul", { class: "plain people", id: "following-list" });
  const blocked = h("ul", { class: "plain people", id: "blocked-list" });
  const matchWords = new Map(); // match id -> "Fab Fib, playing"

  clear(
    app,
    h("h1", {}, "People"),
    h("p", { class: "muted" }, "Open a player's name at a table, or in a challenge, to follow, block or challenge them. ", h("a", { href: "#/" }, "Back to the lobby")),
    err,
    status,
    h(
      "div",
      { class: "columns" },
      h("section", { class: "card-panel", id: "people-following", "aria-labelledby": "following-heading" }, h("h2", { id: "following-heading" }, "Following"), following),
      h(
        "section",
        { class: "card-panel", id: "people-blocked", "aria-labelledby": "blocked-heading" },
        h("h2", { id: "blocked-heading" }, "Blocked"),
        h("p", { class: "muted small" }, "You are never seated with them, and neither of you can challenge or follow the other."),
        blocked,
      ),
    ),
  );

  // What was undone, with a button to do it again.
  function done(text, redo) {
    const undo = h(
      "button",
      {
        type: "button",
        class: "link",
        id: "people-undo",
        onclick: async () => {
          try {
            await redo();
            clear(status);
          } catch (error) {
            ctx.showError(err, error);
          }
          await load(true);
        },
      },
      "Undo",
    );
    clear(status, text, " ", undo);
  }

  async function describe(id) {
    if (!matchWords.has(id)) {
      try {
        const m = await api.get(`/matches/${encodeURIComponent(id)}/`);
        matchWords.set(id, `${gameName(m.game)}, ${m.status === "lobby" ? "waiting for players" : "playing"}`);
      } catch {
        matchWords.set(id, "a match");
      }
    }
    return matchWords.get(id);
  }

  async function followRow(f) {
    const p = f.player;
    const links = [];
    for (const id of f.matches.slice(0, 5)) links.push(h("a", { href: `#/match/${id}`, "data-match": id }, await describe(id)));
    const unfollow = h(
      "button",
      {
        type: "button",
        class: "unfollow",
        "aria-label": `Unfollow ${p.name}`,
        onclick: async () => {
          err.hidden = true;
          try {
            await api.request("DELETE", `/follows/${p.id}/`);
            done(`You no longer follow ${p.name}.`, () => api.post("/follows/", { player: p.id }));
          } catch (error) {
            ctx.showError(err, error);
          }
          await load(true);
        },
      },
      "Unfollow",
    );
    return h(
      "li",
      { "data-player": p.id, "data-looking": f.looking_for || "" },
      playerLink(p),
      " ",
      f.looking_for
        ? h("span", { class: "tag go looking" }, `looking for a ${gameName(f.looking_for)} game`)
        : h("span", { class: "muted small" }, "not looking for a game"),
      links.length
        ? h("span", { class: "small follow-matches" }, " · public matches: ", links.flatMap((a, i) => (i ? [", ", a] : [a])), f.matches.length > links.length ? ` and ${f.matches.length - links.length} more` : "")
        : null,
      " ",
      unfollow,
    );
  }

  async function blockRow(id) {
    const name = await playerName(id);
    const unblock = h(
      "button",
      {
        type: "button",
        class: "unblock",
        "aria-label": `Unblock ${name}`,
        onclick: async () => {
          err.hidden = true;
          try {
            await api.request("DELETE", `/blocks/${id}/`);
            done(`You no longer block ${name}.`, () => api.post("/blocks/", { player: id }));
          } catch (error) {
            ctx.showError(err, error);
          }
          await load(true);
        },
      },
      "Unblock",
    );
    return h("li", { "data-player": id }, playerLink({ id, name }), " ", unblock);
  }

  async function load(force = false) {
    if (timer) clearTimeout(timer);
    timer = null;
    if (stopped) return;
    let rel;
    try {
      rel = await relations();
    } catch (error) {
      ctx.showError(err, error);
      timer = setTimeout(load, POLL_MS);
      return;
    }
    if (stopped) return;
    const key = JSON.stringify([rel.follows, [...rel.blocked]]);
    if (force || key !== shown) {
      // Redrawn only when something changed: a button being pressed stays where it is.
      const rows = await Promise.all(rel.follows.map(followRow));
      const blocks = await Promise.all([...rel.blocked].map(blockRow));
      if (stopped) return;
      shown = key;
      clear(following, rows.length ? rows : h("li", { class: "muted" }, "You follow nobody yet."));
      clear(blocked, blocks.length ? blocks : h("li", { class: "muted" }, "You block nobody."));
      following.dataset.count = rows.length;
      blocked.dataset.count = blocks.length;
    }
    timer = setTimeout(load, POLL_MS);
  }

  load(true);
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      if (dialog?.open) dialog.close();
    },
  };
}
