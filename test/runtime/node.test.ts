// The built bundle under Node (issue 7 "The bundle"): the runtime smoke suite of test/runtime/smoke.ts.
import { runtimeSuite } from './smoke.ts';

runtimeSuite('node');
