import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A bin's flags, as `node:util` `parseArgs` declares them (design/models.md, "Bins"). */
export type FlagSpec = NonNullable<ParseArgsConfig['options']>;
export type FlagValues = Readonly<Record<string, string | boolean | undefined>>;
/** Makes the bin's own validation error from a message: each bin reports bad flags with its error class. */
export type InvalidFlag = (message: string) => Error;

/** Parses `--name value` flags strictly: an unknown flag, a missing value or a stray argument is `invalid`. */
export function parseFlags(argv: readonly string[], spec: FlagSpec, invalid: InvalidFlag): FlagValues {
  try {
    return parseArgs({ args: [...argv], options: spec, strict: true, allowPositionals: false }).values as FlagValues;
  } catch (err) {
    throw invalid(err instanceof Error ? err.message : String(err));
  }
}

export function stringFlag(values: FlagValues, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

/** A numeric flag, or undefined when absent; text that is not a number is `invalid`. */
export function numberFlag(values: FlagValues, name: string, invalid: InvalidFlag): number | undefined {
  const text = stringFlag(values, name);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value)) throw invalid(`--${name} must be a number, got ${JSON.stringify(text)}`);
  return value;
}
