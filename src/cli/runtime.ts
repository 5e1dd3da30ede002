/**
 * Start-up checks of the JavaScript runtime (docs/cli.md#one-file-on-node-deno-and-bun: where a runtime cannot do something, the
 * emulator says so clearly at start-up). The bundle runs the same on Node 20+, Deno 2 and Bun; what can go
 * wrong is the runtime's setup: Deno without the permissions the emulator needs (it listens, reads workflow
 * files and reads its configuration from the environment), or a Node older than 20.
 */

/** Deno's permission names the emulator needs, with the flag that grants each. */
const DENO_PERMISSIONS = [
  ['net', '--allow-net'],
  ['read', '--allow-read'],
  ['env', '--allow-env'],
] as const;

/** The part of Deno's global the check reads. */
interface DenoLike {
  readonly permissions?: { querySync?(descriptor: { name: string }): { state: string } };
}

/**
 * Warnings for the runtime the bundle runs on, one line each (empty when all is well): under Deno, each
 * permission of net, read and env that is not granted (the emulator still starts: a narrower grant may be
 * enough, and Deno reports what is refused); under Node, a version before 20 (`engines` in package.json).
 * Never throws.
 */
export function runtimeWarnings(): string[] {
  const deno = (globalThis as { Deno?: DenoLike }).Deno;
  if (deno) {
    const missing: string[] = [];
    for (const [name, flag] of DENO_PERMISSIONS) {
      try {
        if (deno.permissions?.querySync?.({ name }).state !== 'granted') missing.push(flag);
      } catch {
        // An unknown permission API: say nothing rather than something wrong.
      }
    }
    if (missing.length === 0) return [];
    return [
      `workflows-emulator: under Deno the emulator needs ${missing.join(', ')} (or -A): ` +
        `deno run -A dist/emulator.js; without them Deno refuses the first listen, file read or environment read`,
    ];
  }
  const isBun = typeof (globalThis as { Bun?: unknown }).Bun !== 'undefined';
  const major = Number(/^(\d+)/.exec(process.versions.node ?? '')?.[1] ?? 'NaN');
  if (!isBun && major < 20) return [`workflows-emulator: Node ${process.versions.node} is too old: Node 20 or later is required`];
  return [];
}
