// A seat's moves over a WebSocket Session (docs/api.md, "Sessions" and "WebSocket"): one socket
// per seat token, opened at the first move and kept while the page plays, each move a
// `submit` on it and each answer matched to its move by request id. The session is opened
// acks-only: the page's events come from its Feed, and a move's own reply is what the page
// needs of it (the version it reached).
//
// Where the socket is down (it would not open, or it dropped with moves unanswered), a move
// goes by the unary SubmitAction instead, with the same request id: if the socket had
// delivered it, the service answers the resend with the first reply and the game moves once.

import { call, fromStatus, openSocket } from "./api.js";
import { sessionReply, sessionRequest } from "./protobuf.js";

export class SeatSession {
  constructor(gameId, token) {
    this.gameId = gameId;
    this.token = token;
    this.socket = null;
    this.pending = new Map(); // request id -> {request, resolve, reject}
    this.acked = 0; // moves answered on a socket (the page shows the counts to its tests)
    this.fallbacks = 0; // moves that went by the unary call instead
  }

  // The move's SubmitActionResponse (JSON), or the ApiError the unary call would throw.
  // `request`: {action, expectedVersion, requestId, seat}.
  submit(request) {
    if (typeof WebSocket !== "function") return this.unary(request);
    this.socket ||= this.open();
    return new Promise((resolve, reject) => {
      this.pending.set(request.requestId, { request, resolve, reject });
      this.socket.send(sessionRequest({ submit: request }));
    });
  }

  open() {
    const socket = openSocket("Session", this.token, {
      onMessage: (bytes) => this.answer(sessionReply(bytes)),
      onEnd: () => {
        // the session ended (the service restarted, the network dropped, an idle socket was
        // closed): what it left unanswered goes by the unary call, which answers a move the
        // socket did deliver with its first reply
        if (this.socket === socket) this.socket = null;
        const unanswered = [...this.pending.values()];
        this.pending.clear();
        for (const { request, resolve, reject } of unanswered) {
          this.unary(request).then(resolve, reject);
        }
      },
    });
    socket.send(sessionRequest({ open: { gameId: this.gameId, acksOnly: true } }));
    return socket;
  }

  answer(reply) {
    const id = reply.ack?.requestId ?? reply.error?.requestId;
    const waiting = this.pending.get(id);
    if (!waiting) return; // not ours (a session sends events only when not acks-only)
    this.pending.delete(id);
    this.acked++;
    if (reply.ack) waiting.resolve(reply.ack.submitted || {});
    else waiting.reject(fromStatus(reply.error.status));
  }

  unary(request) {
    this.fallbacks++;
    return call("SubmitAction", { gameId: this.gameId, ...request }, this.token);
  }

  close() {
    this.socket?.close();
    this.socket = null;
  }
}
