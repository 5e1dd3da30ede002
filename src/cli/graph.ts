/**
 * The graph command (docs/graph.md "On the command line"): `workflows-emulator graph FILE [--format
 * svg|mermaid|dot] [--output FILE]` writes the graph of every workflow of a definition file: SVG as the web UI
 * draws it (a standalone document with its own light and dark styles), Mermaid for READMEs and GitHub, DOT
 * for Graphviz. Output goes to stdout, or to `--output`.
 *
 * Exit codes: 0 written; 2 nothing written: an invalid definition (`<file>:<line>:<col>: invalid workflow
 * definition: ...`), an unreadable file, a bad option, or an output file that cannot be written.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { definitionGraph } from '../graph/model.ts';
import { standaloneSvg } from '../graph/render.ts';
import { toDot, toMermaid } from '../graph/text.ts';
import { compileWorkflowFile } from './workflow-file.ts';

/** The usage text of `workflows-emulator graph --help`. */
export const GRAPH_USAGE = `Usage: workflows-emulator graph <file.yaml|file.json> [--format svg|mermaid|dot] [--output <file>]

Writes the graph of every workflow of the definition: steps as nodes, the ways between them as edges.
  --format svg      an SVG document, as the web UI draws it (default)
  --format mermaid  a Mermaid flowchart, for READMEs and GitHub
  --format dot      a Graphviz DOT digraph (dot -Tpng)
  --output <file>   write there instead of standard output
  exit 0 written, 2 invalid definition (file:line:col), unreadable file or bad option
`;

/** Where the command writes; the process's streams by default, replaceable in tests. */
export interface GraphIO {
  stdout(text: string): void;
  stderr(text: string): void;
}

const FORMATS = ['svg', 'mermaid', 'dot'] as const;

/**
 * Runs `graph` with `args` (the words after `graph`) and returns its exit code (0, or 2 with one line on
 * stderr). Never throws.
 */
export function graphCommand(args: readonly string[], io: GraphIO = { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) }): number {
  const fail = (message: string): number => {
    io.stderr(`workflows-emulator graph: ${message}\n`);
    return 2;
  };
  let values: { format?: string | undefined; output?: string | undefined; help?: boolean | undefined };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...args],
      options: { format: { type: 'string' }, output: { type: 'string', short: 'o' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    }));
  } catch (e) {
    return fail(`${(e as Error).message} (see graph --help)`);
  }
  if (values.help) {
    io.stdout(GRAPH_USAGE);
    return 0;
  }
  const format = values.format ?? 'svg';
  if (!(FORMATS as readonly string[]).includes(format)) return fail(`--format must be svg, mermaid or dot, not "${format}"`);
  if (positionals.length !== 1) return fail(positionals.length ? `one workflow file expected, got ${positionals.length}` : 'a workflow file is required (see graph --help)');
  const file = positionals[0]!;
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch (e) {
    return fail(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  if (source.trim() === '') return fail(`${file}: the file is empty: a workflow definition is required`);
  const compiled = compileWorkflowFile(file, source);
  if ('error' in compiled) {
    io.stderr(compiled.error + '\n');
    return 2;
  }
  const graph = definitionGraph(compiled.definition);
  const text = format === 'mermaid' ? toMermaid(graph) : format === 'dot' ? toDot(graph) : standaloneSvg(graph);
  if (values.output === undefined) {
    io.stdout(text);
    return 0;
  }
  try {
    writeFileSync(values.output, text);
  } catch (e) {
    return fail(`cannot write ${values.output}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  return 0;
}
