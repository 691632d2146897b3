import { ValidationError } from '@ipamkit/models';

/** Where a runway's rate came from: given outright, or measured over allocation timestamps. */
export type RateSource = 'flag' | 'history';

export interface AllocationRate {
  readonly podsPerHour: number;
  readonly source: RateSource;
  /** For a history: how many allocations and over what span the rate was measured. */
  readonly samples?: number;
  readonly spanHours?: number;
}

/**
 * The allocation rate of a history of allocation times (a sim run's, or any list an operator
 * keeps): allocations after the first divided by the span. The datastore itself keeps no
 * allocation times (a block records only when it was claimed), so without a history the rate is
 * the operator's.
 */
export function rateFromHistory(times: readonly Date[]): AllocationRate {
  const ms = times.map((t) => t.getTime());
  if (ms.some((t) => Number.isNaN(t))) throw new ValidationError('allocation history holds a time that does not parse');
  if (ms.length < 2) throw new ValidationError(`allocation history needs at least 2 times to give a rate, got ${ms.length}`);
  const first = Math.min(...ms);
  const last = Math.max(...ms);
  if (last === first) throw new ValidationError('allocation history spans no time; cannot give a rate');
  const spanHours = (last - first) / 3_600_000;
  return { podsPerHour: (ms.length - 1) / spanHours, source: 'history', samples: ms.length, spanHours };
}

export function rateFromFlag(podsPerHour: number): AllocationRate {
  if (!Number.isFinite(podsPerHour) || podsPerHour <= 0) throw new ValidationError(`rate must be a positive number of pods per hour, got ${podsPerHour}`);
  return { podsPerHour, source: 'flag' };
}

/** Hours until `pods` more pods have started at `rate`. */
export function hoursFor(pods: number, rate: AllocationRate | undefined): number | undefined {
  return rate === undefined ? undefined : pods / rate.podsPerHour;
}
