import { compileDefinition } from '../src/lang/definition/compile.ts';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
const c = parse(readFileSync('test/spec/definition/switch-steps-then-next.yaml', 'utf8'));
const d = compileDefinition(c.workflow);
console.log(JSON.stringify(d.main.steps, (k, v) => (k === 'pos' || k === 'expr' ? undefined : typeof v === 'bigint' ? String(v) : v instanceof Map ? [...v] : v), 1).slice(0, 3000));
