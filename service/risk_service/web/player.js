// The signed-in player (docs/players.md): one player token in the browser's storage, issued by
// the service (IssuePlayerToken, where it issues its own) or pasted (a token from the
// deployment's identity provider). The token is a JWT: the page reads its `sub` and `exp` to
// say who is signed in and until when, and verifies nothing; the service verifies every call.

import { call } from "./api.js";

const KEY = "risk.player.v1";
const listeners = new Set();

function claims(token) {
  const parts = String(token).trim().split(".");
  if (parts.length !== 3) throw new Error("that is not a player token (a JWT: three parts joined by dots)");
  let decoded;
  try {
    const padded = parts[1].replace(/-/g, "+").replace(/_/g, "/") +
      "=".repeat((4 - (parts[1].length % 4)) % 4);
    decoded = JSON.parse(atob(padded));
  } catch {
    throw new Error("that token's claims cannot be read");
  }
  if (typeof decoded?.sub !== "string" || !decoded.sub) throw new Error("that token names no player");
  return decoded;
}

export const player = {
  // {playerId, token, expiresAtMs} or null
  get() {
    try {
      const entry = JSON.parse(localStorage.getItem(KEY) || "null");
      return entry?.token ? entry : null;
    } catch { return null; }
  },
  set(entry) {
    localStorage.setItem(KEY, JSON.stringify(entry));
    for (const listener of listeners) listener(entry);
  },
  clear() {
    localStorage.removeItem(KEY);
    for (const listener of listeners) listener(null);
  },
  token() { return this.get()?.token || ""; },
  onChange(listener) { listeners.add(listener); },
};

// A player issued by the service: a new one, or a fresh token for the one signed in.
export async function signInAsNew() {
  const reply = await call("IssuePlayerToken", {});
  const entry = { playerId: reply.playerId, token: reply.token,
    expiresAtMs: Number(reply.expiresAtMs || 0) };
  player.set(entry);
  return entry;
}

// A token pasted by the user (their identity provider's): checked by the service (a call that
// verifies it) before it is kept.
export async function signInWithToken(token) {
  const stated = claims(token);
  await call("ListInvitations", {}, token.trim());
  const entry = { playerId: stated.sub, token: token.trim(),
    expiresAtMs: Number(stated.exp || 0) * 1000 };
  player.set(entry);
  return entry;
}

// "in 23 h", "in 2 days 3 h", "5 min ago"
export function fromNow(atMs, nowMs = Date.now()) {
  const delta = Math.round((atMs - nowMs) / 1000);
  let rest = Math.abs(delta);
  const days = Math.floor(rest / 86400); rest -= days * 86400;
  const hours = Math.floor(rest / 3600); rest -= hours * 3600;
  const minutes = Math.floor(rest / 60);
  const words = days ? `${days} day${days === 1 ? "" : "s"}${hours ? ` ${hours} h` : ""}`
    : hours ? `${hours} h${minutes ? ` ${minutes} min` : ""}`
      : minutes ? `${minutes} min` : "under a minute";
  return delta >= 0 ? `in ${words}` : `${words} ago`;
}

// "Mon 2 Jun, 14:00 (in 23 h)": the user's local time
export function when(atMs) {
  const date = new Date(atMs).toLocaleString(undefined, { weekday: "short", day: "numeric",
    month: "short", hour: "2-digit", minute: "2-digit" });
  return `${date} (${fromNow(atMs)})`;
}
