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

/**
 * Charges `args.amount` at `args.shop + "/charge"`, waits up to 600 s on a callback for a decision and returns the
 * payment ID, the time, a UUID and the decision (with `shipping`, first posts to `args.shop + "/ship"`): an
 * execution whose recording holds a call, a callback, a time and a UUID (docs/recording.md).
 */
export const ORDER_AWAITING_APPROVAL = (shipping: boolean): string => `main:
  params: [args]
  steps:
    - charge:
        call: http.post
        args:
          url: \${args.shop + "/charge"}
          body:
            amount: \${args.amount}
        result: paid
    - cb:
        call: events.create_callback_endpoint
        result: callback
    - wait:
        call: events.await_callback
        args:
          callback: \${callback}
          timeout: 600
        result: decision${shipping ? `
    - ship:
        call: http.post
        args:
          url: \${args.shop + "/ship"}
        result: shipped` : ''}
    - done:
        return:
          payment: \${paid.body.id}
          at: \${sys.now()}
          ref: \${uuid.generate()}
          approved: \${decision.http_request.body.approved}
`;
