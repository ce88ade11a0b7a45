// Colyseus 0.16 (@colyseus/core + the ws transport, in-memory presence) with one room type,
// "risk": schema state of 42 territories (owner, armies) and a version; the "place" message
// handler checks the sender's seat owns the territory (board.js), adds an army, bumps the
// version and acknowledges the move to its sender with that version. The room's creator takes
// seat 0; everyone else who joins is a spectator and gets the state patches (default patch rate,
// 20 per second).
//
//   node bench/peers/colyseus_server.js --port P
//
// Prints "listening P" once it accepts connections.
'use strict';

const http = require('http');
const { Server, Room } = require('@colyseus/core');
const { WebSocketTransport } = require('@colyseus/ws-transport');
const { Schema, ArraySchema, defineTypes } = require('@colyseus/schema');
const board = require('./board');

const port = parseInt(process.argv[process.argv.indexOf('--port') + 1], 10);

class Territory extends Schema {}
defineTypes(Territory, { owner: 'uint8', armies: 'uint32' });

class BoardState extends Schema {}
defineTypes(BoardState, { territories: [Territory], version: 'uint32' });

class RiskRoom extends Room {
  onCreate() {
    const state = new BoardState();
    state.territories = new ArraySchema();
    for (let t = 0; t < board.TERRITORIES; t++) {
      const territory = new Territory();
      territory.owner = board.ownerOf(t);
      territory.armies = 1;
      state.territories.push(territory);
    }
    state.version = 0;
    this.setState(state);
    this.owners = Array.from({ length: board.TERRITORIES }, (_, t) => board.ownerOf(t));
    this.seated = false;
    this.autoDispose = false; // idle rooms stay, as a stored game does
    this.onMessage('place', (client, territory) => {
      if (client.userData.seat === undefined
          || !board.isLegal(this.owners, client.userData.seat, territory)) {
        client.send('error', 'illegal');
        return;
      }
      this.state.territories[territory].armies += 1;
      this.state.version += 1;
      client.send('ok', this.state.version);
    });
  }

  onJoin(client) {
    client.userData = {};
    if (!this.seated) {
      this.seated = true;
      client.userData.seat = 0;
    }
  }
}

const server = new Server({ transport: new WebSocketTransport({ server: http.createServer() }) });
server.define('risk', RiskRoom);
server.listen(port).then(() => console.log(`listening ${port}`));
