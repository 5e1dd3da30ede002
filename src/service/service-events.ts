/**
 * The listeners of the service core's events (`ServiceCore.subscribe`): the web UI's live updates and the
 * directory watcher's reports hear of every change through here.
 */
import type { ServiceEvent } from './model.ts';

/** A set of listeners, each told of every event; a listener that throws breaks neither the service nor the others. */
export class ServiceEvents {
  readonly #listeners = new Set<(e: ServiceEvent) => void>();

  /** Tells every listener of `event`. */
  emit(event: ServiceEvent): void {
    for (const l of this.#listeners) {
      try {
        l(event);
      } catch {
        // A listener's failure must not break the service or other listeners.
      }
    }
  }

  /** Adds a listener; the function returned removes it. */
  subscribe(listener: (e: ServiceEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /** Drops every listener. */
  clear(): void {
    this.#listeners.clear();
  }
}
