// The Node client's player calls against a real service (RISK_TARGET): player tokens, a
// correspondence game bound to two players on both their "my games", vacation, an invitation
// accepted, the player's stream resumed after a seq, and NOT_A_PLAYER for a seat token.
// tests/client/test_node_players.py builds the client and runs this after starting the service;
// it prints one JSON line of what it saw.
import assert from "node:assert/strict";

import { Code, RiskClient, RiskError } from "../../clients/node/dist/src/index.js";

const target = process.env.RISK_TARGET;
assert.ok(target, "set RISK_TARGET");
const client = new RiskClient({ baseUrl: target });
const DAY_MS = 86_400_000n;

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
  const ada = await client.issuePlayerToken();
  const bob = await client.issuePlayerToken();
  assert.notEqual(ada.playerId, bob.playerId);
  const A = client.withToken(ada.token);
  const B = client.withToken(bob.token);

  const created = await A.createGame({ variant: { case: "classic", value: { players: 2 } } },
    { seatPlayers: [ada.playerId, bob.playerId],
      clock: { turnSeconds: 2 * 86_400, vacationDays: 3 } });
  const gameId = created.game.gameId;
  const adaGame = await listed(A, gameId);
  const bobGame = await listed(B, gameId);
  assert.ok(adaGame && bobGame, "the game is on both players' lists");
  assert.deepEqual([adaGame.seat, bobGame.seat], [0, 1]);
  const turnSeat = adaGame.game.decision.seats[0];
  assert.equal(adaGame.yourTurn, turnSeat === 0);
  assert.equal(bobGame.yourTurn, turnSeat === 1);
  assert.ok(adaGame.game.deadlineMs > 0n, "a correspondence turn has a deadline");

  const mover = turnSeat === 0 ? A : B;
  const away = await mover.startVacation(gameId, 2);
  assert.equal(away.vacationLeftMs[turnSeat], DAY_MS);
  const back = await mover.endVacation(gameId);
  assert.ok(back.vacationLeftMs[turnSeat] > 2n * DAY_MS, "the days not taken come back");

  const second = await A.createGame({ variant: { case: "classic", value: { players: 2 } } });
  const secondId = second.game.gameId;
  await A.joinGame(secondId, 0, "ada");
  const invitation = await A.createInvitation(secondId, 1, { invitee: bob.playerId });
  const pending = await B.listInvitations();
  assert.deepEqual(pending.map((i) => i.invitationId), [invitation.invitationId]);
  const taken = await B.acceptInvitation({ gameId: secondId, invitationId: invitation.invitationId },
    "bob");
  assert.deepEqual([taken.seat, taken.playerId], [1, bob.playerId]);

  const heard = [];
  for await (const event of B.streamPlayerEvents()) {
    heard.push(event);
    if (event.gameId === secondId && event.kind.case === "started") break;
  }
  const kinds = heard.map((event) => event.kind.case);
  assert.ok(kinds.includes("invitation"), `an invitation on bob's stream: ${kinds}`);
  let resumed;
  for await (const event of B.streamPlayerEvents({ afterSeq: heard[0].seq })) {
    resumed = event;
    break;
  }
  assert.equal(resumed.seq, heard[0].seq + 1n, "a resumed stream starts just after the seq");

  let refused;
  try {
    await client.withToken(created.hostToken).listMyGames();
  } catch (error) {
    refused = error;
  }
  assert.ok(refused instanceof RiskError, `a RiskError: ${refused}`);
  assert.equal(refused.code, Code.PermissionDenied);
  assert.equal(refused.reason, "NOT_A_PLAYER");
  console.log(JSON.stringify({ ok: true, games: 2, kinds, resumedSeq: String(resumed.seq) }));
} finally {
  client.close();
}
