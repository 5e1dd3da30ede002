/**
 * Load generators and the floor they are compared with, shared by the benchmarks of the REST port
 * (bench/service.bench.ts, bench/serving.bench.ts, bench/deploy.bench.ts):
 *   - a bare node:http server in a process of its own answering the same bytes to every request (the
 *     runtime's floor), with its CPU time readable over IPC as the emulator's is (bench/support/server-process.ts);
 *   - rawGets: 16 lean keep-alive Node clients (raw sockets, one request in flight each);
 *   - wrkGets: Debian's wrk (https://github.com/wg/wrk) with 16 connections, when /usr/bin/wrk is installed.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';

/** Concurrent clients of every load here. */
export const CLIENTS = 16;

/** CPU time (user + system) of process `pid` so far in microseconds, from /proc; undefined where there is none. */
export function procCpuMicros(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000; // utime + stime, in clock ticks of 10 ms
  } catch {
    return undefined;
  }
}

/** A bare node:http server in its own process. */
export interface BareServer {
  readonly child: ChildProcess;
  readonly port: number;
  /** Its CPU time so far (user + system, `process.cpuUsage()`), in microseconds. */
  cpuMicros(): Promise<number>;
  close(): void;
}

/**
 * Starts a bare node:http server (a child process) that reads each request's body, if any, and answers
 * `bytes` as JSON with the headers the emulator's JSON answers carry (`content-type`, `content-length`,
 * `x-content-type-options`). Resolves once it listens.
 */
export async function startBare(bytes: string): Promise<BareServer> {
  // The bytes go over IPC: an argument is limited to 128 KiB on Linux.
  const script =
    `let b;` +
    `const s=require('node:http').createServer({keepAlive:true},(q,r)=>{const a=()=>{r.writeHead(200,{'content-type':'application/json; charset=utf-8','content-length':Buffer.byteLength(b),'x-content-type-options':'nosniff'});r.end(b)};` +
    `if(q.method==='GET')a();else{q.on('data',()=>{});q.on('end',a)}});` +
    `s.keepAliveTimeout=65000;` +
    `process.on('message',(m)=>{if(m==='cpu')process.send({cpu:process.cpuUsage()});else{b=m.bytes;s.listen(0,'127.0.0.1',()=>process.send({port:s.address().port}))}})`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = <T>(): Promise<T> => new Promise((resolve) => child.once('message', (m) => resolve(m as T)));
  child.send({ bytes });
  const { port } = await next<{ port: number }>();
  return {
    child,
    port,
    async cpuMicros() {
      const reply = next<{ cpu: NodeJS.CpuUsage }>();
      child.send('cpu');
      const { cpu } = await reply;
      return cpu.user + cpu.system;
    },
    close: () => void child.kill('SIGTERM'),
  };
}

/**
 * GET throughput with a lean load generator ({@link CLIENTS} raw keep-alive sockets, one request in flight
 * each, responses framed by content-length), so that the client costs little next to the server being
 * measured. Returns requests per second and the number of requests answered.
 */
export function rawGets(port: number, path: string, ms: number): Promise<{ rate: number; count: number }> {
  const req = Buffer.from(`GET ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n`);
  const end = performance.now() + ms;
  const t0 = performance.now();
  let count = 0;
  const one = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const sock = connect(port, '127.0.0.1');
      sock.setNoDelay(true);
      let buf: Buffer = Buffer.alloc(0);
      sock.on('connect', () => sock.write(req));
      sock.on('error', reject);
      sock.on('data', (d: Buffer) => {
        buf = buf.length ? Buffer.concat([buf, d]) : d;
        for (;;) {
          const head = buf.indexOf('\r\n\r\n');
          if (head < 0) return;
          const m = /content-length: *(\d+)/i.exec(buf.subarray(0, head).toString('latin1'));
          const total = head + 4 + Number(m![1]);
          if (buf.length < total) return;
          if (!buf.subarray(0, 12).toString('latin1').endsWith('200')) reject(new Error(buf.subarray(0, total).toString()));
          buf = buf.subarray(total);
          count++;
          if (performance.now() < end) sock.write(req);
          else {
            sock.destroy();
            resolve();
            return;
          }
        }
      });
    });
  return Promise.all(Array.from({ length: CLIENTS }, one)).then(() => ({ rate: count / ((performance.now() - t0) / 1000), count }));
}

/** Where Debian's wrk is installed. */
export const WRK = '/usr/bin/wrk';

/** True when {@link WRK} is installed. */
export function hasWrk(): boolean {
  return existsSync(WRK);
}

/**
 * GET throughput under wrk (one thread, {@link CLIENTS} connections) for `seconds`: requests per second and
 * the number of requests answered. Rejects when wrk reports non-2xx answers or socket errors.
 */
export function wrkGets(port: number, path: string, seconds: number): Promise<{ rate: number; count: number }> {
  return new Promise((resolve, reject) => {
    execFile(WRK, ['-t1', `-c${CLIENTS}`, `-d${seconds}s`, `http://127.0.0.1:${port}${path}`], { encoding: 'utf8' }, (err, out) => {
      if (err) return reject(err);
      if (/Non-2xx|Socket errors/.test(out)) return reject(new Error(`wrk: ${out}`));
      const rate = /Requests\/sec:\s+([\d.]+)/.exec(out);
      const count = /(\d+) requests in/.exec(out);
      if (!rate || !count) return reject(new Error(`wrk: ${out}`));
      resolve({ rate: Number(rate[1]), count: Number(count[1]) });
    });
  });
}
