const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/**
 * `date.toISOString()`, written from the UTC fields. V8 (Node 20) sets up the host's time zone on
 * the first `toISOString` of a process (ICU reads `/etc/localtime` and its zone data: about 0.3 ms),
 * which a short-lived plugin call pays for every log line and timestamp; the UTC getters need no
 * time zone (design/models.md, "ISO time without the time zone"). An invalid date and a year outside
 * 0–9999 (the six-digit form) take `toISOString` itself, with its RangeError or its form.
 */
export function isoUtc(date: Date): string {
  const year = date.getUTCFullYear();
  // eslint-disable-next-line no-restricted-properties -- the rare forms only toISOString writes (and its RangeError).
  if (!(year >= 0 && year <= 9999)) return date.toISOString();
  return (
    `${pad(year, 4)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}` +
    `T${pad(date.getUTCHours(), 2)}:${pad(date.getUTCMinutes(), 2)}:${pad(date.getUTCSeconds(), 2)}.${pad(date.getUTCMilliseconds(), 3)}Z`
  );
}
