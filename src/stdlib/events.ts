/**
 * The `events` namespace (docs/api-resources.md#events): callback endpoints. The execution's {@link CallbackHub} makes the
 * URLs and delivers the requests: one implementation, the service's callback registry (src/service/callbacks/callback-registry.ts),
 * used by the service, one-shot runs, tests and benches.
 */
import { valueError } from '../lang/errors.ts';
import type { Value } from '../lang/value.ts';
import { num, str } from './check.ts';
import type { StdlibFunction } from './types.ts';

/** Methods a callback may accept (docs/api-resources.md#events). */
export const CALLBACK_METHODS: readonly string[] = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'];

/** Default wait of events.await_callback: 43200 s, 12 hours (docs/api-resources.md#events). */
const DEFAULT_CALLBACK_TIMEOUT_SEC = 43200;

/** The `events` rows of the standard-library table. */
export const functions: StdlibFunction[] = [
  {
    // Returns a map whose `url` is the full callback URL; the callback then appears in the execution's list.
    name: 'events.create_callback_endpoint',
    params: [{ name: 'http_callback_method', optional: true, default: 'POST' }],
    impl: ([method], ctx) => {
      const m = str('events.create_callback_endpoint', 'http_callback_method', method).toUpperCase();
      if (!CALLBACK_METHODS.includes(m)) {
        throw valueError(
          `events.create_callback_endpoint: http_callback_method must be one of ${CALLBACK_METHODS.join(', ')}, got '${m}'`,
        );
      }
      return ctx.callbacks.create(m);
    },
  },
  {
    // Waits for a request to the callback; TimeoutError after `timeout` seconds (default 12 hours).
    name: 'events.await_callback',
    params: [{ name: 'callback' }, { name: 'timeout', optional: true, default: BigInt(DEFAULT_CALLBACK_TIMEOUT_SEC) }],
    blocking: true,
    impl: ([callback, timeout], ctx): Promise<Value> => {
      const sec = Number(num('events.await_callback', 'timeout', timeout));
      if (!(sec >= 0)) throw valueError('events.await_callback: timeout must be a non-negative number of seconds');
      return ctx.callbacks.await(callback!, sec * 1000, ctx.signal);
    },
  },
];
