/**
 * The language client: starts `workflows-emulator lsp` (docs/editor.md) for workflow files, YAML and JSON
 * files (the server answers only for documents that are workflow definitions and leaves other files alone).
 *
 * The server is the emulator's one-file bundle shipped in the extension (server/emulator.mjs, run by VS Code's
 * Node), or the command of the `workflowsEmulator.server.command` setting run with the argument `lsp`.
 */
import { workspace, type ExtensionContext } from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';

let client: LanguageClient | undefined;

/**
 * Node's flags for the bundled server: a young generation of 32 MB, which a check of a large definition fills
 * less often, cuts the server's CPU time per change by about a quarter (docs/editor.md#speed).
 */
const SERVER_NODE_FLAGS = ['--max-semi-space-size=32'];

/** Starts the language client and its server; stopped with the extension. */
export async function startLanguageClient(context: ExtensionContext): Promise<void> {
  const command = workspace.getConfiguration('workflowsEmulator').get<string>('server.command', '').trim();
  const serverOptions: ServerOptions = command
    ? { command, args: ['lsp'], transport: TransportKind.stdio, options: { shell: process.platform === 'win32' } }
    : { module: context.asAbsolutePath('server/emulator.mjs'), args: ['lsp'], transport: TransportKind.stdio, options: { execArgv: SERVER_NODE_FLAGS } };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'cloud-workflows' },
      { scheme: 'file', language: 'yaml' },
      { scheme: 'file', language: 'json' },
      { scheme: 'untitled', language: 'cloud-workflows' },
    ],
  };
  client = new LanguageClient('workflowsEmulator', 'Cloud Workflows', serverOptions, clientOptions);
  context.subscriptions.push({ dispose: () => void client?.stop() });
  await client.start();
}

/** Stops the language client, if it runs. */
export async function stopLanguageClient(): Promise<void> {
  const c = client;
  client = undefined;
  if (c) await c.stop();
}
