import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mapOf } from '../../src/lang/value.ts';
import {
  executionDurationMs,
  executionIds,
  formatDuration,
  formatLogPayload,
  formatTime,
  prettyJson,
  sourceLines,
  summarizeError,
} from '../../src/ui/format.ts';

// docs/web-ui.md#pages (execution page: duration, pretty result and error payload, log lines; workflow page: numbered
// source): how the UI displays the service's values.
const s = suite('ui formatting (docs/web-ui.md#pages)');

/** Markup without tags, entities undone. */
const text = (markup: string) =>
  markup.replace(/<[^>]*>/g, '').replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&#39;/g, "'").replace(/&amp;/g, '&');

s('execution IDs come from the resource name (docs/api-resources.md#execution: name)', () => {
  assert.equal(executionIds({ name: 'projects/p/locations/l/workflows/wf-1/executions/abc-123' }), { workflowId: 'wf-1', executionId: 'abc-123' });
});

s('timestamps show as UTC to the second, the full value kept in datetime (docs/api-resources.md#resources-and-their-fields: ISO 8601 UTC)', () => {
  assert.is(
    formatTime('2026-11-21T07:12:03.456789Z').value,
    '<time datetime="2026-11-21T07:12:03.456789Z" title="2026-11-21T07:12:03.456789Z">2026-11-21 07:12:03 UTC</time>',
  );
  assert.match(formatTime(undefined).value, /—/);
  assert.is(formatTime('<not a time>').value, '&lt;not a time&gt;');
});

s('durations read naturally from milliseconds to days (docs/web-ui.md#pages)', () => {
  assert.is(formatDuration(0), '0 ms');
  assert.is(formatDuration(412.4), '412 ms');
  assert.is(formatDuration(3210), '3.2 s');
  assert.is(formatDuration(42_000), '42 s');
  assert.is(formatDuration(125_000), '2 min 5 s');
  assert.is(formatDuration(120_000), '2 min');
  assert.is(formatDuration(3_780_000), '1 h 3 min');
  assert.is(formatDuration(187_200_000), '2 d 4 h');
  assert.is(formatDuration(-1), '—');
});

s('the duration of an ACTIVE execution runs to now, of a finished one to its end time (docs/api-resources.md#execution)', () => {
  const start = '2026-11-21T07:00:00.000Z';
  assert.is(executionDurationMs({ startTime: start, endTime: '2026-11-21T07:00:01.500Z' }, 0), 1500);
  assert.is(executionDurationMs({ startTime: start }, Date.parse(start) + 250), 250);
});

s('JSON strings are pretty-printed with exact ints and highlighted, escaped (docs/web-ui.md#pages)', () => {
  const out = prettyJson('{"n":12345678901234567890,"i":9007199254740993,"d":2.0,"s":"<b>","l":[true,null]}').value;
  assert.is(
    text(out),
    '{\n  "n": 12345678901234567000.0,\n  "i": 9007199254740993,\n  "d": 2.0,\n  "s": "<b>",\n  "l": [\n    true,\n    null\n  ]\n}',
  );
  assert.match(out, /<span class="j-key">&quot;i&quot;<\/span>: <span class="j-num">9007199254740993<\/span>/);
  assert.match(out, /<span class="j-str">&quot;&lt;b&gt;&quot;<\/span>/);
  assert.match(out, /<span class="j-lit">true<\/span>/);
});

s('text that is not JSON is shown as is, escaped (docs/web-ui.md#pages)', () => {
  assert.is(prettyJson('{oops <b>').value, '{oops &lt;b&gt;');
});

s('strings inside JSON are not taken for keys, numbers or literals (docs/web-ui.md#pages)', () => {
  const out = prettyJson('["a: 1, true", "x\\"y"]').value;
  assert.is(out.match(/class="j-str"/g)?.length, 2);
  assert.not.match(out, /j-num|j-lit|j-key/);
});

s('log payloads: text as is, structured as JSON, bytes by size (docs/standard-library.md#sys)', () => {
  assert.is(formatLogPayload('<i>hi</i>').value, '&lt;i&gt;hi&lt;/i&gt;');
  assert.is(text(formatLogPayload(mapOf({ a: 1n })).value), '{\n  "a": 1\n}');
  assert.is(text(formatLogPayload(new Uint8Array(3)).value), '<3 bytes>');
});

s('an error payload is summarised as message, tags and code (docs/api-resources.md#error-map)', () => {
  assert.equal(summarizeError('{"message":"boom","code":404,"tags":["HttpError",1]}'), { message: 'boom', tags: ['HttpError'], code: '404' });
  assert.equal(summarizeError('"just a string"'), { tags: [] });
  assert.equal(summarizeError('not json'), { tags: [] });
});

s('source lines: a final newline makes no empty line; CRLF is one break (docs/web-ui.md#pages)', () => {
  assert.equal(sourceLines('a\nb\n'), ['a', 'b']);
  assert.equal(sourceLines('a\r\nb'), ['a', 'b']);
  assert.equal(sourceLines(''), ['']);
  assert.equal(sourceLines('a\n\n'), ['a', '']);
});

s.run();
