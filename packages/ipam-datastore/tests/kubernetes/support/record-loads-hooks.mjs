// Module hooks (run on the loader thread): append every resolved module URL to the file named by
// IPAMKIT_MODULE_LOG, so the parent test can see the child's whole ESM graph.
import { appendFileSync } from 'node:fs';

export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  const log = process.env.IPAMKIT_MODULE_LOG;
  if (log !== undefined && log !== '') appendFileSync(log, `${result.url}\n`);
  return result;
}
