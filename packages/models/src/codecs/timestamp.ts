import { isoUtc } from '../iso-utc.js';
import { TextMemo } from '../net/text-memo.js';
import { codecFail } from './field-readers.js';

/** Timestamps normalised lately: a block's claim time is re-encoded with every write of the block. */
const NORMALIZED = new TextMemo<string>(4096);

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/**
 * Normalises an RFC 3339 timestamp to the form Calico writes (design/calico-stored-formats.md#encoding-rules): UTC, whole
 * seconds (`2026-08-22T13:33:20Z`). Fractional seconds are truncated, as Go does when it marshals
 * a metav1.Time; offsets are converted to UTC. Used on read and on write.
 */
export function normalizeTimestamp(text: string, path: string): string {
  return NORMALIZED.get(text, (t) => normalize(t, path));
}

function normalize(text: string, path: string): string {
  const m = RFC3339.exec(text);
  if (m === null) return codecFail(path, `${JSON.stringify(text)} is not an RFC 3339 timestamp`);
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const offsetMinutes = m[7] === undefined ? (m[8] === '-' ? -1 : 1) * (Number(m[9]) * 60 + Number(m[10])) : 0;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  const inRange = date.getUTCMonth() === month - 1 && date.getUTCDate() === day && hour < 24 && minute < 60 && second < 60;
  if (!inRange || (m[7] === undefined && (Number(m[9]) > 23 || Number(m[10]) > 59))) {
    return codecFail(path, `${JSON.stringify(text)} is not a valid date and time`);
  }
  const utc = new Date(date.getTime() - offsetMinutes * 60_000);
  const iso = isoUtc(utc);
  if (!/^\d{4}-/.test(iso)) return codecFail(path, `${JSON.stringify(text)} is outside the year range 0000-9999`);
  return `${iso.slice(0, 19)}Z`;
}
