// boardgame.io 0.50.2's own server (Koa + socket.io, in-memory storage) with one game,
// "risk-place": a `place` move that checks the mover owns the territory (board.js).
//
//   node bench/peers/bgio_server.js --port P
//
// Prints "listening P" once it accepts connections. Matches are created and joined through the
// server's lobby REST API (POST /games/risk-place/create, /games/risk-place/:id/join) and played
// over socket.io, as boardgame.io's own clients do. `disableUndo` keeps the master from copying
// an undo stack on every move (the whole run is one turn of seat 0).
'use strict';

const { Server, INVALID_MOVE } = require('boardgame.io/server');
const board = require('./board');

const port = parseInt(process.argv[process.argv.indexOf('--port') + 1], 10);

const game = {
  name: 'risk-place',
  setup: () => ({
    owner: Array.from({ length: board.TERRITORIES }, (_, t) => board.ownerOf(t)),
    armies: Array.from({ length: board.TERRITORIES }, () => 1),
    version: 0,
  }),
  moves: {
    place: ({ G, playerID }, territory) => {
      if (!board.isLegal(G.owner, Number(playerID), territory)) return INVALID_MOVE;
      G.armies[territory] += 1;
      G.version += 1;
      return undefined;
    },
  },
  disableUndo: true,
};

const server = Server({ games: [game], origins: ['*'] });
server.run({ port }, () => console.log(`listening ${port}`));
