// The packages whose internals the code relies on (beyond their documented API) are pinned to an exact
// version in package.json, and this test fails, naming the package and what to re-check, when the pin is
// loosened or the installed version differs from it. Each row says what is relied on; an upgrade is a change
// of the row and of package.json together, after re-checking what the row names.
// npm's exact-version ranges: https://docs.npmjs.com/cli/configuring-npm/package-json#dependencies
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';

const s = suite('dependency pins');

const REPO = new URL('../', import.meta.url);

/** One pinned package: its exact version, what the code takes from its internals, and what to re-check. */
interface Pin {
  readonly name: string;
  readonly version: string;
  readonly reliedOn: string;
  readonly recheck: string;
}

const PINS: readonly Pin[] = [
  {
    name: 'js-yaml',
    version: '4.3.2',
    reliedOn: "src/lang/definition/load.ts builds the positioned tree from the loader's `listener` open/close events and its State fields (position, kind, result, anchor), and the order in which it reads a block mapping's first key",
    recheck: 'run `FUZZ_RUNS=3000 npm run fuzz` and test/lang/definition/load-tree.test.ts (the tree against js-yaml load()), and read lib/loader.js changes',
  },
  {
    name: 'uvu',
    version: '0.5.6',
    reliedOn:
      "test/support/test-worker.ts runs one unit of files after another in one process with uvu/run, emptying uvu's global UVU_QUEUE before each (uvu/run numbers its groups from 0 on every call), and test/support/test-pool.ts reads each unit's Total/Passed/Skipped lines from uvu's report",
    recheck: 'check that `node --import tsx test/run.ts` still runs every suite once, sums the counts, and fails on a failing test file and on one that kills its process (uvu dist/index.mjs, run/index.mjs)',
  },
  {
    name: '@connectrpc/connect',
    version: '2.1.2',
    reliedOn:
      "src/api/grpc-stream.ts answers unary gRPC calls itself as Connect's gRPC handler would (status, headers, trailers, errors), and runs the rest on Connect's universal handlers (@connectrpc/connect/protocol, router.handlers, requestPath)",
    recheck: "run test/api/grpc-fast-path.test.ts (the fast path against Connect's handler) with FUZZ_RUNS=3000 and the gRPC suites (test/api/grpc*.test.ts)",
  },
  {
    name: '@connectrpc/connect-node',
    version: '2.1.2',
    reliedOn: "its compression and Node adapter, which the fast-path differential test takes as the general path",
    recheck: 'run test/api/grpc-fast-path.test.ts and test/api/grpc-stream.test.ts',
  },
  {
    name: '@bufbuild/protobuf',
    version: '2.17.0',
    reliedOn: "the gRPC fast path encodes and decodes messages with it as Connect does, and gen/ is generated for it; Connect's serialization must give the same bytes",
    recheck: 'regenerate gen/ (`npm run generate`) with the matching @bufbuild/protoc-gen-es and run the gRPC suites',
  },
  {
    name: '@bufbuild/protoc-gen-es',
    version: '2.13.0',
    reliedOn: 'gen/ holds its output, which must stay the code the pinned @bufbuild/protobuf runtime reads',
    recheck: 'run `npm run generate`; CI fails on a diff in gen/',
  },
  {
    name: 're2js',
    version: '2.10.0',
    reliedOn: 'its syntax error messages are shown to users in text.* and http mock URL pattern errors (src/stdlib/text.ts, src/mocks/url-pattern.ts)',
    recheck: 'run test/stdlib and test/mocks, and compare the invalid-pattern messages',
  },
];

const manifest = JSON.parse(readFileSync(new URL('package.json', REPO), 'utf8')) as { devDependencies: Record<string, string> };

for (const pin of PINS) {
  s(`${pin.name} is pinned to exactly ${pin.version} in package.json and installed at that version`, () => {
    const declared = manifest.devDependencies[pin.name];
    assert.is(
      declared,
      pin.version,
      `package.json declares ${pin.name} as ${JSON.stringify(declared)}, not the exact version ${pin.version}: ${pin.reliedOn}. Keep it exact; to upgrade, ${pin.recheck}, then change the pin here and in package.json together.`,
    );
    // Read from node_modules directly: several of these packages do not export their package.json.
    const installed = (JSON.parse(readFileSync(new URL(`node_modules/${pin.name}/package.json`, REPO), 'utf8')) as { version: string }).version;
    assert.is(
      installed,
      pin.version,
      `${pin.name} ${installed} is installed, but the code is checked against ${pin.version}: ${pin.reliedOn}. Run \`npm ci\`, or to upgrade, ${pin.recheck}, then change the pin here and in package.json together.`,
    );
  });
}

// undici is not a dependency but the fetch inside Node: its version goes with Node's, so what the code takes
// from it is checked itself instead of a version.
s("Node's fetch (undici) still installs its global dispatcher as an `Agent` under Symbol.for('undici.globalDispatcher.1')", async () => {
  await (await fetch('data:,')).arrayBuffer();
  const dispatcher = (globalThis as unknown as Record<symbol, { constructor?: { name?: string } } | undefined>)[Symbol.for('undici.globalDispatcher.1')];
  assert.is(
    dispatcher?.constructor?.name,
    'Agent',
    `undici ${process.versions['undici'] ?? '?'} (Node ${process.versions.node}) no longer keeps an Agent under Symbol.for('undici.globalDispatcher.1'): src/stdlib/http.ts (makeUntimedDispatcher) takes its class to lift undici's 300 s headers and body timeouts; re-check it and test/stdlib/http-timeout.test.ts (whose preload test/support/short-fetch-timeouts.mjs relies on undici's 499 ms timer tick)`,
  );
});

s.run();
