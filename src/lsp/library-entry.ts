/**
 * The parts of Microsoft's vscode-languageserver library the language server uses. The bundle carries this
 * module, with the library, in the language server's packed module group (build.mjs PACKED_MODULES), and
 * library.ts loads it only for `workflows-emulator lsp`.
 */
export { createConnection, StreamMessageReader, StreamMessageWriter, TextDocuments } from 'vscode-languageserver/node';
export { TextDocument } from 'vscode-languageserver-textdocument';
