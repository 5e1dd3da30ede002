// When the language server checks changed documents (docs/editor.md#speed), in process: a burst of changes is
// checked once, at its last version, once the messages already read are handled; a request checks first; a message
// the JSON-RPC library drops unhandled delays a check by a few turns of the event loop, never forever.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Message, MessageReader } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { CheckQueue, MessageCounter } from '../../src/lsp/check-queue.ts';

const s = suite('check queue');
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
const doc = (version: number, uri = 'file:///w.yaml') => TextDocument.create(uri, 'yaml', version, `v${version}`);
const note: Message = { jsonrpc: '2.0' };

/** A counter wired to a reader the test feeds: `read()` delivers a message, `handle()` handles one. */
function wired() {
  const counter = new MessageCounter();
  let deliver: (m: Message) => void = () => {};
  const base = { listen: (cb: (m: Message) => void) => ((deliver = cb), { dispose() {} }), dispose() {} } as unknown as MessageReader;
  counter.reader(base).listen(() => {});
  const checked: string[] = [];
  const queue = new CheckQueue(counter, (d) => checked.push(`${d.uri}@${d.version}`));
  return { counter, queue, checked, read: () => deliver(note), handle: () => counter.messageStrategy.handleMessage(note, () => {}) };
}

s('changes handled while more messages are queued are checked once, at the last version', async () => {
  const w = wired();
  for (let i = 0; i < 3; i++) w.read();
  w.handle();
  w.queue.changed(doc(2));
  await turn();
  assert.equal(w.checked, [], 'two messages still queued');
  w.handle();
  w.queue.changed(doc(3));
  await turn();
  w.handle();
  w.queue.changed(doc(4));
  await turn();
  await turn();
  assert.equal(w.checked, ['file:///w.yaml@4']);
});

s('a change with nothing queued is checked at the next turn; a request checks a pending change first', async () => {
  const w = wired();
  w.read();
  w.handle();
  w.queue.changed(doc(2));
  await turn();
  assert.equal(w.checked, ['file:///w.yaml@2']);
  w.read();
  w.handle();
  w.queue.changed(doc(3));
  w.queue.flush('file:///w.yaml');
  assert.equal(w.checked, ['file:///w.yaml@2', 'file:///w.yaml@3']);
  await turn();
  assert.is(w.checked.length, 2, 'not checked twice');
});

s('a message dropped unhandled delays a check by a bounded wait, and later bursts are coalesced again', async () => {
  const w = wired();
  w.read();
  w.read(); // dropped: never handled
  w.handle();
  w.queue.changed(doc(2));
  for (let i = 0; i < 100 && w.checked.length === 0; i++) await turn();
  assert.equal(w.checked, ['file:///w.yaml@2']);
  w.read();
  w.read();
  w.handle();
  w.queue.changed(doc(3));
  await turn();
  assert.equal(w.checked.length, 1, 'one message queued: waits');
  w.handle();
  w.queue.changed(doc(4));
  await turn();
  await turn();
  assert.equal(w.checked, ['file:///w.yaml@2', 'file:///w.yaml@4']);
});

s('a closed document is not checked', async () => {
  const w = wired();
  w.queue.changed(doc(2));
  w.queue.forget('file:///w.yaml');
  await turn();
  assert.equal(w.checked, []);
});

s.run();
