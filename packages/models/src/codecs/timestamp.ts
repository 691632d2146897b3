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
  return NORMALIZED.get(text, (t) => (isCalicoForm(t) ? t : normalizeRfc3339(t, path)));
}

/** Digits at `text[from..from+count)`, as a number; -1 when any is not an ASCII digit. */
function digitsAt(text: string, from: number, count: number): number {
  let value = 0;
  for (let i = from; i < from + count; i += 1) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return -1;
    value = value * 10 + (c - 0x30);
  }
  return value;
}

/**
 * True when `text` is already what `normalize` returns for it: `YYYY-MM-DDTHH:MM:SSZ` naming a real
 * date and time. Checked by hand, so the common case (every claim time Calico or ipamkit wrote)
 * compiles no regular expression in a short-lived process (design/models.md, "Addresses without
 * regular expressions"); anything else goes the general way, which alone decides errors.
 */
function isCalicoForm(text: string): boolean {
  if (text.length !== 20 || text[4] !== '-' || text[7] !== '-' || text[10] !== 'T' || text[13] !== ':' || text[16] !== ':' || text[19] !== 'Z') return false;
  const [year, month, day, hour, minute, second] = [digitsAt(text, 0, 4), digitsAt(text, 5, 2), digitsAt(text, 8, 2), digitsAt(text, 11, 2), digitsAt(text, 14, 2), digitsAt(text, 17, 2)];
  if (year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return false;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The general reading of any RFC 3339 text (exported for the test that compares Calico's own form with it). */
export function normalizeRfc3339(text: string, path: string): string {
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
