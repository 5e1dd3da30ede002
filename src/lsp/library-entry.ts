/**
 * The parts of Microsoft's vscode-languageserver library the language server uses. The bundle carries this
 * module, with the library, compressed (build.mjs: the language server's library), and library.ts loads it
 * only for `workflows-emulator lsp`; from source it is imported as it is.
 */
export { createConnection, StreamMessageReader, StreamMessageWriter, TextDocuments } from 'vscode-languageserver/node';
export { TextDocument } from 'vscode-languageserver-textdocument';
