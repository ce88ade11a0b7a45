// The Node client's campaign bound to players against a real service (RISK_TARGET): three
// player tokens; ada creates a Legacy campaign whose seats are hers, bob's and cy's
// (createCampaign's seatPlayers) and starts its first game with her own token; the game's
// seats name the players, each lists it as theirs, each moves in turn with their own token,
// and another player's token on the seat to move is WRONG_SEAT. tests/client/test_node_campaign_players.py
// builds the client and runs this; it prints one JSON line of what it saw.
import assert from "node:assert/strict";

import { Code, RiskClient, RiskError } from "../../clients/node/dist/src/index.js";

const target = process.env.RISK_TARGET;
assert.ok(target, "set RISK_TARGET");
const client = new RiskClient({ baseUrl: target });

async function listed(who, gameId) {
  const deadline = Date.now() + 10_000; // the list is an index updated just after the commit
  for (;;) {
    const games = [];
    for await (const mine of who.myGames()) games.push(mine);
    const found = games.find((mine) => mine.game?.gameId === gameId);
    if (found || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

try {
  const issued = [];
  for (let i = 0; i < 3; i++) issued.push(await client.issuePlayerToken());
  const ids = issued.map((p) => p.playerId);
  const [A, B, C] = issued.map((p) => client.withToken(p.token));
  // (faction, power): Mechaniker, Bear, Khan, as tests/service/test_campaign_service.py
  const created = await A.createCampaign(
    [{ faction: 1, power: 1 }, { faction: 2, power: 3 }, { faction: 4, power: 7 }],
    { seatNames: ["ada", "bob", "cy"], seatPlayers: ids });
  assert.deepEqual(created.campaign.seatPlayers, ids);
  assert.equal(created.seatTokens.length, 3);
  const started = await A.startCampaignGame(created.campaign.campaignId, { seed: 4n });
  const gameId = started.game.gameId;
  assert.deepEqual(started.game.seats.map((s) => s.playerId), ids);
  const seats = [];
  for (const who of [A, B, C]) seats.push((await listed(who, gameId))?.seat);
  assert.deepEqual(seats, [0, 1, 2], "the campaign's game is on each player's list");

  // six moves, each by the player whose turn it is, with their own token; before the
  // first, the next player's token on that seat is refused
  const tokens = [A, B, C];
  const played = [];
  for (let moves = 0; moves < 6; moves++) {
    const seat = (await A.getGame(gameId)).game.decision.seats[0];
    if (moves === 0) {
      const legal = await tokens[seat].legalActions(gameId);
      let refused;
      try {
        await tokens[(seat + 1) % 3].submitAction(gameId, legal.actions[0].action,
          legal.version, { seat });
      } catch (error) {
        refused = error;
      }
      assert.ok(refused instanceof RiskError, String(refused));
      assert.equal(refused.code, Code.PermissionDenied);
      assert.equal(refused.reason, "WRONG_SEAT");
    }
    const done = await tokens[seat].act(gameId, (_game, legal) => legal.actions[0].action);
    assert.ok(done, "the player's own token acts for their seat");
    played.push(seat);
  }
  console.log(JSON.stringify({ ok: true, gameId, seats, played }));
} finally {
  client.close();
}
