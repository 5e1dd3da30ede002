/**
 * The `hash` namespace (Google's `hash.compute_checksum` and `hash.compute_hmac` pages; not in the spec,
 * added because real workflows use it): digests and HMACs of bytes with MD5, SHA1, SHA224, SHA256, SHA384
 * or SHA512, returned as bytes (encode them with `base64.encode` to return them). Uses `node:crypto`, which
 * Node, Deno and Bun all provide.
 */
import { nodeCrypto } from '../platform/builtins.ts';
import { valueError } from '../lang/errors.ts';
import { bytes, str } from './check.ts';
import type { StdlibFunction } from './types.ts';

/** Google's algorithm names and the node:crypto names they map to. */
const ALGORITHMS: ReadonlyMap<string, string> = new Map([
  ['MD5', 'md5'],
  ['SHA1', 'sha1'],
  ['SHA224', 'sha224'],
  ['SHA256', 'sha256'],
  ['SHA384', 'sha384'],
  ['SHA512', 'sha512'],
]);

/**
 * The node:crypto name of a Google algorithm name (case-insensitive; `SHA-256` is accepted as `SHA256`).
 *
 * @throws WorkflowError tagged ValueError for any other algorithm (Google: "If the provided hashing algorithm
 *   is not supported").
 */
function hashAlgorithm(fn: string, name: string): string {
  const a = ALGORITHMS.get(name.toUpperCase().replace('-', ''));
  if (!a) throw valueError(`${fn}: unsupported algorithm '${name}' (supported: ${[...ALGORITHMS.keys()].join(', ')})`);
  return a;
}

/** The hash functions, one row per function. */
export const functions: StdlibFunction[] = [
  {
    // hash.compute_checksum(data, algorithm): the digest of data as bytes.
    name: 'hash.compute_checksum',
    params: [{ name: 'data' }, { name: 'algorithm' }],
    impl: ([data, algorithm]) => {
      const fn = 'hash.compute_checksum';
      const d = bytes(fn, 'data', data);
      const a = hashAlgorithm(fn, str(fn, 'algorithm', algorithm));
      return new Uint8Array(nodeCrypto().createHash(a).update(d).digest());
    },
  },
  {
    // hash.compute_hmac(key, data, algorithm): the HMAC of data under key as bytes.
    name: 'hash.compute_hmac',
    params: [{ name: 'key' }, { name: 'data' }, { name: 'algorithm' }],
    impl: ([key, data, algorithm]) => {
      const fn = 'hash.compute_hmac';
      const k = bytes(fn, 'key', key);
      const d = bytes(fn, 'data', data);
      const a = hashAlgorithm(fn, str(fn, 'algorithm', algorithm));
      return new Uint8Array(nodeCrypto().createHmac(a, k).update(d).digest());
    },
  },
];
