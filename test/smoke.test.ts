import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';

// Distribution: the built bundle prints usage and its version.
test('dist/emulator.js --help prints usage', () => {
  const out = execFileSync(process.execPath, ['dist/emulator.js', '--help'], { encoding: 'utf8' });
  assert.match(out, /Usage: workflows-emulator/);
});

test.run();
