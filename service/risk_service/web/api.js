// The service over the HTTP port. Unary calls use gRPC-Web with the JSON codec: its replies
// are HTTP 200 with the status in a trailer frame, so a refused move is an answer and not a
// failed load (Chromium logs every non-2xx fetch as a console error, and Connect's unary
// protocol answers refusals with 4xx). The live streams (StreamEvents, and a seat's Session)
// are WebSockets (`openSocket`): binary protobuf, encoded and decoded by protobuf.js (the
// bundle of @bufbuild/protobuf that clients/node/scripts/bundle-web.sh builds) into the same
// JSON the other calls use; where the browser has no WebSocket, StreamEvents falls back to
// Connect's streaming protocol (`stream`), which carries its error in-band, in the
// end-of-stream frame. Errors become ApiError with the service's reason from the
// google.rpc.ErrorInfo detail, so views can say what went wrong in words. 64-bit fields
// travel as strings and stay strings.

import { streamReply, streamRequest } from "./protobuf.js";
import { Renderer } from "./text.js";

const SERVICE = "/risk.v1.RiskService/";

export class ApiError extends Error {
  constructor(code, message, reason = "", metadata = {}) {
    super(message);
    this.code = code; // Connect's code name: "failed_precondition", "aborted", "unavailable", ...
    this.reason = reason; // the service's reason: "NOT_YOUR_TURN", "STALE_VERSION", ...
    this.metadata = metadata;
  }
}

// gRPC's status numbers by Connect's code names
const CODES = ["ok", "canceled", "unknown", "invalid_argument", "deadline_exceeded", "not_found",
  "already_exists", "permission_denied", "resource_exhausted", "failed_precondition", "aborted",
  "out_of_range", "unimplemented", "internal", "unavailable", "data_loss", "unauthenticated"];

// google.rpc.Status (code 1, message 2, details 3 as Any: type_url 1, value 2) and ErrorInfo
// (reason 1, domain 2, metadata 3: map<string,string>) hold only varints, strings and nested
// messages, so a few lines decode them without a protobuf library.
function readVarint(bytes, at) {
  let value = 0, shift = 0, byte;
  do { byte = bytes[at++]; value += (byte & 0x7f) * 2 ** shift; shift += 7; } while (byte & 0x80);
  return [value, at];
}

function fields(bytes) {
  const out = [];
  let at = 0;
  while (at < bytes.length) {
    let key, size;
    [key, at] = readVarint(bytes, at);
    if ((key & 7) !== 2) { [, at] = readVarint(bytes, at); continue; }
    [size, at] = readVarint(bytes, at);
    out.push([key >>> 3, bytes.subarray(at, at + size)]);
    at += size;
  }
  return out;
}

const text = new TextDecoder();

function base64Bytes(value) {
  const padded = value.replace(/-/g, "+").replace(/_/g, "/") +
    "=".repeat((4 - (value.length % 4)) % 4);
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

function errorInfo(bytes) {
  let reason = "";
  const metadata = {};
  for (const [number, value] of fields(bytes)) {
    if (number === 1) reason = text.decode(value);
    if (number === 3) {
      const entry = Object.fromEntries(fields(value).map(([n, v]) => [n, text.decode(v)]));
      metadata[entry[1] ?? ""] = entry[2] ?? "";
    }
  }
  return { reason, metadata };
}

const INFO = "type.googleapis.com/google.rpc.ErrorInfo";

// a Connect error's JSON ({code, message, details: [{type, value}]})
function fromConnect(error) {
  const detail = (error.details || []).find((d) => d.type === "google.rpc.ErrorInfo");
  const { reason, metadata } = detail ? errorInfo(base64Bytes(detail.value))
    : { reason: "", metadata: {} };
  return new ApiError(error.code || "unknown", error.message || error.code || "error",
    reason, metadata);
}

// gRPC-Web trailers ("grpc-status: 9\r\ngrpc-message: ...\r\n...")
function fromTrailers(trailers) {
  const code = Number(trailers["grpc-status"] ?? 2);
  let message = decodeURIComponent(trailers["grpc-message"] || "");
  let found = { reason: "", metadata: {} };
  if (trailers["grpc-status-details-bin"]) {
    for (const [number, value] of fields(base64Bytes(trailers["grpc-status-details-bin"]))) {
      if (number === 2 && !message) message = text.decode(value);
      if (number !== 3) continue;
      const any = Object.fromEntries(fields(value));
      if (any[1] && text.decode(any[1]) === INFO) found = errorInfo(any[2] || new Uint8Array());
    }
  }
  return new ApiError(CODES[code] || "unknown", message || CODES[code] || "error",
    found.reason, found.metadata);
}

// a serialised google.rpc.Status (a session's refused action), as the unary call's ApiError
export function fromStatus(bytes) {
  let code = 2, message = "", found = { reason: "", metadata: {} };
  let at = 0;
  while (at < bytes.length) {
    let key, size;
    [key, at] = readVarint(bytes, at);
    if ((key & 7) === 0) {
      let value;
      [value, at] = readVarint(bytes, at);
      if (key >>> 3 === 1) code = value;
      continue;
    }
    if ((key & 7) !== 2) break; // a Status holds varints and length-delimited fields only
    [size, at] = readVarint(bytes, at);
    const value = bytes.subarray(at, at + size);
    at += size;
    if (key >>> 3 === 2) message = text.decode(value);
    if (key >>> 3 === 3) {
      const any = Object.fromEntries(fields(value));
      if (any[1] && text.decode(any[1]) === INFO) found = errorInfo(any[2] || new Uint8Array());
    }
  }
  return new ApiError(CODES[code] || "unknown", message || CODES[code] || "error",
    found.reason, found.metadata);
}

function lostConnection(cause) {
  return new ApiError("unavailable", "cannot reach the service (" + (cause?.message || cause)
    + ")", "CONNECTION_LOST");
}

function envelope(message) {
  const data = new TextEncoder().encode(JSON.stringify(message));
  const out = new Uint8Array(5 + data.length);
  new DataView(out.buffer).setUint32(1, data.length);
  out.set(data, 5);
  return out;
}

// Reads a framed body, calling onFrame(flags, bytes) per frame; false from onFrame stops.
async function readFrames(reply, signal, onFrame) {
  const reader = reply.body.getReader();
  let buffer = new Uint8Array(0);
  for (;;) {
    let chunk;
    try {
      chunk = await reader.read();
    } catch (cause) {
      if (signal?.aborted) return true;
      throw lostConnection(cause);
    }
    if (chunk.done) return false;
    const joined = new Uint8Array(buffer.length + chunk.value.length);
    joined.set(buffer);
    joined.set(chunk.value, buffer.length);
    buffer = joined;
    while (buffer.length >= 5) {
      const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
      const flags = view.getUint8(0), size = view.getUint32(1);
      if (buffer.length < 5 + size) break;
      const frame = buffer.slice(5, 5 + size);
      buffer = buffer.slice(5 + size);
      if (onFrame(flags, frame) === false) {
        reader.cancel().catch(() => {});
        return true;
      }
    }
  }
}

async function post(method, contentType, request, token, signal) {
  const headers = { "Content-Type": contentType };
  if (contentType.startsWith("application/grpc-web")) headers["X-Grpc-Web"] = "1";
  else headers["Connect-Protocol-Version"] = "1";
  if (token) headers.Authorization = "Bearer " + token;
  try {
    return await fetch(SERVICE + method, { method: "POST", headers, body: envelope(request),
      signal });
  } catch (cause) {
    if (signal?.aborted) return null;
    throw lostConnection(cause);
  }
}

export async function call(method, request = {}, token = "") {
  const reply = await post(method, "application/grpc-web+json", request, token);
  if (!reply.ok) {
    throw new ApiError("unavailable", `the service answered HTTP ${reply.status}`,
      "CONNECTION_LOST");
  }
  let message = null, trailers = null;
  if (reply.headers.get("grpc-status")) { // trailers-only: the status came as headers
    trailers = Object.fromEntries(reply.headers.entries());
  } else {
    await readFrames(reply, null, (flags, frame) => {
      if (flags & 0x80) {
        trailers = Object.fromEntries(text.decode(frame).split("\r\n").filter(Boolean)
          .map((line) => { const at = line.indexOf(":");
            return [line.slice(0, at).trim().toLowerCase(), line.slice(at + 1).trim()]; }));
        return false;
      }
      message = JSON.parse(text.decode(frame) || "{}");
      return true;
    });
  }
  if (!trailers) throw lostConnection("the reply was cut");
  if (trailers["grpc-status"] !== "0") throw fromTrailers(trailers);
  return message || {};
}

// Calls onMessage(message) for every message of a server stream (Connect's protocol);
// resolves when the stream ends cleanly or `signal` aborts it, rejects with ApiError when it
// ends with an error or the connection drops.
export async function stream(method, request, onMessage,
  { token = "", signal, onOpen = () => {} } = {}) {
  const reply = await post(method, "application/connect+json", request, token, signal);
  if (reply === null) return;
  if (!reply.ok) {
    throw new ApiError("unavailable", `the service answered HTTP ${reply.status}`,
      "CONNECTION_LOST");
  }
  onOpen();
  let failure = null, ended = false;
  const stopped = await readFrames(reply, signal, (flags, frame) => {
    const message = JSON.parse(text.decode(frame) || "{}");
    if (flags & 2) {
      ended = true;
      if (message.error) failure = fromConnect(message.error);
      return false;
    }
    onMessage(message);
    return true;
  });
  if (failure) throw failure;
  if (ended || (stopped && signal?.aborted) || signal?.aborted) return;
  // a stream that stops without its end frame was cut (a restart, a proxy, the network)
  throw lostConnection("the stream was cut");
}

// ---- WebSockets (docs/api.md, "WebSocket") ------------------------------------------------

// Opens `method`'s socket with the token as a subprotocol (a browser cannot set headers on a
// WebSocket). Each binary message goes to onMessage(bytes); the call's end to onEnd(error):
// null for a clean end (close 1000, or closed by `close()`), else an ApiError: the service's
// own (its text message before a close 4000 + gRPC code), or CONNECTION_LOST for a socket that
// dropped or never opened. Returns {send(bytes), close()}; send before the open is queued.
export function openSocket(method, token, { onOpen = () => {}, onMessage, onEnd }) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const protocols = ["risk.v1", ...(token ? ["bearer." + token] : [])];
  const socket = new WebSocket(`${scheme}//${location.host}${SERVICE}${method}`, protocols);
  socket.binaryType = "arraybuffer";
  let told = null, closing = false, opened = false;
  const queue = [];
  socket.onopen = () => {
    opened = true;
    for (const bytes of queue.splice(0)) socket.send(bytes);
    onOpen();
  };
  socket.onmessage = (message) => {
    if (typeof message.data === "string") { // the error, then the close that ends the call
      try { told = fromConnect(JSON.parse(message.data)); } catch { told = null; }
      return;
    }
    onMessage(new Uint8Array(message.data));
  };
  socket.onclose = (close) => {
    if (close.code === 1000 || closing) { onEnd(null); return; }
    if (told) { onEnd(told); return; }
    if (close.code >= 4000 && close.code <= 4016) {
      onEnd(new ApiError(CODES[close.code - 4000] || "unknown", close.reason || "refused",
        close.reason));
      return;
    }
    // 1006 (no close frame: a restart, the network), 1001 (the service stopping), ...
    onEnd(lostConnection(opened ? `the socket closed (${close.code})`
      : "the socket did not open"));
  };
  return {
    send(bytes) { if (opened) socket.send(bytes); else queue.push(bytes); },
    close() {
      closing = true;
      if (socket.readyState <= WebSocket.OPEN) socket.close(1000);
    },
  };
}

// StreamEvents over a WebSocket, with `stream`'s contract: onMessage(message) per reply (as
// JSON); resolves when the stream ends cleanly or `signal` aborts it, rejects with ApiError
// when it ends with an error or the connection drops.
export function socketStream(request, onMessage, { token = "", signal, onOpen = () => {} } = {}) {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const socket = openSocket("StreamEvents", token, {
      onOpen,
      onMessage: (bytes) => onMessage(streamReply(bytes)),
      onEnd: (error) => {
        signal?.removeEventListener("abort", stop);
        if (error) reject(error); else resolve();
      },
    });
    const stop = () => socket.close();
    signal?.addEventListener("abort", stop);
    socket.send(streamRequest(request));
  });
}

// Browser storage of seat and host tokens, one entry per game, so a reload keeps the seat.
const KEY = "risk.tokens.v1";

export const tokens = {
  all() {
    try { return JSON.parse(localStorage.getItem(KEY) || "{}"); } catch { return {}; }
  },
  of(gameId) { return this.all()[gameId] || {}; },
  save(gameId, entry) {
    const all = this.all();
    all[gameId] = { ...(all[gameId] || {}), ...entry };
    localStorage.setItem(KEY, JSON.stringify(all));
  },
};

// A readable sentence for an error, with what to do about it where there is something to do:
// the text table's words for its reason (text.js, docs/text.md), with the service's own detail
// after them unless that detail reads like code (an enum-style name).
export function explain(error) {
  if (!(error instanceof ApiError)) return String(error?.message || error);
  if (!error.reason) return error.message;
  const said = TEXT.error(error.reason, error.message);
  const detail = error.message && said !== error.message && !/[A-Z]{2,}_[A-Z_]+/.test(error.message)
    ? ` (${error.message})` : "";
  return said + detail;
}

const TEXT = new Renderer("en");
