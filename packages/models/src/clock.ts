/**
 * The one wall-clock shape of the workspace (design/models.md, "Clock"): injected so tests drive
 * cooldowns, grace periods, lease expiry and log timestamps without waiting.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
