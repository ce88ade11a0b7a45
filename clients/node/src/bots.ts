/**
 * A simple Classic bot and a seat loop, for examples and tests: the bot chooses only from
 * ListLegalActions (no rules live in the client), preferring moves that end a game: trade
 * cards when it can, reinforce and attack from its strongest territory, move every army in,
 * and skip fortifying. `playSeat` follows the seat's own event stream to learn when the
 * decision is its own, and acts through `RiskClient.act`, the retry-on-ABORTED loop.
 */
import { create } from "@bufbuild/protobuf";

import { type Decide, isOver, type RiskClient } from "./client.js";
import type { ClassicAction, ClassicView } from "./gen/risk/v1/classic_pb.js";
import { type Action, ActionSchema, type LegalAction } from "./gen/risk/v1/game_pb.js";
import type { GetGameResponse, ListLegalActionsResponse } from "./gen/risk/v1/service_pb.js";

type Kind = ClassicAction["kind"];

/** A small seeded generator (mulberry32), so a bot's choices repeat for a given seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function classicKind(entry: LegalAction): Kind | undefined {
  const variant = entry.action?.variant;
  return variant?.case === "classic" ? variant.value.kind : undefined;
}

function withCount(entry: LegalAction, count: number): Action {
  const action = create(ActionSchema, entry.action);
  const kind = action.variant.case === "classic" ? action.variant.value.kind : undefined;
  if (kind?.case === "placeArmies" || kind?.case === "moveIn" || kind?.case === "fortify") {
    kind.value.count = count;
  }
  return action;
}

/** The Classic bot: a `Decide` for `RiskClient.act`. */
export function classicBot(random: () => number = Math.random): Decide {
  const frontier = new Set<number>(); // where the seat could attack from when it last could
  return (game: GetGameResponse, legal: ListLegalActionsResponse): Action | undefined => {
    const board = game.board?.variant;
    const view: ClassicView | undefined = board?.case === "classic" ? board.value : undefined;
    const armies = (territory: number): number => view?.armies[territory] ?? 0;
    const entries = legal.actions.filter((entry) => classicKind(entry) !== undefined);
    if (entries.length === 0) {
      return undefined;
    }
    const of = (name: NonNullable<Kind["case"]>) => entries.filter((e) => classicKind(e)?.case === name);
    const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)] as T;
    const most = (list: LegalAction[], score: (entry: LegalAction) => number): LegalAction =>
      list.reduce((best, entry) => (score(entry) > score(best) ? entry : best));

    const trades = of("tradeCards");
    if (trades.length > 0) {
      return pick(trades).action;
    }
    const places = of("placeArmies");
    if (places.length > 0) {
      // reinforce the strongest territory that last had someone to attack: a stack inland
      // can attack nobody, and the bot never fortifies
      const at = (e: LegalAction) => {
        const kind = classicKind(e);
        const territory = kind?.case === "placeArmies" ? kind.value.territory : -1;
        return armies(territory) + (frontier.has(territory) ? 1000 : 0);
      };
      const chosen = random() < 0.8 ? most(places, at) : pick(places);
      return withCount(chosen, Math.max(chosen.maxCount, countOf(chosen)));
    }
    const attacks = of("attack");
    if (attacks.length > 0) {
      frontier.clear();
      for (const e of attacks) {
        const kind = classicKind(e);
        if (kind?.case === "attack") {
          frontier.add(kind.value.fromTerritory);
        }
      }
      const edge = (e: LegalAction) => {
        const kind = classicKind(e);
        return kind?.case === "attack"
          ? armies(kind.value.fromTerritory) - armies(kind.value.toTerritory) + kind.value.dice / 10
          : 0;
      };
      const best = most(attacks, edge);
      if (edge(best) >= 0 || of("endAttack").length === 0) {
        return best.action;
      }
      return of("endAttack")[0]?.action;
    }
    for (const counted of [of("moveIn"), of("defend")]) {
      if (counted.length > 0) {
        const best = most(counted, (e) => Math.max(e.maxCount, countOf(e)));
        return withCount(best, Math.max(best.maxCount, countOf(best)));
      }
    }
    const endTurn = of("endTurn");
    if (endTurn.length > 0) {
      return endTurn[0]?.action;
    }
    const chosen = pick(entries);
    return withCount(chosen, countOf(chosen));
  };
}

function countOf(entry: LegalAction): number {
  const kind = classicKind(entry);
  switch (kind?.case) {
    case "placeArmies":
    case "moveIn":
    case "fortify":
      return kind.value.count;
    case "defend":
      return kind.value.dice;
    default:
      return 0;
  }
}

/**
 * The newest seq a seat's stream has delivered, followed in the background, so the seat waits
 * for the game to move rather than polling it.
 */
class Feed {
  latest: bigint;
  #wake: (() => void) | undefined;
  #failure: unknown;
  readonly #abort = new AbortController();

  constructor(client: RiskClient, gameId: string, afterSeq: bigint) {
    this.latest = afterSeq;
    void this.#follow(client, gameId);
  }

  async #follow(client: RiskClient, gameId: string): Promise<void> {
    try {
      for await (const event of client.streamEvents(gameId, { afterSeq: this.latest, signal: this.#abort.signal })) {
        this.latest = event.seq;
        this.#wake?.();
      }
    } catch (error) {
      if (!this.#abort.signal.aborted) {
        this.#failure = error;
      }
    }
    this.#wake?.();
  }

  /** Until an event after `seq` arrived, or `timeoutMs` passed (then the seat re-reads). */
  async waitBeyond(seq: bigint, timeoutMs: number): Promise<void> {
    if (this.#failure !== undefined) {
      throw this.#failure;
    }
    if (this.latest > seq) {
      return;
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.#wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.#wake = undefined;
  }

  close(): void {
    this.#abort.abort();
  }
}

/** Play the seat `seatClient`'s token holds until the game is over; return the last GetGame. */
export async function playSeat(seatClient: RiskClient, gameId: string, decide: Decide,
  idleRereadMs = 2_000): Promise<GetGameResponse> {
  let game = await seatClient.getGame(gameId);
  const seat = game.viewerSeat;
  if (seat < 0) {
    throw new Error("the token holds no seat in this game");
  }
  const feed = new Feed(seatClient, gameId, game.game?.lastSeq ?? 0n);
  try {
    while (!isOver(game)) {
      if (game.game?.decision?.seats.includes(seat)) {
        const reply = await seatClient.act(gameId, decide);
        if (reply?.decision?.seats.includes(seat) && reply.outcome === undefined) {
          continue; // still this seat's decision: act re-reads the game itself
        }
      } else {
        await feed.waitBeyond(game.game?.lastSeq ?? 0n, idleRereadMs);
      }
      game = await seatClient.getGame(gameId);
    }
  } finally {
    feed.close();
  }
  return game;
}
