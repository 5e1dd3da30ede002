// The main code as the comment of a function (build.mjs mainFile): scripts/script-code.mjs commentSafe writes each
// end of comment in a string, template or regular expression literal with a backslash before its slash, and each
// line break of a template as `\n` (Bun indents the lines of a comment it prints back), which leaves every value
// the same; it refuses what it cannot write so (a tagged template, a line continuation, code outside a literal).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
// @ts-expect-error: a build script without types
import { commentSafe } from '../../scripts/script-code.mjs';

const s = suite('build: the main code made fit for a block comment');
const END = '*' + '/';
/** The value a script's last expression evaluates to, run as a function body's return value. */
const valueOf = (script: string): unknown => new Function(`return (${script});`)();

s('a script with no end of comment is returned as it is', () => {
  const script = 'const a = 2 * 3 / 4; // a comment\nlet r = /x*y/g;';
  assert.is(commentSafe(script), script);
});

s('strings, templates and regular expressions (in a class: elsewhere its slash is escaped already) holding one keep their values, and the text holds none', () => {
  const cases = [
    `"/v1/{name=projects/${END}workflows}"`,
    `'${END}' + "a${END}b${END}"`,
    `\`/x/${END}\${1 + 1}/y${END}\${"z"}${END}\``,
    `/[${END}]+/.exec("x${END}${END}")[0]`,
    `{ k: "${END}", [\`t${END}\`]: 1 }`,
    '`line one\nline two ${"x"}\n${1}\n\\\\\n`',
  ];
  for (const script of cases) {
    const safe = commentSafe(script);
    assert.not.ok(safe.includes(END), safe);
    assert.not.ok(safe.includes('\n'), safe);
    assert.equal(valueOf(safe), valueOf(script), script);
  }
});

s('a tagged template (its tag reads the raw text), a line continuation and code outside a literal are refused', () => {
  assert.throws(() => commentSafe(`String.raw\`a${END}b\``), /a tagged template/);
  assert.throws(() => commentSafe(`x = 4 ${END}a/.source.length`.replace(' ', '')), /end of comment outside a literal/);
  assert.throws(() => commentSafe(`a; // ${END}\nb;`), /end of comment outside a literal/);
  assert.throws(() => commentSafe('String.raw`a\nb`'), /a tagged template/);
  assert.throws(() => commentSafe('`a\\\nb`'), /a line continuation in a template/);
});

s.run();
