/** The risk.v1 TypeScript client: `RiskClient`, its errors, a Classic bot, and the messages. */
export {
  Backoff,
  CONFLICT_BACKOFF,
  type CreateCampaignOptions,
  type CreateGameOptions,
  type Decide,
  type InvitationRef,
  type InviteOptions,
  type MatchOptions,
  DEFAULT_BASE_URL,
  isGameEnd,
  isOver,
  RESEND_BACKOFF,
  RiskClient,
  type RiskClientOptions,
  STREAM_BACKOFF,
  type StreamOptions,
  type SubmitOptions,
} from "./client.js";
export { classicBot, playSeat, seededRandom } from "./bots.js";
export { errorFromStatus, GameSession } from "./session.js";
export { errorFromJson } from "./websocket.js";
export { Code, ERROR_DOMAIN, RiskError, statusName } from "./errors.js";
export { actionText, eventText, gameNames } from "./event_text.js";
export { type Names, namesOf, Renderer } from "./text.js";
export * from "./gen/risk/v1/classic_pb.js";
export * from "./gen/risk/v1/common_pb.js";
export * from "./gen/risk/v1/errors_pb.js";
export * from "./gen/risk/v1/events_pb.js";
export * from "./gen/risk/v1/game_pb.js";
export * from "./gen/risk/v1/legacy_pb.js";
export * from "./gen/risk/v1/lifecycle_pb.js";
export * from "./gen/risk/v1/matchmaking_pb.js";
export * from "./gen/risk/v1/players_pb.js";
export * from "./gen/risk/v1/ratings_pb.js";
export * from "./gen/risk/v1/player_games_pb.js";
export * from "./gen/risk/v1/service_pb.js";
export * from "./gen/risk/v1/session_pb.js";
export * from "./gen/risk/v1/variant_pb.js";
