/**
 * When the language server checks a changed document (docs/editor.md#speed): once the JSON-RPC messages already
 * read from the client are handled, so a burst of changes (fast typing, a paste made of several edits) is checked
 * once, at its last version, and the diagnostics of that version do not wait for checks of every version before
 * it. vscode-jsonrpc queues the messages it reads and handles one per turn of the event loop; {@link countingReader}
 * and the message strategy count both ends of that queue.
 */
import type { Message, MessageReader } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';

/** The most turns of the event loop a check waits for queued messages (each turn handles one). */
const MAX_WAIT = 64;

/** Counts the messages read and handled, to tell whether more are queued. */
export class MessageCounter {
  private received = 0;
  private handled = 0;

  /** `base`, counting every message it delivers. */
  reader(base: MessageReader): MessageReader {
    return {
      onError: base.onError,
      onClose: base.onClose,
      onPartialMessage: base.onPartialMessage,
      listen: (callback) =>
        base.listen((message) => {
          this.received++;
          callback(message);
        }),
      dispose: () => base.dispose(),
    };
  }

  /** The connection's message strategy, counting every message handled. */
  readonly messageStrategy = {
    handleMessage: (message: Message, next: (m: Message) => void): void => {
      this.handled++;
      next(message);
    },
  };

  /** Whether messages read are still waiting to be handled. */
  queued(): boolean {
    // Past a level() made while messages were still queued, the handled ones count ahead: level again.
    if (this.handled > this.received) this.received = this.handled;
    return this.handled < this.received;
  }

  /**
   * Makes the counts level: the library drops some messages unhandled (a request cancelled before it ran), so a
   * wait that lasts too long ends here.
   */
  level(): void {
    this.handled = this.received;
  }
}

/** The documents changed and not yet checked, and the check of them, run when no message is queued. */
export class CheckQueue {
  private readonly pending = new Map<string, TextDocument>();
  private waited = 0;

  constructor(
    private readonly counter: MessageCounter,
    private readonly check: (document: TextDocument) => void,
  ) {}

  /** A document changed: its check is due (replacing any pending check of an earlier version). */
  changed(document: TextDocument): void {
    if (this.pending.size === 0) setImmediate(this.run);
    this.pending.set(document.uri, document);
  }

  /** Checks a document now if its check is pending (a request about it is about to be answered). */
  flush(uri: string): void {
    const document = this.pending.get(uri);
    if (document) {
      this.pending.delete(uri);
      this.check(document);
    }
  }

  /** Drops a pending check (the document was closed). */
  forget(uri: string): void {
    this.pending.delete(uri);
  }

  private readonly run = (): void => {
    if (this.pending.size === 0) return;
    if (this.counter.queued() && this.waited++ < MAX_WAIT) {
      setImmediate(this.run);
      return;
    }
    this.waited = 0;
    this.counter.level();
    for (const uri of [...this.pending.keys()]) this.flush(uri);
  };
}
