// A game's live events for one page: StreamEvents over a WebSocket (over Connect where the
// browser has none) from the last seq seen, again from that seq whenever the stream drops (a
// restart of the service, a lost network), with a growing pause between tries. Each seq
// reaches the page once and in order; a seq that comes twice is dropped, so a resumed stream
// shows neither a gap nor a repeat.

import { socketStream, stream } from "./api.js";

// the most events the service puts in one message (it caps this at its own limit)
const MAX_BATCH = 64;

// refusals that another try would only repeat: the game is gone, the token is not (or no
// longer) good, the request is wrong
const FINAL = new Set(["not_found", "unauthenticated", "permission_denied", "invalid_argument",
  "failed_precondition"]);

export class Feed {
  constructor(gameId, token, { onEvent, onState = () => {}, onError = () => {} }) {
    this.gameId = gameId;
    this.token = token;
    this.onEvent = onEvent;
    this.onState = onState;
    this.onError = onError;
    this.lastSeq = 0;
    this.controller = null;
    this.stopped = false;
    // what the server sent that the page dropped: seqs seen again, seqs skipped over
    this.repeats = 0;
    this.gaps = 0;
  }

  async run() {
    let pause = 250;
    while (!this.stopped) {
      this.controller = new AbortController();
      const take = (message) => {
        if (pause !== 250) { pause = 250; this.onState("live"); }
        // a batch, or one event (a Connect stream asks for no batches)
        for (const event of message.events?.length ? message.events : [message.event || {}]) {
          const seq = Number(event.seq || 0);
          if (seq <= this.lastSeq) { this.repeats++; continue; }
          if (seq !== this.lastSeq + 1) this.gaps++;
          this.lastSeq = seq;
          this.onEvent(event);
        }
      };
      const options = { token: this.token, signal: this.controller.signal,
        onOpen: () => { pause = 250; this.onState("live"); } };
      try {
        if (typeof WebSocket === "function") {
          await socketStream({ gameId: this.gameId, afterSeq: String(this.lastSeq),
            maxBatch: MAX_BATCH }, take, options);
        } else {
          await stream("StreamEvents", { gameId: this.gameId, afterSeq: String(this.lastSeq) },
            take, options);
        }
      } catch (error) {
        if (this.stopped) return;
        this.onError(error);
        if (FINAL.has(error.code)) {
          this.onState("stopped");
          return; // a refusal (the game is gone, the token revoked): trying again will not help
        }
      }
      if (this.stopped) return;
      this.onState("reconnecting");
      await new Promise((resolve) => setTimeout(resolve, pause));
      pause = Math.min(pause * 2, 4000);
    }
  }

  stop() {
    this.stopped = true;
    this.controller?.abort();
  }
}
