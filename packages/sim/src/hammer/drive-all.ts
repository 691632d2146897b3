/**
 * Runs the drivers together. The first one to fail calls `onFailure` (so the others stop before
 * anything is torn down under them); once all have ended, its error is thrown.
 */
export async function driveAll(drivers: readonly Promise<void>[], onFailure: () => void): Promise<void> {
  const failFast = (driver: Promise<void>): Promise<void> =>
    driver.catch((err: unknown) => {
      onFailure();
      throw err;
    });
  const failed = (await Promise.allSettled(drivers.map(failFast))).find((d): d is PromiseRejectedResult => d.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
}
