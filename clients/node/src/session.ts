/**
 * `GameSession`: one seat's Session call on one game (docs/api.md, "Sessions"), on the same
 * connection as its `RiskClient`, or on a WebSocket of the HTTP port when the client was given
 * `webSocketUrl` (websocket.ts: the same messages, answers and errors). `submit` sends a move on the open stream and resolves with
 * the reply the unary `submitAction` gives (or throws the same `RiskError`); `events()` yields
 * the other events the seat may see, once and in seq order (its own moves' events are in the
 * replies). Unlike `streamEvents` it does not reopen itself: after a failure, open a new
 * session with `afterSeq: session.lastSeq` and resend a move whose reply was lost with the
 * same request id.
 */
import { randomUUID } from "node:crypto";

import { fromBinary, type MessageInitShape } from "@bufbuild/protobuf";
import { BinaryReader } from "@bufbuild/protobuf/wire";
import { Code } from "@connectrpc/connect";

import { RiskError, statusName } from "./errors.js";
import { ErrorInfoSchema } from "./gen/google/rpc/error_info_pb.js";
import type { ActionSchema, Event } from "./gen/risk/v1/game_pb.js";
import { type SubmitActionResponse, SubmitActionResponseSchema } from "./gen/risk/v1/service_pb.js";
import type { SessionRequestSchema, SessionResponse } from "./gen/risk/v1/session_pb.js";

/** A serialised google.rpc.Status (a session's refused action) as the unary call's RiskError. */
export function errorFromStatus(data: Uint8Array): RiskError {
  const reader = new BinaryReader(data);
  let code = Code.Unknown;
  let message = "";
  let metadata: Record<string, string> = {};
  let reason = "";
  while (reader.pos < reader.len) {
    const [field, wireType] = reader.tag();
    if (field === 1) {
      code = reader.int32() as Code;
    } else if (field === 2) {
      message = reader.string();
    } else if (field === 3) {
      const any = new BinaryReader(reader.bytes());
      let typeUrl = "";
      let value: Uint8Array = new Uint8Array();
      while (any.pos < any.len) {
        const [inner, innerType] = any.tag();
        if (inner === 1) {
          typeUrl = any.string();
        } else if (inner === 2) {
          value = any.bytes();
        } else {
          any.skip(innerType);
        }
      }
      if (typeUrl.endsWith("/google.rpc.ErrorInfo")) {
        const info = fromBinary(ErrorInfoSchema, value);
        reason = info.reason;
        metadata = info.metadata;
      }
    } else {
      reader.skip(wireType);
    }
  }
  const text = metadata["message"] ?? message;
  const label = reason ? `${statusName(code)} ${reason}` : statusName(code);
  return new RiskError(code, reason, metadata, `${label}: ${text}`);
}

interface Pending {
  resolve: (reply: SubmitActionResponse) => void;
  reject: (error: RiskError) => void;
}

/** Requests written to the call: an async iterable fed by `push`, ended by `end`. */
class Outbox implements AsyncIterable<MessageInitShape<typeof SessionRequestSchema>> {
  readonly #queue: MessageInitShape<typeof SessionRequestSchema>[] = [];
  #wake: (() => void) | undefined;
  #ended = false;

  push(request: MessageInitShape<typeof SessionRequestSchema>): void {
    this.#queue.push(request);
    this.#wake?.();
  }

  end(): void {
    this.#ended = true;
    this.#wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<MessageInitShape<typeof SessionRequestSchema>> {
    for (;;) {
      const next = this.#queue.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (this.#ended) {
        return;
      }
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
      this.#wake = undefined;
    }
  }
}

export class GameSession {
  /** The last seq seen, as an event or in a reply: where a new session resumes. */
  lastSeq: bigint;
  readonly #outbox = new Outbox();
  readonly #pending: Pending[] = [];
  readonly #events: Event[] = [];
  #wakeEvents: (() => void) | undefined;
  #failure: RiskError | undefined;
  #done = false;
  readonly #reading: Promise<void>;

  constructor(
    open: (requests: AsyncIterable<MessageInitShape<typeof SessionRequestSchema>>) =>
      AsyncIterable<SessionResponse>,
    readonly gameId: string,
    afterSeq: bigint,
    acksOnly: boolean,
  ) {
    this.lastSeq = afterSeq;
    this.#outbox.push({ kind: { case: "open", value: { gameId, afterSeq, acksOnly } } });
    this.#reading = this.#read(open(this.#outbox));
  }

  /** As `RiskClient.submitAction`: the reply, or the same RiskError. */
  submit(action: MessageInitShape<typeof ActionSchema>, expectedVersion: bigint,
    requestId: string = randomUUID()): Promise<SubmitActionResponse> {
    if (this.#failure !== undefined) {
      return Promise.reject(this.#failure);
    }
    return new Promise((resolve, reject) => {
      this.#pending.push({ resolve, reject });
      this.#outbox.push({ kind: { case: "submit", value: { action, expectedVersion, requestId } } });
    });
  }

  /** The other events, live, until the session ends (throws the error that ended it). */
  async *events(): AsyncGenerator<Event> {
    for (;;) {
      const event = this.#events.shift();
      if (event !== undefined) {
        yield event;
        continue;
      }
      if (this.#done) {
        if (this.#failure !== undefined) {
          throw this.#failure;
        }
        return;
      }
      await new Promise<void>((resolve) => {
        this.#wakeEvents = resolve;
      });
      this.#wakeEvents = undefined;
    }
  }

  /** Close the client's side: what was sent is answered, then the session ends. */
  async close(): Promise<void> {
    this.#outbox.end();
    await this.#reading;
  }

  async #read(replies: AsyncIterable<SessionResponse>): Promise<void> {
    try {
      for await (const reply of replies) {
        if (reply.kind.case === "event") {
          if (reply.kind.value.seq > this.lastSeq) {
            this.lastSeq = reply.kind.value.seq;
            this.#events.push(reply.kind.value);
            this.#wakeEvents?.();
          }
        } else if (reply.kind.case === "ack") {
          const answer = reply.kind.value.reply;
          if (answer.case === "submitted") {
            const submitted = fromBinary(SubmitActionResponseSchema, answer.value);
            for (const event of submitted.events) {
              this.lastSeq = event.seq > this.lastSeq ? event.seq : this.lastSeq;
            }
            this.#pending.shift()?.resolve(submitted);
          }
        } else if (reply.kind.case === "error") {
          this.#pending.shift()?.reject(errorFromStatus(reply.kind.value.status));
        }
      }
    } catch (error) {
      this.#failure = RiskError.from(error);
    } finally {
      this.#done = true;
      const failure = this.#failure ?? new RiskError(Code.Canceled, "", {}, "the session ended");
      for (const pending of this.#pending.splice(0)) {
        pending.reject(failure);
      }
      this.#wakeEvents?.();
    }
  }
}
