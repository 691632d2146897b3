import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A bin's flags, as `node:util` `parseArgs` declares them (design/models.md, "Bins"). */
export type FlagSpec = NonNullable<ParseArgsConfig['options']>;
export type FlagValues = Readonly<Record<string, string | boolean | undefined>>;
/** Makes the bin's own validation error from a message: each bin reports bad flags with its error class. */
export type InvalidFlag = (message: string) => Error;

/** Parses `--name value` flags strictly: an unknown flag, a missing value or a stray argument is `invalid`. */
export function parseFlags(argv: readonly string[], flags: FlagSpec, invalid: InvalidFlag): FlagValues {
  try {
    return parseArgs({ args: [...argv], options: flags, strict: true, allowPositionals: false }).values as FlagValues;
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

/** One argument of a scanned command line, in order (design/models.md, "Bins"). */
export type ScannedArg =
  /** A flag the bin knows: a string flag's value (undefined when the line ends before it), or true for a switch. */
  | { readonly kind: 'flag'; readonly name: string; readonly value: string | true | undefined }
  /** An argument as typed: a word, or a flag the bin does not know (`--bogus`, `-xyz`, `--switch=value`). */
  | { readonly kind: 'operand' | 'unknown'; readonly text: string }
  /** `--`: the rest of the line, as typed. */
  | { readonly kind: 'end'; readonly rest: readonly string[] };

/**
 * Reads the flags in `known` wherever they stand and leaves everything else as typed, for a bin whose
 * subcommands each read their own flags (the `ipamkit` CLI): `parseArgs`, not strict, with tokens.
 */
export function scanFlags(argv: readonly string[], known: FlagSpec): ScannedArg[] {
  const args = [...argv];
  const { tokens } = parseArgs({ args, options: known, strict: false, allowPositionals: true, tokens: true });
  const scanned: ScannedArg[] = [];
  let lastUnknown = -1;
  for (const token of tokens) {
    if (token.kind === 'option-terminator') return [...scanned, { kind: 'end', rest: args.slice(token.index + 1) }];
    if (token.kind === 'positional') scanned.push({ kind: 'operand', text: token.value });
    else if (known[token.name]?.type === 'string') scanned.push({ kind: 'flag', name: token.name, value: token.value });
    else if (known[token.name] !== undefined && token.inlineValue === undefined) scanned.push({ kind: 'flag', name: token.name, value: true });
    // A group of unknown short flags (`-xyz`) is one token per letter at one index: keep it once, as typed.
    else if (token.index !== lastUnknown) scanned.push({ kind: 'unknown', text: args[token.index] ?? token.rawName });
    if (token.kind === 'option' && scanned.at(-1)?.kind === 'unknown') lastUnknown = token.index;
  }
  return scanned;
}
