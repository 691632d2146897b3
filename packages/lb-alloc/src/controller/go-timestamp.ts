/**
 * A UTC time in Go's default `time.Time.String()` layout, the `timestamp` allocation attribute
 * upstream writes (design/calico-callers.md#loadbalancer-ipam-parameters): `2025-01-02 03:04:05.123 +0000 UTC`, fraction trimmed of trailing
 * zeros and omitted when zero.
 */
export function goTimestamp(date: Date): string {
  const pad = (n: number, width = 2): string => String(n).padStart(width, '0');
  const fraction = pad(date.getUTCMilliseconds(), 3).replace(/0+$/, '');
  const day = `${String(date.getUTCFullYear())}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
  const time = `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
  return `${day} ${time}${fraction === '' ? '' : `.${fraction}`} +0000 UTC`;
}
