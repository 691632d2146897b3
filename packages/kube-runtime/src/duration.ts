import { ControllerConfigError } from './errors.js';

const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * A Go-style duration (`15s`, `1m30s`, `500ms`, `0`) in milliseconds, as client-go's flags and
 * Calico's `leakGracePeriod` take it.
 */
export function parseDuration(text: string): number {
  const trimmed = text.trim();
  if (trimmed === '0') return 0;
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/gy;
  let total = 0;
  let consumed = 0;
  for (let match = re.exec(trimmed); match !== null; match = re.exec(trimmed)) {
    total += Number(match[1]) * (UNITS[match[2] ?? ''] ?? Number.NaN);
    consumed = re.lastIndex;
  }
  if (trimmed === '' || consumed !== trimmed.length || !Number.isFinite(total)) {
    throw new ControllerConfigError(`invalid duration ${JSON.stringify(text)}: use forms like 15s, 1m30s, 500ms or 0`);
  }
  return total;
}
