/**
 * The client against a real service (RISK_TARGET, e.g. http://127.0.0.1:50051): a whole
 * 2-player Classic game played by two bots while a spectator streams it, the 64-bit seed's
 * trip into JavaScript, stream resumption, and errors' reasons. tests/client/test_node_client.py
 * starts the service and runs this file with `node --test`.
 */
import assert from "node:assert/strict";
import { after, test } from "node:test";

import {
  ClassicSetupMode,
  classicBot,
  Code,
  type Event,
  EventFormat,
  EventStatus,
  eventText,
  gameNames,
  GameStatus,
  isGameEnd,
  playSeat,
  RiskClient,
  RiskError,
  seededRandom,
  Variant,
} from "../src/index.js";

const target = process.env["RISK_TARGET"];
assert.ok(target, "set RISK_TARGET to the service's URL, e.g. http://127.0.0.1:50051");
const client = new RiskClient({ baseUrl: target });
after(() => client.close());

// above 2^53, where a JavaScript number can no longer hold every integer
const SEED = 2n ** 64n - 59n;
const QUICK_CLASSIC = {
  variant: {
    case: "classic" as const,
    value: { players: 2, setup: ClassicSetupMode.RANDOM_DEAL, autoPlace: true },
  },
};

async function expectRiskError(call: Promise<unknown>): Promise<RiskError> {
  try {
    await call;
  } catch (error) {
    assert.ok(error instanceof RiskError, `not a RiskError: ${String(error)}`);
    return error;
  }
  assert.fail("the call succeeded");
}

test("two bots play a Classic game to its end while a spectator sees every version", async () => {
  const created = await client.createGame(QUICK_CLASSIC, { seed: SEED, seatNames: ["ada", "grace"] });
  const gameId = created.game!.gameId;
  const seen: Event[] = [];
  const spectating = (async () => {
    for await (const event of client.withToken(undefined).streamEvents(gameId)) {
      seen.push(event);
      if (isGameEnd(event)) {
        return;
      }
    }
  })();
  const tokens = [await client.joinGame(gameId, 0, "ada"), await client.joinGame(gameId, 1, "grace")];
  // the bots' seeds give a short game (385 versions today: every call and event costs the
  // suite CPU) that still has every kind of event a game to its end has, as asserted below
  const finals = await Promise.all(tokens.map((token, seat) =>
    playSeat(client.withToken(token), gameId, classicBot(seededRandom(seat + 8)))));
  await spectating;

  const final = (await client.getGame(gameId)).game!;
  assert.equal(final.status, GameStatus.FINISHED);
  assert.ok(["conquest", "turn_cap"].includes(final.outcome!.reason), final.outcome!.reason);
  assert.deepEqual([...final.outcome!.ranking].sort(), [0, 1]);
  for (const seatFinal of finals) {
    assert.equal(seatFinal.game!.version, final.version);
  }
  // every event once and in order, and at least one for every version the game went through
  assert.deepEqual(seen.map((e) => e.seq), Array.from({ length: Number(final.lastSeq) }, (_, i) => BigInt(i + 1)));
  const versions = new Set(seen.map((e) => e.version));
  for (let version = 0n; version <= final.version; version++) {
    assert.ok(versions.has(version), `the spectator saw no event of version ${version}`);
  }
  assert.ok(final.version > 50n, `a whole game has more than ${final.version} versions`);
  const kinds = new Set<string | undefined>(seen.map((e) =>
    (e.variant.case === "classic" ? e.variant.value.kind.case : e.variant.case)));
  for (const kind of ["armiesPlaced", "battleResolved", "territoryConquered", "armiesMoved", "cardDrawn",
    "cardsTraded", "turnEnded", "playerEliminated", "gameEnded"]) {
    assert.ok(kinds.has(kind), `the game had no ${kind} event: ${[...kinds].join(", ")}`);
  }
  console.log(`# ${final.outcome!.reason} at version ${final.version}, ${seen.length} events`);

  // every event in words from the shared text table: names, not ids or enum names
  const names = gameNames(await client.describeVariant(Variant.CLASSIC), ["ada", "grace"]);
  const lines = seen.map((event) => eventText(event, "classic", names));
  for (const line of lines) {
    assert.doesNotMatch(line, /[A-Z]{2,}_[A-Z_]+|(?<!\w)-1(?!\d)|undefined|NaN|[{}]/, line);
  }
  assert.ok(lines.some((line) => /^(ada|grace) attacked [A-Z][a-z]+.*, held by (ada|grace|the neutral), from [A-Z]/
    .test(line)), lines.slice(0, 8).join("\n"));
  assert.match(lines.at(-1)!, /^Game over: (ada|grace|no one) won /);

  // the seed survives exactly: CreateGame took it as a bigint, ExportGame returns it so
  const record = await client.withToken(created.hostToken).exportGame(gameId);
  assert.equal(record.seed, SEED);
  assert.notEqual(BigInt(Number(SEED)), SEED, "a number would have rounded this seed");
  assert.equal(BigInt(record.log.length), final.version);
  assert.equal(record.events.length, seen.length);

  // a stream resumed after any seq goes on from the next one, without a gap or a repeat
  const resumed: bigint[] = [];
  const stop = new AbortController();
  for await (const event of client.streamEvents(gameId, { afterSeq: 100n, signal: stop.signal })) {
    resumed.push(event.seq);
    if (resumed.length === 3) {
      stop.abort();
      break;
    }
  }
  assert.deepEqual(resumed, [101n, 102n, 103n]);
});

test("failed calls carry the service's reason from google.rpc.ErrorInfo", async () => {
  const created = await client.createGame(QUICK_CLASSIC, { seed: 5n });
  const gameId = created.game!.gameId;
  const tokens = [await client.joinGame(gameId, 0), await client.joinGame(gameId, 1)];
  const game = await client.getGame(gameId);
  const mover = game.game!.decision!.seats[0]!;
  const me = client.withToken(tokens[mover]);
  const other = client.withToken(tokens[1 - mover]);
  const legal = await me.legalActions(gameId);
  const action = legal.actions[0]!.action!;

  const notYours = await expectRiskError(other.submitAction(gameId, action, legal.version));
  assert.equal(notYours.code, Code.FailedPrecondition);
  assert.equal(notYours.reason, "NOT_YOUR_TURN");
  assert.equal(notYours.status, "FAILED_PRECONDITION");

  const first = await me.submitAction(gameId, action, legal.version, { requestId: "move-1" });
  const again = await me.submitAction(gameId, action, legal.version, { requestId: "move-1" });
  assert.equal(again.version, first.version, "the same request id is applied once");

  const stale = await expectRiskError(me.submitAction(gameId, action, legal.version));
  assert.equal(stale.code, Code.Aborted);
  assert.ok(stale.isStaleVersion);
  assert.equal(stale.currentVersion, first.version);

  const missing = await expectRiskError(client.getGame("00000000000000000000ff"));
  assert.equal(missing.code, Code.NotFound);
  assert.equal(missing.reason, "GAME_NOT_FOUND");
  const malformed = await expectRiskError(client.getGame("no-such-game"));
  assert.equal(malformed.code, Code.InvalidArgument);
  assert.equal(malformed.reason, "MALFORMED_REQUEST");

  const anonymous = await expectRiskError(client.legalActions(gameId));
  assert.equal(anonymous.code, Code.Unauthenticated);
  assert.equal(anonymous.reason, "MISSING_CREDENTIALS");
});

test("act re-reads and decides again after losing a version race", async () => {
  const created = await client.createGame(QUICK_CLASSIC, { seed: 11n, issueSeatTokens: true });
  const gameId = created.game!.gameId;
  const game = await client.getGame(gameId);
  const seat = client.withToken(created.seatTokens[game.game!.decision!.seats[0]!]);
  const start = game.game!.version;
  let decisions = 0;
  const reply = await seat.act(gameId, async (_game, legal) => {
    decisions++;
    if (decisions === 1) {
      // another client of the seat moves first: the choice below is now at a stale version
      await seat.submitAction(gameId, legal.actions[0]!.action!, legal.version);
    }
    return legal.actions[0]?.action;
  });
  assert.equal(decisions, 2, "act decided again after ABORTED / STALE_VERSION");
  assert.equal(reply?.version, start + 2n);
});

test("describeVariant gives the board to draw, by number or by name", async () => {
  const classic = await client.describeVariant(Variant.CLASSIC);
  assert.equal(classic.name, "classic");
  assert.equal(classic.map!.regions.length, 42);
  for (const region of classic.map!.regions) {
    for (const other of region.adjacent) {
      assert.ok(classic.map!.regions[other]!.adjacent.includes(region.id), "adjacency is symmetric");
    }
  }
  const players = classic.options.find((option) => option.name === "players")!;
  assert.equal(players.min, 2n, "64-bit bounds arrive as bigint");
  assert.deepEqual(await client.describeVariant("classic"), classic);
  const listed = await client.listVariants();
  assert.deepEqual(listed.map((variant) => variant.name), ["classic", "deep_space", "strike", "legacy"]);

  const unknown = await expectRiskError(client.describeVariant("chess"));
  assert.equal(unknown.code, Code.NotFound);
  assert.equal(unknown.reason, "VARIANT_NOT_FOUND");
});

test("a session plays moves on one stream with the unary calls' replies and reasons", async () => {
  const created = await client.createGame(QUICK_CLASSIC, { seed: 13n, issueSeatTokens: true });
  const gameId = created.game!.gameId;
  const game = await client.getGame(gameId);
  const mover = game.game!.decision!.seats[0]!;
  const me = client.withToken(created.seatTokens[mover]);
  const other = client.withToken(created.seatTokens[1 - mover]);
  const mine = me.session(gameId, { afterSeq: game.game!.lastSeq });
  const theirs = other.session(gameId, { afterSeq: game.game!.lastSeq });
  const legal = await me.legalActions(gameId);
  const action = legal.actions[0]!.action!;

  const refused = await expectRiskError(theirs.submit(action, legal.version));
  const unary = await expectRiskError(other.submitAction(gameId, action, legal.version));
  assert.equal(refused.reason, "NOT_YOUR_TURN");
  assert.deepEqual([refused.code, refused.reason, refused.metadata],
    [unary.code, unary.reason, unary.metadata]);

  const reply = await mine.submit(action, legal.version, "session-1");
  assert.equal(reply.version, legal.version + 1n);
  const again = await mine.submit(action, legal.version, "session-1");
  assert.equal(again.version, reply.version, "the same request id is applied once");
  const last = reply.events[reply.events.length - 1]!.seq;
  const heard: bigint[] = [];
  for await (const event of theirs.events()) {
    heard.push(event.seq);
    if (event.seq >= last) {
      break;
    }
  }
  assert.deepEqual(heard, reply.events.map((event) => event.seq),
    "the other seat's session hears the move's events, once and in order");
  await mine.close();
  await theirs.close();
});

test("over the HTTP port's WebSocket, sessions play a game and a spectator streams it", async () => {
  const httpUrl = process.env["RISK_HTTP_URL"];
  assert.ok(httpUrl, "set RISK_HTTP_URL to the service's HTTP port, e.g. http://127.0.0.1:8080");
  const socketClient = new RiskClient({ baseUrl: target, webSocketUrl: httpUrl });
  try {
    // a short game (432 moves today) with every kind of move the bots make, as asserted below
    const created = await socketClient.createGame(QUICK_CLASSIC, { seed: 11n, issueSeatTokens: true });
    const gameId = created.game!.gameId;
    const seen: bigint[] = [];
    const spectating = (async () => {
      for await (const event of socketClient.streamEvents(gameId)) {
        seen.push(event.seq);
        if (isGameEnd(event)) {
          return;
        }
      }
    })();
    const seats = created.seatTokens.map((token) => socketClient.withToken(token));
    const sessions = seats.map((seat) => seat.session(gameId, { acksOnly: true }));
    const decide = [classicBot(seededRandom(3)), classicBot(seededRandom(4))];

    // another seat's move is refused on the socket as on the gRPC session and the unary call
    const first = await seats[0]!.getGame(gameId);
    const mover = first.game!.decision!.seats[0]!;
    const legal = await seats[mover]!.legalActions(gameId);
    const refused = await expectRiskError(sessions[1 - mover]!.submit(legal.actions[0]!.action!, legal.version));
    const overGrpc = await expectRiskError(client.withToken(created.seatTokens[1 - mover])
      .session(gameId, { acksOnly: true }).submit(legal.actions[0]!.action!, legal.version));
    assert.equal(refused.reason, "NOT_YOUR_TURN");
    assert.deepEqual([refused.code, refused.reason, refused.metadata, refused.message],
      [overGrpc.code, overGrpc.reason, overGrpc.metadata, overGrpc.message]);

    // each session's reply says who decides next, and when the game is over
    let version = legal.version;
    let next = first.game!.decision;
    let outcome = first.game!.outcome;
    const moves = new Set<string | undefined>();
    while (outcome === undefined) {
      assert.ok(next, "a game not over has a decision");
      const seat = next.seats[0]!;
      const view = await seats[seat]!.getGame(gameId);
      assert.equal(view.game!.version, version, "the reply's version is the game's");
      const options = await seats[seat]!.legalActions(gameId);
      const action = await decide[seat]!(view, options);
      assert.ok(action, "the bot chose an action");
      moves.add(action.variant.case === "classic" ? action.variant.value.kind.case : action.variant.case);
      const reply = await sessions[seat]!.submit(action, options.version);
      assert.equal(reply.version, options.version + 1n);
      version = reply.version;
      next = reply.decision;
      outcome = reply.outcome;
    }
    await spectating;
    const final = (await socketClient.getGame(gameId)).game!;
    assert.equal(final.status, GameStatus.FINISHED);
    assert.equal(final.version, version);
    assert.deepEqual(final.outcome, outcome, "the last reply's outcome is the game's");
    assert.deepEqual([...moves].sort(), ["attack", "defend", "endAttack", "endTurn", "moveIn", "placeArmies",
      "tradeCards"], "the game went through every kind of move the bots make");
    assert.deepEqual(seen, Array.from({ length: Number(final.lastSeq) }, (_, i) => BigInt(i + 1)),
      "the spectator's WebSocket stream saw every event once and in order");
    await Promise.all(sessions.map((session) => session.close()));

    const unknown = socketClient.session("0123456789abcdef");
    const gone = await expectRiskError((async () => {
      for await (const _event of unknown.events()) { /* none: the game does not exist */ }
    })());
    assert.deepEqual([gone.code, gone.reason], [Code.NotFound, "GAME_NOT_FOUND"]);
  } finally {
    socketClient.close();
  }
});


test("an event: created, registered for with player tokens, started and seated", async () => {
  const organiser = client.withToken("node-organiser-secret");
  const label = `node-cup-${Date.now()}`;
  const created = await organiser.createEvent({
    event: label, format: EventFormat.SWISS, rounds: 1,
    options: { variant: { case: "classic", value: { players: 3,
      setup: ClassicSetupMode.RANDOM_DEAL, autoPlace: true, maxTurns: 2 } } },
  });
  assert.equal(created.status, EventStatus.REGISTRATION);
  assert.equal(created.tableSize, 3);
  const players = await Promise.all([0, 1, 2, 3].map(() => client.issuePlayerToken()));
  for (const [n, player] of players.slice(0, 3).entries()) {
    await client.withToken(player.token).registerEvent(label, `n${n}`);
  }
  const notOwner = await expectRiskError(client.withToken(players[0]!.token).startEvent(label));
  assert.equal(notOwner.reason, "NOT_TOURNAMENT_OWNER");
  const started = await organiser.startEvent(label);
  assert.equal(started.status, EventStatus.RUNNING);
  const late = await expectRiskError(client.withToken(players[3]!.token).registerEvent(label));
  assert.equal(late.reason, "EVENT_CLOSED");
  let event = await client.getEvent(label);
  for (let i = 0; i < 100 && !(event.rounds[0]?.seatedAtMs ?? 0n); i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    event = await client.getEvent(label);
  }
  const table = event.rounds[0]!.tables[0]!;
  assert.ok(table.gameId, "round 1 is seated");
  assert.deepEqual([...table.players].sort(), players.slice(0, 3).map((p) => p.playerId).sort());
  assert.equal(event.standings.length, 3);
});

