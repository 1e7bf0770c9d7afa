// The public API, and nothing else: REST under /api/ and the long-poll events feed.
// The token lives in localStorage; every request carries it as a Bearer token.

const TOKEN_KEY = "fibserver.token";

export class ApiError extends Error {
  constructor(status, error) {
    super(error?.message || `HTTP ${status}`);
    this.status = status;
    this.code = error?.code || "http";
    this.error = error || {};
  }
}

// The server could not be reached (no answer, or a gateway's "bad gateway" page instead of the
// API's JSON): the request may or may not have arrived. A retry with the same Idempotency-Key
// applies an action at most once, so an action can be sent again safely.
export class OfflineError extends Error {
  constructor(cause) {
    super("The server cannot be reached right now.");
    this.code = "offline";
    this.cause = cause;
  }
}

export function newKey() {
  if (globalThis.crypto?.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// The name of this browser's sessions on the account page ("Web · Chrome on Linux"): sent as
// `device` with every sign-in, instead of the long User-Agent the server would use.
export function deviceLabel(ua = navigator.userAgent, data = navigator.userAgentData) {
  const brands = (data?.brands || []).map((b) => b.brand);
  const browser =
    [
      [/Edg\//, "Edge"],
      [/OPR\/|Opera/, "Opera"],
      [/Firefox\//, "Firefox"],
      [/Chrom(e|ium)\/|CriOS\//, "Chrome"],
      [/Safari\//, "Safari"],
    ].find(([re, name]) => re.test(ua) || brands.includes(name))?.[1] || "a browser";
  const system =
    [
      [/Android/, "Android"],
      [/iPhone|iPad|iPod/, "iOS"],
      [/CrOS/, "ChromeOS"],
      [/Windows/, "Windows"],
      [/Mac OS X|Macintosh/, "macOS"],
      [/Linux|X11/, "Linux"],
    ].find(([re]) => re.test(ua))?.[1] ||
    data?.platform ||
    "";
  return `Web · ${browser}${system ? ` on ${system}` : ""}`.slice(0, 100);
}

export const api = {
  token: localStorage.getItem(TOKEN_KEY),
  user: null,
  etags: new Map(), // path -> [etag, body]: GET /api/matches/{id}/ answers 304 while unchanged

  setToken(token) {
    this.token = token;
    if (token) localStorage.setItem(TOKEN_KEY, token);
    else localStorage.removeItem(TOKEN_KEY);
  },

  async request(method, path, { body, signal, key, cache = false } = {}) {
    const headers = { Accept: "application/json" };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (key) headers["Idempotency-Key"] = key;
    const init = { method, headers, signal };
    if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const cached = cache ? this.etags.get(path) : undefined;
    if (cached) headers["If-None-Match"] = cached[0];
    let response;
    try {
      response = await fetch(`/api${path}`, init);
    } catch (error) {
      if (error.name === "AbortError") throw error;
      throw new OfflineError(error);
    }
    if (response.status === 304 && cached) return cached[1];
    if (response.status === 204) return null;
    let data = null;
    try {
      data = await response.json();
    } catch {
      data = null;
    }
    if (!response.ok && !data?.error && [502, 503, 504].includes(response.status)) throw new OfflineError(response.status);
    if (!response.ok) throw new ApiError(response.status, data?.error);
    if (cache && response.headers.get("ETag")) {
      this.etags.set(path, [response.headers.get("ETag"), data]);
    }
    return data;
  },

  get(path, options) {
    return this.request("GET", path, options);
  },
  post(path, body = {}, options = {}) {
    return this.request("POST", path, { ...options, body });
  },

  // --- accounts
  async guest(displayName) {
    const out = await this.post("/auth/guest/", { display_name: displayName, device: deviceLabel() });
    this.setToken(out.token);
    this.user = out.user;
    return out.user;
  },
  async login(username, password) {
    const out = await this.post("/auth/login/", { username, password, device: deviceLabel() });
    this.setToken(out.token);
    this.user = out.user;
    return out.user;
  },
  async upgrade(username, password) {
    const out = await this.post("/auth/upgrade/", { username, password });
    this.setToken(out.token);
    this.user = out.user;
    return out.user;
  },
  async logout() {
    try {
      await this.post("/auth/logout/");
    } finally {
      this.setToken(null);
      this.user = null;
    }
  },
  // The answer carries a new token (the old one is revoked on every device): keep it, so this
  // browser stays signed in.
  async changePassword(currentPassword, newPassword) {
    const out = await this.post("/me/password/", { current_password: currentPassword, new_password: newPassword });
    this.setToken(out.token);
    this.user = out.user;
    return out.user;
  },
  // `confirm`: { password } for a registered account, { token } (its own) for a guest.
  async deleteMe(confirm) {
    await this.request("DELETE", "/me/", { body: confirm });
    this.setToken(null);
    this.user = null;
    this.etags.clear();
  },
  async me() {
    if (!this.token) return null;
    try {
      this.user = await this.get("/me/");
    } catch (error) {
      if (error.status === 401) this.setToken(null);
      else throw error;
      this.user = null;
    }
    return this.user;
  },

  // --- matches
  match(id, seat, signal) {
    const query = seat === null || seat === undefined ? "" : `?seat=${seat}`;
    return this.get(`/matches/${id}/${query}`, { signal, cache: true });
  },
  events(id, after, { wait = 0, seat, signal } = {}) {
    const params = new URLSearchParams({ after: String(after) });
    if (wait) params.set("wait", String(wait));
    if (seat !== null && seat !== undefined) params.set("seat", String(seat));
    return this.get(`/matches/${id}/events/?${params}`, { signal });
  },
  // One decision, on the version it was made on. `key` (Idempotency-Key) is the same for a
  // resend of the same request after a lost connection, so it never applies twice.
  act(id, action, version, seat, key = newKey()) {
    const query = seat === null || seat === undefined ? "" : `?seat=${seat}`;
    return this.post(`/matches/${id}/actions/${query}`, { ...action, expected_version: version }, { key });
  },
};
