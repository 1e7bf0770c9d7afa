// The account page (#/account): change the password (a guest upgrades instead), a vacation
// (my async clocks wait), download a copy of my data, the sign-in sessions, delete my account. Everything through the REST API under
// /api/me/ (docs/accounts.md). Comments above the imports must not use the keyword for
// re-exports: the static files' hashing would read one there and break the rewritten imports.

import { ApiError } from "./api.js";
import { clear, h } from "./dom.js";

const POLL_MS = 1000; // an export's status, while it is written
const CONFIRM_WORD = "delete";

// The field's own messages from the API's error shape (`error.fields.<name>`).
function fieldMessages(error, name) {
  const found = error instanceof ApiError ? error.error.fields?.[name] : undefined;
  return found === undefined ? [] : [].concat(found).map(String);
}

// An input with its label and a place for its own error, tied together for screen readers.
function field(id, label, attrs) {
  const hint = h("span", { class: "error field-error", id: `${id}-error`, hidden: true });
  const input = h("input", { id, name: id, "aria-describedby": `${id}-error`, ...attrs });
  const show = (messages) => {
    hint.textContent = messages.join(" ");
    hint.hidden = !messages.length;
    if (messages.length) input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
  };
  return { input, show, nodes: [h("label", { for: id }, label), input, hint] };
}

function when(iso) {
  return iso ? h("time", { datetime: iso }, new Date(iso).toLocaleString()) : null;
}

// `ctx`: { api, showError, alertBox, renderWho, navigate, upgradePanel }.
// Returns the screen ({ stop() }): leaving the page stops an export's polling.
export function accountScreen(app, ctx) {
  const { api } = ctx;
  let stopped = false;
  const timers = new Set();
  const urls = [];
  const later = (fn, ms) => {
    const t = setTimeout(() => {
      timers.delete(t);
      if (!stopped) fn();
    }, ms);
    timers.add(t);
  };
  const user = api.user;
  clear(
    app,
    h("h1", {}, "Your account"),
    h(
      "p",
      { id: "account-who" },
      "Signed in as ",
      h("strong", {}, user.display_name),
      user.is_guest ? " (a guest account)" : [" (username ", h("code", {}, user.username), ")"],
      ". ",
      h("a", { href: "#/" }, "Back to the lobby"),
    ),
    h(
      "div",
      { class: "columns" },
      user.is_guest ? ctx.upgradePanel() : passwordPanel(ctx),
      exportPanel(ctx, { later, urls, stopped: () => stopped }),
    ),
    vacationPanel(ctx),
    sessionsPanel(ctx),
    deletePanel(ctx),
  );
  return {
    stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      // A download already offered stays valid a moment for the click in progress.
      setTimeout(() => urls.forEach((url) => URL.revokeObjectURL(url)), 60000);
    },
  };
}

// --- change the password --------------------------------------------------------------------

function passwordPanel(ctx) {
  const { api } = ctx;
  const err = ctx.alertBox();
  const done = h("p", { class: "muted", id: "password-status", role: "status" });
  const current = field("pw-current", "Current password", { type: "password", required: true, autocomplete: "current-password" });
  const next = field("pw-new", "New password", { type: "password", required: true, autocomplete: "new-password" });
  const form = h(
    "form",
    {
      class: "card-panel",
      id: "password-form",
      "aria-labelledby": "password-heading",
      onsubmit: async (event) => {
        event.preventDefault();
        err.hidden = true;
        done.textContent = "";
        current.show([]);
        next.show([]);
        try {
          await api.changePassword(current.input.value, next.input.value);
          current.input.value = "";
          next.input.value = "";
          ctx.renderWho();
          done.textContent = "Your password is changed. Your other devices are signed out; this one stays signed in.";
        } catch (error) {
          const own = fieldMessages(error, "current_password");
          const fresh = fieldMessages(error, "new_password");
          current.show(own.length ? own : error instanceof ApiError && error.code === "invalid_credentials" ? [error.message] : []);
          next.show(fresh);
          ctx.showError(err, error instanceof ApiError ? new Error(error.message) : error);
          (own.length || error.code === "invalid_credentials" ? current.input : fresh.length ? next.input : current.input).focus();
        }
      },
    },
    h("h2", { id: "password-heading" }, "Change your password"),
    h("p", { class: "muted" }, "Every other device signed in to this account is signed out."),
    err,
    current.nodes,
    next.nodes,
    h("button", { type: "submit", class: "primary", id: "password-submit" }, "Change password"),
    done,
  );
  return form;
}

// --- export my data -------------------------------------------------------------------------

const EXPORT_WORDS = {
  pending: "Waiting to start…",
  running: "Writing your data…",
  done: "Ready.",
  failed: "The export failed. Try again.",
};

function exportPanel(ctx, { later, urls, stopped }) {
  const { api } = ctx;
  const err = ctx.alertBox();
  const status = h("p", { id: "export-status", role: "status" });
  const slot = h("p", { id: "export-link" });
  const start = h("button", { type: "button", id: "export-start" }, "Export my data");

  async function poll(id) {
    if (stopped()) return;
    let job;
    try {
      job = await api.get(`/me/export/${encodeURIComponent(id)}/`);
    } catch (error) {
      start.disabled = false;
      status.textContent = "";
      ctx.showError(err, error);
      return;
    }
    if (stopped()) return;
    show(job);
    if (job.status === "pending" || job.status === "running") later(() => poll(id), POLL_MS);
    else if (job.status === "done") await offer(job);
    else start.disabled = false;
  }

  function show(job) {
    status.dataset.status = job.status;
    status.textContent = EXPORT_WORDS[job.status] || job.status;
  }

  async function offer(job) {
    let doc;
    try {
      doc = await api.get(`/me/export/${encodeURIComponent(job.id)}/download/`);
    } catch (error) {
      ctx.showError(err, error);
      start.disabled = false;
      return;
    }
    const blob = new Blob([JSON.stringify(doc, null, 2)], { type: "application/json" });
    const url = URL.createObjectURL(blob);
    urls.push(url);
    const kb = Math.max(1, Math.round(blob.size / 1024));
    clear(
      slot,
      h("a", { class: "button primary", id: "export-download", href: url, download: `fibserver-export-${job.id}.json` }, `Download your data (JSON, ${kb} KB)`),
      job.truncated ? h("span", { class: "muted small" }, " Too large to hold every match: the oldest are left out.") : null,
    );
    status.textContent = "Ready: your data is below as one JSON document.";
    start.disabled = false;
  }

  start.addEventListener("click", async () => {
    err.hidden = true;
    clear(slot);
    start.disabled = true;
    status.dataset.status = "starting";
    status.textContent = "Starting…";
    try {
      const job = await api.post("/me/export/", {});
      show(job);
      if (job.status === "done") await offer(job);
      else later(() => poll(job.id), POLL_MS / 4);
    } catch (error) {
      start.disabled = false;
      status.textContent = "";
      ctx.showError(err, error);
    }
  });

  return h(
    "section",
    { class: "card-panel", id: "account-export", "aria-labelledby": "export-heading" },
    h("h2", { id: "export-heading" }, "Export your data"),
    h("p", { class: "muted" }, "One JSON document with everything this server holds about you: your profile, matches as your seats saw them, statistics, ratings, notifications and matchmaking. It is kept 7 days."),
    err,
    h("p", {}, start),
    status,
    slot,
  );
}

// --- vacation -------------------------------------------------------------------------------

// GET, POST {days} and DELETE /api/me/vacation/ (docs/notifications.md): while it runs the
// player's clocks in async matches wait, no bot plays for them, and the other players see it.
function vacationPanel(ctx) {
  const { api } = ctx;
  const err = ctx.alertBox();
  const status = h("p", { id: "vacation-status", role: "status" });
  const controls = h("div", { class: "vacation-controls" });
  const panel = h(
    "section",
    { class: "card-panel", id: "account-vacation", "aria-labelledby": "vacation-heading" },
    h("h2", { id: "vacation-heading" }, "Vacation"),
    h("p", { class: "muted" }, "Away for a while? Your clocks in turn-by-turn (async) matches wait, no bot plays for you, and the other players see that you are on vacation. Live matches are not paused."),
    err,
    status,
    controls,
  );

  function show(v) {
    status.dataset.onVacation = String(v.on_vacation);
    const left = `${v.days_left} of ${v.days_per_year} vacation days left this year.`;
    if (v.on_vacation) {
      clear(status, "You are on vacation until ", when(v.vacation.ends_at), ". ", left);
      const end = h("button", { type: "button", id: "vacation-end" }, "End my vacation now");
      end.addEventListener("click", () => change("DELETE", undefined, end));
      clear(controls, end);
      return;
    }
    clear(status, "You are not on vacation. ", left);
    const days = field("vacation-days", "Days", { type: "number", min: 1, max: Math.max(1, v.days_left), step: 1, value: Math.min(7, Math.max(1, v.days_left)), required: true });
    const start = h("button", { type: "submit", class: "primary", id: "vacation-start", disabled: v.days_left < 1 }, "Go on vacation");
    clear(
      controls,
      h(
        "form",
        {
          id: "vacation-form",
          onsubmit: (event) => {
            event.preventDefault();
            days.show([]);
            change("POST", { days: Number(days.input.value) }, start, days);
          },
        },
        days.nodes,
        start,
      ),
    );
  }

  async function change(method, body, button, days = null) {
    err.hidden = true;
    button.disabled = true;
    try {
      show(await api.request(method, "/me/vacation/", { body }));
    } catch (error) {
      button.disabled = false;
      days?.show(fieldMessages(error, "days"));
      ctx.showError(err, error instanceof ApiError ? new Error(error.message) : error);
    }
  }

  (async () => {
    try {
      show(await api.get("/me/vacation/"));
    } catch (error) {
      ctx.showError(err, error);
    }
  })();
  return panel;
}

// --- sessions -------------------------------------------------------------------------------

// Shown once GET /api/me/sessions/ answers.
function sessionsPanel(ctx) {
  const { api } = ctx;
  const err = ctx.alertBox();
  const list = h("ul", { class: "plain sessions", id: "sessions-list" });
  const panel = h(
    "section",
    { class: "card-panel", id: "account-sessions", "aria-labelledby": "sessions-heading", hidden: true },
    h("h2", { id: "sessions-heading" }, "Where you are signed in"),
    err,
    list,
  );

  function row(s) {
    const item = h(
      "li",
      { "data-session": s.id, class: s.current ? "current" : null },
      h("strong", {}, s.label || "A device"),
      s.current ? h("span", { class: "tag go" }, "this device") : null,
      h(
        "span",
        { class: "muted small session-meta" },
        " · ",
        ["last used ", when(s.last_used)],
        s.client_address ? [" · from ", h("span", { class: "session-address" }, s.client_address)] : null,
        s.created ? [" · signed in ", when(s.created)] : null,
      ),
    );
    if (!s.current) {
      const out = h("button", { type: "button", class: "session-revoke", "aria-label": `Sign out ${s.label || "this device"}` }, "Sign out");
      out.addEventListener("click", async () => {
        err.hidden = true;
        out.disabled = true;
        try {
          await api.request("DELETE", `/me/sessions/${encodeURIComponent(s.id)}/`);
          item.remove();
          if (!list.children.length) list.appendChild(h("li", { class: "muted" }, "No other sessions."));
        } catch (error) {
          out.disabled = false;
          ctx.showError(err, error);
        }
      });
      item.append(" ", out);
    }
    return item;
  }

  (async () => {
    let page;
    try {
      page = await api.get("/me/sessions/");
    } catch (error) {
      panel.hidden = false;
      ctx.showError(err, error);
      return;
    }
    clear(list, (page.results || []).map(row));
    if (!list.children.length) list.appendChild(h("li", { class: "muted" }, "No sessions."));
    panel.hidden = false;
  })();
  return panel;
}

// --- delete the account ---------------------------------------------------------------------

function deletePanel(ctx) {
  const { api } = ctx;
  const guest = api.user.is_guest;
  const err = ctx.alertBox();
  const password = guest ? null : field("delete-password", "Your password", { type: "password", required: true, autocomplete: "current-password" });
  const confirmBox = field("delete-confirm", `Type “${CONFIRM_WORD}” to confirm`, { type: "text", required: true, autocomplete: "off", spellcheck: "false" });
  const submit = h("button", { type: "submit", class: "danger", id: "delete-submit", disabled: true }, "Delete my account for good");
  const armed = () => confirmBox.input.value.trim().toLowerCase() === CONFIRM_WORD;
  confirmBox.input.addEventListener("input", () => {
    submit.disabled = !armed();
  });
  const form = h(
    "form",
    {
      class: "card-panel danger-zone",
      id: "delete-form",
      "aria-labelledby": "delete-heading",
      onsubmit: async (event) => {
        event.preventDefault();
        err.hidden = true;
        if (!armed()) {
          confirmBox.show([`Type “${CONFIRM_WORD}” first.`]);
          confirmBox.input.focus();
          return;
        }
        confirmBox.show([]);
        password?.show([]);
        submit.disabled = true;
        try {
          await api.deleteMe(guest ? { token: api.token } : { password: password.input.value });
        } catch (error) {
          submit.disabled = !armed();
          if (password) {
            const own = fieldMessages(error, "password");
            password.show(own.length ? own : error instanceof ApiError && error.code === "invalid_credentials" ? [error.message] : []);
            password.input.focus();
          }
          ctx.showError(err, error instanceof ApiError ? new Error(error.message) : error);
          return;
        }
        ctx.renderWho();
        ctx.navigate("#/");
      },
    },
    h("h2", { id: "delete-heading" }, "Delete your account"),
    h(
      "p",
      {},
      "This cannot be undone. You are signed out everywhere, your name is replaced by an anonymous label in every match, ",
      "your statistics and ratings are deleted, and matches you are playing go on with a bot in your seat.",
      guest ? " A guest account confirms with this browser's sign-in, so no password is asked." : null,
    ),
    err,
    password ? password.nodes : null,
    confirmBox.nodes,
    submit,
  );
  return form;
}
