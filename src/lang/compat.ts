/**
 * Which behaviour the emulator follows where the specification and Google's documented or observed
 * behaviour of Cloud Workflows differ (docs/compat.md lists every such point, with both behaviours and
 * their sources). `spec`, the default, follows the specification; `google` (`--compat google`, `COMPAT=google`,
 * the JS API's `compat` option, a test file's `compat` key) follows Google at each of those points.
 */

/** `spec` (the default) or `google`. */
export type Compat = 'spec' | 'google';

/**
 * Reads a compat setting: undefined or empty is `spec`; `spec` and `google` (any case) are themselves.
 * @returns undefined for any other text (callers word the error for their surface).
 */
export function parseCompat(text: string | undefined): Compat | undefined {
  if (text === undefined || text === '') return 'spec';
  const t = text.toLowerCase();
  return t === 'spec' || t === 'google' ? t : undefined;
}
