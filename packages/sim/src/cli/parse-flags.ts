import { parseArgs } from 'node:util';
import { SimConfigError } from '../errors.js';

export type FlagSpec = Record<string, { type: 'string' | 'boolean' }>;

/** Parses `--name value` flags strictly: unknown flags and stray arguments are errors. */
export function parseFlags(args: readonly string[], spec: FlagSpec): Record<string, string | boolean | undefined> {
  try {
    const { values } = parseArgs({ args: [...args], options: spec, strict: true, allowPositionals: false });
    return values;
  } catch (err) {
    throw new SimConfigError(err instanceof Error ? err.message : String(err));
  }
}

/** A numeric flag, or undefined when absent; text that is not a number is an error. */
export function numberFlag(values: Record<string, string | boolean | undefined>, name: string): number | undefined {
  const v = values[name];
  if (v === undefined || typeof v === 'boolean') return undefined;
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n)) throw new SimConfigError(`--${name} must be a number, got ${JSON.stringify(v)}`);
  return n;
}

export function stringFlag(values: Record<string, string | boolean | undefined>, name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}
