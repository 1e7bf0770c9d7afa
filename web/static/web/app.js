// The web table: routes after the '#', screens built from the public API only.
//   #/               sign in as a guest (or log in), then the lobby: my turns, my matches, new match
//   #/match/<id>     the table (lobby, play, end screen), live through the long-poll
//   #/join/<code>    join a match with its invite code
//   #/replay/<id>    the step-by-step replay of a finished match
//   #/account        the account: password (or upgrade), vacation, a copy of my data, sessions, deletion
//   #/people         whom I follow (looking for a game now, their public matches) and whom I block

import { api, ApiError, OfflineError, newKey } from "./api.js";
import { clear, h, ordinal } from "./dom.js";
import { actionPanel, fits } from "./legal.js";
import { challengesPanel, quickPlayPanel, rematchPanel } from "./quickplay.js";
import { replayScreen } from "./replay.js";
import { RULES } from "./rules.js";
import { showInbox } from "./inbox.js";
import { accountScreen } from "./account.js";
import { peopleScreen, playerLink, usePeopleGames } from "./people.js";
import * as fabfib from "./games/fabfib.js";
import * as fibber from "./games/fibber.js";
import * as fibbers_dice from "./games/fibbers_dice.js";
import * as skull from "./games/skull.js";

export const GAMES = { fabfib, fibber, fibbers_dice, skull };
usePeopleGames(GAMES);
const BOT_LEVELS = ["random", "basic", "strong"];
const app = document.getElementById("app");
let screen = null; // the live screen: stop() it before leaving

// --- small helpers --------------------------------------------------------------------------

// The API's field names, as the form calls them.
const FIELD_WORDS = {
  decision_seconds: "seconds per decision",
  time_control: "how you play",
  seats: "seats",
  bots: "other places",
  options: "options",
  visibility: "visibility",
  invite_code: "invite code",
  display_name: "your name",
};

function inWords(text) {
  return String(text).replace(/\b[a-z]+(?:_[a-z]+)+\b/g, (word) => FIELD_WORDS[word] || word.replaceAll("_", " "));
}

function errorText(error) {
  if (error instanceof ApiError) {
    const fields = error.error.fields
      ? " " +
        Object.entries(error.error.fields)
          .map(([k, v]) => `${FIELD_WORDS[k.split(".")[0]] || k.replaceAll("_", " ")}: ${[].concat(v).map((x) => (typeof x === "object" ? JSON.stringify(x) : x)).join(" ")}`)
          .join("; ")
      : "";
    return inWords(`${error.message}${fields}`);
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

// A seat in a player's words: the person's name (or the bot's), "(you)" for one's own; in
// Skull's two tribes, which of the person's two tribes.
export function seatName(match, seat, me = [], { tribe = true } = {}) {
  const s = match.seats[seat];
  if (!s) return `Seat ${seat}`;
  const tribes = !!match.options?.two_tribes;
  const half = match.seat_count / 2;
  const notes = [];
  let label;
  if (s.user) label = s.user.name;
  else if (s.bot_level) {
    label = `Bot ${tribes ? seat % half : seat}`;
    notes.push(s.bot_level);
  } else label = `Open seat ${seat}`;
  if (me.includes(seat)) notes.push("you");
  if (tribes && tribe) notes.push(tribeWords(match, seat));
  return notes.length ? `${label} (${notes.join(", ")})` : label;
}

// A seat whose player is on vacation now (async matches: the seat carries the vacation's end).
function onVacation(seat) {
  return !!seat?.vacation_until && Date.parse(seat.vacation_until) > Date.now();
}

function dayWords(iso) {
  return new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
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
  showInbox(api);
  if (!api.user) return clear(who);
  clear(
    who,
    h("span", { "data-user": api.user.id }, api.user.display_name),
    api.user.is_guest ? h("span", { class: "tag" }, "guest") : null,
    " ",
    h("a", { href: "#/people", id: "people-link", "aria-current": location.hash === "#/people" ? "page" : null }, "People"),
    " ",
    h("a", { href: "#/account", id: "account-link", "aria-current": location.hash === "#/account" ? "page" : null }, "Account"),
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
          matchLink(t.match, `${GAMES[t.game]?.name || t.game}: your move`),
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

// The rules panel: the "In short" section of the game's rules page, with the parts of the
// variant in play (or chosen in the form).
export function rulesPanel(game, options = {}, { id, level = 2, open = false } = {}) {
  const r = RULES[game];
  if (!r) return null;
  const applies = (when) => !when || Object.entries(when).every(([k, v]) => (options[k] ?? OPTION_DEFAULTS[k]) === v);
  const words = (parts) => parts.map(([text, bold]) => (bold ? h("strong", {}, text) : text));
  return h(
    "details",
    { class: "rules", id, open },
    h("summary", {}, `How to play ${r.name}`),
    r.parts
      .filter((part) => applies(part.when))
      .map((part) => [
        part.title ? h(`h${level}`, {}, part.title) : null,
        part.blocks.map((b) => (b.p ? h("p", {}, words(b.p)) : h("ul", {}, b.ul.map((item) => h("li", {}, words(item)))))),
      ]),
    h("p", { class: "muted small" }, "The whole rules, as this server plays them, are in the project's docs/rules pages."),
  );
}
const OPTION_DEFAULTS = { variant: "standard", two_sets: false, two_tribes: false };

// The "New match" form. Its fields stay in place while the player fills them in (a field is
// never redrawn under the cursor); what depends on other fields (the seats allowed, the bot
// places, the rules shown) is updated around them.
function newMatchPanel() {
  const err = alertBox();
  const form = h("form", { class: "card-panel", id: "new-match", novalidate: true });
  const game = h("select", { id: "nm-game", name: "game" }, Object.entries(GAMES).map(([id, g]) => h("option", { value: id }, g.name)));
  const mode = h(
    "select",
    { id: "nm-mode", name: "mode" },
    h("option", { value: "solo" }, "Solo against bots"),
    h("option", { value: "live" }, "Live with friends"),
    h("option", { value: "async" }, "Turn by turn with friends (async)"),
  );
  const seats = h("input", { id: "nm-seats", name: "seats", type: "number", value: 3, step: 1, "aria-describedby": "nm-seats-hint" });
  const seatsHint = h("span", { class: "hint", id: "nm-seats-hint" });
  const optionRows = h("div", { class: "dynamic" });
  const friends = h("input", { id: "nm-friends", type: "number", min: 0, step: 1, value: 1 });
  const friendsLabel = h("label", { for: "nm-friends" });
  const friendsRow = h("div", { class: "row" }, friendsLabel, friends);
  const botRows = h("div", { class: "bot-rows" });
  const botLegend = h("legend", {});
  const bots = h("fieldset", {}, botLegend, botRows);
  const preview = h("p", { class: "muted small", id: "nm-order", "aria-live": "polite" });
  const seconds = h("input", { id: "nm-seconds", type: "number", min: 1, step: 1, value: 75 });
  const secondsRow = h("div", { class: "row" }, h("label", { for: "nm-seconds" }, "Seconds per decision"), seconds);
  const hours = h("input", { id: "nm-hours", type: "number", min: 1, max: 168, step: 1, value: 24 });
  const hoursRow = h("div", { class: "row" }, h("label", { for: "nm-hours" }, "Hours per decision"), hours);
  const visibility = h("select", { id: "nm-visibility" }, h("option", { value: "private" }, "private: invite only"), h("option", { value: "public" }, "public: listed"));
  const visibilityRow = h("div", { class: "row" }, h("label", { for: "nm-visibility" }, "Visibility"), visibility);
  const rulesSlot = h("div", { class: "form-rules" });
  const controls = { options: {}, rows: {}, bots: [] };

  // The game's option fields: made when the game is chosen.
  const makeOptions = () => {
    const g = GAMES[game.value];
    controls.options = {};
    controls.rows = {};
    for (const o of g.options) {
      const id = `nm-opt-${o.name}`;
      let input;
      if (o.kind === "bool") input = h("input", { id, type: "checkbox", onchange: update, checked: o.default });
      else if (o.kind === "choice") {
        input = h("select", { id, onchange: update }, o.choices.map((c) => h("option", { value: c }, o.choiceWords?.[c] || c)));
        input.value = o.default;
      } else input = h("input", { id, type: "number", min: o.min, max: o.max, step: 1, value: o.default ?? "" });
      controls.options[o.name] = input;
      controls.rows[o.name] = h("div", { class: "row" }, h("label", { for: id }, o.label), input);
    }
    clear(optionRows, Object.values(controls.rows));
  };
  const shown = (o) => !o.only || Object.entries(o.only).every(([k, v]) => controls.options[k]?.value === v);
  const optionValues = () => {
    const out = {};
    for (const o of GAMES[game.value].options) {
      const input = controls.options[o.name];
      if (o.kind === "bool") out[o.name] = input.checked;
      else if (o.kind === "choice") out[o.name] = input.value;
      else if (input.value !== "") out[o.name] = Number(input.value);
    }
    return out;
  };
  const places = () => {
    const n = +seats.value;
    return optionValues().two_tribes ? Math.floor(n / 2) : n;
  };
  const orderText = () => {
    const open = mode.value === "solo" ? 0 : +friends.value;
    const order = ["you", ...controls.bots.map((b) => `a ${b.value} bot`), ...Array(open).fill("a friend")];
    preview.textContent =
      `Around the table${optionValues().two_tribes ? " (each person plays two opposite seats)" : ""}: ${order.join(", ")}` +
      `${open ? " (friends take their places in the order they join)" : ""}.`;
  };

  // Everything that follows from the fields: the seats the game allows with these options
  // (Skull: 3–6, or 7–12 with two sets; an even number with two tribes), the places for
  // friends and bots, the time per decision, the rules shown.
  function update() {
    const g = GAMES[game.value];
    const chosen = optionValues();
    for (const o of g.options) controls.rows[o.name].hidden = !shown(o);
    const [lo, hi, step = 1] = g.seatRange ? g.seatRange(chosen) : g.seats;
    seats.min = lo;
    seats.max = hi;
    seats.step = step;
    let n = Math.round(+seats.value) || lo;
    n = Math.max(lo, Math.min(hi, n));
    if ((n - lo) % step) n = Math.min(hi, n + 1);
    if (+seats.value !== n) seats.value = n;
    seatsHint.textContent = `${lo} to ${hi}${step > 1 ? ", an even number" : ""}`;
    const solo = mode.value === "solo";
    const others = places() - 1;
    friends.max = others;
    friendsLabel.textContent = `Places for friends (0–${others})`;
    const open = Math.max(0, Math.min(others, Math.round(+friends.value) || 0));
    if (!solo && +friends.value !== open) friends.value = open;
    const wanted = others - (solo ? 0 : open);
    const previous = controls.bots.map((b) => b.value);
    controls.bots = [];
    const rows = [];
    for (let i = 1; i <= wanted; i++) {
      const id = `nm-bot-${i}`;
      const select = h("select", { id, "data-bot": i, onchange: orderText }, BOT_LEVELS.map((level) => h("option", { value: level }, `bot: ${level}`)));
      select.value = previous[i - 1] || "basic";
      controls.bots.push(select);
      rows.push(h("div", { class: "row" }, h("label", { for: id }, chosen.two_tribes ? `Person ${i + 1}` : `${ordinal(i + 1)} place`), select));
    }
    // Only rows that changed are drawn again: a select being used stays where it is.
    const key = `${rows.length}:${!!chosen.two_tribes}`;
    if (botRows.dataset.key !== key) {
      botRows.dataset.key = key;
      clear(botRows, rows);
    } else controls.bots = [...botRows.querySelectorAll("select")];
    botLegend.textContent = solo ? "Bots (choose each level)" : "Bots in the other places";
    bots.hidden = wanted === 0;
    friendsRow.hidden = solo;
    secondsRow.hidden = mode.value !== "live";
    hoursRow.hidden = mode.value !== "async";
    visibilityRow.hidden = solo;
    orderText();
    clear(rulesSlot, rulesPanel(game.value, chosen, { id: "form-rules", level: 3, open: !!rulesSlot.querySelector("details[open]") }));
  }

  game.addEventListener("change", () => {
    makeOptions();
    update();
  });
  mode.addEventListener("change", update);
  seats.addEventListener("change", update);
  friends.addEventListener("change", update);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    err.hidden = true;
    update();
    const g = GAMES[game.value];
    const options = {};
    for (const o of g.options) {
      const input = controls.options[o.name];
      if (!shown(o)) continue;
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
      bots: controls.bots.map((s) => s.value),
    };
    if (mode.value === "live") body.decision_seconds = Number(seconds.value);
    if (mode.value === "async") body.decision_seconds = Number(hours.value) * 3600;
    if (mode.value !== "solo") body.visibility = visibility.value;
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
    rulesSlot,
    h("div", { class: "row" }, h("label", { for: "nm-mode" }, "How"), mode),
    optionRows,
    h("div", { class: "row" }, h("label", { for: "nm-seats" }, "Seats"), seats, seatsHint),
    friendsRow,
    bots,
    preview,
    secondsRow,
    hoursRow,
    visibilityRow,
    h("button", { type: "submit", class: "primary", id: "nm-create" }, "Create match"),
  );
  makeOptions();
  update();
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
    h("div", { class: "columns" }, quickPlayPanel(GAMES, (id) => navigate(`#/match/${id}`)), challengesPanel(GAMES, (id) => navigate(`#/match/${id}`))),
    h("div", { class: "columns" }, newMatchPanel(), h("div", {}, turns, joinPanel(), upgradePanel())),
    h("div", { class: "columns" }, mine, open),
  );
}

// --- the table ------------------------------------------------------------------------------

const BACKOFF_MS = [1000, 2000, 4000, 8000, 15000]; // waits between tries while the server is away
const RESENDS = 3; // a move still legal after the table moved on is sent again this many times
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Who made the decision an event records (the first event of a version is the decision; the
// others are its consequences: a roll, a reveal, "is out").
function actorOf(e) {
  return e.caller ?? e.by ?? e.seat;
}

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
    // The connection: "Reconnecting…" while the server cannot be reached, gone once it answers.
    this.conn = h("div", { class: "conn", id: "connection", role: "status", hidden: true });
    // What became of the player's last move when the table moved on before it arrived.
    this.note = h("p", { class: "note", id: "move-note", role: "status", hidden: true });
    this.root = h("section", { class: "table-screen" });
    this.stats = null;
    this.choices = new Map(); // what the player has picked of a move, kept across redraws
    this.pending = null; // a move sent (or to send) and not answered yet
    this.offline = false;
    this.sending = false;
    this.chain = Promise.resolve(); // view updates, one at a time
    this.counts = { taps: 0, resent: 0, refused: 0, kept: 0 }; // on the root as data-* (read by the tests)
  }

  stop() {
    this.alive = false;
    this.abort.abort();
  }

  get me() {
    return this.match?.you?.seats || [];
  }

  name = (seat) => seatName(this.match, seat, this.me);

  // Run view updates one after another, so an older answer never overwrites a newer one.
  serial(fn) {
    const run = this.chain.then(fn);
    this.chain = run.catch(() => {});
    return run;
  }

  // Keep a view of the match unless it is older than the one shown, or, at the same version,
  // another seat's than the one looked through.
  accept(match) {
    const current = this.match;
    if (current && match.id === current.id) {
      if (match.version < current.version) return false;
      if (
        match.version === current.version &&
        this.seat !== null &&
        current.view?.seat === this.seat &&
        match.view?.seat !== this.seat
      ) {
        return false;
      }
    }
    this.match = match;
    return true;
  }

  // A new view: keep it, look through the seat that must act (fetching that seat's view when
  // the answer was another's), redraw.
  async adopt(match) {
    if (!this.alive) return;
    this.accept(match);
    for (let tries = 0; tries < 3; tries++) {
      this.pickSeat();
      if (this.seat === null || this.match.view?.seat === this.seat) break;
      this.accept(await api.match(this.id, this.seat, this.abort.signal));
    }
    await this.render();
  }

  async start() {
    clear(app, this.root);
    try {
      const match = await api.match(this.id, null, this.abort.signal);
      this.addEvents(match.events || [], { live: false });
      this.lastSeq = match.last_seq || 0;
      await this.serial(() => this.adopt(match));
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
    await this.adopt(await api.match(this.id, this.seat, this.abort.signal));
  }

  // Events as they come: the first of each version is the decision, the rest its consequences.
  // A decision a bot took for a person is labelled with why, as far as the page saw it: the
  // person was away already, or their time ran out.
  addEvents(events, { live = true } = {}) {
    for (const e of events) {
      const previous = this.log[this.log.length - 1];
      const decision = !previous || previous.version !== e.version;
      const seat = actorOf(e);
      this.log.push({
        ...e,
        decision,
        taken: e.by_bot && decision ? (live ? (this.match?.seats?.[seat]?.away ? "away" : "time") : "bot") : null,
      });
    }
    if (this.log.length > 400) this.log.splice(0, this.log.length - 400);
  }

  async follow() {
    let failures = 0;
    while (this.alive) {
      try {
        const status = this.match.status;
        if (status === "finished" || status === "aborted") return;
        if (status === "lobby") {
          await sleep(1000);
          if (this.alive) await this.serial(() => this.refresh());
          failures = 0;
          await this.online();
          continue;
        }
        // While reconnecting, ask without waiting: the first answer says the server is back.
        const wait = this.offline ? 0 : 25;
        const page = await api.events(this.id, this.lastSeq, { wait, seat: this.seat, signal: this.abort.signal });
        if (!this.alive) return;
        failures = 0;
        if (page.events.length) {
          this.addEvents(page.events);
          this.lastSeq = page.last_seq;
        }
        const changed = page.events.length || page.version !== this.match.version || page.status !== this.match.status;
        if (changed || this.offline) await this.serial(() => this.refresh());
        await this.online();
      } catch (error) {
        if (!this.alive || error.name === "AbortError") return;
        if (error instanceof OfflineError) {
          const ms = BACKOFF_MS[Math.min(failures, BACKOFF_MS.length - 1)];
          failures += 1;
          this.showOffline(ms);
          await sleep(ms);
        } else {
          showError(this.err, error);
          await sleep(2000);
        }
      }
    }
  }

  // --- the connection -----------------------------------------------------------------------

  showOffline(ms) {
    this.offline = true;
    const move = this.pending;
    clear(
      this.conn,
      h("strong", {}, "Reconnecting…"),
      ms ? ` The server does not answer; trying again in ${Math.round(ms / 1000)} s.` : " The server does not answer.",
      move
        ? h(
            "span",
            { class: "kept" },
            ` Your move (${move.text}) is kept and will be sent when the connection is back. `,
            h("button", { type: "button", class: "link", id: "drop-move", onclick: () => this.dropPending() }, "Don't send it"),
          )
        : null,
    );
    this.conn.hidden = false;
  }

  async online() {
    if (this.offline) {
      this.offline = false;
      this.conn.hidden = true;
      clear(this.conn);
    }
    if (this.pending && !this.sending) await this.send(this.pending);
  }

  dropPending() {
    this.pending = null;
    this.counts.dropped = (this.counts.dropped || 0) + 1;
    if (this.offline) this.showOffline();
    this.render(true);
  }

  // --- moves --------------------------------------------------------------------------------

  actionWords(action, ctx = this.ctx()) {
    const game = GAMES[this.match.game];
    const said = game?.actionText?.(ctx, action);
    if (said) return said;
    const entry = (this.match.legal_actions || []).find((e) => e.type === action.type);
    return entry ? entry.label : action.type.replaceAll("_", " ");
  }

  async act(action) {
    this.counts.taps += 1;
    this.err.hidden = true;
    this.note.hidden = true;
    // The move is made on the match as drawn (a newer view may have arrived and not be drawn
    // yet: with two seats the page may already be fetching the other seat's view): its version
    // and its seat, so a move on what the table no longer shows is a 409 the page answers.
    const shown = this.shown ?? this.match;
    const move = {
      action,
      key: newKey(),
      version: shown.version,
      seat: this.seat === null ? null : (shown.view?.seat ?? this.seat),
      mine: shown.view?.seat,
      secret: JSON.stringify(shown.view?.private ?? null),
      text: this.actionWords(action),
      resends: 0,
    };
    this.pending = move;
    if (this.offline) {
      // Sent when the server answers again (with the same key: never applied twice).
      this.counts.kept += 1;
      this.showOffline();
      await this.render(true);
      return;
    }
    await this.send(move);
  }

  async send(move) {
    this.sending = true;
    try {
      const match = await api.act(this.id, move.action, move.version, move.seat, move.key);
      if (this.pending === move) this.pending = null;
      if (move.note) this.showNote(move.note);
      await this.serial(() => this.adopt(match));
    } catch (error) {
      if (!this.alive || error.name === "AbortError") return;
      if (error instanceof OfflineError) {
        if (this.pending === move) this.counts.kept += 1;
        this.showOffline();
        await this.render(true);
        return;
      }
      if (this.pending === move) this.pending = null;
      if (error.code === "stale_version") await this.movedOn(move);
      else {
        showError(this.err, error);
        await this.serial(() => this.refresh()).catch(() => this.render(true));
      }
    } finally {
      this.sending = false;
    }
  }

  // The table moved on between the last redraw and the move (a bot or another player acted in
  // a phase where several seats decide, or a bot took the decision after a deadline). A move
  // that still fits what the seat may do, with the seat's own cards unchanged, is sent again
  // on the new version; any other is not, and the player is told why.
  async movedOn(move) {
    const fresh = await api.match(this.id, move.seat, this.abort.signal);
    const game = GAMES[fresh.game];
    const between = (fresh.events || []).filter((e) => e.version > move.version);
    const firsts = new Set();
    const takenForMe = between.some((e) => {
      const first = !firsts.has(e.version);
      firsts.add(e.version);
      return first && e.by_bot && actorOf(e) === move.mine;
    });
    const said = between
      .map((e) => (game && game.describe(e, this.name)) || describeGeneric(e, this.name))
      .filter(Boolean);
    const meanwhile = said.length > 4 ? [...said.slice(0, 3), `… (${said.length - 3} more)`] : said;
    const what = meanwhile.length ? meanwhile.join(" ") : "the table moved on.";
    const same = JSON.stringify(fresh.view?.private ?? null) === move.secret;
    if (!takenForMe && same && fits(move.action, fresh.legal_actions) && move.resends < RESENDS) {
      this.counts.resent += 1;
      const again = { ...move, key: newKey(), version: fresh.version, resends: move.resends + 1 };
      again.note = `Meanwhile: ${what} Your move (${move.text}) still stood, and was made.`;
      this.pending = again;
      await this.send(again);
      return;
    }
    this.counts.refused += 1;
    const why = takenForMe
      ? `Too late: time ran out and the bot played for you. ${what}`
      : `Your move (${move.text}) was not made: before it arrived, ${what}${fresh.legal_actions?.length ? " Choose again." : ""}`;
    this.showNote(why, "refused");
    await this.serial(() => this.adopt(fresh));
  }

  showNote(text, kind = "made") {
    this.note.textContent = text;
    this.note.dataset.kind = kind;
    this.note.hidden = false;
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
    this.shown = m; // the match as drawn: a tap acts on what the player saw
    const game = GAMES[m.game];
    this.root.dataset.game = m.game;
    this.root.dataset.status = m.status;
    this.root.dataset.version = m.version;
    this.root.dataset.seat = m.view?.seat ?? "";
    for (const [k, v] of Object.entries(this.counts)) this.root.dataset[k] = v;
    const header = h(
      "header",
      { class: "match-head" },
      h("h1", {}, game?.name || m.game, variantName(m)),
      h("span", { class: "tag", "data-match-status": m.status }, STATUS_WORDS[m.status] || m.status),
      h("span", { class: "muted" }, ` ${timeWords(m)}`),
    );
    const rules = rulesPanel(m.game, m.options, { id: "match-rules" });
    if (m.status === "lobby") {
      clear(this.root, header, rules, this.err, this.conn, this.lobby(), this.detailsLine());
      return;
    }
    const ctx = this.ctx();
    const parts = [header, rules, this.err, this.conn];
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
                "data-tab-seat": s,
                onclick: () =>
                  this.serial(async () => {
                    this.seat = s;
                    this.accept(await api.match(this.id, s, this.abort.signal));
                    await this.render();
                  }),
              },
              tribeWords(m, s),
              m.to_act.includes(s) ? " ● to act" : "",
            ),
          ),
        ),
      );
    }
    parts.push(this.seatsStrip(ctx, game));
    if (ctx.pub && game) parts.push(h("div", { class: "board" }, game.table(ctx)));
    if (m.status === "active") parts.push(this.turnPanel(ctx, game));
    if (m.status === "finished" || m.status === "aborted") parts.push(await this.endPanel(game));
    parts.push(this.logPanel(game), this.detailsLine());
    const active = document.activeElement;
    const focused = active && this.root.contains(active) ? active.id : ""; // a control of the table
    const wasInTurn = !active || active === document.body || active === app || !!active.closest?.(".turn");
    clear(this.root, ...parts);
    // Keyboard play: focus follows the move to make (or stays on the control it was on).
    const first = this.root.querySelector(".actions button:not([disabled]), .actions select, .actions input");
    if (focused && this.root.querySelector(`#${CSS.escape(focused)}`)) this.root.querySelector(`#${CSS.escape(focused)}`).focus({ preventScroll: true });
    else if (first && wasInTurn) first.focus({ preventScroll: true });
  }

  // Version and seed commitment: for the curious, out of the way at the bottom.
  detailsLine() {
    const m = this.match;
    return h(
      "p",
      { class: "details muted small", id: "match-details" },
      `Version ${m.version}`,
      m.seed_commitment
        ? [" · seed commitment ", h("code", { title: m.seed_commitment }, `${m.seed_commitment.slice(0, 12)}…`), " (the replay checks the seed against it)"]
        : null,
    );
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
          h("span", { class: "seat-name" }, playerLink(s.user, this.name(s.position))),
          ctx.pub?.out?.[s.position] && m.status === "active" ? h("span", { class: "tag" }, "out") : null,
          s.bot_level && s.user ? h("span", { class: "tag" }, `bot ${s.bot_level}`) : null,
          onVacation(s) && m.status === "active"
            ? h("span", { class: "tag warn vacation", "data-vacation-until": s.vacation_until }, `on vacation until ${dayWords(s.vacation_until)}: the clock waits`)
            : s.away
              ? h("span", { class: "tag warn" }, "away: the bot plays")
              : null,
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
    // Whose clock waits: a player to act who is on vacation (async matches).
    const resting = m.to_act.filter((p) => onVacation(m.seats[p]));
    const vacation = resting.length
      ? h(
          "p",
          { class: "vacation-note", id: "vacation-note", "data-seats": resting.join(" ") },
          resting
            .map((p) => (this.me.includes(p) ? `You are on vacation until ${dayWords(m.seats[p].vacation_until)}: your clock waits.` : `${this.name(p)} is on vacation until ${dayWords(m.seats[p].vacation_until)}: their clock waits, and no bot plays for them.`))
            .join(" "),
        )
      : null;
    if (legal.length) {
      const mine = m.seats[ctx.me];
      panel.append(
        h(
          "h2",
          {},
          this.me.length > 1 ? `Your move (${tribeWords(m, ctx.me)})` : "Your move",
          mine?.deadline ? [" ", countdown(mine.deadline, "· time left ")] : null,
        ),
        this.note,
        vacation,
        actionPanel(legal, {
          words: {
            look: (type, param, value, plain) => (game ? game.look(ctx, type, param, value, plain) : String(value)),
            entry: (entry) => game?.entryLabel?.(ctx, entry),
            param: (entry, name) => game?.paramLabel?.(ctx, entry, name),
            choice: (entry, action) => game?.choiceLabel?.(ctx, entry, action),
          },
          submit: (action) => this.act(action),
          memory: this.choices,
        }),
      );
    } else {
      const waiting = m.to_act.map(this.name).join(", ");
      panel.append(this.note, h("p", { class: "waiting", "aria-live": "polite" }, waiting ? `Waiting for ${waiting}…` : "…"), vacation);
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
      h("ol", { class: "seats", "aria-label": "seats" }, m.seats.map((s) => h("li", { class: "seat", "data-seat": s.position }, playerLink(s.user, this.name(s.position))))),
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

  async endPanel(game) {
    const m = this.match;
    if (!this.stats && m.status === "finished") {
      try {
        this.stats = await api.get(`/matches/${m.id}/stats/`);
      } catch (error) {
        this.stats = { error: errorText(error) };
      }
    }
    const over = [...this.log].reverse().find((e) => e.type === "match_over");
    const placements = resultsList(m, this.name, over, { id: "placements" });
    const tribes = m.options?.two_tribes && m.placements;
    let stats = null;
    if (this.stats?.seats) {
      const keys = Object.keys(this.stats.seats[0]?.stats || {});
      const words = game?.stats || {};
      stats = [
        h(
          "div",
          { class: "scroll", tabindex: 0, role: "region", "aria-label": "bluff statistics table" },
          h(
            "table",
            { class: "stats", id: "bluff-stats" },
            h("caption", {}, "Bluff statistics, revealed now (decisions a bot took for a player after a deadline in brackets)"),
            h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Statistic"), this.stats.seats.map((s) => h("th", { scope: "col" }, this.name(s.position))))),
            h(
              "tbody",
              {},
              keys.map((k) =>
                h(
                  "tr",
                  { "data-stat": k },
                  h("th", { scope: "row", title: words[k]?.[1] || null }, words[k]?.[0] || k.replaceAll("_", " ")),
                  this.stats.seats.map((s) => h("td", {}, String(s.stats[k]), s.bot_stats && s.bot_stats[k] ? ` (+${s.bot_stats[k]})` : "")),
                ),
              ),
            ),
          ),
        ),
        keys.some((k) => words[k])
          ? h(
              "dl",
              { class: "legend small", id: "stats-legend", "aria-label": "what the statistics count" },
              keys.filter((k) => words[k]).map((k) => [h("dt", {}, words[k][0]), h("dd", {}, words[k][1])]),
            )
          : null,
      ];
    } else if (this.stats?.error) stats = h("p", { class: "error" }, this.stats.error);
    return h(
      "section",
      { class: "end", id: "end-screen", "aria-label": "result" },
      h("h2", {}, m.status === "finished" ? "Match over" : "Match abandoned"),
      // How the match ended: one line, right under the heading.
      m.end_reason ? h("p", { class: "muted", id: "end-reason", "data-reason": m.end_reason }, `Ended: ${END_REASONS[m.end_reason] || m.end_reason.replaceAll("_", " ")}`) : null,
      placements,
      tribes
        ? h(
            "details",
            { class: "seat-results" },
            h("summary", {}, "Each seat's place"),
            resultsList(m, this.name, null, { id: "seat-placements", bySeat: true }),
          )
        : null,
      stats,
      m.status === "finished" ? h("p", {}, h("a", { class: "button", href: `#/replay/${m.id}`, id: "open-replay" }, "Watch the replay step by step")) : null,
      m.status === "finished" && m.you?.seats?.length ? rematchPanel(m.id, (id) => navigate(`#/match/${id}`)) : null,
      h("p", {}, h("a", { href: "#/" }, "Back to the lobby")),
    );
  }

  logPanel(game) {
    const items = this.log.slice(-40).reverse();
    const ctx = this.ctx();
    return h(
      "section",
      { class: "log", "aria-label": "what happened" },
      h("h2", {}, "What happened"),
      h(
        "ol",
        { reversed: true, tabindex: 0, "aria-label": "what happened, newest first" },
        items.map((e) => {
          const text = (game && game.describe(e, this.name)) || describeGeneric(e, this.name);
          const secret = e.private && Object.keys(e.private).length ? game?.privateText?.(ctx, e) || `you saw: ${privateText(e.private)}` : null;
          return h(
            "li",
            { "data-seq": e.seq, class: e.taken ? "by-bot" : "" },
            e.taken ? h("span", { class: "tag warn", "data-by-bot": e.taken }, TAKEN_WORDS[e.taken]) : null,
            text,
            secret ? h("span", { class: "muted small", "data-private-note": "" }, ` (${secret})`) : null,
          );
        }),
      ),
    );
  }
}

const TAKEN_WORDS = {
  time: "time ran out: the bot played",
  away: "away: the bot played",
  bot: "the bot played for them",
};
const STATUS_WORDS = { lobby: "waiting for players", active: "playing", finished: "over", aborted: "abandoned" };

function timeWords(m) {
  if (m.time_control === "solo") return "against bots · no time limit";
  const s = m.decision_seconds;
  if (m.time_control === "async") return `turn by turn · ${s % 3600 ? `${Math.round(s / 60)} min` : `${s / 3600} h`} per decision`;
  return `live · ${s} s per decision`;
}

export function variantName(m) {
  const o = m.options || {};
  if (m.game === "fibber" && o.variant === "easy") return " · easy rules";
  if (m.game === "skull") return [o.two_sets ? " · two sets" : "", o.two_tribes ? " · two tribes" : ""].join("");
  return "";
}

// In Skull's two tribes, person i plays seats i and i + n/2: their first and second tribe.
export function tribeWords(match, seat) {
  const half = match.seat_count / 2;
  return seat < half ? "1st tribe" : "2nd tribe";
}

// Results by place: people in Skull's two tribes (their better tribe first), else seats.
function resultsList(m, name, over, { id, bySeat = false }) {
  const half = m.seat_count / 2;
  if (m.options?.two_tribes && m.placements && !bySeat) {
    const people = Array.from({ length: half }, (_, p) => p);
    const places = over?.person_placements || personPlaces(m.placements, half);
    const personName = (p) => seatName(m, p, m.you?.seats || [], { tribe: false });
    people.sort((a, b) => places[a] - places[b] || a - b);
    return h(
      "ol",
      { class: "placements", id, "data-by": "person" },
      people.map((p) =>
        h(
          "li",
          { "data-person": p, "data-place": places[p] },
          h("strong", {}, ordinal(places[p])),
          " ",
          personName(p),
          h("span", { class: "muted small" }, ` (tribes ${ordinal(m.placements[p])} and ${ordinal(m.placements[p + half])})`),
        ),
      ),
    );
  }
  const order = m.seats.map((s) => s.position).sort((a, b) => (m.placements?.[a] ?? 99) - (m.placements?.[b] ?? 99) || a - b);
  return h(
    "ol",
    { class: "placements", id },
    order.map((seat) =>
      h("li", { "data-seat": seat, "data-place": m.placements?.[seat] ?? "" }, h("strong", {}, m.placements ? ordinal(m.placements[seat]) : "—"), " ", name(seat)),
    ),
  );
}

// A person's place from their seats' (the better one first, then the other; shared places as
// 1, 2, 2, 4), for a record that does not carry the people's places.
function personPlaces(placements, half) {
  const key = (p) => [Math.min(placements[p], placements[p + half]), Math.max(placements[p], placements[p + half])];
  const people = Array.from({ length: half }, (_, p) => p);
  return people.map((p) => 1 + people.filter((q) => {
    const [a, b] = key(q);
    const [c, d] = key(p);
    return a < c || (a === c && b < d);
  }).length);
}

// Words for a private part the game does not describe itself.
function valueWords(v) {
  if (v === null || v === undefined) return "—";
  if (Array.isArray(v)) return v.map(valueWords).join(", ");
  if (typeof v === "object") {
    if ("digit" in v && "skulls" in v) return `${v.digit} with ${v.skulls} skull${v.skulls === 1 ? "" : "s"}`;
    if ("dice" in v) return `${v.dice.join(" and ")}${v.score ? ` (${v.score})` : ""}`;
    return Object.entries(v).map(([k, x]) => `${k.replaceAll("_", " ")} ${valueWords(x)}`).join(", ");
  }
  return String(v);
}

export function privateText(p) {
  return Object.entries(p)
    .map(([k, v]) => `${k.replaceAll("_", " ")}: ${valueWords(v)}`)
    .join("; ");
}

export function describeGeneric(e, name) {
  if (e.type === "match_over") {
    const order = e.placements.map((p, seat) => [p, seat]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    return `Match over: ${order.map(([p, seat]) => `${ordinal(p)} ${name(seat)}`).join(", ")}.`;
  }
  if (e.type === "seat_joined") return `${name(e.seat)} joins the table.`;
  const who = e.seat !== undefined ? `${name(e.seat)}: ` : "";
  return `${who}${e.type.replaceAll("_", " ")}.`;
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
    screen = replayScreen(app, arg, { api, GAMES, seatName, describeGeneric });
    return;
  }
  if (!api.user) {
    signInScreen(() => route());
    return;
  }
  if (kind === "account") {
    screen = accountScreen(app, { api, showError, alertBox, renderWho, navigate, upgradePanel });
  } else if (kind === "people") {
    screen = peopleScreen(app, { showError, alertBox });
  } else if (kind === "match" && arg) {
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
