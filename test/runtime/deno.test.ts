// The built bundle under Deno (issue 7 "The bundle"): the runtime smoke suite of test/runtime/smoke.ts.
import { runtimeSuite } from './smoke.ts';

runtimeSuite('deno');
