// The notification inbox in the header: a button with the unread count, a panel with the
// latest notifications, a switch per channel (every kind on or off), and "Notify this browser",
// which asks for permission, registers the service worker (push-sw.js, beside this file) and
// subscribes with the server's VAPID key. Everything through the REST inbox under /api/me/.

import { h, clear } from "./dom.js";

const TITLES = {
  your_turn: "Your turn",
  match_started: "Your match has started",
  match_ended: "Your match has ended",
  deadline_reminder: "Time is running out for your move",
  takeover: "A bot took a decision for you",
  webhook_disabled: "A webhook of yours was disabled",
  challenged: "You have been challenged",
  rematch_offered: "A rematch is offered",
  round_starting: "Your tournament is about to start",
  followed_looking: "A player you follow is looking for a game",
};
const CHANNELS = { web_push: "Browser", mobile: "Phones", email: "Email", webhook: "Webhooks" };
const POLL_MS = 30000;

let timer = null;
let shownFor = null;
let refreshNow = null;

// The inbox of the signed-in user in the header's #inbox (nothing when signed out).
export function showInbox(api) {
  const place = document.getElementById("inbox");
  if (!place) return;
  const user = api.user ? api.user.id : null;
  if (user === shownFor) {
    if (refreshNow) refreshNow();
    return;
  }
  shownFor = user;
  refreshNow = null;
  if (timer) clearInterval(timer);
  timer = null;
  clear(place, user === null ? null : inboxButton(api));
}

function inboxButton(api) {
  const badge = h("span", { class: "badge", id: "inbox-unread", hidden: true });
  const panel = h("section", { id: "inbox-panel", class: "card-panel inbox", hidden: true, "aria-label": "Notifications" });
  const button = h(
    "button",
    { type: "button", class: "link", id: "inbox-button", "aria-expanded": "false", "aria-controls": "inbox-panel" },
    "Notifications ",
    badge,
  );

  async function refresh() {
    try {
      const page = await api.get("/me/notifications/?limit=20");
      showUnread(page.unread);
      if (!panel.hidden) await renderPanel(page);
    } catch {
      // offline or signed out: the badge stays as it was
    }
  }

  function showUnread(n) {
    badge.hidden = !n;
    badge.textContent = n > 99 ? "99+" : String(n);
    badge.setAttribute("aria-label", `${n} unread`);
  }

  async function renderPanel(page) {
    const prefs = await api.get("/me/notification-preferences/");
    const items = page.results.map((n) =>
      h(
        "li",
        { class: n.read_at ? "read" : "unread", "data-notification": n.id },
        n.match ? h("a", { href: `#/match/${n.match}` }, TITLES[n.kind] || n.kind) : TITLES[n.kind] || n.kind,
        " ",
        h("time", { datetime: n.created_at, class: "muted" }, new Date(n.created_at).toLocaleString()),
      ),
    );
    const switches = Object.entries(CHANNELS).map(([channel, label]) => {
      const kinds = prefs.channels[channel] || {};
      const on = Object.values(kinds).every(Boolean);
      const box = h("input", { type: "checkbox", id: `channel-${channel}`, checked: on });
      box.addEventListener("change", async () => {
        const changes = Object.keys(kinds).map((kind) => ({ channel, kind, on: box.checked }));
        await api.request("PATCH", "/me/notification-preferences/", { body: { channels: changes } });
      });
      return h("label", { class: "switch" }, box, " ", label);
    });
    clear(
      panel,
      h("h2", {}, "Notifications"),
      items.length ? h("ul", { class: "inbox-list" }, items) : h("p", { class: "muted" }, "Nothing yet."),
      h("button", { type: "button", id: "inbox-read-all", onclick: markAll }, "Mark all read"),
      h("fieldset", {}, h("legend", {}, "Send them to"), switches),
      pushControl(),
    );
  }

  async function markAll() {
    const out = await api.post("/me/notifications/read/", {});
    showUnread(out.unread);
    await refresh();
  }

  function pushControl() {
    const status = h("span", { class: "muted", id: "push-status", "aria-live": "polite" });
    const supported = "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
    const enable = h(
      "button",
      { type: "button", id: "push-enable", disabled: !supported },
      "Notify this browser",
    );
    if (!supported) status.textContent = "This browser cannot receive push notifications.";
    enable.addEventListener("click", async () => {
      try {
        status.textContent = await subscribe(api);
      } catch (error) {
        status.textContent = `Not subscribed: ${error.message}`;
      }
    });
    return h("p", {}, enable, " ", status);
  }

  button.addEventListener("click", async () => {
    panel.hidden = !panel.hidden;
    button.setAttribute("aria-expanded", String(!panel.hidden));
    await refresh();
  });
  timer = setInterval(refresh, POLL_MS);
  refreshNow = refresh;
  refresh();
  return h("span", { class: "inbox-wrap" }, button, panel);
}

function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

async function subscribe(api) {
  const permission = await Notification.requestPermission();
  if (permission !== "granted") return "Notifications are not allowed for this site.";
  const registration = await navigator.serviceWorker.register(new URL("./push-sw.js", import.meta.url));
  const { public_key: key } = await api.get("/push/vapid-key/");
  let sub = await registration.pushManager.getSubscription();
  if (!sub) {
    sub = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
  }
  await api.post("/me/push-subscriptions/", sub.toJSON());
  return "This browser will show your notifications.";
}
