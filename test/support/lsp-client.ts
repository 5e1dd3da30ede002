/**
 * A Language Server Protocol client for tests and benchmarks: starts `workflows-emulator lsp` (the built
 * dist/emulator.js) as a child process and talks to it over stdio with Microsoft's vscode-jsonrpc, as an editor
 * does (https://microsoft.github.io/language-server-protocol/). Run `npm run build` first.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import type { PublishDiagnosticsParams, Range } from 'vscode-languageserver';

const EMULATOR_JS = new URL('../../dist/emulator.js', import.meta.url).pathname;

/** The `contentChanges` of one `didChange`: the whole new text, or edits of ranges. */
export type ContentChanges = readonly ({ text: string } | { range: Range; text: string })[];

/** A running language server and a connection to it. */
export interface LspClient {
  readonly connection: MessageConnection;
  readonly child: ChildProcess;
  /** Opens a document (`didOpen`) and resolves with its first diagnostics. */
  open(uri: string, text: string, languageId?: string): Promise<PublishDiagnosticsParams>;
  /** Replaces a document's whole text (`didChange`) and resolves with the diagnostics of that version. */
  change(uri: string, text: string): Promise<PublishDiagnosticsParams>;
  /**
   * Edits a document as an editor does with incremental sync (`didChange` with ranges and new text), and resolves
   * with the diagnostics of that version.
   */
  edit(uri: string, changes: ContentChanges): Promise<PublishDiagnosticsParams>;
  /**
   * Sends changes of a document back to back, as fast typing does: each a version's `contentChanges` (a whole
   * text, or ranges and new text); resolves with the diagnostics of the last version and how many diagnostics
   * the earlier versions got meanwhile.
   */
  changeBurst(uri: string, changes: readonly ContentChanges[]): Promise<{ last: PublishDiagnosticsParams; earlier: number }>;
  /** A request, by method name. */
  request<R>(method: string, params: unknown): Promise<R>;
  /** Everything the server wrote on stderr so far. */
  stderr(): string;
  /** The messages the server logged to the client (`window/logMessage`) so far. */
  logs(): string[];
  /** `shutdown`, `exit`, and the process's end. */
  close(): Promise<void>;
}

/**
 * Starts the server and initializes it (`initialize`, `initialized`) for a workspace-less client; `nodeFlags`
 * are Node's options for the server's process.
 */
export async function startLspClient(nodeFlags: readonly string[] = []): Promise<LspClient> {
  const child = spawn(process.execPath, [...nodeFlags, EMULATOR_JS, 'lsp'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (d) => (err += String(d)));
  const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const waiting = new Map<string, { version: number | undefined; resolve: (p: PublishDiagnosticsParams) => void }[]>();
  const published = new Set<(p: PublishDiagnosticsParams) => void>();
  connection.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
    for (const f of published) f(p);
    const list = waiting.get(p.uri) ?? [];
    const i = list.findIndex((w) => w.version === undefined || p.version === undefined || w.version === p.version);
    if (i >= 0) list.splice(i, 1)[0]!.resolve(p);
  });
  const logs: string[] = [];
  connection.onNotification('window/logMessage', (p: { message: string }) => {
    logs.push(p.message);
  });
  connection.listen();
  await connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {} });
  await connection.sendNotification('initialized', {});
  const versions = new Map<string, number>();
  const diagnostics = (uri: string, version: number): Promise<PublishDiagnosticsParams> =>
    new Promise((resolve) => {
      const list = waiting.get(uri) ?? [];
      list.push({ version, resolve });
      waiting.set(uri, list);
    });
  return {
    connection,
    child,
    async open(uri, text, languageId = 'yaml') {
      versions.set(uri, 1);
      const d = diagnostics(uri, 1);
      await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text } });
      return d;
    },
    async change(uri, text) {
      const version = (versions.get(uri) ?? 1) + 1;
      versions.set(uri, version);
      const d = diagnostics(uri, version);
      await connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text }] });
      return d;
    },
    async edit(uri, changes) {
      const version = (versions.get(uri) ?? 1) + 1;
      versions.set(uri, version);
      const d = diagnostics(uri, version);
      await connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: changes });
      return d;
    },
    async changeBurst(uri, changes) {
      const first = (versions.get(uri) ?? 1) + 1;
      const last = first + changes.length - 1;
      versions.set(uri, last);
      let earlier = 0;
      const counting = (p: PublishDiagnosticsParams) => {
        if (p.uri === uri && p.version !== undefined && p.version >= first && p.version < last) earlier++;
      };
      published.add(counting);
      const d = diagnostics(uri, last);
      await Promise.all(
        changes.map((contentChanges, i) => connection.sendNotification('textDocument/didChange', { textDocument: { uri, version: first + i }, contentChanges })),
      );
      const result = await d;
      published.delete(counting);
      return { last: result, earlier };
    },
    request: (method, params) => connection.sendRequest(method, params),
    stderr: () => err,
    logs: () => logs,
    async close() {
      const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      await connection.sendRequest('shutdown');
      await connection.sendNotification('exit');
      await ended;
      connection.dispose();
    },
  };
}

/** The zero-based position of the `n`th (0-based) occurrence of `needle` in `text`, plus `shift` characters. */
export function positionOf(text: string, needle: string, shift = 0, n = 0): { line: number; character: number } {
  let at = -1;
  for (let i = 0; i <= n; i++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`'${needle}' (occurrence ${n}) not in the text`);
  }
  const offset = at + shift;
  const before = text.slice(0, offset);
  const line = before.split('\n').length - 1;
  return { line, character: offset - (before.lastIndexOf('\n') + 1) };
}
