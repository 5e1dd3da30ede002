import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { b, call, callNamed, m, raises } from './helpers.ts';

// docs/standard-library.md#namespaces (text) and Google's text.* pages.
const s = suite('stdlib text');
const hit = (index: bigint, match: string) => m({ index, match });

s('text.find_all lists every occurrence with its index (docs/standard-library.md)', () => {
  assert.equal(call('text.find_all', 'abcabc', 'bc'), [hit(1n, 'bc'), hit(4n, 'bc')]);
  assert.equal(call('text.find_all', 'aaaa', 'aa'), [hit(0n, 'aa'), hit(2n, 'aa')]);
  assert.equal(call('text.find_all', 'abc', 'x'), []);
  assert.equal(callNamed('text.find_all', { source: 'xax', substr: 'a' }), [hit(1n, 'a')]);
  raises(() => call('text.find_all', 1n, 'a'), 'TypeError', 'text.find_all');
  raises(() => call('text.find_all', 'a', null), 'TypeError', 'substr');
});

s('text.find_all indexes count code points, not UTF-16 units (docs/language.md#data-types)', () => {
  assert.equal(call('text.find_all', '😀a😀a', 'a'), [hit(1n, 'a'), hit(3n, 'a')]);
  assert.equal(call('text.find_all', 'é😀', ''), [hit(0n, ''), hit(1n, ''), hit(2n, '')]);
});

s('text.find_all_regex and text.replace_all_regex take the longest of the matches starting at one index (https://cloud.google.com/workflows/docs/reference/stdlib/text/find_all_regex)', () => {
  assert.equal(call('text.find_all_regex', 'abcd', 'a|ab'), [hit(0n, 'ab')]);
  assert.is(call('text.replace_all_regex', 'abcd', 'a|ab', 'X'), 'Xcd');
  assert.equal(call('text.find_all_regex', 'aab', 'a*?'), [hit(0n, 'aa'), hit(2n, ''), hit(3n, '')]);
  // text.match_regex only asks whether there is a match; its patterns keep their own cache entry.
  assert.is(call('text.match_regex', 'abcd', 'a|ab'), true);
});

s('text.find_all_regex lists RE2 matches (Google text.find_all_regex)', () => {
  assert.equal(call('text.find_all_regex', 'HelloWorld', 'Hello|World'), [hit(0n, 'Hello'), hit(5n, 'World')]);
  assert.equal(call('text.find_all_regex', 'a1b22c333', '[0-9]+'), [hit(1n, '1'), hit(3n, '22'), hit(6n, '333')]);
  assert.equal(call('text.find_all_regex', '😀x😀x', 'x'), [hit(1n, 'x'), hit(3n, 'x')]);
  assert.equal(call('text.find_all_regex', 'ab', ''), [hit(0n, ''), hit(1n, ''), hit(2n, '')]);
  assert.equal(callNamed('text.find_all_regex', { source: 'ab', regexp: 'b' }), [hit(1n, 'b')]);
  assert.equal(callNamed('text.find_all_regex', { source: 'ab', pattern: 'a' }), [hit(0n, 'a')]);
});

s('regexes are RE2 only: backreferences and lookaround are ValueErrors (docs/standard-library.md)', () => {
  raises(() => call('text.find_all_regex', 'aa', '(a)\\1'), 'ValueError', 'invalid regular expression');
  raises(() => call('text.match_regex', 'ab', 'a(?=b)'), 'ValueError', 'text.match_regex');
  raises(() => call('text.replace_all_regex', 'ab', '(?<=a)b', 'x'), 'ValueError');
  raises(() => call('text.match_regex', 'a', '('), 'ValueError');
  raises(() => call('text.match_regex', 'a', 1n), 'TypeError', 'regexp');
});

s('text.match_regex is true when the pattern matches anywhere (Google text.match_regex)', () => {
  assert.is(call('text.match_regex', 'hello world', 'o w'), true);
  assert.is(call('text.match_regex', 'hello', '^h.*o$'), true);
  assert.is(call('text.match_regex', 'hello', '^x'), false);
  assert.is(call('text.match_regex', 'HeLLo', '(?i)hello'), true);
  assert.is(call('text.match_regex', 'αβγ', '\\p{Greek}+'), true);
});

s('text.replace_all replaces every literal occurrence (docs/standard-library.md)', () => {
  assert.is(call('text.replace_all', 'a.b.c', '.', '-'), 'a-b-c');
  assert.is(call('text.replace_all', 'aaa', 'aa', 'b'), 'ba');
  assert.is(call('text.replace_all', 'ab', '', '-'), '-a-b-');
  assert.is(call('text.replace_all', 'x$1y', '$1', '\\0'), 'x\\0y');
  assert.is(callNamed('text.replace_all', { source: 'ab', substr: 'a', repl: 'c' }), 'cb');
  raises(() => call('text.replace_all', 'a', 'a', 1n), 'TypeError', 'repl');
});

s('text.replace_all_regex expands \\0 to \\9 group references (docs/standard-library.md)', () => {
  assert.is(call('text.replace_all_regex', 'one two', 'one|two', 'three'), 'three three');
  assert.is(call('text.replace_all_regex', 'John Smith', '(\\w+) (\\w+)', '\\2, \\1'), 'Smith, John');
  assert.is(call('text.replace_all_regex', 'abc', 'b', '[\\0]'), 'a[b]c');
  assert.is(call('text.replace_all_regex', 'abc', '(b)', '\\5|\\\\|\\n|$1'), 'a|\\|\\n|$1c');
  assert.is(call('text.replace_all_regex', 'ab', 'x*', '-'), '-a-b-');
  assert.is(call('text.replace_all_regex', 'a1b2', '(?P<d>[0-9])', '<\\1>'), 'a<1>b<2>');
  assert.is(callNamed('text.replace_all_regex', { source: 'aa', regexp: 'a', repl: 'b' }), 'bb');
  assert.is(callNamed('text.replace_all_regex', { source: 'aa', pattern: 'a', replacement: 'c' }), 'cc');
});

s('text.split keeps empty pieces and rejects an empty separator (Google text.split)', () => {
  assert.equal(call('text.split', 'a,b', ','), ['a', 'b']);
  assert.equal(call('text.split', 'baaab', 'aa'), ['b', 'ab']);
  assert.equal(call('text.split', 'abc', 'a'), ['', 'bc']);
  assert.equal(call('text.split', 'abc', 'c'), ['ab', '']);
  assert.equal(call('text.split', 'abbc', 'b'), ['a', '', 'c']);
  assert.equal(call('text.split', 'abc', 'x'), ['abc']);
  assert.equal(call('text.split', '', ','), ['']);
  raises(() => call('text.split', 'abc', ''), 'ValueError', 'text.split');
  raises(() => call('text.split', 'abc', 1n), 'TypeError', 'separator');
});

s('text.substring takes code points [start, end), negative from the end, clamped (Google text.substring)', () => {
  assert.is(call('text.substring', 'hello', 2n, 4n), 'll');
  assert.is(call('text.substring', 'hello', -10n, 10n), 'hello');
  assert.is(call('text.substring', 'hello', -3n, -1n), 'll');
  assert.is(call('text.substring', 'hello', 3n, 1n), '');
  assert.is(call('text.substring', 'a😀b', 1n, 2n), '😀');
  assert.is(callNamed('text.substring', { source: 'hello', start: 0n, end: 1n }), 'h');
  raises(() => call('text.substring', 'hello', 1.0, 2n), 'TypeError', 'start');
  raises(() => call('text.substring', 5n, 1n, 2n), 'TypeError', 'text.substring');
  raises(() => call('text.substring', 'hello', 1n), 'TypeError', 'end');
});

s('text.to_lower and text.to_upper change case (docs/standard-library.md)', () => {
  assert.is(call('text.to_lower', 'HeLLo É'), 'hello é');
  assert.is(call('text.to_upper', 'straße'), 'STRASSE');
  raises(() => call('text.to_upper', null), 'TypeError', 'text.to_upper');
});

s('text.url_encode percent-encodes all but unreserved characters (docs/standard-library.md)', () => {
  assert.is(call('text.url_encode', 'a/b/c?item=d+e f'), 'a%2Fb%2Fc%3Fitem%3Dd%2Be%20f');
  assert.is(call('text.url_encode', 'a b&c=d/é~._-'), 'a%20b%26c%3Dd%2F%C3%A9%7E._-');
  assert.is(call('text.url_encode', "!*'()+"), '%21%2A%27%28%29%2B');
  assert.is(call('text.url_encode_plus', 'a/b/c?item=d+e f'), 'a%2Fb%2Fc%3Fitem%3Dd%2Be+f');
  raises(() => call('text.url_encode', 1n), 'TypeError', 'text.url_encode');
});

s('text.url_decode decodes percent-encoding and pluses, rejecting a bad "%" (Google text.url_decode)', () => {
  assert.is(call('text.url_decode', 'a%2Fb%2Fc%3Fitem%3Dd%2Be'), 'a/b/c?item=d+e');
  assert.is(call('text.url_decode', 'a%20b%C3%A9+c'), 'a bé c');
  assert.is(call('text.url_decode', 'plain+text'), 'plain text');
  assert.is(call('text.url_decode', '%FF'), '\uFFFD');
  raises(() => call('text.url_decode', '%zz'), 'ValueError', 'text.url_decode');
  raises(() => call('text.url_decode', 'abc%2'), 'ValueError');
});

s('text.encode and text.decode convert with UTF-8 by default (docs/standard-library.md)', () => {
  assert.equal(call('text.encode', 'hé'), b('hé'));
  assert.is(call('text.decode', b('hé')), 'hé');
  assert.is(call('text.decode', call('text.encode', 'x😀', 'UTF-8')), 'x😀');
  assert.equal(callNamed('text.encode', { text: 'a', charset: 'utf-8' }), b('a'));
  assert.equal(callNamed('text.encode', { data: 'a' }), b('a'));
  assert.is(callNamed('text.decode', { data: b('a') }), 'a');
});

s('text.encode and text.decode know ASCII, Latin-1 and UTF-16 (Google text.encode)', () => {
  assert.equal(call('text.encode', 'é', 'ISO-8859-1'), new Uint8Array([0xe9]));
  assert.is(call('text.decode', new Uint8Array([0xe9]), 'latin1'), 'é');
  assert.equal(call('text.encode', 'A', 'UTF-16BE'), new Uint8Array([0, 65]));
  assert.equal(call('text.encode', 'A', 'UTF-16LE'), new Uint8Array([65, 0]));
  assert.is(call('text.decode', new Uint8Array([0xff, 0xfe, 65, 0]), 'UTF-16'), 'A');
  assert.is(call('text.decode', new Uint8Array([72, 105]), 'US-ASCII'), 'Hi');
  assert.is(call('text.decode', new Uint8Array([0xb1]), 'ISO-8859-2'), 'ą');
  raises(() => call('text.encode', 'é', 'US-ASCII'), 'ValueError', 'US-ASCII');
});

s('text.encode writes every charset text.decode reads: ISO-8859-2, windows-1250, Shift_JIS, EUC-KR (https://cloud.google.com/workflows/docs/reference/stdlib/text/encode)', () => {
  assert.equal(call('text.encode', 'zażółć', 'ISO-8859-2'), new Uint8Array([0x7a, 0x61, 0xbf, 0xf3, 0xb3, 0xe6]));
  assert.equal(call('text.encode', '€Á', 'windows-1250'), new Uint8Array([0x80, 0xc1]));
  for (const [text, charset] of [['日本語テキスト', 'Shift_JIS'], ['한국어', 'EUC-KR'], ['中文', 'GBK'], ['Ωμέγα', 'ISO-8859-7']]) {
    assert.is(call('text.decode', call('text.encode', text!, charset!), charset!), text, charset);
  }
  raises(() => call('text.encode', '日', 'ISO-8859-2'), 'ValueError', 'cannot be encoded in ISO-8859-2');
});

s('text.decode turns undecodable bytes into U+FFFD (Google text.decode)', () => {
  assert.is(call('text.decode', new Uint8Array([0x61, 0xff, 0x62])), 'a\uFFFDb');
  assert.is(call('text.decode', new Uint8Array([0xe9]), 'ascii'), '\uFFFD');
  assert.is(call('text.decode', new Uint8Array([0, 65, 0]), 'UTF-16BE'), 'A\uFFFD');
  assert.is(call('text.decode', new Uint8Array([0xd8, 0, 0, 65]), 'UTF-16BE'), '\uFFFDA');
});

s('text.decode and text.encode raise ValueError for an unknown charset (Google text.decode)', () => {
  raises(() => call('text.decode', b('a'), 'EBCDIC-XYZ'), 'ValueError', 'charset');
  raises(() => call('text.encode', 'a', 'EBCDIC-XYZ'), 'ValueError', 'charset');
  raises(() => call('text.decode', 'not bytes'), 'TypeError', 'text.decode');
  raises(() => call('text.encode', b('x')), 'TypeError', 'text.encode');
  raises(() => call('text.encode', 'x', 5n), 'TypeError', 'charset');
});

s.run();
