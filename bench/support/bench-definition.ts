// The bench definition shared by bench/definition.bench.ts and bench/lsp.bench.ts: a realistic workflow just
// under the 128 KB limit with steps of every kind (assign, call of stdlib, http and subworkflows, switch, for,
// parallel branches and for, try/retry/except, raise, return, nested steps, jumps).
import { MAX_SOURCE_BYTES, utf8Length } from '../../src/lang/definition/load.ts';

/** One block of steps of every kind, with names made unique by `n`. */
function block(n: number): string {
  return `
    - init_${n}:
        assign:
          - items_${n}: [1, 2, 3, "four", {"k": 5}]
          - total_${n}: 0
          - cfg_${n}:
              url: \${"https://example.com/api/" + string(${n})}
              retries: ${n % 5}
              nested: {a: 1, b: [true, false, null], c: "text \${not an expression}"}
          - cfg_${n}.extra: \${len(items_${n}) * 2 + ${n}}
          - items_${n}[0]: \${items_${n}[1] + 10}
    - fetch_${n}:
        try:
          call: http.get
          args:
            url: \${cfg_${n}.url}
            headers:
              Authorization: \${"Bearer " + default(map.get(args, "token"), "none")}
            query:
              page: \${total_${n} // 2}
          result: resp_${n}
        retry:
          predicate: \${http.default_retry_predicate}
          max_retries: 3
          backoff:
            initial_delay: 1
            max_delay: 30
            multiplier: 2
        except:
          as: e
          steps:
            - log_${n}:
                call: sys.log
                args:
                  text: '\${"failed: " + e.message}'
                  severity: WARNING
            - fallback_${n}:
                assign:
                  - resp_${n}: {body: {value: ${n}}}
    - decide_${n}:
        switch:
          - condition: \${resp_${n}.body.value > 100 and total_${n} == 0}
            next: loop_${n}
          - condition: \${"k" in cfg_${n}.nested or len(items_${n}) < 2}
            assign:
              - total_${n}: \${total_${n} + 1}
          - condition: \${type(resp_${n}) == "map"}
            steps:
              - inner_${n}:
                  call: helper
                  args:
                    x: \${total_${n}}
                    y: ${n}
                  result: h_${n}
        next: loop_${n}
    - loop_${n}:
        for:
          value: item
          index: i
          in: \${items_${n}}
          steps:
            - check_${n}:
                switch:
                  - condition: \${i > 3}
                    next: break
            - add_${n}:
                assign:
                  - total_${n}: \${total_${n} + i}
    - fan_${n}:
        parallel:
          shared: [total_${n}]
          concurrency_limit: 4
          exception_policy: continueAll
          branches:
            - left_${n}:
                steps:
                  - l_${n}:
                      assign:
                        - total_${n}: \${total_${n} + helper(1, 2)}
            - right_${n}:
                steps:
                  - r_${n}:
                      for:
                        value: v
                        range: [1, 3]
                        steps:
                          - rr_${n}:
                              assign:
                                - total_${n}: \${total_${n} + v}
    - group_${n}:
        steps:
          - g1_${n}:
              assign:
                - msg_${n}: \${text.to_upper("done ") + string(total_${n})}
          - g2_${n}:
              switch:
                - condition: \${total_${n} < 0}
                  raise:
                    code: 400
                    message: \${"negative " + msg_${n}}`;
}

/**
 * The bench definition: blocks of steps of every kind repeated until the source is just under the 128 KB
 * limit (about 126 KB), in a main workflow with params and a subworkflow.
 */
export function generate(): string {
  const head = `main:
  params: [args]
  steps:`;
  const tail = `
    - done:
        return: \${total_0}
helper:
  params: [x, y: 10]
  steps:
    - compute:
        return: \${x + y}
`;
  let body = '';
  let n = 0;
  for (;;) {
    const next = block(n);
    if (utf8Length(head + body + next + tail) > MAX_SOURCE_BYTES) break;
    body += next;
    n++;
  }
  return head + body + tail;
}
