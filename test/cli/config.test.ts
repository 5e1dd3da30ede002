// The command line of the server and of `run` (docs/cli.md#configuration), read with node:util parseArgs: the
// words accepted and the one-line errors (exit code 2) for the rest.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseConfig } from '../../src/cli/config.ts';

const test = suite('cli config (docs/cli.md#configuration)');
const message = (argv: string[]): string => {
  const r = parseConfig(argv, {});
  return r.kind === 'error' ? r.message : `no error: ${r.kind}`;
};

test('a flag takes its value as the next word or after "=", and beats its variable', () => {
  const a = parseConfig(['--port', '9000', '--host=127.0.0.1'], { PORT: '1', HOST: '0.0.0.0' });
  assert.is(a.kind, 'config');
  if (a.kind !== 'config') return;
  assert.is(a.config.port, 9000);
  assert.is(a.config.host, '127.0.0.1');
});

test('-h/--help and -v/--version win wherever they are; an error before them wins first', () => {
  assert.is(parseConfig(['--port', '1', '-h'], {}).kind, 'help');
  assert.is(parseConfig(['--version'], {}).kind, 'version');
  assert.is(parseConfig(['-v'], {}).kind, 'version');
  assert.is(message(['--bogus', '--help']), 'unknown option "--bogus" (see --help)');
});

test('unknown options, stray words and missing values are one-line errors naming the word', () => {
  assert.is(message(['--bogus=1']), 'unknown option "--bogus=1" (see --help)');
  assert.is(message(['-x']), 'unknown option "-x" (see --help)');
  assert.is(message(['workflows']), 'unknown option "workflows" (see --help)');
  assert.is(message(['--port']), 'option --port needs a value');
  assert.is(message(['--port', '--host', 'x']), 'option --port needs a value');
});

test('--verbose alone is on; --verbose=0 is off; repeated list flags add up and replace their variable', () => {
  const on = parseConfig(['--verbose'], {});
  const off = parseConfig(['--verbose=0'], { VERBOSE: '1' });
  assert.ok(on.kind === 'config' && on.config.verbose);
  assert.ok(off.kind === 'config' && !off.config.verbose);
  const lists = parseConfig(['--allow-origin', 'http://a.test', '--allow-origin=http://b.test'], { ALLOW_ORIGIN: 'http://c.test' });
  assert.ok(lists.kind === 'config');
  if (lists.kind === 'config') assert.equal(lists.config.allowOrigins, ['http://a.test', 'http://b.test']);
});

test.run();
