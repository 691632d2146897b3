import { AlreadyExistsError, ConflictError, type DatastoreTx, NotFoundError, type TransactOptions } from '@ipamkit/models';
import type { ClientDeps } from './client-deps.js';

/**
 * Runs `body` in one all-or-none datastore transaction. A precondition that fails at commit
 * (an object created or deleted concurrently) is reported as ConflictError so withCasRetry
 * re-reads and retries; the same errors raised by reads inside the body keep their meaning.
 * `options` tell the backend what the body expects (releases: their handles exist).
 */
export async function inTransaction<R>(deps: ClientDeps, body: (tx: DatastoreTx) => Promise<R>, options?: TransactOptions): Promise<R> {
  const transact = deps.ds.transact;
  if (transact === undefined) throw new TypeError('datastore has no transact');
  const progress = { bodyDone: false };
  try {
    return await transact(async (tx) => {
      const result = await body(tx);
      progress.bodyDone = true;
      return result;
    }, options);
  } catch (err) {
    if (progress.bodyDone && (err instanceof AlreadyExistsError || err instanceof NotFoundError)) {
      throw new ConflictError('transaction', 'a transaction precondition failed at commit', { cause: err });
    }
    throw err;
  }
}
