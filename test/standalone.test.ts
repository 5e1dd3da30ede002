// A repository that stands on its own (CONTRIBUTING.md#rules-of-the-code): nothing in the repository names a path of one machine or sends
// users to files outside it, and the license file matches package.json.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

const s = suite('a repository that stands on its own (CONTRIBUTING.md#rules-of-the-code)');
const ROOT = resolve(new URL('..', import.meta.url).pathname);
const tracked = (): string[] => execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter((f) => f !== '' && !f.startsWith('gen/'));

s('no tracked file holds an absolute path of a developer machine (/work/, /home/, /Users/)', () => {
  const pattern = /(['"`\s(=]|^)\/(work|home|Users)\/[A-Za-z]/m;
  const offending: string[] = [];
  for (const f of tracked()) {
    if (f === 'test/standalone.test.ts') continue;
    let text: string;
    try {
      text = readFileSync(resolve(ROOT, f), 'utf8');
    } catch {
      continue; // deleted in the working tree
    }
    if (pattern.test(text)) offending.push(f);
  }
  assert.equal(offending, []);
});

s('README and docs do not send users outside the repository (../shared)', () => {
  for (const f of tracked().filter((f) => f.endsWith('.md'))) {
    const text = readFileSync(resolve(ROOT, f), 'utf8');
    assert.not.match(text, /\.\.\/shared\/SPEC\.md/, f);
  }
});

s('LICENSE is the Apache License 2.0 that package.json names', () => {
  const pkg = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { license: string };
  assert.is(pkg.license, 'Apache-2.0');
  const license = readFileSync(resolve(ROOT, 'LICENSE'), 'utf8');
  assert.match(license, /^\s*Apache License\s+Version 2\.0, January 2004/);
  assert.match(license, /END OF TERMS AND CONDITIONS/);
});

s.run();
