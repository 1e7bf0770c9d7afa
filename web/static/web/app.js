// The web table: routes after the '#', screens built from the public API only.
//   #/               sign in as a guest (or log in), then the lobby: my turns, my matches, new match
//   #/match/<id>     the table (lobby, play, end screen), live through the long-poll
//   #/join/<code>    join a match with its invite code
//   #/replay/<id>    the step-by-step replay of a finished match

import { api, ApiError } from "./api.js";
import { clear, h, ordinal } from "./dom.js";
import { actionPanel } from "./legal.js";
import { replayScreen } from "./replay.js";
import * as fabfib from "./games/fabfib.js";
import * as fibber from "./games/fibber.js";
import * as fibbers_dice from "./games/fibbers_dice.js";
import * as skull from "./games/skull.js";

export const GAMES = { fabfib, fibber, fibbers_dice, skull };
const BOT_LEVELS = ["random", "basic", "strong"];
const app = document.getElementById("app");
let screen = null; // the live screen: stop() it before leaving

// --- small helpers --------------------------------------------------------------------------

function errorText(error) {
  if (error instanceof ApiError) {
    const fields = error.error.fields
      ? " " + Object.entries(error.error.fields).map(([k, v]) => `${k}: ${[].concat(v).join(" ")}`).join("; ")
      : "";
    return `${error.message}${fields}`;
  }
  return String(error?.message || error);
}

function alertBox() {
  return h("p", { class: "error", role: "alert", hidden: true });
}

function showError(box, error) {
  box.textContent = errorText(error);
  box.hidden = false;
}

function navigate(hash) {
  if (location.hash === hash) route();
  else location.hash = hash;
}

export function seatName(match, seat, me = []) {
  const s = match.seats[seat];
  if (!s) return `Seat ${seat}`;
  let label;
  if (s.user) label = s.user.name;
  else if (s.bot_level) label = `Bot ${seat} (${s.bot_level})`;
  else label = `Open seat ${seat}`;
  if (me.includes(seat)) label = me.length > 1 ? `${label} (you, seat ${seat})` : `${label} (you)`;
  return label;
}

function remaining(deadline) {
  const ms = Date.parse(deadline) - Date.now();
  const s = Math.max(0, Math.ceil(ms / 1000));
  return [s, `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`];
}

function countdown(deadline, label = "") {
  const el = h("span", { class: "countdown", "data-deadline": deadline, role: "timer" });
  tick(el, label);
  el.dataset.label = label;
  return el;
}

function tick(el, label = el.dataset.label || "") {
  const [s, text] = remaining(el.dataset.deadline);
  el.textContent = `${label}${text}`;
  el.classList.toggle("urgent", s <= 10);
}

setInterval(() => document.querySelectorAll(".countdown").forEach((el) => tick(el)), 500);

function renderWho() {
  const who = document.getElementById("who");
  if (!api.user) return clear(who);
  clear(
    who,
    h("span", { "data-user": api.user.id }, api.user.display_name),
    api.user.is_guest ? h("span", { class: "tag" }, "guest") : null,
    " ",
    h("button", { type: "button", class: "link", onclick: async () => { await api.logout(); renderWho(); navigate("#/"); } }, "Log out"),
  );
}

// --- sign in --------------------------------------------------------------------------------

function signInScreen(then) {
  const err = alertBox();
  const nameInput = h("input", { id: "guest-name", name: "display_name", required: true, maxlength: 40, autocomplete: "nickname", placeholder: "Ada" });
  const guest = h(
    "form",
    {
      class: "card-panel",
      id: "guest-form",
      onsubmit: async (event) => {
        event.preventDefault();
        try {
          await api.guest(nameInput.value.trim());
          renderWho();
          then();
        } catch (error) {
          showError(err, error);
        }
      },
    },
    h("h2", {}, "Play now"),
    h("p", {}, "Pick a name and you get a guest account at once (upgrade it later to keep it)."),
    h("label", { for: "guest-name" }, "Your name"),
    nameInput,
    h("button", { type: "submit", class: "primary" }, "Start as a guest"),
  );
  const user = h("input", { id: "login-user", required: true, autocomplete: "username" });
  const pass = h("input", { id: "login-pass", type: "password", required: true, autocomplete: "current-password" });
  const login = h(
    "form",
    {
      class: "card-panel",
      id: "login-form",
      onsubmit: async (event) => {
        event.preventDefault();
        try {
          await api.login(user.value, pass.value);
          renderWho();
          then();
        } catch (error) {
          showError(err, error);
        }
      },
    },
    h("h2", {}, "Have an account?"),
    h("label", { for: "login-user" }, "Username"),
    user,
    h("label", { for: "login-pass" }, "Password"),
    pass,
    h("button", { type: "submit" }, "Log in"),
  );
  clear(app, h("h1", {}, "Bluffing games, at the table"), err, h("div", { class: "columns" }, guest, login));
  nameInput.focus();
}

// --- the lobby ------------------------------------------------------------------------------

function upgradePanel() {
  if (!api.user?.is_guest) return null;
  const err = alertBox();
  const user = h("input", { id: "up-user", required: true, autocomplete: "username" });
  const pass = h("input", { id: "up-pass", type: "password", required: true, autocomplete: "new-password" });
  return h(
    "form",
    {
      class: "card-panel",
      id: "upgrade-form",
      onsubmit: async (event) => {
        event.preventDefault();
        try {
          await api.upgrade(user.value, pass.value);
          renderWho();
          route();
        } catch (error) {
          showError(err, error);
        }
      },
    },
    h("h2", {}, "Keep this account"),
    h("p", { class: "muted" }, "You play as a guest. Choose a username and password to keep your matches and statistics."),
    err,
    h("label", { for: "up-user" }, "Username"),
    user,
    h("label", { for: "up-pass" }, "Password"),
    pass,
    h("button", { type: "submit" }, "Upgrade to an account"),
  );
}

function matchLink(m, text) {
  return h("a", { href: `#/match/${m}` }, text);
}

async function turnsPanel() {
  const panel = h("section", { class: "card-panel", id: "my-turns", "aria-label": "my turns" }, h("h2", {}, "My turns"));
  try {
    const page = await api.get("/me/turns/?limit=20");
    if (!page.results.length) panel.appendChild(h("p", { class: "muted" }, "Nothing waits for you."));
    const list = h("ul", { class: "plain" });
    for (const t of page.results) {
      list.appendChild(
        h(
          "li",
          {},
          matchLink(t.match, `${GAMES[t.game]?.name || t.game} (seat ${t.seat})`),
          " ",
          t.deadline ? countdown(t.deadline, "due in ") : h("span", { class: "muted" }, "no deadline"),
        ),
      );
    }
    panel.appendChild(list);
  } catch (error) {
    panel.appendChild(h("p", { class: "error" }, errorText(error)));
  }
  return panel;
}

async function myMatchesPanel() {
  const panel = h("section", { class: "card-panel", id: "my-matches" }, h("h2", {}, "My matches"));
  try {
    const page = await api.get("/matches/?mine=true&limit=15");
    const list = h("ul", { class: "plain" });
    for (const m of page.results) {
      list.appendChild(
        h(
          "li",
          {},
          matchLink(m.id, `${GAMES[m.game]?.name || m.game}`),
          ` · ${m.status} · ${m.filled}/${m.seat_count} seats · ${m.time_control}`,
          m.status === "finished" ? [" · ", h("a", { href: `#/replay/${m.id}` }, "replay")] : null,
        ),
      );
    }
    if (!page.results.length) list.appendChild(h("li", { class: "muted" }, "None yet."));
    panel.appendChild(list);
  } catch (error) {
    panel.appendChild(h("p", { class: "error" }, errorText(error)));
  }
  return panel;
}

async function openMatchesPanel() {
  const panel = h("section", { class: "card-panel", id: "open-matches" }, h("h2", {}, "Open tables"));
  try {
    const page = await api.get("/matches/?status=lobby&limit=10");
    const list = h("ul", { class: "plain" });
    for (const m of page.results) {
      list.appendChild(
        h(
          "li",
          {},
          `${GAMES[m.game]?.name || m.game} · ${m.filled}/${m.seat_count} · ${m.time_control} `,
          h(
            "button",
            {
              type: "button",
              onclick: async () => {
                await api.post(`/matches/${m.id}/join/`, {});
                navigate(`#/match/${m.id}`);
              },
            },
            "Join",
          ),
        ),
      );
    }
    if (!page.results.length) list.appendChild(h("li", { class: "muted" }, "No open public tables."));
    panel.appendChild(list);
  } catch (error) {
    panel.appendChild(h("p", { class: "error" }, errorText(error)));
  }
  return panel;
}

function joinPanel() {
  const err = alertBox();
  const code = h("input", { id: "join-code", required: true, autocomplete: "off", placeholder: "invite code" });
  return h(
    "form",
    {
      class: "card-panel",
      id: "join-form",
      onsubmit: async (event) => {
        event.preventDefault();
        try {
          const m = await api.post("/matches/join/", { invite_code: code.value.trim() });
          navigate(`#/match/${m.id}`);
        } catch (error) {
          showError(err, error);
        }
      },
    },
    h("h2", {}, "Join friends"),
    err,
    h("label", { for: "join-code" }, "Invite code"),
    code,
    h("button", { type: "submit" }, "Join"),
  );
}

function newMatchPanel() {
  const err = alertBox();
  const form = h("form", { class: "card-panel", id: "new-match" });
  const game = h("select", { id: "nm-game", name: "game" }, Object.entries(GAMES).map(([id, g]) => h("option", { value: id }, g.name)));
  const mode = h(
    "select",
    { id: "nm-mode", name: "mode" },
    h("option", { value: "solo" }, "Solo against bots"),
    h("option", { value: "live" }, "Live with friends"),
    h("option", { value: "async" }, "Turn by turn with friends (async)"),
  );
  const seats = h("input", { id: "nm-seats", name: "seats", type: "number", value: 3, step: 1 });
  const dynamic = h("div", { class: "dynamic" });
  const controls = { options: {}, bots: [] };

  const rebuild = () => {
    const g = GAMES[game.value];
    seats.min = g.seats[0];
    seats.max = g.seats[1];
    if (+seats.value < g.seats[0]) seats.value = g.seats[0];
    if (+seats.value > g.seats[1]) seats.value = g.seats[1];
    const n = +seats.value;
    const tribes = game.value === "skull" && controls.options.two_tribes?.checked;
    const people = tribes ? Math.floor(n / 2) : n;
    controls.options = Object.fromEntries(
      g.options.map((o) => {
        const prev = controls.options[o.name];
        const id = `nm-opt-${o.name}`;
        let input;
        if (o.kind === "bool") input = h("input", { id, type: "checkbox", onchange: rebuild, checked: prev ? prev.checked : o.default });
        else if (o.kind === "choice") {
          input = h("select", { id, onchange: rebuild }, o.choices.map((c) => h("option", { value: c }, c)));
          input.value = prev ? prev.value : o.default;
        } else input = h("input", { id, type: "number", min: o.min, max: o.max, step: 1, value: prev ? prev.value : (o.default ?? "") });
        input.dataset.label = o.label;
        return [o.name, input];
      }),
    );
    const solo = mode.value === "solo";
    const botRows = [];
    const previous = controls.bots.map((s) => s.value);
    controls.bots = [];
    for (let i = 1; i < people; i++) {
      const id = `nm-bot-${i}`;
      const select = h(
        "select",
        { id, "data-bot": i },
        BOT_LEVELS.map((level) => h("option", { value: level }, `bot: ${level}`)),
        solo ? null : h("option", { value: "" }, "a friend (open seat)"),
      );
      select.value = previous[i - 1] !== undefined && (previous[i - 1] || !solo) ? previous[i - 1] : solo ? "basic" : "";
      controls.bots.push(select);
      botRows.push(h("div", { class: "row" }, h("label", { for: id }, tribes ? `Person ${i + 1}` : `Seat ${i}`), select));
    }
    controls.seconds = solo
      ? null
      : h("input", { id: "nm-seconds", type: "number", min: 1, step: 1, value: mode.value === "live" ? 75 : 86400 });
    controls.visibility = solo
      ? null
      : h("select", { id: "nm-visibility" }, h("option", { value: "private" }, "private: invite only"), h("option", { value: "public" }, "public: listed"));
    clear(
      dynamic,
      g.options
        .filter((o) => !o.only || Object.entries(o.only).every(([k, v]) => controls.options[k]?.value === v))
        .map((o) => h("div", { class: "row" }, h("label", { for: `nm-opt-${o.name}` }, o.label), controls.options[o.name])),
      h("fieldset", {}, h("legend", {}, solo ? "Bots (choose each level)" : "Other places: a bot, or open for a friend"), botRows),
      controls.seconds ? h("div", { class: "row" }, h("label", { for: "nm-seconds" }, "Seconds per decision"), controls.seconds) : null,
      controls.visibility ? h("div", { class: "row" }, h("label", { for: "nm-visibility" }, "Visibility"), controls.visibility) : null,
    );
  };
  game.addEventListener("change", () => {
    const g = GAMES[game.value];
    seats.value = Math.max(g.seats[0], Math.min(+seats.value, g.seats[1]));
    controls.options = {};
    rebuild();
  });
  mode.addEventListener("change", rebuild);
  let builtSeats = seats.value;
  seats.addEventListener("change", () => {
    if (seats.value !== builtSeats) rebuild();
    builtSeats = seats.value;
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const g = GAMES[game.value];
    const options = {};
    for (const o of g.options) {
      const input = controls.options[o.name];
      if (o.only && !Object.entries(o.only).every(([k, v]) => controls.options[k]?.value === v)) continue;
      if (o.kind === "bool") {
        if (input.checked) options[o.name] = true;
      } else if (o.kind === "choice") options[o.name] = input.value;
      else if (input.value !== "") options[o.name] = Number(input.value);
    }
    const body = {
      game: game.value,
      seats: Number(seats.value),
      options,
      time_control: mode.value,
      bots: controls.bots.map((s) => s.value).filter(Boolean),
    };
    if (controls.seconds) body.decision_seconds = Number(controls.seconds.value);
    if (controls.visibility) body.visibility = controls.visibility.value;
    try {
      const m = await api.post("/matches/", body);
      navigate(`#/match/${m.id}`);
    } catch (error) {
      showError(err, error);
    }
  });
  form.append(
    h("h2", {}, "New match"),
    err,
    h("div", { class: "row" }, h("label", { for: "nm-game" }, "Game"), game),
    h("div", { class: "row" }, h("label", { for: "nm-mode" }, "How"), mode),
    h("div", { class: "row" }, h("label", { for: "nm-seats" }, "Seats"), seats),
    dynamic,
    h("button", { type: "submit", class: "primary", id: "nm-create" }, "Create match"),
  );
  rebuild();
  return form;
}

let routes = 0; // each route() counts one; a screen still loading when another starts stays away

async function lobbyScreen() {
  const current = routes;
  const [turns, mine, open] = await Promise.all([turnsPanel(), myMatchesPanel(), openMatchesPanel()]);
  if (current !== routes) return;
  clear(
    app,
    h("h1", {}, `Hello, ${api.user.display_name}`),
    h("div", { class: "columns" }, newMatchPanel(), h("div", {}, turns, joinPanel(), upgradePanel())),
    h("div", { class: "columns" }, mine, open),
  );
}

// --- the table ------------------------------------------------------------------------------


// Why a match ended (the API's end_reason), as a line of the end screen.
const END_REASONS = {
  last_alive: "one player is left with life",
  silver_nose: "the Silver Nose was handed out",
  max_plays: "the safety end (the play limit was reached)",
  rounds: "all five rounds were played",
  last_standing: "one player is left in the game",
  two_successes: "a second successful challenge",
  last_person_standing: "only one person's tribes are left",
  abandoned: "the lobby was left empty",
  aborted_by_staff: "aborted by the staff",
};

class MatchScreen {
  constructor(id) {
    this.id = id;
    this.match = null;
    this.seat = null; // the seat looked through, for a person holding two (Skull two_tribes)
    this.log = [];
    this.lastSeq = 0;
    this.alive = true;
    this.abort = new AbortController();
    this.err = alertBox();
    this.root = h("section", { class: "table-screen" });
    this.stats = null;
    this.choices = new Map(); // what the player has picked of a move, kept across redraws
  }

  stop() {
    this.alive = false;
    this.abort.abort();
  }

  get me() {
    return this.match?.you?.seats || [];
  }

  name = (seat) => seatName(this.match, seat, this.me);

  accept(match) {
    if (this.match && match.id === this.match.id && match.version < this.match.version) return false;
    this.match = match;
    return true;
  }

  async start() {
    clear(app, this.root);
    try {
      const match = await api.match(this.id, null, this.abort.signal);
      this.accept(match);
      this.log = match.events || [];
      this.lastSeq = match.last_seq || 0;
      this.pickSeat();
      if (this.seat !== null && this.seat !== this.match.view?.seat) this.accept(await api.match(this.id, this.seat));
      await this.render();
      this.follow();
    } catch (error) {
      clear(this.root, this.err);
      showError(this.err, error);
    }
  }

  // With two seats, look through the one that must act.
  pickSeat() {
    const me = this.me;
    if (me.length <= 1) {
      this.seat = null;
      return;
    }
    const toAct = this.match.to_act || [];
    const current = this.seat ?? this.match.view?.seat ?? me[0];
    this.seat = toAct.includes(current) ? current : me.find((s) => toAct.includes(s)) ?? current;
  }

  async refresh() {
    const match = await api.match(this.id, this.seat, this.abort.signal);
    const before = this.seat;
    this.accept(match);
    this.pickSeat();
    if (this.seat !== before && this.seat !== null) this.accept(await api.match(this.id, this.seat, this.abort.signal));
    await this.render();
  }

  async follow() {
    while (this.alive) {
      try {
        const status = this.match.status;
        if (status === "finished" || status === "aborted") return;
        if (status === "lobby") {
          await new Promise((r) => setTimeout(r, 1000));
          if (this.alive) await this.refresh();
          continue;
        }
        const page = await api.events(this.id, this.lastSeq, { wait: 25, seat: this.seat, signal: this.abort.signal });
        if (!this.alive) return;
        if (page.events.length) {
          this.log.push(...page.events);
          this.lastSeq = page.last_seq;
        }
        if (page.events.length || page.version !== this.match.version || page.status !== this.match.status) await this.refresh();
      } catch (error) {
        if (!this.alive || error.name === "AbortError") return;
        showError(this.err, error);
        await new Promise((r) => setTimeout(r, 2000));
      }
    }
  }

  async act(action) {
    this.err.hidden = true;
    try {
      const match = await api.act(this.id, action, this.match.version, this.seat);
      this.accept(match);
      this.pickSeat();
      await this.render();
    } catch (error) {
      if (error.code === "stale_version") await this.refresh();
      else {
        showError(this.err, error);
        await this.render(true);
      }
    }
  }

  ctx() {
    const view = this.match.view;
    return {
      match: this.match,
      view,
      pub: view?.public,
      priv: view?.private,
      me: view?.seat,
      name: this.name,
    };
  }

  async render(force = false) {
    if (!this.alive) return;
    const m = this.match;
    this.rendered = true;
    const game = GAMES[m.game];
    this.root.dataset.game = m.game;
    this.root.dataset.status = m.status;
    this.root.dataset.version = m.version;
    const header = h(
      "header",
      { class: "match-head" },
      h("h1", {}, game?.name || m.game),
      h("span", { class: "tag", "data-match-status": m.status }, m.status),
      h("span", { class: "muted" }, ` ${m.time_control}${m.decision_seconds ? ` · ${m.decision_seconds}s per decision` : ""} · v${m.version}`),
      m.seed_commitment ? h("span", { class: "muted small", title: m.seed_commitment }, ` · seed commitment ${m.seed_commitment.slice(0, 12)}…`) : null,
    );
    if (m.status === "lobby") {
      clear(this.root, header, this.err, this.lobby());
      return;
    }
    const ctx = this.ctx();
    const parts = [header, this.err];
    if (this.me.length > 1) {
      parts.push(
        h(
          "nav",
          { class: "seat-tabs", "aria-label": "your seats" },
          this.me.map((s) =>
            h(
              "button",
              {
                type: "button",
                "aria-pressed": String(s === ctx.me),
                onclick: async () => {
                  this.seat = s;
                  this.accept(await api.match(this.id, s));
                  this.rendered = false;
                  await this.render();
                },
              },
              `Seat ${s}`,
              m.to_act.includes(s) ? " ●" : "",
            ),
          ),
        ),
      );
    }
    parts.push(this.seatsStrip(ctx, game));
    if (ctx.pub && game) parts.push(h("div", { class: "board" }, game.table(ctx)));
    if (m.status === "active") parts.push(this.turnPanel(ctx, game));
    if (m.status === "finished" || m.status === "aborted") parts.push(await this.endPanel());
    parts.push(this.logPanel(game));
    const active = document.activeElement;
    const focused = active && this.root.contains(active) ? active.id : ""; // a control of the table
    const wasInTurn = !active || active === document.body || active === app || !!active.closest?.(".turn");
    clear(this.root, ...parts);
    // Keyboard play: focus follows the move to make (or stays on the control it was on).
    const first = this.root.querySelector(".actions button:not([disabled]), .actions select, .actions input");
    if (focused && this.root.querySelector(`#${CSS.escape(focused)}`)) this.root.querySelector(`#${CSS.escape(focused)}`).focus({ preventScroll: true });
    else if (first && wasInTurn) first.focus({ preventScroll: true });
  }

  seatsStrip(ctx, game) {
    const m = this.match;
    return h(
      "ol",
      { class: "seats", "aria-label": "seats" },
      m.seats.map((s) =>
        h(
          "li",
          {
            class: `seat${s.must_act ? " to-act" : ""}${ctx.me === s.position ? " mine" : ""}${ctx.pub?.out?.[s.position] ? " out" : ""}`,
            "data-seat": s.position,
          },
          h("span", { class: "seat-name" }, this.name(s.position)),
          s.bot_level && s.user ? h("span", { class: "tag" }, `bot ${s.bot_level}`) : null,
          s.away ? h("span", { class: "tag warn" }, "away: the bot plays") : null,
          s.must_act ? h("span", { class: "tag go" }, "to act") : null,
          s.deadline ? countdown(s.deadline, "⏱ ") : null,
          s.place ? h("span", { class: "tag" }, ordinal(s.place)) : null,
          ctx.pub && game ? h("span", { class: "seat-info" }, game.seatInfo(ctx, s.position)) : null,
        ),
      ),
    );
  }

  turnPanel(ctx, game) {
    const m = this.match;
    const legal = m.legal_actions || [];
    const panel = h("section", { class: "turn", "aria-label": "your move" });
    if (legal.length) {
      const mine = m.seats[ctx.me];
      panel.append(
        h(
          "h2",
          {},
          "Your move",
          mine?.deadline ? [" ", countdown(mine.deadline, "· time left ")] : null,
        ),
        actionPanel(legal, {
          look: (type, param, value, plain) => (game ? game.look(ctx, type, param, value, plain) : String(value)),
          submit: (action) => this.act(action),
          memory: this.choices,
        }),
      );
    } else {
      const waiting = m.to_act.map(this.name).join(", ");
      panel.append(h("p", { class: "waiting", "aria-live": "polite" }, waiting ? `Waiting for ${waiting}…` : "…"));
    }
    return panel;
  }

  lobby() {
    const m = this.match;
    const link = `${location.origin}/play/#/join/${m.invite_code}`;
    const err = alertBox();
    const level = h("select", { id: "add-bot-level" }, BOT_LEVELS.map((l) => h("option", { value: l }, l)));
    const mySeat = this.me.length > 0;
    const creator = api.user && m.created_by === api.user.id;
    const act = (path, body) => async () => {
      try {
        this.accept(await api.post(`/matches/${m.id}/${path}/`, body));
        this.rendered = false;
        if (path === "leave") navigate("#/");
        else await this.render();
      } catch (error) {
        showError(err, error);
      }
    };
    return h(
      "div",
      { class: "lobby" },
      err,
      h("h2", {}, `Waiting for players: ${m.seats.filter((s) => s.user || s.bot_level).length}/${m.seat_count}`),
      m.invite_code
        ? h(
            "p",
            { class: "invite" },
            "Invite code ",
            h("code", { id: "invite-code" }, m.invite_code),
            " · link ",
            h("a", { id: "invite-link", href: link }, link),
            " ",
            h("button", { type: "button", onclick: () => navigator.clipboard?.writeText(link) }, "Copy link"),
          )
        : null,
      h("ol", { class: "seats" }, m.seats.map((s) => h("li", { class: "seat", "data-seat": s.position }, this.name(s.position)))),
      mySeat
        ? null
        : h("button", { type: "button", class: "primary", id: "join-seat", onclick: act("join", { invite_code: m.invite_code || undefined }) }, "Take a seat"),
      creator
        ? h(
            "div",
            { class: "row" },
            h("label", { for: "add-bot-level" }, "Add a bot"),
            level,
            h("button", { type: "button", id: "add-bot", onclick: () => act("bots", { level: level.value, count: 1 })() }, "Add bot"),
            h("button", { type: "button", class: "primary", id: "start-now", onclick: act("start", {}) }, "Start now"),
          )
        : h("p", { class: "muted" }, "The match starts when every seat is taken, or when its creator starts it."),
      mySeat ? h("button", { type: "button", id: "leave", onclick: act("leave", {}) }, "Leave") : null,
    );
  }

  async endPanel() {
    const m = this.match;
    if (!this.stats && m.status === "finished") {
      try {
        this.stats = await api.get(`/matches/${m.id}/stats/`);
      } catch (error) {
        this.stats = { error: errorText(error) };
      }
    }
    const order = m.seats.map((s) => s.position).sort((a, b) => (m.placements?.[a] ?? 99) - (m.placements?.[b] ?? 99));
    const placements = h(
      "ol",
      { class: "placements", id: "placements" },
      order.map((seat) =>
        h("li", { "data-seat": seat, "data-place": m.placements?.[seat] ?? "" }, h("strong", {}, m.placements ? ordinal(m.placements[seat]) : "—"), " ", this.name(seat)),
      ),
    );
    let stats = null;
    if (this.stats?.seats) {
      const keys = Object.keys(this.stats.seats[0]?.stats || {});
      stats = h(
        "div",
        { class: "scroll" },
        h(
          "table",
          { class: "stats", id: "bluff-stats" },
          h("caption", {}, "Bluff statistics, revealed now (bot takeovers after a deadline in brackets)"),
          h("thead", {}, h("tr", {}, h("th", { scope: "col" }, ""), this.stats.seats.map((s) => h("th", { scope: "col" }, this.name(s.position))))),
          h(
            "tbody",
            {},
            keys.map((k) =>
              h(
                "tr",
                { "data-stat": k },
                h("th", { scope: "row" }, k.replaceAll("_", " ")),
                this.stats.seats.map((s) => h("td", {}, String(s.stats[k]), s.bot_stats && s.bot_stats[k] ? ` (+${s.bot_stats[k]})` : "")),
              ),
            ),
          ),
        ),
      );
    } else if (this.stats?.error) stats = h("p", { class: "error" }, this.stats.error);
    return h(
      "section",
      { class: "end", id: "end-screen", "aria-label": "result" },
      h("h2", {}, m.status === "finished" ? "Match over" : "Match aborted"),
      m.end_reason ? h("p", { class: "muted", id: "end-reason", "data-reason": m.end_reason }, `Ended: ${END_REASONS[m.end_reason] || m.end_reason.replaceAll("_", " ")}`) : null,
      placements,
      stats,
      m.status === "finished" ? h("p", {}, h("a", { class: "button", href: `#/replay/${m.id}`, id: "open-replay" }, "Watch the replay step by step")) : null,
      h("p", {}, h("a", { href: "#/" }, "Back to the lobby")),
    );
  }

  logPanel(game) {
    const items = this.log.slice(-40).reverse();
    return h(
      "section",
      { class: "log", "aria-label": "what happened" },
      h("h2", {}, "What happened"),
      h(
        "ol",
        { reversed: true, "aria-live": "polite" },
        items.map((e) => {
          const text = (game && game.describe(e, this.name)) || describeGeneric(e, this.name);
          const mine = e.private && Object.keys(e.private).length ? h("span", { class: "muted small" }, ` (you: ${privateText(e.private)})`) : null;
          return h(
            "li",
            { "data-seq": e.seq, class: e.by_bot ? "by-bot" : "" },
            e.by_bot ? h("span", { class: "tag warn", "data-by-bot": "" }, "time ran out: the bot played") : null,
            text,
            mine,
          );
        }),
      ),
    );
  }
}

export function privateText(p) {
  return Object.entries(p)
    .map(([k, v]) => `${k} ${Array.isArray(v) ? v.map((x) => (typeof x === "object" ? Object.values(x).join(":") : x)).join(", ") : typeof v === "object" && v ? Object.values(v).join(" ") : v}`)
    .join("; ");
}

export function describeGeneric(e, name) {
  if (e.type === "match_over") return `Match over: ${e.placements.map((p, seat) => `${name(seat)} ${ordinal(p)}`).join(", ")}.`;
  const who = e.seat !== undefined ? `${name(e.seat)}: ` : "";
  const rest = Object.entries(e)
    .filter(([k]) => !["seq", "version", "type", "seat", "private", "by_bot"].includes(k))
    .map(([k, v]) => `${k} ${typeof v === "object" ? JSON.stringify(v) : v}`)
    .join(", ");
  return `${who}${e.type.replaceAll("_", " ")}${rest ? ` (${rest})` : ""}`;
}

// --- routing --------------------------------------------------------------------------------

async function route() {
  routes += 1;
  const current = routes;
  if (screen) screen.stop();
  screen = null;
  const hash = location.hash.replace(/^#/, "") || "/";
  const [, kind, arg] = hash.split("/");
  if (!api.user && api.token) await api.me();
  if (current !== routes) return;
  renderWho();
  if (kind === "replay" && arg) {
    screen = replayScreen(app, arg, { api, GAMES, seatName });
    return;
  }
  if (!api.user) {
    signInScreen(() => route());
    return;
  }
  if (kind === "match" && arg) {
    screen = new MatchScreen(arg);
    await screen.start();
  } else if (kind === "join" && arg) {
    try {
      const m = await api.post("/matches/join/", { invite_code: decodeURIComponent(arg) });
      navigate(`#/match/${m.id}`);
    } catch (error) {
      const err = alertBox();
      clear(app, h("h1", {}, "Join a match"), err, h("p", {}, h("a", { href: "#/" }, "Back to the lobby")));
      showError(err, error);
    }
  } else {
    await lobbyScreen();
  }
  if (current !== routes) return;
  // A new screen takes the focus, unless it has put it on a control already (the first move).
  const active = document.activeElement;
  if (!active || active === document.body || !app.contains(active)) app.focus({ preventScroll: true });
}

window.addEventListener("hashchange", route);
route();
