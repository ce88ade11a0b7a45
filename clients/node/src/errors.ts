/**
 * One error type for every failed call: the gRPC status code, and the service's stable reason
 * with its metadata, read from the google.rpc.ErrorInfo in the status details
 * (`grpc-status-details-bin`). Callers branch on `reason` (the names of risk.v1.ServiceReason
 * and risk.v1.RuleReason, listed in proto/risk/v1/errors.proto) and fall back on `code` for a
 * reason they do not know: the service may add reasons.
 */
import { Code, ConnectError } from "@connectrpc/connect";

import { ErrorInfoSchema } from "./gen/google/rpc/error_info_pb.js";

export { Code };

/** The domain of every ErrorInfo the service sends. */
export const ERROR_DOMAIN = "risk.v1";

export class RiskError extends Error {
  override readonly name = "RiskError";

  constructor(
    /** The status code (Connect's codes are gRPC's, by number). */
    readonly code: Code,
    /** The ErrorInfo reason, e.g. "STALE_VERSION"; "" when the status carried none. */
    readonly reason: string,
    /** ErrorInfo metadata: always "message", sometimes "current_version", "last_seq", ... */
    readonly metadata: Readonly<Record<string, string>>,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** The status code's gRPC name, e.g. "ABORTED". */
  get status(): string {
    return statusName(this.code);
  }

  /** The game moved past `expected_version`: re-read and decide again. */
  get isStaleVersion(): boolean {
    return this.code === Code.Aborted && this.reason === "STALE_VERSION";
  }

  /** The service or the connection to it failed; the same request may be resent. */
  get isTransient(): boolean {
    return this.code === Code.Unavailable || this.code === Code.DeadlineExceeded;
  }

  /** `current_version` of a STALE_VERSION answer, when the service knew it. */
  get currentVersion(): bigint | undefined {
    return optionalBigint(this.metadata["current_version"]);
  }

  /** `last_seq` of a GAME_ROLLED_BACK or SUBSCRIBER_TOO_SLOW answer. */
  get lastSeq(): bigint | undefined {
    return optionalBigint(this.metadata["last_seq"]);
  }

  /** Any thrown value as a RiskError (a RiskError is returned as it is). */
  static from(error: unknown): RiskError {
    if (error instanceof RiskError) {
      return error;
    }
    const connect = ConnectError.from(error);
    const info = connect.findDetails(ErrorInfoSchema).find((i) => i.domain === ERROR_DOMAIN);
    const metadata = info?.metadata ?? {};
    const reason = info?.reason ?? "";
    const text = metadata["message"] ?? connect.rawMessage;
    const label = reason ? `${statusName(connect.code)} ${reason}` : statusName(connect.code);
    return new RiskError(connect.code, reason, metadata, `${label}: ${text}`, { cause: connect });
  }
}

function optionalBigint(value: string | undefined): bigint | undefined {
  return value === undefined || value === "" ? undefined : BigInt(value);
}

/** "ABORTED" for Code.Aborted: the names docs/api.md and errors.proto use. */
export function statusName(code: Code): string {
  if (code === Code.Canceled) {
    return "CANCELLED"; // gRPC's spelling; Connect's enum says Canceled
  }
  return (Code[code] ?? `CODE_${code}`).replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase();
}
