import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { holderReleased, listenForLock, type HeldLock } from '../../src/runtime/lock-listener.js';

let counter = 0;
/** A fresh abstract-socket name per test, so parallel test files never share a lock. */
function freshAddress(): string {
  counter += 1;
  return `\0ipamkit-lock-listener-test-${process.pid}-${counter}`;
}

function released(lock: HeldLock): Promise<void> {
  return new Promise((resolve) => lock.release(resolve));
}

/**
 * Connects to `address`; `outcome` is 'closed' once the connection is hung up on (an end or a
 * reset), 'refused' if it never connected.
 */
function connectAndWaitForHangUp(address: string): { connected: Promise<void>; outcome: Promise<'closed' | 'refused'> } {
  const socket = connect({ path: address });
  socket.resume();
  let wasConnected = false;
  const connected = new Promise<void>((resolve) =>
    socket.once('connect', () => {
      wasConnected = true;
      resolve();
    }),
  );
  const outcome = new Promise<'closed' | 'refused'>((resolve) => {
    socket.on('error', () => undefined);
    socket.once('close', () => resolve(wasConnected ? 'closed' : 'refused'));
  });
  return { connected, outcome };
}

describe.each([
  { mode: 'libuv pipe handle', viaNet: false },
  { mode: 'node:net', viaNet: true },
])('listenForLock through the $mode', ({ viaNet }) => {
  it('holds the address once: a second listener, of either kind, is told it is taken', async () => {
    const address = freshAddress();
    const held = await listenForLock(address, { viaNet });
    expect(held).toBeDefined();
    expect(await listenForLock(address, { viaNet: false })).toBeUndefined();
    expect(await listenForLock(address, { viaNet: true })).toBeUndefined();
    if (held !== undefined) await released(held);
  });

  it('frees the address on release, so the next listener gets it', async () => {
    const address = freshAddress();
    const first = await listenForLock(address, { viaNet });
    expect(first).toBeDefined();
    if (first !== undefined) await released(first);
    const second = await listenForLock(address, { viaNet });
    expect(second).toBeDefined();
    if (second !== undefined) await released(second);
  });

  it('hangs up on every connected waiter when it lets go', async () => {
    const address = freshAddress();
    const held = await listenForLock(address, { viaNet });
    expect(held).toBeDefined();
    const waiters = [connectAndWaitForHangUp(address), connectAndWaitForHangUp(address)];
    await Promise.all(waiters.map((w) => w.connected));
    if (held !== undefined) await released(held);
    expect(await Promise.all(waiters.map((w) => w.outcome))).toEqual(['closed', 'closed']);
  });
});

describe.each([
  { mode: 'libuv pipe handle', viaNet: false },
  { mode: 'node:net', viaNet: true },
])('holderReleased through the $mode', ({ viaNet }) => {
  it('resolves when the holder lets go, long before its wait is over', async () => {
    const address = freshAddress();
    const held = await listenForLock(address, { viaNet: false });
    expect(held).toBeDefined();
    let resolved = false;
    const waiting = holderReleased(address, 60_000, { viaNet }).then(() => (resolved = true));
    await new Promise((r) => setTimeout(r, 100));
    expect(resolved).toBe(false);
    if (held !== undefined) await released(held);
    await waiting;
    expect(resolved).toBe(true);
  });

  it('resolves at once where nobody holds the lock', async () => {
    await holderReleased(freshAddress(), 60_000, { viaNet });
  });

  it('resolves after its wait while the holder keeps the lock', async () => {
    const address = freshAddress();
    const held = await listenForLock(address, { viaNet: false });
    await holderReleased(address, 50, { viaNet });
    // Still held: a new listener is refused.
    expect(await listenForLock(address, { viaNet: false })).toBeUndefined();
    if (held !== undefined) await released(held);
  });
});
