/**
 * Create a 2-player Classic game, seat two bots, play it to its end while a spectator streams
 * it, and print the outcome:
 *
 *   node dist/examples/play.js [http://127.0.0.1:50051]
 */
import { classicBot, isGameEnd, playSeat, RiskClient, RiskError, seededRandom } from "../src/index.js";

const baseUrl = process.argv[2] ?? process.env["RISK_TARGET"] ?? "http://127.0.0.1:50051";
const client = new RiskClient({ baseUrl });
try {
  // any uint64 seed; a bigint, so even one above 2^53 arrives exact
  const created = await client.createGame({ variant: { case: "classic", value: { players: 2 } } },
    { seed: 18_446_744_073_709_551_557n, seatNames: ["ada", "grace"] });
  const gameId = created.game!.gameId;
  console.log(`game ${gameId} created`);

  // a spectator (no token) follows the stream from the first event
  const spectator = client.withToken(undefined);
  const watched = (async () => {
    let count = 0;
    for await (const event of spectator.streamEvents(gameId)) {
      count++;
      if (isGameEnd(event)) {
        return { count, lastSeq: event.seq };
      }
    }
    throw new Error("the stream ended before the game did");
  })();

  const tokens = [await client.joinGame(gameId, 0, "ada"), await client.joinGame(gameId, 1, "grace")];
  const finals = await Promise.all(tokens.map((token, seat) =>
    playSeat(client.withToken(token), gameId, classicBot(seededRandom(seat + 1)))));
  const { count, lastSeq } = await watched;

  const summary = finals[0]!.game!;
  console.log(`over at version ${summary.version}: winner seat ${summary.outcome?.winner}` +
    ` (${summary.outcome?.reason}); the spectator saw ${count} events, last seq ${lastSeq}`);

  const record = await client.withToken(created.hostToken).exportGame(gameId);
  console.log(`export: seed ${record.seed}, ${record.log.length} log entries`);
} catch (error) {
  const failure = RiskError.from(error);
  console.error(`failed: ${failure.status} ${failure.reason}: ${failure.message}`);
  process.exitCode = 1;
} finally {
  client.close();
}
