// The move both peers validate, shared by their servers: "place an army" on a territory.
//
// A board of 42 territories dealt round-robin to 2 seats (as Risk's 42). A move names a
// territory; it is legal only if the moving seat owns it (the ownership check our service's
// classic rules also make for a placement), and it adds one army there. Nothing else of Risk's
// rules (phases, reinforcement counts, combat) is modelled: the peers' figures are an upper bound.
'use strict';

const TERRITORIES = 42;
const SEATS = 2;

function ownerOf(territory) {
  return territory % SEATS;
}

// The territories seat 0 owns, cycled through by the movers.
const SEAT0_TERRITORIES = Array.from({ length: TERRITORIES }, (_, t) => t).filter(
  (t) => ownerOf(t) === 0,
);

function isLegal(owner, seat, territory) {
  return Number.isInteger(territory) && territory >= 0 && territory < TERRITORIES
    && owner[territory] === seat;
}

module.exports = { TERRITORIES, SEATS, ownerOf, SEAT0_TERRITORIES, isLegal };
