// docs/cli.md#safe-by-default, black-box against the built bundle: no web page of another origin, and no
// DNS-rebound name, may change the emulator's state through any state-changing route of the REST port
// (management API, Google's REST transport, the web UI's forms, anything under /emulator/v1); clients that
// are not browsers (no Origin, no Sec-Fetch-*) keep working by any Host name; callback URLs stay callable by
// anyone who holds them; every response says nosniff. The policy is the one dev servers apply
// (webpack-dev-server allowedHosts, Vite server.allowedHosts) and the Fetch Metadata headers
// (https://www.w3.org/TR/fetch-metadata/).
import { request as httpRequest } from 'node:http';
import { hostname } from 'node:os';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startEmulator, until, type EmulatorProcess } from '../support/emulator.ts';
import { CALLBACK_WAITER } from '../support/workflows.ts';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

/** One request over node:http, so `Host` can be anything (fetch would not send a forged Host). */
function raw(base: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Raw> {
  const u = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: u.hostname, port: u.port, method, path: u.pathname + u.search, headers: { ...headers, ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (d: string) => (text += d));
        res.on('end', () => {
          let json: any;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode!, headers: res.headers, text, json });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const WAITER = CALLBACK_WAITER;
const SOURCE = 'main:\n  steps:\n    - done:\n        return: 1\n';

/** A state-changing route: how to call it, and how to tell that it changed nothing. */
interface Route {
  readonly name: string;
  readonly method: string;
  path(ctx: Ctx): string;
  readonly body?: string;
  readonly type?: string;
  /** Resolves to a description of the state this route would change (compared before and after). */
  state(ctx: Ctx): Promise<string>;
}
interface Ctx {
  emu: EmulatorProcess;
  api: string;
  execution: string; // executionId of an ACTIVE execution of `waiter`
  callback: string; // the ID of the callback it waits on
}

const ROUTES: Route[] = [
  {
    name: 'REST create workflow',
    method: 'POST',
    path: (c) => `${c.api}/workflows?workflowId=created`,
    body: JSON.stringify({ sourceContents: SOURCE }),
    type: 'text/plain',
    state: async (c) => String((await c.emu.request('GET', '/workflows/created')).status),
  },
  {
    name: 'REST update workflow',
    method: 'PATCH',
    path: (c) => `${c.api}/workflows/waiter`,
    body: JSON.stringify({ description: 'changed' }),
    type: 'application/json',
    state: async (c) => (await c.emu.request('GET', '/workflows/waiter')).body.description,
  },
  {
    name: 'REST delete workflow',
    method: 'DELETE',
    path: (c) => `${c.api}/workflows/waiter`,
    state: async (c) => String((await c.emu.request('GET', '/workflows/waiter')).status),
  },
  {
    name: 'REST create execution',
    method: 'POST',
    path: (c) => `${c.api}/workflows/waiter/executions`,
    body: '{}',
    type: 'text/plain',
    state: async (c) => String((await c.emu.request('GET', '/workflows/waiter/executions')).body.executions.length),
  },
  {
    name: 'REST cancel execution',
    method: 'POST',
    path: (c) => `${c.api}/workflows/waiter/executions/${c.execution}:cancel`,
    state: async (c) => (await c.emu.request('GET', `/workflows/waiter/executions/${c.execution}`)).body.state,
  },
  {
    name: "Google's REST transport create workflow",
    method: 'POST',
    path: (c) => `${c.api}/workflows?workflowId=viarest&$alt=json;enum-encoding=int`,
    body: JSON.stringify({ sourceContents: SOURCE }),
    type: 'application/json',
    state: async (c) => String((await c.emu.request('GET', '/workflows/viarest')).status),
  },
  {
    name: 'UI start execution form',
    method: 'POST',
    path: () => '/ui/workflows/waiter/executions',
    body: 'argument=%7B%7D',
    type: 'application/x-www-form-urlencoded',
    state: async (c) => String((await c.emu.request('GET', '/workflows/waiter/executions')).body.executions.length),
  },
  {
    name: 'UI cancel form',
    method: 'POST',
    path: (c) => `/ui/executions/waiter/${c.execution}/cancel`,
    body: '',
    type: 'application/x-www-form-urlencoded',
    state: async (c) => (await c.emu.request('GET', `/workflows/waiter/executions/${c.execution}`)).body.state,
  },
  {
    name: 'UI send-callback form',
    method: 'POST',
    path: (c) => `/ui/executions/waiter/${c.execution}/callbacks/${c.callback}`,
    body: 'body=%7B%7D',
    type: 'application/x-www-form-urlencoded',
    state: async (c) => (await c.emu.request('GET', `/workflows/waiter/executions/${c.execution}`)).body.state,
  },
  {
    name: 'control API reset',
    method: 'POST',
    path: () => '/emulator/v1/reset',
    body: '{}',
    type: 'application/json',
    state: async (c) => String((await c.emu.request('GET', '/workflows')).body.workflows.length),
  },
  {
    name: 'control API mocks (PUT)',
    method: 'PUT',
    path: () => '/emulator/v1/mocks',
    body: JSON.stringify({ http: [{ match: { url: 'http://evil.example/*' }, respond: { status: 200 } }] }),
    type: 'application/json',
    state: async (c) => (await c.emu.request('GET', '/emulator/v1/mocks')).text,
  },
  {
    name: 'control API mocks (DELETE)',
    method: 'DELETE',
    path: () => '/emulator/v1/mocks',
    state: async (c) => (await c.emu.request('GET', '/emulator/v1/mocks')).text,
  },
  {
    name: 'control API clock:advance',
    method: 'POST',
    path: () => '/emulator/v1/clock:advance',
    body: '{"seconds": 60}',
    type: 'application/json',
    state: async (c) => String((await c.emu.request('GET', '/emulator/v1/clock')).body.now),
  },
];

function guardSuite(name: string, args: readonly string[], body: (s: ReturnType<typeof suite<Ctx>>) => void): void {
  const s = suite<Ctx>(name, {} as Ctx);
  s.before(async (ctx) => {
    // A virtual clock, so the clock's state changes only when advanced (POST /emulator/v1/clock:advance).
    ctx.emu = await startEmulator({ workflowsDir: false, args: ['--clock', 'virtual', ...args] });
    ctx.api = ctx.emu.api.slice(ctx.emu.url.length);
    const d = await ctx.emu.request('POST', '/workflows?workflowId=waiter', { sourceContents: WAITER });
    assert.is(d.status, 200, d.text);
    ctx.execution = (await ctx.emu.request('POST', '/workflows/waiter/executions', {})).body.name.split('/').pop();
    ctx.callback = await until(async () => {
      const r = await ctx.emu.request('GET', `/workflows/waiter/executions/${ctx.execution}/callbacks`);
      return (r.body.callbacks[0]?.name as string | undefined)?.split('/').pop();
    }, 'the callback');
  });
  s.after(async (ctx) => {
    await ctx.emu.close();
  });
  body(s);
  s.run();
}

/** Asserts that every route refuses `headers` with 403 PERMISSION_DENIED in Google's shape and changes nothing. */
async function refusedEverywhere(c: Ctx, headers: Record<string, string>, message: RegExp): Promise<void> {
  for (const r of ROUTES) {
    const before = await r.state(c);
    const res = await raw(c.emu.url, r.method, r.path(c), { ...headers, ...(r.type ? { 'content-type': r.type } : {}) }, r.body);
    assert.is(res.status, 403, `${r.name}: ${res.status} ${res.text}`);
    assert.is(res.json?.error?.code, 403, r.name);
    assert.is(res.json?.error?.status, 'PERMISSION_DENIED', r.name);
    assert.match(res.json?.error?.message, message, r.name);
    assert.is(res.headers['x-content-type-options'], 'nosniff', r.name);
    assert.is(await r.state(c), before, `${r.name} changed state`);
  }
}

const host = (c: Ctx): string => new URL(c.emu.url).host;

guardSuite('browser guard: cross-origin and DNS rebinding (docs/cli.md#safe-by-default, black-box)', [], (s) => {
  s('a page of another origin (Origin header) is refused on every state-changing route, nothing changes', async (c) => {
    await refusedEverywhere(c, { host: host(c), origin: 'http://evil.example' }, /cross-origin request refused: http:\/\/evil\.example.*--allow-origin/);
  });

  s('Sec-Fetch-Site cross-site or same-site is refused even without an Origin header', async (c) => {
    await refusedEverywhere(c, { host: host(c), 'sec-fetch-site': 'cross-site' }, /cross-origin/);
    await refusedEverywhere(c, { host: host(c), 'sec-fetch-site': 'same-site', origin: 'http://localhost:3000' }, /cross-origin/);
  });

  s('an opaque origin (sandboxed iframe, "null") and an origin on another port of this host are refused', async (c) => {
    await refusedEverywhere(c, { host: host(c), origin: 'null' }, /cross-origin/);
    await refusedEverywhere(c, { host: host(c), origin: `http://127.0.0.1:${c.emu.port + 1}` }, /cross-origin/);
  });

  s('DNS rebinding: Host and Origin both naming an attacker domain are refused (Host check)', async (c) => {
    await refusedEverywhere(
      c,
      { host: `rebind.attacker.example:${c.emu.port}`, origin: `http://rebind.attacker.example:${c.emu.port}` },
      /"rebind\.attacker\.example:\d+" is not a host name.*--allowed-host rebind\.attacker\.example/,
    );
    await refusedEverywhere(c, { host: `rebind.attacker.example:${c.emu.port}`, 'sec-fetch-mode': 'cors' }, /DNS rebinding/);
  });

  s('clients that are not browsers keep working, by any Host name (a container name)', async (c) => {
    const created = await raw(c.emu.url, 'POST', `${c.api}/workflows?workflowId=bycurl`, { host: `emulator:${c.emu.port}`, 'content-type': 'application/json' }, JSON.stringify({ sourceContents: SOURCE }));
    assert.is(created.status, 200, created.text);
    const ran = await raw(c.emu.url, 'POST', `${c.api}/workflows/bycurl/executions`, { host: `emulator:${c.emu.port}` }, '{}');
    assert.is(ran.status, 200, ran.text);
    const deleted = await raw(c.emu.url, 'DELETE', `${c.api}/workflows/bycurl`, { host: 'emulator' });
    assert.is(deleted.status, 200, deleted.text);
  });

  s('a page of the emulator itself (same origin, by localhost, 127.0.0.1 or the machine name) may change state', async (c) => {
    for (const name of ['localhost', '127.0.0.1', hostname()]) {
      const h = `${name}:${c.emu.port}`;
      const r = await raw(c.emu.url, 'PATCH', `${c.api}/workflows/waiter`, { host: h, origin: `http://${h}`, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' }, JSON.stringify({ description: name }));
      assert.is(r.status, 200, `${name}: ${r.text}`);
      const form = await raw(c.emu.url, 'POST', '/ui/workflows/waiter/executions', { host: h, origin: `http://${h}`, 'content-type': 'application/x-www-form-urlencoded' }, 'argument=');
      assert.is(form.status, 303, `${name}: ${form.text}`);
    }
    const direct = await raw(c.emu.url, 'POST', `${c.api}/workflows/waiter/executions`, { host: host(c), 'sec-fetch-site': 'none' }, '{}');
    assert.is(direct.status, 200, 'typed into the address bar (Sec-Fetch-Site: none)');
  });

  s('reading is not refused: GET from another origin gets its answer (the browser keeps it from the page)', async (c) => {
    const r = await raw(c.emu.url, 'GET', `${c.api}/workflows`, { host: host(c), origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' });
    assert.is(r.status, 200);
    assert.is(r.headers['access-control-allow-origin'], undefined, 'no CORS grant for a foreign origin');
  });

  s('callback URLs stay callable from anywhere, with any Host', async (c) => {
    const cb = await until(async () => {
      const r = await c.emu.request('GET', `/workflows/waiter/executions/${c.execution}/callbacks`);
      return r.body.callbacks[0] as { url: string } | undefined;
    }, 'the callback');
    const path = new URL(cb.url).pathname;
    const r = await raw(c.emu.url, 'POST', path, { host: 'hook.attacker.example', origin: 'http://evil.example', 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' }, '{"ok":true}');
    assert.is(r.status, 200, r.text);
    const done = await until(async () => {
      const e = await c.emu.request('GET', `/workflows/waiter/executions/${c.execution}`);
      return e.body.state === 'ACTIVE' ? undefined : e.body;
    }, 'the execution to end');
    assert.is(done.state, 'SUCCEEDED');
    assert.is(done.result, '{"ok":true}');
  });

  s('every response carries X-Content-Type-Options: nosniff (API, errors, UI, assets, callbacks)', async (c) => {
    for (const path of [`${c.api}/workflows`, `${c.api}/nope`, '/ui', '/ui/assets/htmx.min.js', '/callbacks/unknown', '/', '/v1/other']) {
      const r = await raw(c.emu.url, 'GET', path, { host: host(c) });
      assert.is(r.headers['x-content-type-options'], 'nosniff', `${path} (${r.status})`);
    }
  });
});

guardSuite('browser guard: --allow-origin and --allowed-host open it up (docs/cli.md#safe-by-default, black-box)', ['--allow-origin', 'http://localhost:3000', '--allow-origin=http://dev.test:5173', '--allowed-host', 'emulator.test', '--allowed-host', '.box.test'], (s) => {
  s('an allowed origin may change state and gets CORS answers, preflight included', async (c) => {
    const pre = await raw(c.emu.url, 'OPTIONS', `${c.api}/workflows?workflowId=fromdev`, {
      host: host(c),
      origin: 'http://localhost:3000',
      'sec-fetch-site': 'same-site',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type',
    });
    assert.is(pre.status, 204, pre.text);
    assert.is(pre.headers['access-control-allow-origin'], 'http://localhost:3000');
    assert.match(String(pre.headers['access-control-allow-methods']), /POST/);
    assert.is(pre.headers['access-control-allow-headers'], 'content-type');
    const r = await raw(c.emu.url, 'POST', `${c.api}/workflows?workflowId=fromdev`, { host: host(c), origin: 'http://localhost:3000', 'sec-fetch-site': 'same-site', 'content-type': 'application/json' }, JSON.stringify({ sourceContents: SOURCE }));
    assert.is(r.status, 200, r.text);
    assert.is(r.headers['access-control-allow-origin'], 'http://localhost:3000');
    const other = await raw(c.emu.url, 'POST', `${c.api}/workflows?workflowId=fromdev2`, { host: host(c), origin: 'http://dev.test:5173', 'sec-fetch-site': 'cross-site' }, JSON.stringify({ sourceContents: SOURCE }));
    assert.is(other.status, 200, other.text);
  });

  s('origins not on the list are still refused everywhere', async (c) => {
    await refusedEverywhere(c, { host: host(c), origin: 'http://localhost:3001' }, /cross-origin/);
    await refusedEverywhere(c, { host: host(c), origin: 'https://localhost:3000' }, /cross-origin/);
  });

  s('an allowed host name (and a subdomain of a .name entry) passes the Host check; others do not', async (c) => {
    for (const name of ['emulator.test', 'a.box.test']) {
      const h = `${name}:${c.emu.port}`;
      const r = await raw(c.emu.url, 'PATCH', `${c.api}/workflows/waiter`, { host: h, origin: `http://${h}` }, JSON.stringify({ description: name }));
      assert.is(r.status, 200, `${name}: ${r.text}`);
    }
    await refusedEverywhere(c, { host: `emulator.test.evil:${c.emu.port}`, origin: `http://emulator.test.evil:${c.emu.port}` }, /DNS rebinding/);
  });
});

const env = suite('browser guard: configuration (docs/cli.md#safe-by-default)');
env('ALLOW_ORIGIN and ALLOWED_HOSTS take comma-separated lists; a bad origin stops start-up with exit 2', async () => {
  const emu = await startEmulator({ workflowsDir: false, env: { ALLOW_ORIGIN: 'http://a.test:1, http://b.test:2', ALLOWED_HOSTS: 'named.test' } });
  try {
    const h = `named.test:${emu.port}`;
    const r = await raw(emu.url, 'POST', `${emu.api.slice(emu.url.length)}/workflows?workflowId=x`, { host: h, origin: 'http://b.test:2' }, JSON.stringify({ sourceContents: SOURCE }));
    assert.is(r.status, 200, r.text);
  } finally {
    await emu.close();
  }
  const bad = await startEmulator({ workflowsDir: false, args: ['--allow-origin', 'http://a.test/path'] }).then(
    async (e) => {
      await e.close();
      return 'started';
    },
    (e: Error) => e.message,
  );
  assert.match(bad, /invalid origin \(--allow-origin/);
});
env.run();

const line = suite('start-up line (docs/cli.md#safe-by-default)');
line('bound to all interfaces, the listening line says so and how to bind to this machine only', async () => {
  const open = await startEmulator({ workflowsDir: false, args: ['--host', '0.0.0.0'] });
  const local = await startEmulator({ workflowsDir: false });
  try {
    assert.match(open.stdout(), /listening on http:\/\/localhost:\d+ .*bound to all interfaces \(0\.0\.0\.0\).*--host 127\.0\.0\.1 for this machine only/);
    assert.not.match(local.stdout(), /all interfaces/);
  } finally {
    await Promise.all([open.close(), local.close()]);
  }
});
line.run();
