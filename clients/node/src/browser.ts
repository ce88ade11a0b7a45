/**
 * What the web app (service/risk_service/web) needs of protobuf on its WebSockets, bundled by
 * scripts/bundle-web.sh with @bufbuild/protobuf and the generated schemas into one ES module,
 * `risk_service/web/protobuf.js` (never edited by hand; docs/web.md, "Protocols").
 *
 * The WebSocket carries binary protobuf only, and the app otherwise speaks JSON: so messages
 * go in as the JSON the app already builds (protobuf's canonical JSON mapping) and come out as
 * the same JSON the HTTP port's JSON codec writes (every field without presence written even
 * at its default, 64-bit integers as strings), and the views read a WebSocket's events exactly
 * as they read a Connect stream's.
 */
import {
  createRegistry,
  fromBinary,
  fromJson,
  type JsonObject,
  type JsonValue,
  toBinary,
  toJson,
} from "@bufbuild/protobuf";

import { file_google_rpc_error_info } from "./gen/google/rpc/error_info_pb.js";
import { EventSchema } from "./gen/risk/v1/game_pb.js";
import { file_risk_v1_service } from "./gen/risk/v1/service_pb.js";
import {
  ResignResponseSchema,
  StreamEventsRequestSchema,
  StreamEventsResponseSchema,
  SubmitActionResponseSchema,
} from "./gen/risk/v1/service_pb.js";
import {
  file_risk_v1_session,
  SessionRequestSchema,
  SessionResponseSchema,
} from "./gen/risk/v1/session_pb.js";

// every message the service's files name (an `extension` variant's Any included)
const registry = createRegistry(file_risk_v1_service, file_risk_v1_session,
  file_google_rpc_error_info);
const WRITE = { alwaysEmitImplicit: true, registry };
const READ = { ignoreUnknownFields: true, registry };

/** A StreamEventsRequest ({gameId, afterSeq, maxBatch}) as its bytes. */
export function streamRequest(request: JsonObject): Uint8Array {
  return toBinary(StreamEventsRequestSchema, fromJson(StreamEventsRequestSchema, request, READ));
}

/** A StreamEventsResponse's bytes as JSON ({event} or {events: [...]}). */
export function streamReply(data: Uint8Array): JsonValue {
  return toJson(StreamEventsResponseSchema, fromBinary(StreamEventsResponseSchema, data), WRITE);
}

/** A SessionRequest ({open: ...}, {submit: ...} or {resign: ...}) as its bytes. */
export function sessionRequest(request: JsonObject): Uint8Array {
  return toBinary(SessionRequestSchema, fromJson(SessionRequestSchema, request, READ));
}

/** A SessionResponse, with the unary reply of an ack decoded (see `sessionReply`). */
export type SessionReply =
  | { event: JsonValue }
  | { ack: { requestId: string; submitted?: JsonValue; resigned?: JsonValue } }
  | { error: { requestId: string; status: Uint8Array } }
  | Record<string, never>;

/**
 * A SessionResponse's bytes: `{event}` as JSON, `{ack: {requestId, submitted | resigned}}`
 * with the unary call's reply decoded to JSON, or `{error: {requestId, status}}` with the
 * google.rpc.Status's bytes (api.js reads its ErrorInfo, as for gRPC-Web's trailer).
 */
export function sessionReply(data: Uint8Array): SessionReply {
  const reply = fromBinary(SessionResponseSchema, data);
  switch (reply.kind.case) {
    case "event":
      return { event: toJson(EventSchema, reply.kind.value, WRITE) };
    case "ack": {
      const { requestId, reply: answer } = reply.kind.value;
      if (answer.case === "submitted") {
        return { ack: { requestId, submitted: toJson(SubmitActionResponseSchema,
          fromBinary(SubmitActionResponseSchema, answer.value), WRITE) } };
      }
      if (answer.case === "resigned") {
        return { ack: { requestId, resigned: toJson(ResignResponseSchema,
          fromBinary(ResignResponseSchema, answer.value), WRITE) } };
      }
      return { ack: { requestId } };
    }
    case "error":
      return { error: { requestId: reply.kind.value.requestId, status: reply.kind.value.status } };
    default:
      return {};
  }
}
