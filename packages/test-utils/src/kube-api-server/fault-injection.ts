import { seededRandom } from '@ipamkit/models';
import { KubeStatusError } from './status.js';

/** The answers the fault injector gives, per kind of request (design/test-utils.md, "Fault injection"). */
export type InjectedFaultStatus = 409 | 500 | 410;

export interface FaultCounts {
  409: number;
  500: number;
  410: number;
}

/** What the injector needs to know about a request before it is dispatched. */
export interface FaultRequest {
  readonly method: string;
  readonly watching: boolean;
}

export interface FaultInjectorOptions {
  /** Chance per request (0 to 1) that it is answered with an injected fault. Default 0 (off). */
  readonly rate?: number;
  /** Seed of the injector's own random sequence, so a run can be repeated. Default 1. */
  readonly seed?: number;
}

/**
 * Random faults at a configurable rate, decided before a request is dispatched (nothing is stored
 * for a faulted request): 410 Gone on watches (the client must re-list), 409 Conflict on writes,
 * 500 on any request. A request that draws a fault gets one of the statuses its kind allows, chosen
 * evenly. The rate can change while the server runs (a hammer turns faults off to settle).
 */
export class FaultInjector {
  private rate: number;
  private readonly random: () => number;
  readonly injected: FaultCounts = { 409: 0, 500: 0, 410: 0 };

  constructor(options: FaultInjectorOptions = {}) {
    this.rate = FaultInjector.checkedRate(options.rate ?? 0);
    this.random = seededRandom(options.seed ?? 1);
  }

  private static checkedRate(rate: number): number {
    if (!Number.isFinite(rate) || rate < 0 || rate > 1) throw new RangeError(`fault rate must be between 0 and 1, got ${rate}`);
    return rate;
  }

  get faultRate(): number {
    return this.rate;
  }

  setRate(rate: number): void {
    this.rate = FaultInjector.checkedRate(rate);
  }

  /** The fault to answer `req` with, or undefined to serve it normally. */
  decide(req: FaultRequest): KubeStatusError | undefined {
    if (this.rate === 0 || this.random() >= this.rate) return undefined;
    const write = req.method !== 'GET' && req.method !== 'HEAD';
    const allowed: InjectedFaultStatus[] = req.watching ? [410, 500] : write ? [409, 500] : [500];
    const status = allowed[Math.floor(this.random() * allowed.length)] ?? 500;
    this.injected[status] += 1;
    if (status === 410) return new KubeStatusError(410, 'Expired', 'injected fault: too old resource version');
    if (status === 409) return new KubeStatusError(409, 'Conflict', 'injected fault: the object has been modified; please apply your changes to the latest version and try again');
    return new KubeStatusError(500, 'InternalError', 'injected fault: internal error');
  }
}
