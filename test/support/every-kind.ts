// A generated workflow of about `steps` steps with every step kind (assign, call of a function and of a
// subworkflow, switch with a `next`, inline steps and nested steps, for with break, parallel branches and
// parallel for, try with retry and except, raise, return, nested steps, a pure jump), for graph tests.

/** One block of 20 steps, names made unique by `n`; the last block (`last`) ends main with a return. */
function block(n: number): string {
  return `
    - a_${n}:
        assign:
          - x_${n}: ${n}
          - items_${n}: [1, 2, 3]
    - c_${n}:
        call: sys.log
        args:
          text: \${"block " + string(x_${n})}
    - s_${n}:
        switch:
          - condition: \${x_${n} < 0}
            next: j_${n}
          - condition: \${x_${n} == -1}
            assign:
              - x_${n}: 0
          - condition: \${x_${n} == -2}
            steps:
              - sn_${n}:
                  assign:
                    - x_${n}: 1
    - f_${n}:
        for:
          value: v
          in: \${items_${n}}
          steps:
            - fb_${n}:
                switch:
                  - condition: \${v > 2}
                    next: break
            - fa_${n}:
                assign:
                  - x_${n}: \${x_${n} + v}
    - p_${n}:
        parallel:
          shared: [x_${n}]
          branches:
            - left_${n}:
                steps:
                  - pl_${n}:
                      assign:
                        - x_${n}: \${x_${n} + 1}
            - right_${n}:
                steps:
                  - pr_${n}:
                      call: helper
                      args:
                        y: 1
    - pf_${n}:
        parallel:
          for:
            value: w
            in: [1, 2]
            steps:
              - pfa_${n}:
                  call: sys.log
                  args:
                    text: \${w}
    - t_${n}:
        try:
          steps:
            - tc_${n}:
                call: helper
                args:
                  y: \${x_${n}}
                result: r_${n}
        retry:
          predicate: \${retry_never}
          max_retries: 2
          backoff:
            initial_delay: 1
            max_delay: 2
            multiplier: 2
        except:
          as: e
          steps:
            - te_${n}:
                raise: \${e}
    - g_${n}:
        steps:
          - g1_${n}:
              assign:
                - y_${n}: 1
          - g2_${n}:
              call: helper
              args:
                y: \${y_${n}}
              result: h_${n}
    - j_${n}:
        next: k_${n}
    - k_${n}:
        assign:
          - z_${n}: \${x_${n}}`;
}

/**
 * The YAML source: main with `blocks` blocks (about 20 nodes each), helper and retry_never subworkflows. Run
 * with the argument `{}` it succeeds; with `{"fail": true}` it fails at `maybe_fail`.
 */
export function everyKindWorkflow(blocks: number): string {
  let body = '';
  for (let n = 0; n < blocks; n++) body += block(n);
  return `main:
  params: [args]
  steps:${body}
    - maybe_fail:
        switch:
          - condition: \${"fail" in args}
            raise: asked to fail
    - finish:
        return: \${x_0}
helper:
  params: [y]
  steps:
    - check:
        switch:
          - condition: \${y == "boom"}
            raise: boom
    - answer:
        return: \${y}
retry_never:
  params: [e]
  steps:
    - no:
        return: false
`;
}
