/** Placeholder until the web UI lands (issue 6); its owner replaces the whole file. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServiceCore } from '../service/model.ts';

/**
 * Creates the web UI handler for `/`, `/ui` and `/ui/*` on the REST port. The HTTP server calls it for those
 * paths only.
 */
export function createUi(_service: ServiceCore): (req: IncomingMessage, res: ServerResponse, url: URL) => void | Promise<void> {
  return (_req, res) => {
    res.writeHead(501, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('The web UI is not built yet.\n');
  };
}
