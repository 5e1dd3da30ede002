/**
 * Workflow sources several test files share.
 */

/** Creates a POST callback, waits up to an hour on it, and returns the body it received (docs/api-resources.md#events). */
export const CALLBACK_WAITER = `main:
  steps:
    - make:
        call: events.create_callback_endpoint
        args:
          http_callback_method: POST
        result: cb
    - wait:
        call: events.await_callback
        args:
          callback: \${cb}
          timeout: 3600
        result: got
    - done:
        return: \${got.http_request.body}
`;
