/**
 * `workflows-emulator test --update` (docs/testing.md "Updating expectations"): the actual outcome of each
 * failing case is written into its `expect`: `result` or `error` (the other removed), and `steps` where the
 * case has them. Nothing else changes: the file is edited with the `yaml` package's Document API
 * (https://eemeli.org/yaml/#documents), so comments, key order, quoting and the formatting of the rest stay.
 */
import { isMap as isYamlMap, isScalar, isSeq, Pair, parseDocument, Scalar, YAMLMap, type Node } from 'yaml';
import type { Value } from '../../lang/value.ts';
import { YAML_OUTPUT, yamlNode } from '../../service/recording/test-case.ts';

/** The actual outcome of a failing case, to write into its `expect`. */
export interface CaseUpdate {
  /** The case's position in the file's `cases`. */
  readonly index: number;
  readonly name: string;
  /** The result (SUCCEEDED) or the error map (FAILED): exactly one is set. */
  readonly result?: Value;
  readonly error?: Value;
  /** The steps that ran (written only where the case's `expect` has `steps`). */
  readonly steps: readonly string[];
}

/**
 * `text` (a YAML test file) with each update written into its case's `expect`. Returns the new text and one
 * line per change (`name: result`, `name: error, steps`). A case that is not a map in the file is left alone.
 * @throws Error when `text` is not YAML or has no `cases` list (it was read by the test command, so it is).
 */
export function applyUpdates(text: string, updates: readonly CaseUpdate[]): { text: string; changes: string[] } {
  const doc = parseDocument(text);
  const root: unknown = doc.contents;
  const cases: unknown = isYamlMap(root) ? root.get('cases', true) : undefined;
  if (!isSeq(cases)) throw new Error("the test file has no 'cases' list");
  const changes: string[] = [];
  for (const u of updates) {
    const c: unknown = cases.items[u.index];
    if (!isYamlMap(c)) continue;
    let expect: unknown = c.get('expect', true);
    if (!isYamlMap(expect)) {
      expect = new YAMLMap();
      c.set('expect', expect);
    }
    const e = expect as YAMLMap;
    const changed: string[] = [];
    const [key, other] = u.error !== undefined ? (['error', 'result'] as const) : (['result', 'error'] as const);
    replace(e, key, other, yamlNode((u.error ?? u.result ?? null) as Value));
    changed.push(key);
    if (e.has('steps')) {
      replace(e, 'steps', 'steps', yamlNode(u.steps.slice()));
      changed.push('steps');
    }
    changes.push(`${u.name}: ${changed.join(', ')}`);
  }
  return { text: doc.toString(YAML_OUTPUT), changes };
}

/**
 * Sets `key` to `node` in `m` where `key` is, else where `other` is (which it replaces), else at the end; the
 * comments and the blank line written around the old value stay with the new one.
 */
function replace(m: YAMLMap, key: string, other: string, node: Node): void {
  const at = m.items.findIndex((p) => isScalar(p.key) && p.key.value === key);
  const i = at >= 0 ? at : m.items.findIndex((p) => isScalar(p.key) && p.key.value === other);
  if (i < 0) {
    m.items.push(new Pair(new Scalar(key), node));
    return;
  }
  const pair = m.items[i]!;
  const old = pair.value as Node | null;
  if (old && typeof old === 'object') {
    if (old.comment) node.comment = old.comment;
    if (old.commentBefore) node.commentBefore = old.commentBefore;
    if (old.spaceBefore) node.spaceBefore = true;
  }
  if (at < 0) (pair.key as Scalar).value = key;
  pair.value = node;
  if (at >= 0 && key !== other) {
    const j = m.items.findIndex((p) => isScalar(p.key) && p.key.value === other);
    if (j >= 0) m.items.splice(j, 1);
  }
}
