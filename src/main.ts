/**
 * The command line: `workflows-emulator [options]`. Wires configuration, service, REST, gRPC and UI.
 * Usage is printed by `--help`.
 */
import { VERSION } from './version.ts';

const USAGE = `workflows-emulator ${VERSION}: a local emulator of Google Cloud Workflows

Usage: workflows-emulator [options]

Options:
  --help       print this help
  --version    print the version

The REST API, gRPC API, web UI and directory watching are being built; see README.md.
`;

const args = process.argv.slice(2);
if (args.includes('--version')) {
  process.stdout.write(VERSION + '\n');
} else {
  process.stdout.write(USAGE);
}
