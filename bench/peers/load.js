// Load generator for the peers (boardgame.io over socket.io, Colyseus over colyseus.js), driven
// by bench/peers.py through stdin/stdout (one JSON object per output line).
//
//   node bench/peers/load.js PEER URL MODE [ARGS]      PEER: bgio | colyseus
//
// Modes:
//   moves GAMES WARMUP_S SECONDS  GAMES matches, one seated client each, every client sends its
//                                 next "place" move as soon as the previous one is acknowledged
//                                 (bgio: the state update naming the next stateID; Colyseus: the
//                                 room's "ok" reply). Prints {"phase":"start"} when the measured
//                                 part begins and {"phase":"end", moves, seconds, p50, p99}.
//   games COUNT                   creates COUNT idle matches (no client left in them), prints
//                                 {"created": COUNT}.
//   driver                        creates one match and seats itself; prints {"match": id}; then
//                                 reads commands: "drive RATE SECONDS" (moves on a fixed schedule)
//                                 and "burst N" (back to back) print {"acks": {version: t_ns}};
//                                 "quit" ends.
//   watch MATCH COUNT             COUNT spectators of MATCH; prints {"ready": n} once all are
//                                 synced, then on "stop" prints {"received": [[[version, t_ns]...]
//                                 per watcher],
//                                 "bytes": size of one update message}.
// Times are process.hrtime (CLOCK_MONOTONIC on Linux, as Python's time.monotonic_ns).
'use strict';

const readline = require('readline');
const board = require('./board');

const [peer, url, mode, ...rest] = process.argv.slice(2);
const now = () => Number(process.hrtime.bigint());
const out = (obj) => process.stdout.write(JSON.stringify(obj) + '\n');
const territoryAt = (i) => board.SEAT0_TERRITORIES[i % board.SEAT0_TERRITORIES.length];

// ---- boardgame.io --------------------------------------------------------------------------

const GAME = 'risk-place';

async function post(path, body) {
  const response = await fetch(url + path, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return response.json();
}

function bgioSocket() {
  const { io } = require('socket.io-client');
  return io(`${url}/${GAME}`, { transports: ['websocket'], forceNew: true });
}

// A seated bgio client: sync, then `move()` resolves with the version once acknowledged.
async function bgioSeat(matchID) {
  const { playerCredentials } = await post(`/games/${GAME}/${matchID}/join`,
    { playerID: '0', playerName: 'p0' });
  const socket = bgioSocket();
  let stateID = null;
  let waiting = null;
  const synced = new Promise((resolve) => {
    socket.on('sync', (_m, info) => { stateID = info.state._stateID; resolve(); });
  });
  socket.on('update', (_m, state) => {
    if (waiting && state._stateID > stateID) {
      stateID = state._stateID;
      const done = waiting;
      waiting = null;
      done(state.G.version);
    }
  });
  socket.emit('sync', matchID, '0', playerCredentials, 2);
  await synced;
  let n = 0;
  return {
    match: matchID,
    move() {
      const action = { type: 'MAKE_MOVE', payload: {
        type: 'place', args: [territoryAt(n++)], playerID: '0', credentials: playerCredentials } };
      return new Promise((resolve) => {
        waiting = resolve;
        socket.emit('update', action, stateID, matchID, '0');
      });
    },
    close() { socket.close(); },
  };
}

async function bgioCreate() {
  return (await post(`/games/${GAME}/create`, { numPlayers: board.SEATS })).matchID;
}

async function bgioWatch(matchID, onVersion) {
  const socket = bgioSocket();
  let bytes = 0;
  await new Promise((resolve) => {
    socket.on('sync', () => resolve());
    socket.on('update', (_m, state) => {
      if (!bytes) bytes = JSON.stringify(['update', _m, state]).length;
      onVersion(state.G.version);
    });
    socket.emit('sync', matchID, null, null, 2);
  });
  return { bytes: () => bytes, close() { socket.close(); } };
}

// ---- Colyseus -----------------------------------------------------------------------------

function colyseusClient() {
  const { Client } = require('colyseus.js');
  return new Client(url.replace(/^http/, 'ws'));
}

async function colyseusSeat(room) {
  let waiting = null;
  room.onMessage('ok', (version) => {
    const done = waiting;
    waiting = null;
    if (done) done(version);
  });
  room.onMessage('error', (reason) => { throw new Error(`move refused: ${reason}`); });
  let n = 0;
  return {
    match: room.roomId,
    move() {
      return new Promise((resolve) => {
        waiting = resolve;
        room.send('place', territoryAt(n++));
      });
    },
    close() { room.leave(); },
  };
}

async function colyseusWatch(roomId, onVersion) {
  const room = await colyseusClient().joinById(roomId);
  let bytes = 0;
  const ws = room.connection && room.connection.transport && room.connection.transport.ws;
  if (ws) {
    ws.addEventListener('message', (event) => {
      const size = event.data.byteLength || event.data.length || 0;
      if (bytes === 0 && room.state && room.state.version > 0) bytes = size;
    });
  }
  await new Promise((resolve) => {
    room.onStateChange((state) => { onVersion(state.version); resolve(); });
  });
  return { bytes: () => bytes, close() { room.leave(); } };
}

// ---- per-peer entry points ------------------------------------------------------------------

const PEER = {
  bgio: {
    seat: async () => bgioSeat(await bgioCreate()),
    idle: async () => { await bgioCreate(); },
    watch: bgioWatch,
  },
  colyseus: {
    seat: async () => colyseusSeat(await colyseusClient().create('risk')),
    idle: async () => { await (await colyseusClient().create('risk')).leave(); },
    watch: colyseusWatch,
  },
}[peer];

// ---- modes ----------------------------------------------------------------------------------

function percentile(sorted, q) {
  if (!sorted.length) return NaN;
  return sorted[Math.max(1, Math.ceil((q / 100) * sorted.length)) - 1];
}

async function moves(games, warmupS, seconds) {
  const seats = [];
  for (let i = 0; i < games; i++) seats.push(await PEER.seat());
  const latencies = [];
  let recording = false;
  let stopAt = now() + warmupS * 1e9;
  async function loop(seat) {
    while (now() < stopAt) {
      const t0 = now();
      await seat.move();
      if (recording) latencies.push(now() - t0);
    }
  }
  await Promise.all(seats.map(loop));
  recording = true;
  out({ phase: 'start' });
  const started = now();
  stopAt = started + seconds * 1e9;
  await Promise.all(seats.map(loop));
  const took = (now() - started) / 1e9;
  latencies.sort((a, b) => a - b);
  out({ phase: 'end', moves: latencies.length, seconds: took,
    p50_ms: percentile(latencies, 50) / 1e6, p99_ms: percentile(latencies, 99) / 1e6 });
  seats.forEach((s) => s.close());
}

async function idleGames(count) {
  for (let i = 0; i < count; i++) await PEER.idle();
  out({ created: count });
}

function commands(handle) {
  const lines = readline.createInterface({ input: process.stdin });
  lines.on('close', () => process.exit(0)); // the bench went away: do not linger
  lines.on('line', (line) => { handle(line.trim().split(/\s+/)).catch((e) => {
    console.error(e);
    process.exit(1);
  }); });
}

async function driver() {
  const seat = await PEER.seat();
  out({ match: seat.match });
  commands(async ([command, a, b]) => {
    const acks = {};
    if (command === 'drive') {
      const rate = Number(a);
      const start = now();
      for (let n = 0; (now() - start) / 1e9 < Number(b); n++) {
        acks[await seat.move()] = now();
        const wait = (start + ((n + 1) / rate) * 1e9 - now()) / 1e6;
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
    } else if (command === 'burst') {
      for (let n = 0; n < Number(a); n++) acks[await seat.move()] = now();
    } else {
      seat.close();
      process.exit(0);
    }
    out({ acks });
  });
}

async function watch(matchID, count) {
  const received = []; // per watcher: [version, t_ns] for each message, in arrival order
  const watchers = [];
  const batch = 50; // connect in batches so the server is not flooded with handshakes at once
  for (let i = 0; i < count; i += batch) {
    const n = Math.min(batch, count - i);
    watchers.push(...await Promise.all(Array.from({ length: n }, () => {
      const mine = [];
      received.push(mine);
      return PEER.watch(matchID, (version) => mine.push([version, now()]));
    })));
  }
  out({ ready: watchers.length });
  commands(async () => {
    watchers.forEach((w) => w.close());
    // a pipe write is asynchronous here: exit only once the (large) line is flushed
    process.stdout.write(JSON.stringify({
      received, bytes: Math.max(0, ...watchers.map((w) => w.bytes())),
    }) + '\n', () => process.exit(0));
  });
}

const main = {
  moves: () => moves(Number(rest[0]), Number(rest[1]), Number(rest[2])),
  games: () => idleGames(Number(rest[0])),
  driver,
  watch: () => watch(rest[0], Number(rest[1])),
}[mode];
main().catch((error) => { console.error(error); process.exit(1); });
