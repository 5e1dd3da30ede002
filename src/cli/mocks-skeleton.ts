/**
 * `workflows-emulator mocks FILE` (docs/mocks-and-clock.md "A mock file to start from"): prints a mock file
 * with one entry for every `http.*` and connector `call` step of the workflow, in `main` and its subworkflows,
 * each limited to its step and routine and given a placeholder answer to fill in. A literal URL is written as
 * is; a computed one as `*`. Calls made inside expressions are not listed (only call steps name their target).
 * Exit 0 with the file on stdout; 2 for a usage error or a workflow that does not deploy (`file:line:col`).
 */
import { readFileSync } from 'node:fs';
import { Document } from 'yaml';
import type { Step, StepList, Template } from '../lang/definition/ast.ts';
import type { Value, WMap } from '../lang/value.ts';
import { YAML_OUTPUT, yamlNode } from '../service/recording/test-case.ts';
import { compileWorkflowFile } from './workflow-file.ts';
import { loadLibrary } from '../platform/libraries.ts';

/** Where the command writes (the process's by default). */
export interface MocksIO {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Runs `mocks` with `args` (the words after `mocks`) and resolves to its exit code; never rejects. */
export async function mocksCommand(args: readonly string[], io: MocksIO = { stdout: (t) => void process.stdout.write(t), stderr: (t) => void process.stderr.write(t) }): Promise<number> {
  if (args.length !== 1 || args[0]!.startsWith('-')) {
    if (args[0] === '--help' || args[0] === '-h') {
      io.stdout('Usage: workflows-emulator mocks <file.yaml|file.json>\n\nPrints a mock file with an entry for every http.* and connector call step of the workflow.\n');
      return 0;
    }
    io.stderr('workflows-emulator mocks: give one workflow file: workflows-emulator mocks <file.yaml|file.json>\n');
    return 2;
  }
  const file = args[0]!;
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch (e) {
    io.stderr(`workflows-emulator mocks: cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}\n`);
    return 2;
  }
  const compiled = compileWorkflowFile(file, source);
  if (!('definition' in compiled)) {
    io.stderr(`${compiled.error}\n`);
    return 2;
  }
  const http: WMap[] = [];
  const connectors: WMap[] = [];
  const seen = new Set<string>();
  for (const [routine, wf] of compiled.definition.workflows) walk(wf.steps, routine, { http, connectors, seen });
  const content: WMap = new Map<string, Value>([['http', http], ['connectors', connectors]]);
  await loadLibrary('yaml');
  const doc = new Document();
  doc.contents = yamlNode(content) as never;
  doc.commentBefore = ` Mocks for ${file}: every http.* and connector call step, with a placeholder answer to replace.\n Use with --mocks, a test file's mocks, or PUT /emulator/v1/mocks (docs/mocks-and-clock.md).`;
  io.stdout(doc.toString(YAML_OUTPUT));
  return 0;
}

interface Found {
  readonly http: WMap[];
  readonly connectors: WMap[];
  readonly seen: Set<string>;
}

/** Every step of `list` and of the lists nested in its steps, in source order. */
function walk(list: StepList, routine: string, out: Found): void {
  for (const step of list.steps) visit(step, routine, out);
}

function visit(step: Step, routine: string, out: Found): void {
  switch (step.kind) {
    case 'call':
      return callEntry(step, routine, out);
    case 'switch':
      for (const c of step.cases) {
        if (c.steps) walk(c.steps, routine, out);
        if (c.step) visit(c.step, routine, out);
      }
      return;
    case 'for':
      return walk(step.loop.steps, routine, out);
    case 'parallel':
      for (const b of step.branches ?? []) walk(b.steps, routine, out);
      if (step.for) walk(step.for.steps, routine, out);
      return;
    case 'try':
      walk(step.body, routine, out);
      if (step.except) walk(step.except.steps, routine, out);
      return;
    case 'steps':
      return walk(step.steps, routine, out);
    default:
      return;
  }
}

function callEntry(step: Extract<Step, { kind: 'call' }>, routine: string, out: Found): void {
  const name = step.target.name;
  const isHttp = step.target.kind === 'stdlib' && name.startsWith('http.') && name !== 'http.default_retry';
  if (!isHttp && step.target.kind !== 'unsupported') return;
  const key = `${routine}\u0000${step.name}\u0000${name}`;
  if (out.seen.has(key)) return;
  out.seen.add(key);
  const arg = (k: string): Template | undefined => step.args?.find(([n]) => n === k)?.[1];
  if (isHttp) {
    const url = arg('url');
    const method = name === 'http.request' ? arg('method') : undefined;
    const match: WMap = new Map<string, Value>();
    const m = name === 'http.request' ? (method?.kind === 'const' && typeof method.value === 'string' ? method.value.toUpperCase() : undefined) : name.slice('http.'.length).toUpperCase();
    if (m) match.set('method', m);
    match.set('url', url?.kind === 'const' && typeof url.value === 'string' ? url.value : '*');
    match.set('step', step.name);
    match.set('routine', routine);
    out.http.push(new Map<string, Value>([['match', match], ['respond', new Map<string, Value>([['status', 200n], ['body', new Map()]])]]));
    return;
  }
  out.connectors.push(new Map<string, Value>([['call', name], ['step', step.name], ['routine', routine], ['result', new Map()]]));
}
