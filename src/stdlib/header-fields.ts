/**
 * Header fields as http.* builds a request's and a mock builds a response's, without the platform's `Headers`:
 * Node loads its whole fetch implementation (undici, about 35 ms of CPU) on the first use of `Headers`, which a
 * run whose every call is mocked never needs otherwise.
 *
 * The rules are the Fetch standard's for `Headers` (https://fetch.spec.whatwg.org/#headers-class), as far as
 * http.* uses them, and test/stdlib/header-fields.test.ts compares the two on generated inputs:
 * - a name is an HTTP token, compared without regard to case (kept lower-cased);
 * - a value loses its leading and trailing HTTP whitespace (tab, line feed, carriage return, space) and may not
 *   then hold a NUL, line feed or carriage return;
 * - a bad name or value throws a TypeError;
 * - `append` joins a value to the one already there with `", "`, except for `set-cookie`, whose values stay
 *   apart;
 * - `forEach` visits the names in order of their code units (Fetch's "sort and combine"), each `set-cookie`
 *   value alone.
 */

/** The header fields an http.* response is read from: the platform's `Headers` or a {@link HeaderFields}. */
export interface HeaderReader {
  get(name: string): string | null;
  forEach(visit: (value: string, name: string) => void): void;
}

/** An HTTP token's characters (RFC 9110, section 5.6.2: tchar), by char code. */
const TOKEN_CHARS = new Uint8Array(128);
for (const c of "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") TOKEN_CHARS[c.charCodeAt(0)] = 1;

/** Whether `name` is an HTTP token (one or more tchars). */
function isToken(name: string): boolean {
  if (name.length === 0) return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 128 || TOKEN_CHARS[c] === 0) return false;
  }
  return true;
}

/** HTTP whitespace (Fetch: "HTTP whitespace"): tab, line feed, carriage return, space. */
function isHttpWhitespace(c: number): boolean {
  return c === 0x09 || c === 0x0a || c === 0x0d || c === 0x20;
}

/**
 * `value` normalized (its leading and trailing HTTP whitespace removed), as Fetch's Headers keeps it.
 * @throws TypeError when the normalized value holds a NUL, line feed or carriage return.
 */
function normalizedValue(name: string, value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && isHttpWhitespace(value.charCodeAt(start))) start++;
  while (end > start && isHttpWhitespace(value.charCodeAt(end - 1))) end--;
  const out = start === 0 && end === value.length ? value : value.slice(start, end);
  for (let i = 0; i < out.length; i++) {
    const c = out.charCodeAt(i);
    if (c === 0 || c === 0x0a || c === 0x0d) throw new TypeError(`invalid value of header ${JSON.stringify(name)}`);
  }
  return out;
}

/** The lower-cased `name`. @throws TypeError when it is not an HTTP token. */
function checkedName(name: string): string {
  if (!isToken(name)) throw new TypeError(`invalid header name ${JSON.stringify(name)}`);
  return name.toLowerCase();
}

/** Header fields by Fetch's rules (module header), in a plain map: the platform's fetch machinery is not loaded. */
export class HeaderFields implements HeaderReader {
  /** Values by lower-cased name; `set-cookie`'s as a list, every other name's joined. */
  readonly #fields = new Map<string, string | string[]>();

  /** Header fields from name-value pairs, appended in order. @throws TypeError for a bad name or value. */
  constructor(pairs?: Iterable<readonly [string, string]>) {
    if (pairs) for (const [name, value] of pairs) this.append(name, value);
  }

  /** Replaces the value of `name`. @throws TypeError for a bad name or value. */
  set(name: string, value: string): void {
    const key = checkedName(name);
    const v = normalizedValue(name, value);
    this.#fields.set(key, key === 'set-cookie' ? [v] : v);
  }

  /** Adds `value` to `name`'s (joined with `", "`; set-cookie's kept apart). @throws TypeError for a bad name or value. */
  append(name: string, value: string): void {
    const key = checkedName(name);
    const v = normalizedValue(name, value);
    const had = this.#fields.get(key);
    if (key === 'set-cookie') this.#fields.set(key, [...((had as string[] | undefined) ?? []), v]);
    else this.#fields.set(key, had === undefined ? v : `${had as string}, ${v}`);
  }

  /** The value of `name` (set-cookie's joined with `", "`), or null when it has none. */
  get(name: string): string | null {
    const v = this.#fields.get(name.toLowerCase());
    return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
  }

  /** Whether `name` has a value. */
  has(name: string): boolean {
    return this.#fields.has(name.toLowerCase());
  }

  /** Visits every field, names in code-unit order, each set-cookie value alone (Fetch's "sort and combine"). */
  forEach(visit: (value: string, name: string) => void): void {
    for (const [name, value] of this.entries()) visit(value, name);
  }

  /** The fields as `[name, value]` pairs in {@link forEach}'s order: what a fetch `init.headers` takes. */
  entries(): [string, string][] {
    const out: [string, string][] = [];
    for (const name of [...this.#fields.keys()].sort()) {
      const v = this.#fields.get(name)!;
      if (Array.isArray(v)) for (const item of v) out.push([name, item]);
      else out.push([name, v]);
    }
    return out;
  }
}
