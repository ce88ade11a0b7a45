/**
 * StreamEvents and Session over the HTTP port's WebSocket (docs/api.md, "WebSocket"), for a
 * `RiskClient` given `webSocketUrl`. The socket carries the gRPC calls' own protobuf messages,
 * one per binary message; a call ends with close code 1000, or with one text message (the
 * error in Connect's JSON form, with the same google.rpc.ErrorInfo) and close code 4000 + the
 * gRPC status code. This module only translates that wire into what the gRPC path gives the
 * client: the same messages as async iterables, and the same `RiskError`s. The framing is the
 * `ws` package's (Node 20 has no global WebSocket; Node 22's would do the same job).
 */
import { create, fromBinary, type MessageInitShape, toBinary } from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import WebSocket from "ws";

import { RiskError, statusName } from "./errors.js";
import { ErrorInfoSchema } from "./gen/google/rpc/error_info_pb.js";
import {
  StreamEventsRequestSchema,
  type StreamEventsResponse,
  StreamEventsResponseSchema,
} from "./gen/risk/v1/service_pb.js";
import {
  type SessionResponse,
  SessionRequestSchema,
  SessionResponseSchema,
} from "./gen/risk/v1/session_pb.js";

const SERVICE = "/risk.v1.RiskService/";
const SUBPROTOCOL = "risk.v1";
/** Close codes 4000-4016: 4000 + the call's gRPC status code. */
const STATUS_BASE = 4000;
/** The largest message taken from the service: a batch of events, a reply with many. */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
// Connect's code names, by gRPC status number
const CODE_NAMES = ["ok", "canceled", "unknown", "invalid_argument", "deadline_exceeded",
  "not_found", "already_exists", "permission_denied", "resource_exhausted",
  "failed_precondition", "aborted", "out_of_range", "unimplemented", "internal", "unavailable",
  "data_loss", "unauthenticated"];

/** The socket's URL for `method` on the HTTP port at `url` (ws(s):// or http(s)://). */
export function endpoint(url: string, method: string): string {
  const base = url.replace(/\/+$/, "").replace(/^http(s?):\/\//, "ws$1://");
  if (!/^wss?:\/\//.test(base)) {
    throw new TypeError(`a WebSocket URL starts with ws:// or wss://, not ${url}`);
  }
  return base + SERVICE + method;
}

function error(code: Code, reason: string, metadata: Record<string, string>, text: string
): RiskError {
  const label = reason ? `${statusName(code)} ${reason}` : statusName(code);
  return new RiskError(code, reason, metadata, `${label}: ${metadata["message"] ?? text}`);
}

/** The RiskError of a Connect error JSON (the text message before a 4000+ close). */
export function errorFromJson(text: string): RiskError | undefined {
  let body: { code?: unknown; message?: unknown; details?: unknown };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return undefined;
  }
  if (typeof body.code !== "string") {
    return undefined;
  }
  const number = CODE_NAMES.indexOf(body.code);
  let reason = "";
  let metadata: Record<string, string> = {};
  for (const detail of Array.isArray(body.details) ? body.details as unknown[] : []) {
    const { type, value } = (detail ?? {}) as { type?: unknown; value?: unknown };
    if (type === "google.rpc.ErrorInfo" && typeof value === "string") {
      const info = fromBinary(ErrorInfoSchema, Buffer.from(value, "base64"));
      reason = info.reason;
      metadata = info.metadata;
    }
  }
  return error(number < 0 ? Code.Unknown : number as Code, reason, metadata,
    typeof body.message === "string" ? body.message : body.code);
}

/** What a close means for the call: undefined for a clean end (1000), else its error. */
function closedError(code: number, reason: string, told: RiskError | undefined
): RiskError | undefined {
  if (code === 1000) {
    return undefined;
  }
  if (told !== undefined) {
    return told;
  }
  if (code >= STATUS_BASE && code <= STATUS_BASE + 16) {
    return error((code - STATUS_BASE) as Code, reason, {}, reason);
  }
  if (code === 1006) { // no close frame: the connection dropped (a restart, the network)
    return error(Code.Unavailable, "", {}, "the WebSocket connection was lost");
  }
  if (code === 1001) {
    return error(Code.Unavailable, "", {}, "the service is stopping");
  }
  return error(Code.Internal, "", {}, `the WebSocket closed ${code} ${reason}`.trim());
}

/**
 * One call on its own socket: `send` writes a message once the socket is open, `messages()`
 * yields each binary message and then returns (a clean end) or throws the call's RiskError.
 */
class SocketCall {
  readonly #socket: WebSocket;
  readonly #opened: Promise<void>;
  readonly #inbox: Uint8Array[] = [];
  #wake: (() => void) | undefined;
  #told: RiskError | undefined;
  #refused: RiskError | undefined;
  #closed: { code: number; reason: string } | undefined;

  constructor(url: string, token: string | undefined) {
    this.#socket = new WebSocket(url, [SUBPROTOCOL], {
      headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
      perMessageDeflate: false,
      maxPayload: MAX_MESSAGE_BYTES,
    });
    this.#opened = new Promise((resolve, reject) => {
      this.#socket.once("open", () => resolve());
      this.#socket.once("close", () => reject(this.#failure()));
    });
    this.#opened.catch(() => {}); // a socket that never opens fails `send` and `messages`
    this.#socket.on("message", (data, binary) => {
      const bytes = data instanceof Buffer ? data
        : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(new Uint8Array(data));
      if (binary) {
        this.#inbox.push(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      } else {
        this.#told = errorFromJson(bytes.toString("utf8"));
      }
      this.#wake?.();
    });
    // the upgrade answered with an HTTP status: the service's error JSON, when it sent one
    this.#socket.on("unexpected-response", (_request, response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        this.#refused = errorFromJson(Buffer.concat(chunks).toString("utf8"))
          ?? error(Code.Unavailable, "", {},
            `the WebSocket upgrade was answered HTTP ${response.statusCode ?? 0}`);
        this.#socket.terminate();
      });
    });
    this.#socket.on("error", (cause) => {
      this.#refused ??= error(Code.Unavailable, "", {}, `cannot reach the service: ${cause.message}`);
    });
    this.#socket.on("close", (code, reason) => {
      this.#closed = { code, reason: reason.toString("utf8") };
      this.#wake?.();
    });
  }

  #failure(): RiskError {
    return this.#refused ?? (this.#closed === undefined ? undefined
      : closedError(this.#closed.code, this.#closed.reason, this.#told))
      ?? error(Code.Unavailable, "", {}, "the WebSocket was closed");
  }

  async send(data: Uint8Array): Promise<void> {
    await this.#opened;
    if (this.#socket.readyState !== WebSocket.OPEN) {
      throw this.#failure();
    }
    this.#socket.send(data);
  }

  async *messages(): AsyncGenerator<Uint8Array> {
    for (;;) {
      const next = this.#inbox.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (this.#closed !== undefined) {
        if (this.#refused !== undefined) {
          throw this.#refused;
        }
        const failure = closedError(this.#closed.code, this.#closed.reason, this.#told);
        if (failure !== undefined) {
          throw failure;
        }
        return;
      }
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
      this.#wake = undefined;
    }
  }

  /** The client is done (a WebSocket has no half-close): close 1000, the call ends. */
  close(): void {
    if (this.#socket.readyState === WebSocket.CONNECTING) {
      this.#socket.terminate();
    } else if (this.#socket.readyState === WebSocket.OPEN) {
      this.#socket.close(1000);
    }
  }
}

type SessionRequestInit = MessageInitShape<typeof SessionRequestSchema>;

/**
 * A Session over a WebSocket, shaped as `GameSession` opens a gRPC one: the requests it is
 * given go out one message each; the replies come back as SessionResponse. When the requests
 * end (the session's `close`), the socket closes once every action sent has its answer.
 */
export function sessionOverWebSocket(url: string, token: string | undefined
): (requests: AsyncIterable<SessionRequestInit>) => AsyncIterable<SessionResponse> {
  return (requests) => (async function* () {
    const socket = new SocketCall(endpoint(url, "Session"), token);
    let sent = 0;
    let answered = 0;
    let ended = false;
    void (async () => {
      for await (const request of requests) {
        await socket.send(toBinary(SessionRequestSchema, create(SessionRequestSchema, request)));
        if (request.kind?.case !== "open") {
          sent++;
        }
      }
      ended = true;
      if (answered >= sent) {
        socket.close();
      }
    })().catch(() => socket.close()); // a failed write shows as the call's end, read below
    try {
      for await (const data of socket.messages()) {
        const reply = fromBinary(SessionResponseSchema, data);
        if (reply.kind.case === "ack" || reply.kind.case === "error") {
          answered++;
        }
        yield reply;
        if (ended && answered >= sent) {
          socket.close();
        }
      }
    } finally {
      socket.close();
    }
  })();
}

/** A StreamEvents over a WebSocket: the request first, then its replies until it ends. */
export async function* streamOverWebSocket(url: string, token: string | undefined,
  request: MessageInitShape<typeof StreamEventsRequestSchema>, signal?: AbortSignal
): AsyncGenerator<StreamEventsResponse> {
  const socket = new SocketCall(endpoint(url, "StreamEvents"), token);
  const stop = () => socket.close();
  signal?.addEventListener("abort", stop);
  try {
    await socket.send(toBinary(StreamEventsRequestSchema,
      create(StreamEventsRequestSchema, request)));
    for await (const data of socket.messages()) {
      yield fromBinary(StreamEventsResponseSchema, data);
    }
  } finally {
    signal?.removeEventListener("abort", stop);
    socket.close();
  }
}
