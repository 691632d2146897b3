// Number formats of design/calico-callers.md#tables-and-numbers, reproduced with Go's semantics rather than JavaScript's:
// `%.5g` switches to exponent form at 1e+05 and `%.f` rounds exact ties to even.

/** Calico clamps capacities above the signed 64-bit maximum (large IPv6 pools). */
export const INT64_MAX = 9_223_372_036_854_775_807n;

const SIGNIFICANT_DIGITS = 5;

/**
 * `%.5g` of a non-negative count. Counts are bigint, so the rounding is done on the exact decimal
 * digits (half to even), which equals Go's result for every count below 2^53 and for all clamped
 * values we print.
 */
export function formatG5(value: bigint): string {
  const clamped = value > INT64_MAX ? INT64_MAX : value < 0n ? 0n : value;
  const digits = clamped.toString();
  if (digits.length <= SIGNIFICANT_DIGITS) return digits;
  let exponent = digits.length - 1;
  let head = BigInt(digits.slice(0, SIGNIFICANT_DIGITS));
  const rest = digits.slice(SIGNIFICANT_DIGITS);
  const half = '5' + '0'.repeat(rest.length - 1);
  if (rest > half || (rest === half && head % 2n === 1n)) head += 1n;
  if (head.toString().length > SIGNIFICANT_DIGITS) {
    head /= 10n;
    exponent += 1;
  }
  const text = head.toString();
  const fraction = text.slice(1).replace(/0+$/, '');
  const mantissa = fraction === '' ? text.slice(0, 1) : `${text.slice(0, 1)}.${fraction}`;
  return `${mantissa}e+${String(exponent).padStart(2, '0')}`;
}

/** `%.f` of a float64: round to an integer, exact ties to even (Go), not half-up (toFixed). */
export function formatRoundHalfEven(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '+Inf' : '-Inf';
  const floor = Math.floor(value);
  const diff = value - floor;
  let rounded = floor;
  if (diff > 0.5 || (diff === 0.5 && floor % 2 !== 0)) rounded = floor + 1;
  return Object.is(rounded, -0) ? '0' : String(rounded);
}

/** A `show` cell: `%.5g (%.f%%)` of `part`, the percentage relative to `whole`. */
export function formatCountWithPercent(part: bigint, whole: bigint): string {
  const clampedPart = part > INT64_MAX ? INT64_MAX : part;
  const clampedWhole = whole > INT64_MAX ? INT64_MAX : whole;
  const percent = (100 * Number(clampedPart)) / Number(clampedWhole);
  return `${formatG5(part)} (${formatRoundHalfEven(percent)}%)`;
}
