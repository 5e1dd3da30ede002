/**
 * The language server of `workflows-emulator lsp` (docs/editor.md): the Language Server Protocol
 * (https://microsoft.github.io/language-server-protocol/) over stdio, through Microsoft's
 * vscode-languageserver library. Every change of an open document is checked (diagnostics: the deploy error of
 * the real definition compiler with its code, and the lint warnings, docs/lint.md) as soon as the messages read
 * with it are handled, so a burst of changes is checked once, at its last version; completion, hover,
 * definition, references, rename and the outline answer from the analysis of the current version.
 *
 * YAML and JSON files that are not workflow definitions get no diagnostics and empty answers.
 */
import type { Readable, Writable } from 'node:stream';
import type { Diagnostic, InitializeResult } from 'vscode-languageserver';
import type { Connection } from 'vscode-languageserver/node';
import type { TextDocument as Doc } from 'vscode-languageserver-textdocument';
import { codeDocsUrl } from '../lint/codes.ts';
import { VERSION } from '../service/version.ts';
import { analyze, type Analysis } from './analysis.ts';
import { CheckQueue, MessageCounter } from './check-queue.ts';
import { completions } from './completion.ts';
import { hoverAt } from './hover.ts';
import { loadLspLibrary } from './library.ts';
import { DiagnosticSeverity, DiagnosticTag, TextDocumentSyncKind } from './protocol.ts';
import { canRename, definitionsOf, documentSymbols, locations, rangeOf, referencesOf, renameEdits, symbolAt } from './navigation.ts';

/**
 * Starts the language server on a pair of streams (the process's stdin and stdout for `workflows-emulator
 * lsp`). Resolves once the connection listens; the process ends on the client's `exit` notification.
 */
export async function startLanguageServer(input: Readable, output: Writable): Promise<Connection> {
  const { createConnection, StreamMessageReader, StreamMessageWriter, TextDocuments, TextDocument } = await loadLspLibrary();
  const counter = new MessageCounter();
  const connection = createConnection(counter.reader(new StreamMessageReader(input)), new StreamMessageWriter(output), {
    messageStrategy: counter.messageStrategy,
  });
  const documents = new TextDocuments(TextDocument);
  const analyses = new Map<string, Analysis>();
  const checks = new CheckQueue(counter, (document) => {
    let a: Analysis;
    try {
      a = analyze(document, analyses.get(document.uri));
    } catch (e) {
      // A bug of ours, not of the document: said in the client's log, and the document gets no help.
      connection.console.error(`workflows-emulator: internal error while checking ${document.uri}: ${(e as Error)?.stack ?? String(e)}`);
      a = { isWorkflow: false, problems: [], model: undefined, stale: false };
    }
    analyses.set(document.uri, a);
    void connection.sendDiagnostics({ uri: document.uri, version: document.version, diagnostics: a.problems.map(toDiagnostic) });
  });

  const analysisOf: AnalysisOf = (uri) => {
    checks.flush(uri);
    const doc = documents.get(uri);
    const a = analyses.get(uri);
    return doc && a?.isWorkflow ? { doc, a } : undefined;
  };

  connection.onInitialize(initializeResult);

  documents.onDidChangeContent(({ document }) => {
    checks.changed(document);
  });
  documents.onDidClose(({ document }) => {
    checks.forget(document.uri);
    analyses.delete(document.uri);
    void connection.sendDiagnostics({ uri: document.uri, diagnostics: [] });
  });

  answerRequests(connection, analysisOf);

  documents.listen(connection);
  connection.listen();
  return connection;
}

/** The answer to `initialize`: what the server offers, and its name and version. */
function initializeResult(): InitializeResult {
  return {
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
      completionProvider: { triggerCharacters: ['.', ' ', '{'] },
      hoverProvider: true,
      definitionProvider: true,
      referencesProvider: true,
      renameProvider: { prepareProvider: true },
      documentSymbolProvider: true,
    },
    serverInfo: { name: 'workflows-emulator', version: VERSION },
  };
}

/** An open workflow document with the analysis of its current version, or undefined (not open, or not a workflow). */
type AnalysisOf = (uri: string) => { doc: Doc; a: Analysis } | undefined;

/**
 * Registers the answers to the client's requests (completion, hover, definition, references, rename, the
 * outline), each made from the analysis of the document's current version.
 */
function answerRequests(connection: Connection, analysisOf: AnalysisOf): void {
  connection.onCompletion(({ textDocument, position }) => {
    const x = analysisOf(textDocument.uri);
    return x ? completions(x.doc, position, x.a.model) : [];
  });
  connection.onHover(({ textDocument, position }) => {
    const x = analysisOf(textDocument.uri);
    return x ? hoverAt(x.doc, x.doc.offsetAt(position), x.a.stale ? undefined : x.a.model) : null;
  });
  const hitAt = (uri: string, position: { line: number; character: number }) => {
    const x = analysisOf(uri);
    if (!x || !x.a.model || x.a.stale) return undefined;
    const hit = symbolAt(x.a.model, x.doc.offsetAt(position));
    return hit ? { ...x, model: x.a.model, hit } : undefined;
  };
  connection.onDefinition(({ textDocument, position }) => {
    const h = hitAt(textDocument.uri, position);
    return h ? locations(h.doc, definitionsOf(h.model, h.hit)) : null;
  });
  connection.onReferences(({ textDocument, position, context }) => {
    const h = hitAt(textDocument.uri, position);
    return h ? locations(h.doc, referencesOf(h.model, h.hit, context.includeDeclaration)) : null;
  });
  connection.onPrepareRename(({ textDocument, position }) => {
    const h = hitAt(textDocument.uri, position);
    return h && canRename(h.hit) ? { range: rangeOf(h.doc, h.hit.ref), placeholder: h.hit.ref.name } : null;
  });
  connection.onRenameRequest(({ textDocument, position, newName }) => {
    const h = hitAt(textDocument.uri, position);
    if (!h || !canRename(h.hit)) return null;
    const edits = renameEdits(h.model, h.doc, h.hit, newName);
    if (typeof edits === 'string') throw new Error(edits);
    return { changes: { [textDocument.uri]: edits } };
  });
  connection.onDocumentSymbol(({ textDocument }) => {
    const x = analysisOf(textDocument.uri);
    return x?.a.model && !x.a.stale ? documentSymbols(x.a.model, x.doc) : [];
  });
}

/** A problem as an LSP diagnostic: its code linked to docs/lint.md; unused and unreachable code marked so. */
function toDiagnostic(p: import('../lint/check.ts').Problem): Diagnostic {
  const d: Diagnostic = {
    range: { start: { line: p.line - 1, character: p.col - 1 }, end: { line: p.endLine - 1, character: p.endCol - 1 } },
    severity: p.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
    code: p.code,
    codeDescription: { href: codeDocsUrl(p.code) },
    source: 'workflows-emulator',
    message: p.step !== undefined && p.severity === 'error' ? `step "${p.step}": ${p.message}` : p.message,
  };
  if (p.code === 'UNUSED_VARIABLE' || p.code === 'UNREACHABLE_STEP') d.tags = [DiagnosticTag.Unnecessary];
  return d;
}
