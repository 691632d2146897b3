import { CliUsageError } from '../errors.js';
import type { OptionSpec } from './command-spec.js';

/** `-o table|json`, as every `ipam` command but `check` reads it. */
export const OUTPUT_OPTION: OptionSpec = { flags: '-o, --output <format>', description: 'output format: table (default) or json' };

export function wantsJson(output: string | undefined): boolean {
  if (output === undefined || output === 'table') return false;
  if (output === 'json') return true;
  throw new CliUsageError(`unknown output format ${JSON.stringify(output)}: use table or json`);
}
