/**
 * The numeric constants of the Language Server Protocol the server sends
 * (https://microsoft.github.io/language-server-protocol/specifications/lsp/3.17/specification/), written here so
 * that the bundle's start-up does not load the library for them (library.ts); test/lsp/protocol.test.ts checks
 * each against vscode-languageserver's own.
 */

/** `CompletionItemKind` values used by completion. */
export const CompletionItemKind = { Function: 3, Field: 5, Variable: 6, Module: 9, Property: 10, Keyword: 14, Reference: 18, Constant: 21 } as const;

/** `InsertTextFormat.Snippet`. */
export const InsertTextFormat = { Snippet: 2 } as const;

/** `SymbolKind` values of the outline. */
export const SymbolKind = { Field: 8, Function: 12 } as const;

/** `DiagnosticSeverity` values. */
export const DiagnosticSeverity = { Error: 1, Warning: 2 } as const;

/** `DiagnosticTag.Unnecessary`: shown faded. */
export const DiagnosticTag = { Unnecessary: 1 } as const;

/** `TextDocumentSyncKind.Incremental`. */
export const TextDocumentSyncKind = { Incremental: 2 } as const;
