/**
 * This client's messages in sentences: the renderer of ./text.ts (the text table kept once in
 * the service's rules package, docs/text.md) fed with the JSON mapping of an Event or Action
 * (every field written at its default, as the HTTP port writes them).
 */
import { toJson } from "@bufbuild/protobuf";

import { type Action, ActionSchema, type Event, EventSchema } from "./gen/risk/v1/game_pb.js";
import { type VariantDescription, VariantDescriptionSchema } from "./gen/risk/v1/variant_pb.js";
import { type Names, namesOf, Renderer } from "./text.js";

const WRITE = { alwaysEmitImplicit: true } as const;
const DEFAULT = new Renderer("en");

/** What ids are called in one game: the variant's regions and cards, the seats' names, and
 * the viewer's seat (said "you"; -1 for a spectator). */
export function gameNames(description: VariantDescription, seats: string[] = [], viewer = -1): Names {
  return namesOf(toJson(VariantDescriptionSchema, description, WRITE), seats, seats.length, viewer);
}

/** "Seat 0 claimed Alaska", "You attacked Kamchatka, held by ada, from Alaska with 3 dice". */
export function eventText(event: Event, variant: string, names: Names): string {
  return DEFAULT.event(toJson(EventSchema, event, WRITE), variant, names);
}

/** "Attack Kamchatka from Alaska with 3 dice"; with `maxCount`, a count offered as a range. */
export function actionText(action: Action, names: Names, maxCount = 0): string {
  const variant = (action.variant.case || "").replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return DEFAULT.action(toJson(ActionSchema, action, WRITE), variant, names, maxCount);
}
