/**
 * Errors of the management API (REST and gRPC): Google's canonical codes, each with its HTTP status, as in
 * Google's API design guide (https://cloud.google.com/apis/design/errors). REST renders them as
 * `{"error": {"code": <http status>, "message": "...", "status": "<CODE>"}}`; gRPC as a ConnectError with the
 * matching code. They never mix with the language's WorkflowError.
 */
import { RequestTooLarge } from '../platform/request-body.ts';

/** Google's canonical error codes used by this API, with their HTTP status and gRPC code number. */
export const API_CODES = {
  INVALID_ARGUMENT: { http: 400, grpc: 3 },
  FAILED_PRECONDITION: { http: 400, grpc: 9 },
  PERMISSION_DENIED: { http: 403, grpc: 7 },
  NOT_FOUND: { http: 404, grpc: 5 },
  ALREADY_EXISTS: { http: 409, grpc: 6 },
  RESOURCE_EXHAUSTED: { http: 429, grpc: 8 },
  UNIMPLEMENTED: { http: 501, grpc: 12 },
  INTERNAL: { http: 500, grpc: 13 },
  UNAVAILABLE: { http: 503, grpc: 14 },
} as const;

/** One of the canonical codes above. */
export type ApiCode = keyof typeof API_CODES;

/** An error of the management API: a canonical code and a message saying what is wrong. */
export class ApiError extends Error {
  constructor(
    readonly code: ApiCode,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The HTTP status REST answers with. */
  get httpStatus(): number {
    return API_CODES[this.code].http;
  }

  /** Google's JSON error body: `{"error": {"code", "message", "status"}}`. */
  toJSON(): { error: { code: number; message: string; status: ApiCode } } {
    return { error: { code: this.httpStatus, message: this.message, status: this.code } };
  }

  /**
   * `error` as an ApiError, as connect-es's `ConnectError.from` does for ConnectError: an ApiError is returned
   * as it is; a request body over its limit (src/platform/request-body.ts) is INVALID_ARGUMENT; anything else (a bug of the emulator, never the client's fault) becomes INTERNAL (HTTP 500,
   * gRPC 13) with the message `internal error[ {context}]: {its message}`, keeping it as `cause`.
   */
  static from(error: unknown, context?: string): ApiError {
    if (error instanceof ApiError) return error;
    if (error instanceof RequestTooLarge) return ApiError.invalidArgument(error.message);
    const why = error instanceof Error ? error.message : String(error);
    const apiError = new ApiError('INTERNAL', `internal error${context ? ` ${context}` : ''}: ${why}`);
    apiError.cause = error;
    return apiError;
  }

  static notFound(message: string): ApiError {
    return new ApiError('NOT_FOUND', message);
  }

  static invalidArgument(message: string): ApiError {
    return new ApiError('INVALID_ARGUMENT', message);
  }
}
