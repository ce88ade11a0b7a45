/**
 * `RiskClient`: a typed client over the risk.v1 service, on Connect's gRPC transport.
 *
 * One client owns one transport (one HTTP/2 connection); `withToken` gives a view of the same
 * transport acting with another credential, so a program that plays several seats opens one
 * connection. Every failed call throws a `RiskError` (errors.ts) carrying the status code and
 * the service's ErrorInfo reason. 64-bit fields (versions, seqs, the seed) are `bigint`s as
 * protoc-gen-es generates them, so they cross into JavaScript exactly. Three calls retry on
 * their own, as docs/api.md says a client should: `joinGame` and `submitAction` resend the same
 * request id after a lost reply, `act` re-reads and decides again after ABORTED /
 * STALE_VERSION, and `streamEvents` reconnects after transient failures and resumes after the
 * last event it yielded, so its consumer sees every event once and in order. Given
 * `webSocketUrl` (the service's HTTP port), `session` and `streamEvents` travel over that
 * port's WebSocket instead (websocket.ts), with the same messages and errors.
 */
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";

import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { type Client, Code, createClient, type Transport } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";

import { RiskError } from "./errors.js";
import { GameSession } from "./session.js";
import { sessionOverWebSocket, streamOverWebSocket } from "./websocket.js";
import type { Action, Event } from "./gen/risk/v1/game_pb.js";
import { ActionSchema, type GameOptionsSchema } from "./gen/risk/v1/game_pb.js";
import {
  type CreateCampaignRequestSchema,
  type CreateCampaignResponse,
  type CreateGameRequestSchema,
  type CreateGameResponse,
  type GameExport,
  GameExportSchema,
  GameStatus,
  type GameSummary,
  type ListMyGamesResponse,
  type MyGame,
  type GetGameResponse,
  type ListGamesRequestSchema,
  type ListGamesResponse,
  type ListLegalActionsResponse,
  type ResignResponse,
  RiskService,
  type StartCampaignGameResponse,
  type SubmitActionResponse,
} from "./gen/risk/v1/service_pb.js";
import type { FactionChoiceSchema } from "./gen/risk/v1/legacy_pb.js";
import type { Variant } from "./gen/risk/v1/common_pb.js";
import type { ClockOptionsSchema } from "./gen/risk/v1/lifecycle_pb.js";
import type { IssuePlayerTokenResponse } from "./gen/risk/v1/players_pb.js";
import type {
  AcceptInvitationResponse,
  Invitation,
  PlayerEvent,
} from "./gen/risk/v1/player_games_pb.js";
import type { VariantDescription } from "./gen/risk/v1/variant_pb.js";
import type { GetLeaderboardResponse, GetRatingResponse } from "./gen/risk/v1/ratings_pb.js";
import { type MatchTicket, MatchStatus } from "./gen/risk/v1/matchmaking_pb.js";
import type { CreateEventRequestSchema, TournamentEvent } from "./gen/risk/v1/events_pb.js";

export const DEFAULT_BASE_URL = "http://127.0.0.1:50051";
export const DEFAULT_TIMEOUT_MS = 30_000;

/** Exponential delays, capped, jittered in their upper half (as the Python SDK's Backoff). */
export class Backoff {
  constructor(
    readonly initialMs: number,
    readonly maximumMs: number,
    /** Consecutive failures after which the last error is thrown. */
    readonly attempts: number,
    readonly multiplier = 2,
  ) {}

  /** The pause before retry number `attempt` (1-based). */
  delayMs(attempt: number): number {
    const ceiling = Math.min(this.maximumMs, this.initialMs * this.multiplier ** (attempt - 1));
    return ceiling / 2 + Math.random() * (ceiling / 2);
  }
}

/**
 * How a client that lost a version race waits before it decides again: 2 ms, doubling while
 * it keeps losing, up to 250 ms (docs/api.md). Clients that all retry at once turn one game's
 * contention into a retry storm; the winner learns the next version from its own reply.
 */
export const CONFLICT_BACKOFF = new Backoff(2, 250, 20);
/** How often a request whose reply was lost is resent with the same request id. */
export const RESEND_BACKOFF = new Backoff(50, 1_000, 8);
/** How a stream reconnects; any delivered event resets the count. */
export const STREAM_BACKOFF = new Backoff(50, 2_000, 30);
/** The most events `streamEvents` asks for in one message (the service caps it at its own). */
export const STREAM_BATCH = 64;

export interface RiskClientOptions {
  /** The service's gRPC address as a URL, e.g. "http://127.0.0.1:50051" (the default). */
  baseUrl?: string;
  /** Sent as `authorization: Bearer <token>`; without one the client is a spectator. */
  token?: string;
  /** The bound on each unary call; streams are unbounded. */
  timeoutMs?: number;
  /**
   * Another Connect transport, e.g. `createConnectTransport` for an HTTP port; the client then
   * neither creates nor closes a connection of its own.
   */
  transport?: Transport;
  /**
   * The service's HTTP port, e.g. "ws://127.0.0.1:8080" (or http://, https://, wss://): then
   * `session` and `streamEvents` are WebSockets there (docs/api.md, "WebSocket"); the other
   * calls stay on the transport above.
   */
  webSocketUrl?: string;
}

export interface CreateGameOptions {
  /** A fixed seed makes the game reproducible; any uint64 (a bigint, so none is rounded). */
  seed?: bigint;
  seatNames?: string[];
  manualStart?: boolean;
  spectatorDelayEvents?: number;
  spectatorDelaySeconds?: number;
  issueSeatTokens?: boolean;
  /** Decision deadlines, time banks, or a correspondence clock (turnSeconds, vacationDays). */
  clock?: MessageInitShape<typeof ClockOptionsSchema>;
  /** Player ids by seat ("" for none): those seats are the players' at once (docs/players.md). */
  seatPlayers?: string[];
  /** A rated game: its end updates its players' ratings; seats taken by players only (docs/ratings.md). */
  rated?: boolean;
}

export interface CreateCampaignOptions {
  seatNames?: string[];
  /**
   * Player ids by seat ("" for none): those players play their seats in every game of the
   * campaign, and take its reward decisions, with their own player token (docs/players.md).
   */
  seatPlayers?: string[];
}

/** Which invitation: its game and id, or an open-seat link's code alone. */
export interface InvitationRef {
  gameId?: string;
  invitationId?: string;
  code?: string;
}

export interface InviteOptions {
  /** The player invited; omit with `link`. */
  invitee?: string;
  /** An open-seat link instead: the reply's `code` lets whoever holds it take the seat. */
  link?: boolean;
  /** How long it stays open (0: the service's default). */
  expiresInSeconds?: bigint;
}

/** What a match request asks for (docs/ratings.md, "Matchmaking"). */
export interface MatchOptions {
  /** Table sizes accepted (seats, bots included); empty: the variant's default. */
  sizes?: number[];
  clock?: MessageInitShape<typeof ClockOptionsSchema>;
  rated?: boolean;
  /** Bots may fill the table once the request has waited this long (0: never). */
  allowBotsAfterSeconds?: number;
  displayName?: string;
  /** How long the request waits for a table, 10 to 3600 s (0: 10 minutes). */
  expiresInSeconds?: bigint;
  /** The idempotency key; a new one (UUID) when omitted. A resend after a lost reply uses it. */
  requestId?: string;
}

export interface SubmitOptions {
  /** The idempotency key; a new one (UUID) when omitted. A resend after a lost reply uses it. */
  requestId?: string;
  /** The seat acting; omitted: the token's seat. */
  seat?: number;
}

export interface StreamOptions {
  /** Resume after this seq (0: from the first event). */
  afterSeq?: bigint;
  signal?: AbortSignal;
  backoff?: Backoff;
}

/**
 * A bot's or a player's choice, given the game as the seat sees it and its legal actions at
 * `legal.version`; `undefined` when it chooses nothing (the decision is not the seat's).
 */
export type Decide = (game: GetGameResponse, legal: ListLegalActionsResponse
) => Action | undefined | Promise<Action | undefined>;

type ActionInit = MessageInitShape<typeof ActionSchema>;

const OVER = new Set([GameStatus.FINISHED, GameStatus.ABANDONED, GameStatus.CANCELLED]);

/** The game ended (or was cancelled or abandoned): no decision will follow. */
export function isOver(game: GetGameResponse): boolean {
  const summary = game.game;
  return summary !== undefined && (OVER.has(summary.status) || summary.outcome !== undefined);
}

/** The last event a game will have: it ended by its rules, was cancelled or abandoned. */
export function isGameEnd(event: Event): boolean {
  const { variant } = event;
  switch (variant.case) {
    case "lifecycle":
      return variant.value.kind.case === "gameCancelled" || variant.value.kind.case === "gameAbandoned";
    case undefined:
    case "extension": // a variant outside the contract: its events are opaque to this client
      return false;
    default:
      return variant.value.kind.case === "gameEnded";
  }
}

/** Failures after which a stream is worth reopening. */
function resumable(error: RiskError): boolean {
  switch (error.code) {
    case Code.Unavailable: // the service or its store is down or restarting
    case Code.Internal: // how HTTP/2 reports a reset connection or a server shutting down
    case Code.Unknown:
      return true;
    case Code.ResourceExhausted:
      return error.reason === "SUBSCRIBER_TOO_SLOW";
    default:
      return false;
  }
}

class Connection {
  readonly sessions: Http2SessionManager | undefined;
  readonly transport: Transport;
  readonly rpc: Client<typeof RiskService>;
  readonly webSocketUrl: string | undefined;

  constructor(options: RiskClientOptions) {
    this.webSocketUrl = options.webSocketUrl;
    if (options.transport !== undefined) {
      this.transport = options.transport;
    } else {
      const baseUrl = options.baseUrl ?? DEFAULT_BASE_URL;
      // our own session manager, so that close() can end the connection at once
      this.sessions = new Http2SessionManager(baseUrl, { pingIntervalMs: 30_000 });
      this.transport = createGrpcTransport({ baseUrl, sessionManager: this.sessions });
    }
    this.rpc = createClient(RiskService, this.transport);
  }
}

export class RiskClient {
  readonly #connection: Connection;
  readonly #token: string | undefined;
  readonly #timeoutMs: number;

  /** `connection` is for `withToken` only: its views share one connection. */
  constructor(options: RiskClientOptions = {}, connection?: Connection) {
    this.#connection = connection ?? new Connection(options);
    this.#token = options.token;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** The same connection acting with `token` (undefined: as a spectator). */
  withToken(token: string | undefined): RiskClient {
    return new RiskClient({ token, timeoutMs: this.#timeoutMs }, this.#connection);
  }

  /** Close the connection this client (and every `withToken` view of it) uses. */
  close(): void {
    this.#connection.sessions?.abort();
  }

  [Symbol.dispose](): void {
    this.close();
  }

  /** Create a game; returns its summary, the host token and (issueSeatTokens) seat tokens. */
  async createGame(options: MessageInitShape<typeof GameOptionsSchema>,
    extra: CreateGameOptions = {}): Promise<CreateGameResponse> {
    const request: MessageInitShape<typeof CreateGameRequestSchema> = {
      options,
      seatNames: extra.seatNames ?? [],
      manualStart: extra.manualStart ?? false,
      spectatorDelayEvents: extra.spectatorDelayEvents ?? 0,
      spectatorDelaySeconds: extra.spectatorDelaySeconds ?? 0,
      issueSeatTokens: extra.issueSeatTokens ?? false,
      seatPlayers: extra.seatPlayers ?? [],
      rated: extra.rated ?? false,
      ...(extra.clock === undefined ? {} : { clock: extra.clock }),
    };
    if (extra.seed !== undefined) {
      request.seed = extra.seed;
    }
    return this.#unary(() => this.#connection.rpc.createGame(request, this.#call()));
  }

  /**
   * Create a Risk Legacy campaign, one seat per faction choice (3 to 5); returns its summary,
   * the host token and one token per seat. Sent once: a resend could make a second campaign.
   */
  async createCampaign(factions: MessageInitShape<typeof FactionChoiceSchema>[],
    extra: CreateCampaignOptions = {}): Promise<CreateCampaignResponse> {
    const request: MessageInitShape<typeof CreateCampaignRequestSchema> = {
      players: factions.length,
      factions,
      seatNames: extra.seatNames ?? [],
      seatPlayers: extra.seatPlayers ?? [],
    };
    return this.#unary(() => this.#connection.rpc.createCampaign(request, this.#call()));
  }

  /** The host (its token, or the player who created the campaign) starts its next game. */
  async startCampaignGame(campaignId: string, extra: { seed?: bigint; maxTurns?: number } = {}
  ): Promise<StartCampaignGameResponse> {
    const request = {
      campaignId,
      ...(extra.seed === undefined ? {} : { seed: extra.seed }),
      ...(extra.maxTurns === undefined ? {} : { maxTurns: extra.maxTurns }),
    };
    return this.#unary(() => this.#connection.rpc.startCampaignGame(request, this.#call()));
  }

  /**
   * Take a seat; returns its token. The join carries a request id and is resent with it after
   * a lost reply, which returns the same token rather than finding the seat taken.
   */
  async joinGame(gameId: string, seat: number, displayName = "",
    requestId: string = randomUUID()): Promise<string> {
    const reply = await this.#resending(() =>
      this.#connection.rpc.joinGame({ gameId, seat, displayName, requestId }, this.#call()));
    return reply.seatToken;
  }

  async getGame(gameId: string): Promise<GetGameResponse> {
    return this.#unary(() => this.#connection.rpc.getGame({ gameId }, this.#call()));
  }

  async listGames(request: MessageInitShape<typeof ListGamesRequestSchema> = {}): Promise<ListGamesResponse> {
    return this.#unary(() => this.#connection.rpc.listGames(request, this.#call()));
  }

  /**
   * The board as data: a variant's map (regions with adjacency and coordinates to draw them),
   * decks, options with defaults and ranges, seat counts and rules version. `variant` is its
   * number (`Variant.CLASSIC`) or its name ("deep_space"). Public and unchanging for a rules
   * version, so a caller may keep it.
   */
  async describeVariant(variant: Variant | string): Promise<VariantDescription> {
    const request = typeof variant === "string" ? { name: variant } : { variant };
    const reply = await this.#unary(() =>
      this.#connection.rpc.describeVariant(request, this.#call()));
    if (reply.variant === undefined) {
      throw new Error("DescribeVariant answered without a description");
    }
    return reply.variant;
  }

  /** Every variant the service serves, each as `describeVariant` describes it. */
  async listVariants(): Promise<VariantDescription[]> {
    const reply = await this.#unary(() => this.#connection.rpc.listVariants({}, this.#call()));
    return reply.variants;
  }

  /** The legal actions of the token's seat (or `seat`), at the version the reply names. */
  async legalActions(gameId: string, seat?: number): Promise<ListLegalActionsResponse> {
    const request = seat === undefined ? { gameId } : { gameId, seat };
    return this.#unary(() => this.#connection.rpc.listLegalActions(request, this.#call()));
  }

  /**
   * Apply `action` if the game is still at `expectedVersion`. A lost reply (UNAVAILABLE,
   * DEADLINE_EXCEEDED) is resent with the same request id, so the action is applied once; a
   * stale version throws a RiskError whose `isStaleVersion` is set (see `act` for the loop).
   */
  async submitAction(gameId: string, action: Action | ActionInit, expectedVersion: bigint,
    options: SubmitOptions = {}): Promise<SubmitActionResponse> {
    const request = {
      gameId,
      action: create(ActionSchema, action),
      expectedVersion,
      requestId: options.requestId ?? randomUUID(),
      ...(options.seat === undefined ? {} : { seat: options.seat }),
    };
    return this.#resending(() => this.#connection.rpc.submitAction(request, this.#call()));
  }

  /**
   * Leave the game with this token's seat (`seat` only confirms it). The request id (a fresh
   * one unless given) makes a resend after a lost reply safe: it is resent with it, as
   * `submitAction` is, so the seat resigns once.
   */
  async resign(gameId: string, options: SubmitOptions = {}): Promise<ResignResponse> {
    const request = {
      gameId,
      requestId: options.requestId ?? randomUUID(),
      ...(options.seat === undefined ? {} : { seat: options.seat }),
    };
    return this.#resending(() => this.#connection.rpc.resign(request, this.#call()));
  }

  /**
   * The safe way to act (docs/api.md): read the game and its legal actions, let `decide`
   * choose, submit at that version with a new request id; on ABORTED / STALE_VERSION pause
   * (CONFLICT_BACKOFF), re-read and decide again. Returns the accepted reply, or undefined
   * when the game is over or `decide` chose nothing.
   */
  async act(gameId: string, decide: Decide, backoff: Backoff = CONFLICT_BACKOFF
  ): Promise<SubmitActionResponse | undefined> {
    for (let lost = 0; ; lost++) {
      const game = await this.getGame(gameId);
      if (isOver(game)) {
        return undefined;
      }
      const legal = await this.legalActions(gameId);
      if (legal.version !== game.game?.version) {
        continue; // the game moved between the two reads
      }
      const action = await decide(game, legal);
      if (action === undefined) {
        return undefined;
      }
      try {
        return await this.submitAction(gameId, action, legal.version);
      } catch (error) {
        const failure = RiskError.from(error);
        if (!failure.isStaleVersion || lost + 1 >= backoff.attempts) {
          throw failure;
        }
        await sleep(backoff.delayMs(lost + 1));
      }
    }
  }

  /**
   * Every event after `afterSeq`, then live ones, for as long as the caller iterates. After a
   * transient failure (the service restarting, a dropped connection, falling too far behind)
   * it reopens the stream after the last event it yielded: nothing is missed or repeated. A
   * stream of a finished game stays open; break out of the loop (or abort `signal`) to end it.
   * The call asks for batches (at most `STREAM_BATCH` events a message), so a stream that is
   * behind takes fewer messages; events are still yielded one at a time.
   */
  async *streamEvents(gameId: string, options: StreamOptions = {}): AsyncGenerator<Event> {
    const backoff = options.backoff ?? STREAM_BACKOFF;
    let afterSeq = options.afterSeq ?? 0n;
    let failures = 0;
    const overSocket = this.#connection.webSocketUrl;
    for (;;) {
      try {
        const request = { gameId, afterSeq, maxBatch: STREAM_BATCH };
        const call = overSocket === undefined
          ? this.#connection.rpc.streamEvents(request,
            this.#call({ timeoutMs: 0, signal: options.signal }))
          : streamOverWebSocket(overSocket, this.#token, request, options.signal);
        for await (const reply of call) {
          // a batch; or one event, from a service that predates batching
          const events = reply.events.length > 0 ? reply.events
            : reply.event === undefined ? [] : [reply.event];
          for (const event of events) {
            if (event.seq <= afterSeq) {
              continue; // a resumed stream never repeats an event already yielded
            }
            afterSeq = event.seq;
            failures = 0;
            yield event;
          }
        }
        return; // the service ended the stream cleanly
      } catch (error) {
        const failure = RiskError.from(error);
        failures++;
        if (options.signal?.aborted || !resumable(failure) || failures > backoff.attempts) {
          throw failure;
        }
        await sleep(backoff.delayMs(failures), undefined, { signal: options.signal });
      }
    }
  }

  /**
   * A session on `gameId` for this token's seat (session.ts): moves on one open stream, each
   * answered as `submitAction` answers it, and the game's events (none with `acksOnly`).
   * With `webSocketUrl` set, the session is a WebSocket on the HTTP port.
   */
  session(gameId: string, options: { afterSeq?: bigint; acksOnly?: boolean } = {}): GameSession {
    const overSocket = this.#connection.webSocketUrl;
    return new GameSession(
      overSocket === undefined
        ? (requests) => this.#connection.rpc.session(requests, this.#call({ timeoutMs: 0 }))
        : sessionOverWebSocket(overSocket, this.#token),
      gameId, options.afterSeq ?? 0n, options.acksOnly ?? false);
  }

  /**
   * A player token from a service that issues its own (no identity provider: docs/players.md):
   * a new player, or with this client's player token a fresh one for the same player. Use it
   * as any token (`withToken(reply.token)`); seats joined with it belong to the player. Sent
   * once: a resend could make a second player.
   */
  async issuePlayerToken(): Promise<IssuePlayerTokenResponse> {
    return this.#unary(() => this.#connection.rpc.issuePlayerToken({}, this.#call()));
  }

  /**
   * This seat stops its clocks for `days` whole days in a correspondence game; the summary
   * says until when (`vacationUntilMs`). Resent after a lost reply: a start that landed makes
   * the resend ALREADY_ON_VACATION, and the game is then read and returned.
   */
  async startVacation(gameId: string, days: number, seat?: number): Promise<GameSummary> {
    const request = { gameId, days, ...(seat === undefined ? {} : { seat }) };
    return this.#vacation(gameId, "ALREADY_ON_VACATION",
      () => this.#connection.rpc.startVacation(request, this.#call()));
  }

  /** Back early from a vacation: resent as `startVacation` is (NOT_ON_VACATION: it landed). */
  async endVacation(gameId: string, seat?: number): Promise<GameSummary> {
    const request = { gameId, ...(seat === undefined ? {} : { seat }) };
    return this.#vacation(gameId, "NOT_ON_VACATION",
      () => this.#connection.rpc.endVacation(request, this.#call()));
  }

  async #vacation(gameId: string, landed: string,
    call: () => Promise<{ game?: GameSummary }>): Promise<GameSummary> {
    let lost = false;
    for (let attempt = 1; ; attempt++) {
      try {
        const reply = await this.#unary(call);
        if (reply.game === undefined) {
          throw new Error("the service answered without the game");
        }
        return reply.game;
      } catch (error) {
        const failure = RiskError.from(error);
        if (lost && failure.reason === landed) {
          const game = (await this.getGame(gameId)).game;
          if (game !== undefined) {
            return game;
          }
        }
        if (!failure.isTransient || attempt >= RESEND_BACKOFF.attempts) {
          throw failure;
        }
        lost = true;
        await sleep(RESEND_BACKOFF.delayMs(attempt));
      }
    }
  }

  /**
   * One page of this player's games, latest activity first: each holds the summary (whose
   * turn: `game.decision.seats`; until when: `game.deadlineMs`), the player's seat and
   * `yourTurn`. A read, resent after a lost reply.
   */
  async listMyGames(request: { status?: GameStatus; pageSize?: number; pageToken?: string } = {}
  ): Promise<ListMyGamesResponse> {
    return this.#resending(() => this.#connection.rpc.listMyGames(request, this.#call()));
  }

  /**
   * A player's rating in `variant` and `season` ("" the current one): `rating.mu`, `sigma`,
   * `rating` (mu - 3 sigma), `provisional`, `games`, `rank`, and a page of its history (newest
   * first). A player never rated reads as the default. A public read, resent after a lost reply.
   */
  async getRating(playerId: string, variant: Variant,
    options: { season?: string; pageSize?: number; pageToken?: string } = {}
  ): Promise<GetRatingResponse> {
    return this.#resending(() => this.#connection.rpc.getRating({ playerId, variant, ...options },
      this.#call()));
  }

  /**
   * One page of `variant`'s leaderboard, best first (the top `pageSize`, default 50), or the
   * page around `aroundPlayer`; `bots`: the bot levels' board. A public read, resent after a
   * lost reply.
   */
  async getLeaderboard(variant: Variant, options: { season?: string; pageSize?: number;
    pageToken?: string; aroundPlayer?: string; bots?: boolean } = {}
  ): Promise<GetLeaderboardResponse> {
    return this.#resending(() => this.#connection.rpc.getLeaderboard({ variant, ...options },
      this.#call()));
  }

  /** Every game of this player's (in `status`), following the pages. */
  async *myGames(status?: GameStatus): AsyncGenerator<MyGame> {
    let pageToken = "";
    do {
      const page = await this.listMyGames({ pageToken, ...(status === undefined ? {} : { status }) });
      yield* page.games;
      pageToken = page.nextPageToken;
    } while (pageToken !== "");
  }

  /**
   * Everything that concerns this player across their games after `afterSeq` (their turns,
   * invitations, games starting and ending), then live ones; reopened after the last event
   * yielded after a transient failure, as `streamEvents` is.
   */
  async *streamPlayerEvents(options: { afterSeq?: bigint; signal?: AbortSignal; backoff?: Backoff } = {}
  ): AsyncGenerator<PlayerEvent> {
    const backoff = options.backoff ?? STREAM_BACKOFF;
    let afterSeq = options.afterSeq ?? 0n;
    let failures = 0;
    for (;;) {
      try {
        const call = this.#connection.rpc.streamPlayerEvents({ afterSeq },
          this.#call({ timeoutMs: 0, signal: options.signal }));
        for await (const reply of call) {
          const event = reply.event;
          if (event === undefined || event.seq <= afterSeq) {
            continue;
          }
          afterSeq = event.seq;
          failures = 0;
          yield event;
        }
        return;
      } catch (error) {
        const failure = RiskError.from(error);
        failures++;
        if (options.signal?.aborted || !resumable(failure) || failures > backoff.attempts) {
          throw failure;
        }
        await sleep(backoff.delayMs(failures), undefined, { signal: options.signal });
      }
    }
  }

  /**
   * Host: invite a player to a free seat, or (`link`) make an open-seat link whose `code`, in
   * this reply only, lets whoever holds it take the seat. Sent once.
   */
  async createInvitation(gameId: string, seat: number, options: InviteOptions = {}
  ): Promise<Invitation> {
    const request = { gameId, seat, invitee: options.invitee ?? "", link: options.link ?? false,
      expiresInSeconds: options.expiresInSeconds ?? 0n };
    return this.#unary(() => this.#connection.rpc.createInvitation(request, this.#call()));
  }

  /**
   * Take the invitation's seat for this player. Resent after a lost reply; a resend that
   * meets INVITATION_CLOSED is thrown (the seat may be the player's already: `getGame` says).
   */
  async acceptInvitation(which: InvitationRef, displayName = ""): Promise<AcceptInvitationResponse> {
    const request = { ...which, displayName };
    return this.#resending(() => this.#connection.rpc.acceptInvitation(request, this.#call()));
  }

  /** The invitee turns an invitation down (resent after a lost reply). */
  async declineInvitation(which: InvitationRef): Promise<Invitation> {
    return this.#resending(() => this.#connection.rpc.declineInvitation(which, this.#call()));
  }

  /** Host: withdraw an invitation or link still open (resent after a lost reply). */
  async revokeInvitation(which: InvitationRef): Promise<Invitation> {
    return this.#resending(() => this.#connection.rpc.revokeInvitation(which, this.#call()));
  }

  /** This player's pending invitations; with `gameId`, that game's (its host). */
  async listInvitations(gameId = ""): Promise<Invitation[]> {
    const reply = await this.#resending(() =>
      this.#connection.rpc.listInvitations({ gameId }, this.#call()));
    return reply.invitations;
  }

  /**
   * Ask to play (a player token): a ticket that waits in its pool (variant, clock, rated) until
   * the service seats it at a table. One open request per player (another is ALREADY_QUEUED).
   * Carries a request id and is resent with it after a lost reply: the same ticket comes back.
   */
  async requestMatch(variant: Variant, options: MatchOptions = {}): Promise<MatchTicket> {
    const request = { variant, sizes: options.sizes ?? [], clock: options.clock,
      rated: options.rated ?? false, allowBotsAfterSeconds: options.allowBotsAfterSeconds ?? 0,
      displayName: options.displayName ?? "", expiresInSeconds: options.expiresInSeconds ?? 0n,
      requestId: options.requestId ?? randomUUID() };
    return this.#resending(() => this.#connection.rpc.requestMatch(request, this.#call()));
  }

  /** The ticket now: WAITING, MATCHING, MATCHED (gameId, seat), CANCELLED or EXPIRED. */
  async getMatchTicket(ticketId: string): Promise<MatchTicket> {
    return this.#resending(() => this.#connection.rpc.getMatchTicket({ ticketId }, this.#call()));
  }

  /** Take a waiting ticket out of its queue (MATCH_ALREADY_FORMED once it is seated). */
  async cancelMatch(ticketId: string): Promise<MatchTicket> {
    return this.#resending(() => this.#connection.rpc.cancelMatch({ ticketId }, this.#call()));
  }

  /**
   * The ticket once it is MATCHED, CANCELLED or EXPIRED, polled every `pollMs`; throws after
   * `timeoutMs`, leaving the ticket as it is.
   */
  async waitForMatch(ticketId: string, { pollMs = 1000, timeoutMs = Infinity } = {}
  ): Promise<MatchTicket> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const ticket = await this.getMatchTicket(ticketId);
      if (ticket.status !== MatchStatus.WAITING && ticket.status !== MatchStatus.MATCHING) {
        return ticket;
      }
      if (Date.now() >= deadline) throw new Error(`match request ${ticketId} still waiting`);
      await sleep(pollMs);
    }
  }

  /**
   * Tournament events the service's director runs (docs/tournaments.md, "Events in the
   * service"). Organiser: create one (the same request again returns it, so it is resent
   * after a lost reply) and start it (sent once: a resend would meet EVENT_CLOSED).
   */
  async createEvent(request: MessageInitShape<typeof CreateEventRequestSchema>
  ): Promise<TournamentEvent> {
    return this.#resending(() => this.#connection.rpc.createEvent(request, this.#call()));
  }

  async startEvent(event: string): Promise<TournamentEvent> {
    return this.#unary(() => this.#connection.rpc.startEvent({ event }, this.#call()));
  }

  /** A player (player token): register, again to change the name; withdraw. */
  async registerEvent(event: string, name = ""): Promise<TournamentEvent> {
    return this.#resending(() => this.#connection.rpc.registerEvent({ event, name },
      this.#call()));
  }

  async withdrawEvent(event: string): Promise<TournamentEvent> {
    return this.#resending(() => this.#connection.rpc.withdrawEvent({ event }, this.#call()));
  }

  /** The event: players, every round's tables and results, the standings. */
  async getEvent(event: string): Promise<TournamentEvent> {
    return this.#resending(() => this.#connection.rpc.getEvent({ event }, this.#call()));
  }

  /** The whole export of a finished game: every page, merged. */
  async exportGame(gameId: string): Promise<GameExport> {
    const whole = create(GameExportSchema);
    let pageToken = "";
    do {
      const page = await this.#unary(() =>
        this.#connection.rpc.exportGame({ gameId, pageToken }, this.#call()));
      if (pageToken === "") {
        Object.assign(whole, page, { log: [], events: [], chain: [] });
      }
      whole.log.push(...page.log);
      whole.events.push(...page.events);
      whole.chain.push(...page.chain);
      whole.version = page.version;
      pageToken = page.nextPageToken;
    } while (pageToken !== "");
    whole.nextPageToken = "";
    return whole;
  }

  #call(extra: { timeoutMs?: number; signal?: AbortSignal | undefined } = {}) {
    const headers: Record<string, string> = {};
    if (this.#token !== undefined) {
      headers["authorization"] = `Bearer ${this.#token}`;
    }
    return { headers, timeoutMs: extra.timeoutMs ?? this.#timeoutMs, signal: extra.signal };
  }

  async #unary<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw RiskError.from(error);
    }
  }

  /** `call` (whose request carries a request id), resent while its reply is lost. */
  async #resending<T>(call: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#unary(call);
      } catch (error) {
        const failure = RiskError.from(error);
        if (!failure.isTransient || attempt >= RESEND_BACKOFF.attempts) {
          throw failure;
        }
        await sleep(RESEND_BACKOFF.delayMs(attempt));
      }
    }
  }
}
