import { readFile } from 'node:fs/promises';
import { rateFromFlag, rateFromHistory, type AllocationRate } from '@ipamkit/ipam-core';
import type { IPPool, IPVersion } from '@ipamkit/models';
import { CliUsageError, InputFileError } from '../errors.js';
import { readDocuments } from '../resources/read-documents.js';
import { decodeIPPoolDocument } from '../resources/v3-documents.js';

/** A whole number flag: `--add-nodes 3`. */
export function countFlag(flag: string, value: string | undefined, min = 0): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isSafeInteger(n) || n < min) throw new CliUsageError(`${flag} must be an integer of at least ${min}, got ${JSON.stringify(value)}`);
  return n;
}

/** A Go-style boolean flag, as `ipam configure` reads them. */
export function booleanFlag(flag: string, value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (['true', 't', '1', 'True', 'TRUE'].includes(value)) return true;
  if (['false', 'f', '0', 'False', 'FALSE'].includes(value)) return false;
  throw new CliUsageError(`${flag} must be true or false, got ${JSON.stringify(value)}`);
}

export function ipVersionsFlag(value: string | undefined): IPVersion[] | undefined {
  if (value === undefined) return undefined;
  if (value === '4') return [4];
  if (value === '6') return [6];
  if (value === '4,6' || value === 'dual') return [4, 6];
  throw new CliUsageError(`--ip-version must be 4, 6 or 4,6, got ${JSON.stringify(value)}`);
}

/** `key=value,key=value` labels for the added nodes. */
export function labelsFlag(value: string | undefined): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  const out: Record<string, string> = {};
  for (const pair of value.split(',').filter((p) => p !== '')) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new CliUsageError(`--node-labels wants key=value pairs, got ${JSON.stringify(pair)}`);
    out[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return out;
}

export function rateFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0) throw new CliUsageError(`--rate must be a positive number of pods per hour, got ${JSON.stringify(value)}`);
  return n;
}

/**
 * The allocation rate: `--rate`, or `--history FILE` (a JSON array of times, ISO strings or Unix
 * milliseconds, or one time per line). Not both.
 */
export async function allocationRate(rate: number | undefined, history: string | undefined): Promise<AllocationRate | undefined> {
  if (rate !== undefined && history !== undefined) throw new CliUsageError('give --rate or --history, not both');
  if (rate !== undefined) return rateFromFlag(rate);
  if (history === undefined) return undefined;
  let text: string;
  try {
    text = await readFile(history, 'utf8');
  } catch (err) {
    throw new InputFileError(history, `cannot read it (${(err as NodeJS.ErrnoException).code ?? 'unknown error'})`, { cause: err });
  }
  let entries: unknown[];
  try {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed)) throw new InputFileError(history, 'expected a JSON array of allocation times');
    entries = parsed;
  } catch (err) {
    if (err instanceof InputFileError) throw err;
    entries = text.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  }
  const times = entries.map((e, i) => {
    const t = typeof e === 'number' ? new Date(e) : typeof e === 'string' ? new Date(e) : new Date(Number.NaN);
    if (Number.isNaN(t.getTime())) throw new InputFileError(history, `entry ${i + 1} is not a time: ${JSON.stringify(e)}`);
    return t;
  });
  try {
    return rateFromHistory(times);
  } catch (err) {
    throw new InputFileError(history, err instanceof Error ? err.message : String(err), { cause: err });
  }
}

/** The IPPool documents of `--add-pool -f FILE` (v3 YAML or JSON, as `ipamkit create` reads). */
export async function poolsFromFile(file: string, stdin: NodeJS.ReadableStream): Promise<IPPool[]> {
  const docs = await readDocuments({ file, stdin });
  return docs.map((doc, i) => {
    if (doc.kind !== 'IPPool') throw new InputFileError(file, `document ${i + 1} is a ${String(doc.kind)}, not an IPPool`);
    const { revision: _revision, uid: _uid, ...pool } = decodeIPPoolDocument(doc);
    return pool;
  });
}
