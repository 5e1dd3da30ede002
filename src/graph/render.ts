/**
 * The graph of a whole definition in one call (docs/graph.md): compiled definition in, the graph model laid
 * out and rendered as one SVG per workflow, or as one standalone SVG document (the `graph` command's
 * `--format svg`), with `main` first and each subworkflow below it.
 */
import type { Definition } from '../lang/definition/ast.ts';
import { layoutGraph } from './layout.ts';
import { definitionGraph, type DefinitionGraph } from './model.ts';
import { escapeXml, renderSvg, STANDALONE_STYLE, type SvgOptions } from './svg.ts';

/** Vertical space of a workflow's heading in the standalone document. */
const HEADING = 28;

/**
 * One standalone SVG document holding the graph of every workflow of `graph`, one below the other, each under
 * its name; a node calling a subworkflow links to that workflow's drawing (`#wf-<name>`).
 */
export function standaloneSvg(graph: DefinitionGraph): string {
  const parts: string[] = [];
  let y = 0;
  let width = 0;
  graph.workflows.forEach((w, i) => {
    const layout = layoutGraph(w);
    const inner = renderSvg(layout, {
      idPrefix: `wfg${i}`,
      href: (n) => (n.calls !== undefined ? `#wf-${n.calls}` : undefined),
    }).replace('<svg ', `<svg id="wf-${escapeXml(w.name)}" x="0" y="${y + HEADING}" `);
    parts.push(`<text x="12" y="${y + 20}" font-weight="bold" fill="currentColor">${escapeXml(w.name)}${w.params.length ? escapeXml(`(${w.params.join(', ')})`) : ''}</text>`, inner);
    y += HEADING + layout.height;
    width = Math.max(width, layout.width);
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" class="wf-graph" viewBox="0 0 ${width} ${y}" width="${width}" height="${y}" font-family="system-ui, sans-serif" font-size="12">
<style>${STANDALONE_STYLE}</style>
${parts.join('\n')}
</svg>
`;
}

/** The SVG of each workflow of a compiled definition, `main` first, with `options` (prefixes made unique). */
export function workflowSvgs(definition: Definition, options: SvgOptions = {}): { readonly name: string; readonly svg: string }[] {
  return definitionGraph(definition).workflows.map((w, i) => ({
    name: w.name,
    svg: renderSvg(layoutGraph(w), { ...options, idPrefix: `${options.idPrefix ?? 'wfg'}${i}` }),
  }));
}
