import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SimStepError } from '../errors.js';

const require = createRequire(import.meta.url);

/** A built file of a workspace package (its bin), or a clear error naming the package to build. */
export function packageFile(pkg: string, ...parts: string[]): string {
  const file = join(dirname(require.resolve(`${pkg}/package.json`)), ...parts);
  if (!existsSync(file)) throw new SimStepError('hammer', `${file} not found: build ${pkg} first`);
  return file;
}

/** The sim's own built process entry (`dist/<name>.js`), from dist/ or from src/ under test. */
export function simDistFile(name: string): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, name), join(here, '..', '..', 'dist', name)];
  const found = candidates.find((p) => existsSync(p));
  if (found === undefined) throw new SimStepError('hammer', `${name} not found (looked in ${candidates.join(', ')}): build @ipamkit/sim first`);
  return found;
}
