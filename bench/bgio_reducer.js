// boardgame.io 0.50.2 reducer throughput: apply N trivial moves through the game reducer.
//
//   node bench/bgio_reducer.js [--moves 200000] [--warmup 20000] [--modules DIR] [--undo]
//
// Builds a game with one move, `add: ({ G }) => { G.n += 1; }` (0.50 move API), initialises it
// with `InitializeGame` and drives `CreateGameReducer({ game })` (the server-side reducer, as a
// master applies client moves: validation of move name and active player, plugins, flow
// triggers, deltalog) directly, one MAKE_MOVE action at a time. The whole run is one turn of
// player "0", so by default `disableUndo: true` keeps the reducer from copying an ever-growing
// undo stack on every move (which would make the run quadratic); `--undo` leaves it on.
// `--modules DIR` names the node_modules folder holding boardgame.io (default: resolved as usual).
// Prints one JSON line: {"moves": N, "seconds": s, "moves_per_s": r, ...}.
'use strict';

const path = require('path');

function option(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

const moves = parseInt(option('--moves', '200000'), 10);
const warmup = parseInt(option('--warmup', '20000'), 10);
const modules = option('--modules', null);
const undo = process.argv.includes('--undo');

function load(name) {
  return require(modules ? require.resolve(name, { paths: [path.resolve(modules)] }) : name);
}

const internal = load('boardgame.io/internal');
const { InitializeGame, CreateGameReducer } = internal;
const version = load('boardgame.io/package.json').version;

const game = {
  name: 'trivial',
  setup: () => ({ n: 0 }),
  moves: {
    add: ({ G }) => {
      G.n += 1;
    },
  },
  disableUndo: !undo,
};

// Same object as the library's (unexported) `makeMove('add', [], '0')` action creator.
const action = { type: 'MAKE_MOVE', payload: { type: 'add', args: [], playerID: '0' } };

function run(count) {
  const reducer = CreateGameReducer({ game });
  let state = InitializeGame({ game, numPlayers: 2 });
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) {
    state = reducer(state, action);
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (state.G.n !== count) {
    throw new Error(`expected G.n == ${count} after ${count} moves, got ${state.G.n}`);
  }
  return seconds;
}

if (warmup > 0) run(warmup);
const seconds = run(moves);
console.log(JSON.stringify({
  library: `boardgame.io@${version}`,
  node: process.version,
  moves,
  seconds: Number(seconds.toFixed(4)),
  moves_per_s: Math.round(moves / seconds),
  undo,
}));
