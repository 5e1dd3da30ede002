/**
 * The one check that keeps other web origins from driving the emulator (docs/cli.md#safe-by-default), used by
 * the REST port's handler for every route it serves: the management API, Google's REST transport, the web
 * UI's forms and any control API. Callback URLs (`/callbacks/{id}`) are exempt: whoever holds the
 * unguessable URL may call it, as on Google's service.
 *
 * A request is a browser's when it carries `Origin` or any `Sec-Fetch-*` header, or a `User-Agent` starting
 * `Mozilla/` (what every browser sends, also those too old for Fetch Metadata); curl, SDKs and Google's client
 * libraries send none of these and are never refused. A browser's request is refused with 403
 * PERMISSION_DENIED
 *
 * - whatever its method, reads included, when its `Host` is not a name this server answers to (DNS
 *   rebinding: an attacker's domain re-pointed at 127.0.0.1 reaches the port with `Host: attacker.example`,
 *   and the browser takes the page and the emulator for one origin, so the page could read every workflow's
 *   source, every argument and every callback URL). Allowed: any IP literal (a rebinding needs a name),
 *   `localhost` and `*.localhost` (RFC 6761: always loopback), the machine's hostname, the bound address, and
 *   the names given with `--allowed-host` (a leading dot allows every subdomain);
 * - on a state-changing method (anything but GET, HEAD and OPTIONS), when it comes from another origin: `Sec-Fetch-Site` is `cross-site` or `same-site`, or `Origin` is not
 *   `http://{Host}`, unless the origin was allowed with `--allow-origin`. An allowed origin also gets CORS
 *   answers (a preflight `OPTIONS` is answered 204), so a dev server's page can call the API with fetch.
 *
 * The same policy is what dev servers apply (webpack-dev-server's `allowedHosts`, Vite's `server.allowedHosts`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { nodeNet, nodeOs } from '../platform/builtins.ts';
import { ApiError } from '../service/errors.ts';

/** Options of {@link createBrowserGuard}. */
export interface BrowserGuardOptions {
  /** Origins allowed to change state from a browser (`--allow-origin`), e.g. `http://localhost:3000`. */
  readonly allowOrigins?: readonly string[];
  /** Extra host names this server answers to (`--allowed-host`); `.example.test` allows its subdomains. */
  readonly allowedHosts?: readonly string[];
  /** The bound address (`--host`), allowed as a Host name. */
  readonly boundHost?: string;
  /** The machine's host name; `os.hostname()` by default (tests pass their own). */
  readonly machineHostname?: string;
}

/**
 * Decides one request. Returns an ApiError (PERMISSION_DENIED, 403) for a refused request, `'preflight'` when
 * it was a CORS preflight of an allowed origin (the guard has answered it), or undefined to let it through
 * (after adding CORS headers for an allowed origin).
 */
export type BrowserGuard = (req: IncomingMessage, res: ServerResponse, path: string) => ApiError | 'preflight' | undefined;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Builds the guard for one server. Origins are compared in their serialized form (`scheme://host[:port]`). */
export function createBrowserGuard(options: BrowserGuardOptions = {}): BrowserGuard {
  const allowOrigins = new Set((options.allowOrigins ?? []).map(normalizeOrigin).filter((o): o is string => o !== undefined));
  const exact = new Set<string>(['localhost']);
  const suffixes: string[] = ['.localhost'];
  const add = (name: string): void => {
    const n = name.trim().toLowerCase().replace(/\.$/, '');
    if (n === '') return;
    if (n.startsWith('.')) suffixes.push(n);
    else exact.add(n);
  };
  add(options.machineHostname ?? safeHostname());
  if (options.boundHost) add(options.boundHost);
  for (const h of options.allowedHosts ?? []) add(h);

  const hostAllowed = (host: string | undefined): boolean => {
    if (host === undefined) return false;
    const name = hostName(host);
    if (name === undefined) return false;
    if (nodeNet().isIP(name) !== 0) return true;
    return exact.has(name) || suffixes.some((s) => name.endsWith(s));
  };

  return (req, res, path) => {
    if (path.startsWith('/callbacks/')) return undefined;
    const h = req.headers;
    const origin = h.origin;
    const fetchSite = h['sec-fetch-site'];
    const fromBrowser =
      origin !== undefined ||
      fetchSite !== undefined ||
      h['sec-fetch-mode'] !== undefined ||
      h['sec-fetch-dest'] !== undefined ||
      h['user-agent']?.startsWith('Mozilla/') === true;
    if (!fromBrowser) return undefined;
    // DNS rebinding reaches reads as well as writes: the Host is checked for every method.
    if (!hostAllowed(h.host)) return refusedHost(h.host);
    const allowed = origin !== undefined && allowOrigins.has(normalizeOrigin(origin) ?? '');
    if (allowed) {
      res.setHeader('access-control-allow-origin', origin);
      res.setHeader('vary', 'Origin');
    }
    const method = (req.method ?? 'GET').toUpperCase();
    if (method === 'OPTIONS' && allowed && h['access-control-request-method'] !== undefined) {
      res.writeHead(204, {
        'x-content-type-options': 'nosniff',
        'access-control-allow-methods': 'GET, HEAD, POST, PATCH, PUT, DELETE',
        'access-control-allow-headers': h['access-control-request-headers'] ?? '',
        'access-control-max-age': '600',
      });
      res.end();
      return 'preflight';
    }
    if (SAFE_METHODS.has(method)) return undefined;
    if (allowed) return undefined;
    if (fetchSite === 'cross-site' || fetchSite === 'same-site') return refusedOrigin(origin ?? `a ${fetchSite} page`);
    if (origin !== undefined && !sameOrigin(origin, h.host!)) return refusedOrigin(origin);
    return undefined;
  };
}

/** The host name of a `Host` header value (`name:port`, `[v6]:port`), lower-cased; undefined when malformed. */
function hostName(host: string): string | undefined {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    return end > 0 ? h.slice(1, end) : undefined;
  }
  const colon = h.indexOf(':');
  const name = (colon < 0 ? h : h.slice(0, colon)).replace(/\.$/, '');
  return /^[a-z0-9._-]+$/.test(name) ? name : undefined;
}

/** True when `origin` is `http://{host}` (this server, as the browser reached it). */
function sameOrigin(origin: string, host: string): boolean {
  const o = normalizeOrigin(origin);
  const self = normalizeOrigin(`http://${host}`);
  return o !== undefined && o === self;
}

/** `scheme://host[:port]` of an origin, lower-cased with the default port dropped; undefined when not one. */
function normalizeOrigin(origin: string): string | undefined {
  try {
    const u = new URL(origin);
    if (u.origin === 'null') return undefined;
    return u.origin;
  } catch {
    return undefined;
  }
}

function safeHostname(): string {
  try {
    return nodeOs().hostname();
  } catch {
    return 'localhost';
  }
}

function refusedOrigin(origin: string): ApiError {
  const hint = origin.includes('://') ? ` (start the emulator with --allow-origin ${origin} to allow that page)` : '';
  return new ApiError('PERMISSION_DENIED', `cross-origin request refused: ${origin} may not change this emulator's state${hint}`);
}

function refusedHost(host: string | undefined): ApiError {
  if (host === undefined) return new ApiError('PERMISSION_DENIED', 'request refused: a browser request without a Host header');
  const name = hostName(host) ?? host;
  return new ApiError(
    'PERMISSION_DENIED',
    `request refused: "${host}" is not a host name this emulator answers to (DNS rebinding protection); ` +
      `start it with --allowed-host ${name} to allow it`,
  );
}
