/**
 * Runtime errors of the workflow language (docs/api-resources.md#errors, runtime error tags; docs/api-resources.md#error-map).
 *
 * Inside the language an error is a value: usually the spec's error map (`message`, `code`, `tags`, and
 * `headers`/`body` for HTTP errors), but `raise` may raise any value (a string becomes a map with that
 * message, code 0 and no tags; a map is raised as it is, custom keys kept). {@link WorkflowError} carries that
 * value through JS exceptions. It never mixes with the API's errors (`src/service/errors.ts`).
 */
import { isMap, mapOf, NestingDepthError, type Value, type WMap } from './value.ts';

/**
 * The error tags of the runtime table of docs/api-resources.md#errors, with when each is raised. `code` is the typical value of the
 * error map's `code` field (HTTP status for HttpError, else 0).
 */
const ERROR_TAGS = {
  /** Generating credentials fails. */
  AuthError: 'credential generation failed',
  /** The connection broke mid-transfer. */
  ConnectionError: 'connection broke mid-transfer',
  /** The connection was never established (service down, DNS failure). */
  ConnectionFailedError: 'connection never established',
  /** Non-2xx HTTP response; `code` holds the status, plus `headers` and `body`. */
  HttpError: 'non-2xx HTTP response',
  /** List index out of range. */
  IndexError: 'list index out of range',
  /** Map key missing, unknown variable, or unknown environment variable in sys.get_env without default. */
  KeyError: 'map key or variable missing',
  /** Long-running operation failure. */
  OperationError: 'long-running operation failed',
  /** Parallel nesting deeper than 2. */
  ParallelNestingError: 'parallel steps nested too deeply',
  /** Call stack deeper than 20. */
  RecursionError: 'call stack too deep',
  /** Memory, step count or other resource limits exceeded. */
  ResourceLimitError: 'resource limit exceeded',
  /** Unexpected response type from an operation. */
  ResponseTypeError: 'unexpected response type',
  /** Internal system error; also used for features the emulator does not emulate (connectors). */
  SystemError: 'internal system error',
  /** HTTP request or callback wait timed out. */
  TimeoutError: 'timed out',
  /** Type mismatch. */
  TypeError: 'type mismatch',
  /** After a continueAll parallel step whose branches had errors. */
  UnhandledBranchError: 'parallel branches raised errors',
  /** Right type, invalid value. */
  ValueError: 'invalid value',
  /** Division or modulo by zero. */
  ZeroDivisionError: 'division by zero',
} as const;

/** One of the spec's runtime error tags. */
export type ErrorTag = keyof typeof ERROR_TAGS;

/** The spec's error tags, in catalog order. */
export const ERROR_TAG_NAMES = Object.keys(ERROR_TAGS) as ErrorTag[];

/** What an error tag means (`KeyError` → 'map key or variable missing'), or undefined for a name that is not a tag. */
export function errorTagMeaning(tag: string): string | undefined {
  return Object.hasOwn(ERROR_TAGS, tag) ? ERROR_TAGS[tag as ErrorTag] : undefined;
}

/**
 * A workflow-level error: the value `except` catches and `error.payload` reports.
 *
 * `value` is what the workflow sees. `stepName` is set by the engine to the step where the error was first
 * raised (the execution's `error.context` is `step: <stepName>`).
 */
export class WorkflowError extends Error {
  /** The step where the error was raised, filled in by the engine; undefined until then. */
  stepName: string | undefined;

  constructor(
    /** The raised value: usually a map with `message`, `code`, `tags`. */
    readonly value: Value,
  ) {
    super(messageOf(value));
    this.name = 'WorkflowError';
  }

  /**
   * Creates the error map `{message, code, tags}` for one or more tags, plus extra fields (e.g. `headers`
   * and `body` of an HttpError).
   *
   * @param tags one tag or several (an error may carry several, e.g. `['HttpError']` or
   *   `['ConnectionError', 'SystemError']`).
   * @param code the `code` field: HTTP status for HTTP errors, otherwise 0.
   */
  static of(
    tags: ErrorTag | readonly ErrorTag[],
    message: string,
    extra?: { code?: number; headers?: Value; body?: Value; [key: string]: Value | number | undefined },
  ): WorkflowError {
    const m: WMap = new Map();
    m.set('message', message);
    m.set('code', BigInt(extra?.code ?? 0));
    m.set('tags', typeof tags === 'string' ? [tags] : [...tags]);
    if (extra) {
      for (const k of Object.keys(extra)) {
        if (k === 'code') continue;
        const v = extra[k];
        if (v !== undefined) m.set(k, typeof v === 'number' ? BigInt(v) : v);
      }
    }
    return new WorkflowError(m);
  }

  /**
   * The error `raise` produces for a value (docs/language.md#step-types): a string becomes `{message, code: 0, tags: []}`;
   * any other value (a map, or a caught error re-raised) is raised unchanged.
   */
  static raised(v: Value): WorkflowError {
    if (typeof v === 'string') return new WorkflowError(mapOf({ message: v, code: 0n, tags: [] }));
    return new WorkflowError(v);
  }

  /**
   * Coerces anything thrown inside the engine into a WorkflowError. A WorkflowError passes through; the
   * JavaScript stack running out (data nested too deeply for some walk of it) is a `ResourceLimitError`
   * (RecursionError is the spec's tag for subworkflow call depth only); any other JS error (a bug, or a
   * platform failure) becomes a `SystemError` naming its message, never leaked raw.
   */
  static from(e: unknown): WorkflowError {
    if (e instanceof WorkflowError) return e;
    if (e instanceof NestingDepthError) return WorkflowError.of('ResourceLimitError', e.message);
    if (e instanceof RangeError && /call stack/i.test(e.message)) {
      return WorkflowError.of('ResourceLimitError', 'data is nested too deeply to be processed');
    }
    const msg = e instanceof Error ? e.message : String(e);
    return WorkflowError.of('SystemError', msg);
  }

  /** The error's tags (empty when the raised value is not a map with a `tags` list). */
  get tags(): string[] {
    const v = this.value;
    if (!isMap(v)) return [];
    const t = v.get('tags');
    return Array.isArray(t) ? t.filter((x): x is string => typeof x === 'string') : [];
  }

  /** True when the error carries the tag. */
  hasTag(tag: ErrorTag): boolean {
    return this.tags.includes(tag);
  }
}

function messageOf(v: Value): string {
  if (typeof v === 'string') return v;
  if (isMap(v)) {
    const m = v.get('message');
    if (typeof m === 'string') return m;
  }
  return 'workflow error';
}

/** Shorthand for `new TypeError`-tagged workflow errors, the most common kind in the stdlib. */
export function typeError(message: string): WorkflowError {
  return WorkflowError.of('TypeError', message);
}

/** Shorthand for ValueError-tagged workflow errors. */
export function valueError(message: string): WorkflowError {
  return WorkflowError.of('ValueError', message);
}

/** Shorthand for KeyError-tagged workflow errors. */
export function keyError(message: string): WorkflowError {
  return WorkflowError.of('KeyError', message);
}

/** Shorthand for IndexError-tagged workflow errors. */
export function indexError(message: string): WorkflowError {
  return WorkflowError.of('IndexError', message);
}
