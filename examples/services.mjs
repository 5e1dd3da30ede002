#!/usr/bin/env node
// The small local HTTP services the example workflows call: an order shop's inventory, payments, shipping
// and approvals, a product catalog, and a deliberately flaky endpoint. No dependencies; state in memory.
//
// Usage: node examples/services.mjs [--port 8790]     (or SERVICES_PORT=8790)
//   import { startServices } from './services.mjs'; const s = await startServices(0); ... await s.close();
//
// Endpoints (JSON in, JSON out):
//   POST /inventory/reserve  {orderId, items:[{sku, qty}]}  → 200 {reservationId} | 409 out of stock
//   POST /inventory/release  {reservationId}                → 200 {released: true}
//   POST /payments/charge    {orderId, amount}              → 200 {paymentId}; answers 503 to every other
//                                                              attempt of an order, the first included (so
//                                                              each run of an order exercises a retry);
//                                                              402 when amount > 10000 (card declined)
//   POST /payments/refund    {paymentId}                    → 200 {refunded: true}
//   POST /shipping           {orderId, address}             → 200 {trackingNumber}; the warehouse restocks
//                                                              what it ships, so the examples run again and again
//   POST /approvals          {orderId, amount, callbackUrl} → 202; GET /approvals lists pending requests;
//   POST /approvals/{orderId}/decide {approved, approver}   → forwards the decision to the callback URL
//   GET  /catalog/{sku}                                     → 200 {sku, price, stock} | 404
//   GET  /flaky?key=k&failures=n[&status=503]               → fails n times per key with status, then 200
//   GET  /calls                                             → counters of every call, for tests and demos
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';

const CATALOG = {
  'sku-apple': { price: 1.25, stock: 120 },
  'sku-pear': { price: 1.75, stock: 40 },
  'sku-coffee': { price: 12.5, stock: 15 },
  'sku-tea': { price: 8, stock: 0 },
  'sku-honey': { price: 6.4, stock: 30 },
};

/** Starts the services on `port` (0: a free one) and `host`; resolves to {url, port, close()}. */
export async function startServices(port = 8790, host = '127.0.0.1') {
  const stock = new Map(Object.entries(CATALOG).map(([sku, p]) => [sku, p.stock]));
  const reservations = new Map();
  const orders = new Map(); // orderId → reservationId
  const chargeAttempts = new Map();
  const approvals = new Map();
  const flaky = new Map();
  const calls = {};

  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://localhost');
    const key = `${req.method} ${url.pathname.replace(/\/(sku-[\w-]+|[0-9a-f-]{36}|ord-[\w-]+)/g, '/:id')}`;
    calls[key] = (calls[key] ?? 0) + 1;
    let body = {};
    try {
      const text = await readText(req);
      body = text ? JSON.parse(text) : {};
    } catch {
      return send(res, 400, { error: 'body is not JSON' });
    }
    try {
      await route(req.method, url, body, res);
    } catch (e) {
      send(res, 500, { error: String(e?.message ?? e) });
    }
  });

  async function route(method, url, body, res) {
    const path = url.pathname;
    if (method === 'POST' && path === '/inventory/reserve') {
      const items = Array.isArray(body.items) ? body.items : [];
      for (const it of items) {
        if ((stock.get(it.sku) ?? 0) < it.qty) return send(res, 409, { error: `out of stock: ${it.sku}`, sku: it.sku });
      }
      for (const it of items) stock.set(it.sku, stock.get(it.sku) - it.qty);
      const reservationId = randomUUID();
      reservations.set(reservationId, items);
      orders.set(body.orderId, reservationId);
      return send(res, 200, { reservationId, orderId: body.orderId });
    }
    if (method === 'POST' && path === '/inventory/release') {
      const items = reservations.get(body.reservationId);
      if (!items) return send(res, 404, { error: 'unknown reservation' });
      for (const it of items) stock.set(it.sku, stock.get(it.sku) + it.qty);
      reservations.delete(body.reservationId);
      return send(res, 200, { released: true });
    }
    if (method === 'POST' && path === '/payments/charge') {
      const n = (chargeAttempts.get(body.orderId) ?? 0) + 1;
      chargeAttempts.set(body.orderId, n);
      if (n % 2 === 1) return send(res, 503, { error: 'payment provider busy, try again' });
      if (typeof body.amount !== 'number' || body.amount > 10000) return send(res, 402, { error: 'card declined' });
      return send(res, 200, { paymentId: `pay-${randomUUID().slice(0, 8)}`, amount: body.amount });
    }
    if (method === 'POST' && path === '/payments/refund') return send(res, 200, { refunded: true, paymentId: body.paymentId });
    if (method === 'POST' && path === '/shipping') {
      const shipped = reservations.get(orders.get(body.orderId));
      if (shipped) for (const it of shipped) stock.set(it.sku, stock.get(it.sku) + it.qty);
      reservations.delete(orders.get(body.orderId));
      orders.delete(body.orderId);
      return send(res, 200, { trackingNumber: `TRK${Math.floor(Math.random() * 1e9)}`, orderId: body.orderId });
    }
    if (method === 'POST' && path === '/approvals') {
      approvals.set(body.orderId, { orderId: body.orderId, amount: body.amount, callbackUrl: body.callbackUrl });
      return send(res, 202, { pending: true });
    }
    if (method === 'GET' && path === '/approvals') return send(res, 200, { pending: [...approvals.values()] });
    const decide = /^\/approvals\/([^/]+)\/decide$/.exec(path);
    if (method === 'POST' && decide) {
      const a = approvals.get(decodeURIComponent(decide[1]));
      if (!a) return send(res, 404, { error: 'no pending approval for this order' });
      const r = await fetch(a.callbackUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ approved: body.approved === true, approver: body.approver ?? 'someone' }),
      });
      approvals.delete(a.orderId);
      return send(res, 200, { forwarded: true, callbackStatus: r.status });
    }
    const cat = /^\/catalog\/([^/]+)$/.exec(path);
    if (method === 'GET' && cat) {
      const p = CATALOG[cat[1]];
      if (!p) return send(res, 404, { error: `unknown sku ${cat[1]}` });
      return send(res, 200, { sku: cat[1], price: p.price, stock: stock.get(cat[1]) });
    }
    if (method === 'GET' && path === '/flaky') {
      const k = url.searchParams.get('key') ?? 'default';
      const failures = Number(url.searchParams.get('failures') ?? '2');
      const status = Number(url.searchParams.get('status') ?? '503');
      const n = (flaky.get(k) ?? 0) + 1;
      flaky.set(k, n);
      if (n <= failures) return send(res, status, { error: `failure ${n} of ${failures}`, attempt: n });
      return send(res, 200, { ok: true, attempts: n });
    }
    if (method === 'GET' && path === '/calls') return send(res, 200, calls);
    send(res, 404, { error: `no route ${method} ${path}` });
  }

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const actual = server.address().port;
  return {
    url: `http://${host === '0.0.0.0' ? 'localhost' : host}:${actual}`,
    port: actual,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections?.();
      }),
  };
}

function readText(req) {
  return new Promise((resolve, reject) => {
    let s = '';
    req.setEncoding('utf8');
    req.on('data', (d) => (s += d));
    req.on('end', () => resolve(s));
    req.on('error', reject);
  });
}

function send(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

// Run as a script.
if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('services.mjs')) {
  const i = process.argv.indexOf('--port');
  const port = Number(i > 0 ? process.argv[i + 1] : (process.env.SERVICES_PORT ?? 8790));
  const s = await startServices(port);
  process.stdout.write(`example services listening on ${s.url}\n`);
  const stop = () => s.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
