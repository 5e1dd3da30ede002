/**
 * The lint warnings (docs/lint.md): problems a definition may deploy with but that are almost always
 * mistakes. Each rule reads the {@link DocumentModel} of a definition that compiled, and reports with a
 * stable code:
 * - `UNREACHABLE_STEP`: no path of the workflow leads to the step;
 * - `UNUSED_VARIABLE`: a variable assigned (or a call's `result`, an `except`'s `as`) and never read;
 * - `REDUNDANT_NEXT`: a `next` to the step that follows anyway;
 * - `SHADOWED_PARAMETER`: an assignment to a name that is a parameter of the workflow;
 * - `NON_IDEMPOTENT_RETRY`: a non-idempotent HTTP request (POST, PATCH) retried by `http.default_retry`,
 *   which retries on errors after which the request may have taken effect;
 * - `UNKNOWN_CONNECTOR`: a `call` of a `googleapis.*` name that is no method of the connector catalog (connectors.ts);
 * - `MISSING_CONNECTOR_ARG`: a connector call without an argument its method requires.
 */
import { connectorCallProblem, isConnectorName } from './connectors.ts';
import type { DocumentModel, StepInfo, StepListInfo } from './model.ts';

/** The codes of the lint warnings (docs/lint.md has one entry per code). */
export type LintWarningCode =
  | 'UNREACHABLE_STEP'
  | 'UNUSED_VARIABLE'
  | 'REDUNDANT_NEXT'
  | 'SHADOWED_PARAMETER'
  | 'NON_IDEMPOTENT_RETRY'
  | 'UNKNOWN_CONNECTOR'
  | 'MISSING_CONNECTOR_ARG';

/** One lint warning: its code, message and source span (UTF-16 offsets, `end` exclusive). */
export interface LintWarning {
  readonly code: LintWarningCode;
  readonly message: string;
  readonly offset: number;
  readonly end: number;
  /** The step it is about, when there is one. */
  readonly step?: string;
}

/** Every lint warning of a definition, in source order. */
export function lintWarnings(m: DocumentModel): LintWarning[] {
  const out = [
    ...unreachableSteps(m),
    ...unusedVariables(m),
    ...redundantNext(m),
    ...shadowedParameters(m),
    ...nonIdempotentRetries(m),
    ...connectorCalls(m),
  ];
  return out.sort((a, b) => a.offset - b.offset);
}

// ---------------------------------------------------------------------------------------------------------
// UNREACHABLE_STEP

/**
 * Steps no path reaches: control flows from a workflow's first step to the next one in its list (unless the
 * step returns, raises or has `next`), into the first step of every nested list (a loop body, a branch, a try
 * body and its except steps, a condition's steps), out of a finished nested list to what follows its holder,
 * and along every `next`. Only the first step of each run of unreachable steps is reported.
 */
function unreachableSteps(m: DocumentModel): LintWarning[] {
  const byName = new Map<string, Map<string, StepInfo>>();
  for (const s of m.steps) {
    let w = byName.get(s.workflow);
    if (!w) byName.set(s.workflow, (w = new Map()));
    w.set(s.name.name, s);
  }
  const reached = new Set<StepInfo>();
  const work: StepInfo[] = [];
  const reach = (s: StepInfo | undefined): void => {
    if (s && !reached.has(s)) {
      reached.add(s);
      work.push(s);
    }
  };
  /** Where control goes after step `s` finishes normally. */
  const after = (s: StepInfo): void => {
    if (s.next) {
      const target = byName.get(s.workflow)?.get(s.next.name);
      if (target) reach(target);
      else if (s.next.name === 'break' || s.next.name === 'continue') leaveLoop(s.list);
      return;
    }
    const following = s.list.steps[s.index + 1];
    if (following) reach(following);
    else if (s.list.holder) after(s.list.holder);
  };
  const leaveLoop = (list: StepListInfo): void => {
    for (let l: StepListInfo | undefined = list; l?.holder; l = l.holder.list) {
      if (l.role === 'for') return after(l.holder);
    }
  };
  const jumpsFrom = new Map<StepInfo, string[]>();
  for (const j of m.jumps) {
    const list = jumpsFrom.get(j.from);
    if (list) list.push(j.name);
    else jumpsFrom.set(j.from, [j.name]);
  }
  for (const w of m.workflows) reach(w.steps.steps[0]);
  while (work.length > 0) {
    const s = work.pop()!;
    for (const list of s.children) reach(list.steps[0]);
    for (const name of jumpsFrom.get(s) ?? []) reach(byName.get(s.workflow)?.get(name));
    if (s.kind === 'return' || s.kind === 'raise') continue;
    // A switch continues after itself when no condition matches; a condition's steps, loops and branches
    // end in `after` through their last step.
    after(s);
  }
  const out: LintWarning[] = [];
  const visit = (list: StepListInfo): void => {
    list.steps.forEach((s, i) => {
      if (!reached.has(s)) {
        const prev = list.steps[i - 1];
        if (!prev || reached.has(prev)) {
          const why = prev ? ` (step '${prev.name.name}' never continues to it and no 'next' names it)` : '';
          out.push({ code: 'UNREACHABLE_STEP', message: `step '${s.name.name}' is never reached${why}`, offset: s.name.offset, end: s.name.end, step: s.name.name });
        }
        return;
      }
      for (const c of s.children) visit(c);
    });
  };
  for (const w of m.workflows) visit(w.steps);
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// UNUSED_VARIABLE

/**
 * Variables of a workflow assigned (by `assign`, a call's `result` or an `except`'s `as`) and never read in
 * any expression of the same workflow. Loop variables and parameters are left out (the syntax asks for them),
 * and so are names starting with `_` (the usual way to say "not read on purpose").
 */
function unusedVariables(m: DocumentModel): LintWarning[] {
  const read = new Map<string, Set<string>>();
  for (const u of m.uses) {
    let names = read.get(u.workflow);
    if (!names) read.set(u.workflow, (names = new Set()));
    names.add(u.name);
  }
  const out: LintWarning[] = [];
  for (const d of m.defs) {
    if (d.how === 'param' || d.how === 'for' || d.name.startsWith('_')) continue;
    if (read.get(d.workflow)?.has(d.name)) continue;
    const what = d.how === 'result' ? 'the call result' : d.how === 'except' ? 'the caught error' : 'variable';
    const step: { step?: string } = d.step !== undefined ? { step: d.step } : {};
    out.push({ code: 'UNUSED_VARIABLE', message: `${what} '${d.name}' is assigned and never read`, offset: d.offset, end: d.end, ...step });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// REDUNDANT_NEXT

/** A step's own `next` naming the step right after it in the same list. */
function redundantNext(m: DocumentModel): LintWarning[] {
  const out: LintWarning[] = [];
  for (const s of m.steps) {
    if (!s.next || s.kind === 'switch') continue;
    const following = s.list.steps[s.index + 1];
    if (following && following.name.name === s.next.name) {
      out.push({
        code: 'REDUNDANT_NEXT',
        message: `'next: ${s.next.name}' goes to the step that follows anyway`,
        offset: s.next.offset,
        end: s.next.end,
        step: s.name.name,
      });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// SHADOWED_PARAMETER

/** An assignment, `result`, loop variable or `as` whose name is a parameter of its workflow. */
function shadowedParameters(m: DocumentModel): LintWarning[] {
  const params = new Map<string, Set<string>>();
  for (const w of m.workflows) params.set(w.name, new Set(w.params.map((p) => p.name)));
  const out: LintWarning[] = [];
  for (const d of m.defs) {
    if (d.how === 'param' || !params.get(d.workflow)?.has(d.name)) continue;
    const step: { step?: string } = d.step !== undefined ? { step: d.step } : {};
    out.push({
      code: 'SHADOWED_PARAMETER',
      message: `'${d.name}' is a parameter of workflow '${d.workflow}'; this assignment replaces the caller's value`,
      offset: d.offset,
      end: d.end,
      ...step,
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// NON_IDEMPOTENT_RETRY

/** The retry policies and predicates that retry after errors a non-idempotent request may have survived. */
const IDEMPOTENT_RETRY = /^\$\{\s*(http\.default_retry|http\.default_retry_predicate)\s*\}$/;
const NON_IDEMPOTENT_METHODS = new Set(['POST', 'PATCH']);

/**
 * A `try` retried by `http.default_retry` (or a custom retry with `http.default_retry_predicate`) whose body
 * calls `http.post`, `http.patch` or `http.request` with method POST or PATCH: Google's `http.default_retry`
 * retries on 502, 504 and connection errors, after which the request may already have been applied;
 * `http.default_retry_non_idempotent` is the policy for such calls
 * (https://cloud.google.com/workflows/docs/reference/syntax/retrying#default-retry-policy).
 */
function nonIdempotentRetries(m: DocumentModel): LintWarning[] {
  const out: LintWarning[] = [];
  for (const s of m.steps) {
    if (s.kind !== 'try' || !s.body) continue;
    const retry = s.body.entries.find((e) => e.key === 'retry');
    if (!retry) continue;
    let policy = retry.value;
    if (policy.kind === 'map') policy = policy.entries.find((e) => e.key === 'predicate')?.value ?? policy;
    if (policy.kind !== 'scalar' || typeof policy.value !== 'string' || !IDEMPOTENT_RETRY.test(policy.value)) continue;
    const tryEnd = s.end;
    for (const c of m.calls) {
      if (c.offset < s.name.offset || c.offset >= tryEnd || !c.callStep) continue;
      const method = httpMethodOf(c.name, c.args);
      if (method === undefined || !NON_IDEMPOTENT_METHODS.has(method)) continue;
      if (insideExcept(s, c.offset)) continue;
      out.push({
        code: 'NON_IDEMPOTENT_RETRY',
        message: `${method} request retried by ${policy.value.slice(2, -1).trim()}, which retries after errors the request may have survived; use http.default_retry_non_idempotent`,
        offset: c.offset,
        end: c.end,
        step: c.step?.name.name ?? s.name.name,
      });
    }
  }
  return out;
}

/** The HTTP method of a `call:` of an http.* function: from its name, or `args.method` of `http.request`. */
function httpMethodOf(name: string, args: import('../lang/definition/load.ts').SMap | undefined): string | undefined {
  if (name === 'http.request') {
    const method = args?.entries.find((e) => e.key === 'method')?.value;
    return method?.kind === 'scalar' && typeof method.value === 'string' ? method.value.toUpperCase() : undefined;
  }
  const m = /^http\.(get|post|put|patch|delete)$/.exec(name);
  return m ? m[1]!.toUpperCase() : undefined;
}

/** Whether `offset` is in the `except` part of try step `s` (not retried). */
function insideExcept(s: StepInfo, offset: number): boolean {
  const except = s.body?.entries.find((e) => e.key === 'except');
  return except !== undefined && offset >= except.keyNode.offset;
}

// ---------------------------------------------------------------------------------------------------------
// UNKNOWN_CONNECTOR, MISSING_CONNECTOR_ARG

/**
 * `call:` steps of `googleapis.*` names checked against the connector catalog (connectors.ts, from Google's
 * connectors reference, https://cloud.google.com/workflows/docs/reference/googleapis): a name that is no connector
 * method, and a method's required argument (a path parameter of its API) missing from a literal `args` map.
 */
function connectorCalls(m: DocumentModel): LintWarning[] {
  const out: LintWarning[] = [];
  for (const c of m.calls) {
    if (!c.callStep || !isConnectorName(c.name)) continue;
    const problem = connectorCallProblem(c.name, c.args?.entries.map((e) => e.key) ?? []);
    if (!problem) continue;
    const code = problem.kind === 'unknown' ? 'UNKNOWN_CONNECTOR' : 'MISSING_CONNECTOR_ARG';
    const step: { step?: string } = c.step ? { step: c.step.name.name } : {};
    out.push({ code, message: problem.message, offset: c.offset, end: c.end, ...step });
  }
  return out;
}
