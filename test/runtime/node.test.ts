// The built bundle under Node (docs/cli.md#one-file-on-node-deno-and-bun): the runtime smoke suite of test/runtime/smoke.ts.
import { runtimeSuite } from './smoke.ts';

runtimeSuite('node');
