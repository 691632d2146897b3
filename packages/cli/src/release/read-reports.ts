import { canonicalAddress, isRecord, parseWireJson, WINDOWS_RESERVED_HANDLE } from '@ipamkit/models';
import { readInputFile } from '../read-input-file.js';
import { InputFileError } from '../errors.js';

// Reports are read back with the lossless JSON reader: sequence numbers are ~1.7e18 and would be
// corrupted by JSON.parse (design/calico-callers.md#report-format "Big integers").

export interface ReportCandidate {
  readonly ip: string;
  readonly handle?: string;
  readonly sequenceNumber: bigint;
  /** Our verdict when the report carries one; calicoctl reports only say inUse/coolingDown. */
  readonly releasable: boolean;
}

export interface ReportHandle {
  readonly id: string;
  readonly revision: string;
}

export interface ParsedReport {
  readonly file: string;
  readonly version: string;
  readonly clusterGUID: string;
  readonly generatedAt?: string;
  /**
   * Pods the report's check was judged against: a number for an ipamkit report (0 when it had no
   * pod list), undefined for a calicoctl report, which read its pods from the API server.
   */
  readonly podsChecked?: number;
  readonly allocations: ReportCandidate[];
  readonly leakedHandles: ReportHandle[];
}

function sequenceNumberOf(v: unknown): bigint | undefined {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  return undefined;
}

function candidate(raw: unknown, file: string, where: string): ReportCandidate {
  if (!isRecord(raw) || typeof raw['ip'] !== 'string') throw new InputFileError(file, `${where} needs a string "ip"`);
  const sequenceNumber = sequenceNumberOf(raw['sequenceNumber']);
  if (sequenceNumber === undefined) throw new InputFileError(file, `${where}.sequenceNumber must be a non-negative integer`);
  const handle = raw['handle'];
  if (handle !== undefined && typeof handle !== 'string') throw new InputFileError(file, `${where}.handle must be a string`);
  if (typeof raw['inUse'] !== 'boolean') throw new InputFileError(file, `${where}.inUse must be a boolean`);
  const verdict = raw['releasable'];
  // Without our verdict, fall back to calicoctl's rule, minus its Windows-reserved quirk (design/calico-callers.md#check-quirks).
  const releasable =
    typeof verdict === 'boolean'
      ? verdict
      : !raw['inUse'] && raw['coolingDown'] !== true && (handle === undefined || handle.toLowerCase() !== WINDOWS_RESERVED_HANDLE);
  let ip: string;
  try {
    ip = canonicalAddress(raw['ip']);
  } catch (err) {
    throw new InputFileError(file, `${where}.ip is not an IP address`, { cause: err });
  }
  return { ip, ...(handle === undefined || handle === '' ? {} : { handle }), sequenceNumber, releasable };
}

function leakedHandle(raw: unknown, file: string, i: number): ReportHandle {
  if (!isRecord(raw) || typeof raw['ID'] !== 'string' || typeof raw['Revision'] !== 'string') {
    throw new InputFileError(file, `leakedHandles[${i}] needs string "ID" and "Revision"`);
  }
  return { id: raw['ID'], revision: raw['Revision'] };
}

/** Validates a report's JSON (case-sensitive field names, as calicoctl). */
export function parseReport(text: string, file: string): ParsedReport {
  let raw: unknown;
  try {
    raw = parseWireJson(text);
  } catch (err) {
    throw new InputFileError(file, 'is not valid JSON', { cause: err });
  }
  if (!isRecord(raw)) throw new InputFileError(file, 'must hold a JSON object');
  const { version, clusterGUID, generatedAt, allocations, leakedHandles, datastoreKind, podsChecked } = raw;
  if (typeof version !== 'string' || typeof clusterGUID !== 'string') throw new InputFileError(file, 'needs string "version" and "clusterGUID"');
  if (generatedAt !== undefined && typeof generatedAt !== 'string') throw new InputFileError(file, '"generatedAt" must be a string');
  if (podsChecked !== undefined && (typeof podsChecked !== 'number' || !Number.isSafeInteger(podsChecked) || podsChecked < 0)) {
    throw new InputFileError(file, '"podsChecked" must be a non-negative integer');
  }
  if (!isRecord(allocations)) throw new InputFileError(file, '"allocations" must be an object');
  if (leakedHandles !== undefined && !Array.isArray(leakedHandles)) throw new InputFileError(file, '"leakedHandles" must be an array');
  const candidates: ReportCandidate[] = [];
  for (const [ip, list] of Object.entries(allocations)) {
    if (!Array.isArray(list)) throw new InputFileError(file, `allocations[${ip}] must be an array`);
    list.forEach((entry: unknown, i) => candidates.push(candidate(entry, file, `allocations[${ip}][${i}]`)));
  }
  return {
    file,
    version,
    clusterGUID,
    ...(generatedAt === undefined ? {} : { generatedAt }),
    ...(datastoreKind === undefined && podsChecked === undefined ? {} : { podsChecked: podsChecked ?? 0 }),
    allocations: candidates,
    leakedHandles: (leakedHandles ?? []).map((h: unknown, i) => leakedHandle(h, file, i)),
  };
}

export async function readReport(file: string): Promise<ParsedReport> {
  return parseReport(await readInputFile(file), file);
}
