// The YAML 1.2 core schema's int and float patterns (https://yaml.org/spec/1.2.2/#1032-tag-resolution), matched
// by scanners in src/lang/definition/yaml-schema.ts: they must accept exactly what the spec's regular
// expressions accept (written out here as the oracle), on the spec's examples and on random strings.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { isCoreFloat, isCoreInt, isSurelyString } from '../../../src/lang/definition/yaml-schema.ts';
import { loadSource } from '../../../src/lang/definition/load.ts';
import { params } from '../../fuzz/config.ts';

const s = suite('YAML core schema scanners');

// The spec's tag resolution table, anchored (test-side oracle on generated input).
const INT = /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$/;
const FLOAT = /^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
const NULL = /^(?:null|Null|NULL|~|)$/;
const BOOL = /^(?:true|True|TRUE|false|False|FALSE)$/;

const EXAMPLES = [
  '', '0', '00', '-0', '+12', '-', '+', '0o', '0o7', '0o8', '-0o7', '0x', '0xFf', '0xg', '+0x1', '12a', '1_000',
  '.', '.5', '-.5', '1.', '1.5', '1.5.', '1e3', '1E+3', '1e-3', '1e', '1e+', '.e1', '+.inf', '-.Inf', '.INF', '.inF',
  '.nan', '.NaN', '-.nan', '+.nan', '.infx', 'inf', 'nan', '١٢', ' 1', '1 ', 'e3', '0.0e0',
];

s('the scanners accept exactly what the spec\'s patterns accept, on the spec\'s examples and edge cases', () => {
  for (const x of EXAMPLES) {
    assert.is(isCoreInt(x), INT.test(x), `int ${JSON.stringify(x)}`);
    assert.is(isCoreFloat(x), FLOAT.test(x), `float ${JSON.stringify(x)}`);
  }
});

s('the scanners agree with the spec\'s patterns on random strings of number characters', () => {
  const chars = fc.constantFrom(...'0123456789+-.eEoxXabfFinINaAN_ ');
  fc.assert(
    fc.property(fc.array(chars, { maxLength: 8 }).map((a) => a.join('')), (x) => {
      assert.is(isCoreInt(x), INT.test(x), `int ${JSON.stringify(x)}`);
      assert.is(isCoreFloat(x), FLOAT.test(x), `float ${JSON.stringify(x)}`);
    }),
    params(2000),
  );
});

// The string fast path is tried before the four types: where it says a plain scalar is a string, none of the
// spec's patterns may match it, and it must say so for the scalars that start as no null, bool or number can.
s('a plain scalar is taken for a string at once only where no null, bool, int or float pattern matches it', () => {
  const chars = fc.constantFrom(...'0123456789+-.~eEoxXabfFinINaANtTrRuUlLsS_ ${}"\'é');
  fc.assert(
    fc.property(fc.array(chars, { maxLength: 7 }).map((a) => a.join('')), (x) => {
      const other = NULL.test(x) || BOOL.test(x) || INT.test(x) || FLOAT.test(x);
      if (isSurelyString(x)) assert.not.ok(other, JSON.stringify(x));
      if (x !== '' && !/^[-+.0-9~nNtTfF]/.test(x)) assert.ok(isSurelyString(x), JSON.stringify(x));
    }),
    params(4000),
  );
  for (const x of ['~', 'null', 'NULL', 'true', 'False', '0x1', '-1', '.5', '.inf', '+.Inf', '.nan', '']) {
    assert.not.ok(isSurelyString(x), JSON.stringify(x));
  }
  for (const x of ['main', 'Step_1', '${x + 1}', 'é', '"', 'a1', 'Yes', 'ON', 'off']) assert.ok(isSurelyString(x), JSON.stringify(x));
});

s('plain scalars read as the core schema has them: ints exact, floats, infinities, NaN, and strings', () => {
  const root = loadSource('[0o17, 0x1F, -12, +7, 9223372036854775808, 1., .5, -.inf, .NaN, 1e3, 12a, -0x1]').root;
  assert.ok(root.kind === 'seq');
  const values = root.items.map((n) => (n.kind === 'scalar' ? n.value : undefined));
  assert.equal(values.slice(0, 4), [15n, 31n, -12n, 7n]);
  assert.is(values[4], 9223372036854775808);
  assert.equal(values.slice(5, 8), [1, 0.5, -Infinity]);
  assert.ok(Number.isNaN(values[8]));
  assert.equal(values.slice(9), [1000, '12a', '-0x1']);
  const words = loadSource('[~, null, Null, true, FALSE, x, "1", !!str 1, yes, main, $x, nan, inf, t, f, n]').root;
  assert.ok(words.kind === 'seq');
  assert.equal(
    words.items.map((n) => (n.kind === 'scalar' ? n.value : undefined)),
    [null, null, null, true, false, 'x', '1', '1', 'yes', 'main', '$x', 'nan', 'inf', 't', 'f', 'n'],
  );
});

s.run();
