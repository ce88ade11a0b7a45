// The Node client's matchmaking calls against a real service (RISK_TARGET): three players ask
// for a classic 3-table, each is MATCHED into the one game with their own seat; a fourth
// request is cancelled; ALREADY_QUEUED for a second request. Run by test_matchmaking_node.py
// after it builds the client; prints one JSON line of what it saw.
import assert from "node:assert/strict";

import { Code, MatchStatus, RiskClient, RiskError, Variant } from "../../clients/node/dist/src/index.js";

const target = process.env.RISK_TARGET;
assert.ok(target, "set RISK_TARGET");
const client = new RiskClient({ baseUrl: target });

try {
  const players = [];
  for (let n = 0; n < 4; n++) {
    const issued = await client.issuePlayerToken();
    players.push({ id: issued.playerId, as: client.withToken(issued.token) });
  }
  const tickets = [];
  for (const [n, p] of players.slice(0, 3).entries()) {
    tickets.push(await p.as.requestMatch(Variant.CLASSIC, { sizes: [3], displayName: `p${n}` }));
  }
  const done = [];
  for (const [n, p] of players.slice(0, 3).entries()) {
    done.push(await p.as.waitForMatch(tickets[n].ticketId, { pollMs: 100, timeoutMs: 30_000 }));
  }
  assert.ok(done.every((t) => t.status === MatchStatus.MATCHED));
  assert.equal(new Set(done.map((t) => t.gameId)).size, 1);
  assert.deepEqual(done.map((t) => t.seat).sort(), [0, 1, 2]);
  const game = (await players[0].as.getGame(done[0].gameId)).game;
  assert.deepEqual(game.seats.map((s) => s.playerId), players.slice(0, 3).map((p) => p.id));

  const last = players[3].as;
  const waiting = await last.requestMatch(Variant.CLASSIC, { sizes: [5] });
  assert.equal(waiting.status, MatchStatus.WAITING);
  let refused = "";
  try {
    await last.requestMatch(Variant.STRIKE, { sizes: [3] });
  } catch (error) {
    assert.ok(error instanceof RiskError);
    assert.equal(error.code, Code.FailedPrecondition);
    refused = error.reason;
  }
  assert.equal(refused, "ALREADY_QUEUED");
  const cancelled = await last.cancelMatch(waiting.ticketId);
  assert.equal(cancelled.status, MatchStatus.CANCELLED);
  console.log(JSON.stringify({ ok: true, gameId: done[0].gameId, refused }));
} finally {
  client.close();
}
