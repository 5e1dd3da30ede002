// The graph's CSS rules stand twice: in the standalone SVG's <style> (src/graph/svg.ts graphCss, for the
// `graph` command's files) and in the web UI's stylesheet (src/ui/styles.css, served as a static asset). This
// keeps the two from drifting apart (docs/graph.md).
import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { graphCss } from '../../src/graph/svg.ts';

const s = suite('graph CSS: the web UI and the standalone SVG draw with the same rules (docs/graph.md)');

s('every rule of graphCss() stands in src/ui/styles.css as written', () => {
  const stylesheet = readFileSync(new URL('../../src/ui/styles.css', import.meta.url), 'utf8');
  const missing = graphCss().split('\n').filter((rule) => !stylesheet.includes(rule));
  assert.equal(missing, [], 'rules of src/graph/svg.ts graphCss() missing from src/ui/styles.css');
});

s.run();
