// The Node client's rating calls against a real service (RISK_TARGET): three players finish a
// rated game made with createGame({ rated: true }); getRating and getLeaderboard read the
// result, and the leaderboard around a player who is not on it is NOT_FOUND / NOT_RATED.
// tests/service/test_ratings_node.py builds the client and runs this after starting the
// service; it prints one JSON line of what it saw.
import assert from "node:assert/strict";

import { Code, RiskClient, RiskError, Variant } from "../../clients/node/dist/src/index.js";

const target = process.env.RISK_TARGET;
assert.ok(target, "set RISK_TARGET");
const client = new RiskClient({ baseUrl: target });

try {
  const players = [];
  for (let i = 0; i < 3; i++) players.push(await client.issuePlayerToken());
  const ids = players.map((p) => p.playerId);
  const created = await client.withToken(players[0].token).createGame(
    { variant: { case: "classic", value: { players: 3 } } },
    { seatPlayers: ids, rated: true, seed: 9n });
  const gameId = created.game.gameId;
  for (const loser of [2, 1]) await client.withToken(players[loser].token).resign(gameId);

  const deadline = Date.now() + 20_000; // applied just after the ending commit
  let winner;
  for (;;) {
    winner = await client.getRating(ids[0], Variant.CLASSIC);
    if (winner.rating.games === 1 || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.equal(winner.rating.games, 1);
  assert.equal(winner.rating.rank, 1);
  assert.equal(winner.history[0].gameId, gameId);
  assert.equal(winner.history[0].rank, 1);
  const board = await client.getLeaderboard(Variant.CLASSIC, { pageSize: 10 });
  assert.deepEqual(board.entries.map((e) => e.rating.playerId), ids);
  assert.equal(board.total, 3);
  const around = await client.getLeaderboard(Variant.CLASSIC, { aroundPlayer: ids[2], pageSize: 1 });
  assert.deepEqual(around.entries.map((e) => e.rank), [3]);
  let refused;
  try {
    await client.getLeaderboard(Variant.CLASSIC, { aroundPlayer: "p-nobody" });
  } catch (error) {
    refused = error;
  }
  assert.ok(refused instanceof RiskError, "around a player not on the board is refused");
  assert.equal(refused.code, Code.NotFound);
  assert.equal(refused.reason, "NOT_RATED");
  console.log(JSON.stringify({ ok: true, rating: winner.rating.rating, total: board.total }));
} finally {
  client.close();
}
