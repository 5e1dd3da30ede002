/**
 * The VS Code extension of workflows-emulator (docs/editor.md "VS Code"): each feature lives in a module of its
 * own and is started here, so features (the language client now; a debugger later) are added side by side.
 */
import type { ExtensionContext } from 'vscode';
import { startLanguageClient, stopLanguageClient } from './language-client';

/** Called by VS Code when a YAML, JSON or Cloud Workflows file is first opened. */
export async function activate(context: ExtensionContext): Promise<void> {
  await startLanguageClient(context);
}

/** Called by VS Code on shutdown: stops the language server. */
export async function deactivate(): Promise<void> {
  await stopLanguageClient();
}
