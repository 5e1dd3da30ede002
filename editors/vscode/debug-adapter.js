// The debug adapter VS Code starts for a `launch` configuration: `workflows-emulator debug` on this process's
// stdin and stdout (docs/debugging.md#launch). The command is WORKFLOWS_EMULATOR_COMMAND when set (for example
// `node /path/to/dist/emulator.js`), else the emulator bundled with the extension (server/emulator.mjs, run by
// this process's Node), else `workflows-emulator` from the PATH. An `attach` configuration sets `debugServer` to
// the emulator's --inspect port instead, and VS Code connects there without this file.
const { spawn } = require('node:child_process');
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const bundled = join(__dirname, 'server', 'emulator.mjs');
const [command, ...args] = process.env.WORKFLOWS_EMULATOR_COMMAND
  ? process.env.WORKFLOWS_EMULATOR_COMMAND.split(' ').filter(Boolean)
  : existsSync(bundled)
    ? [process.execPath, bundled]
    : ['workflows-emulator'];
const child = spawn(command, [...args, 'debug'], { stdio: 'inherit', shell: process.platform === 'win32' && command === 'workflows-emulator' });
child.on('exit', (code) => process.exit(code ?? 1));
child.on('error', (e) => {
  process.stderr.write(`cannot start ${command}: ${e.message} (set WORKFLOWS_EMULATOR_COMMAND)\n`);
  process.exit(1);
});
