import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { DatastoreUnavailableError, type Datastore } from '@ipamkit/models';
import { collectEvents, describeEvent, sampleHandle, withEtcd, type EtcdFixture } from '@ipamkit/test-utils';
import { createDatastore } from '../../src/create-datastore.js';
import { createEtcdDatastore, type EtcdDatastoreConfig } from '../../src/etcd/index.js';
import { DatastoreConfigError } from '../../src/errors.js';
import { withFirstEvent } from './support/first-event.js';
import { ETCD_CLIENTS, securityOf } from './support/etcd-clients.js';

// TLS and authentication failures must be clear (the class says what to do, the message names the
// endpoint) and must never carry a secret (design/ipam-datastore.md, "etcd TLS and authentication").

const open: Datastore[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((ds) => ds.close()));
});

let run = 0;
function datastore(config: EtcdDatastoreConfig): Datastore {
  const ds = createEtcdDatastore({ prefix: `/sec-${process.pid}-${++run}`, retry: { attempts: 1, backoff: { baseMs: 10, capMs: 60_000 } }, callTimeoutMs: 5_000, ...config });
  open.push(ds);
  return ds;
}

async function failure(p: Promise<unknown>): Promise<Error> {
  const outcome = await p.then(
    () => new Error('expected a failure'),
    (err: unknown) => err,
  );
  expect(outcome).toBeInstanceOf(Error);
  return outcome as Error;
}

/** The error's message and its causes' messages: everything a log line could show. */
function everything(err: Error): string {
  const parts: string[] = [];
  for (let e: unknown = err; e instanceof Error; e = e.cause) parts.push(e.message, e.stack ?? '');
  return parts.join('\n');
}

/** The key's base64 body lines: key material that must never appear in an error. */
function keyMaterial(keyFile: string): string[] {
  return readFileSync(keyFile, 'utf8')
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('-----'));
}

const hostOf = (fixture: EtcdFixture): string => new URL(fixture.endpoint).host;

describe('etcd over mutual TLS', () => {
  const etcd = withEtcd({ tls: true });

  for (const client of ETCD_CLIENTS) {
    describe(`${client} client`, () => {
      it('works with the CA, the client certificate and key, and a server name the certificate carries', async () => {
        const tls = etcd.handle.tls;
        if (tls === undefined) throw new Error('the fixture has TLS');
        const endpoint = etcd.endpoint;
        const ds = datastore({ client, endpoints: [endpoint], tls: { caFile: tls.caFile, certFile: tls.certFile, keyFile: tls.keyFile, serverName: 'localhost' } });
        await ds.handles.create(sampleHandle('h'));
        expect((await ds.handles.get('h')).handleId).toBe('h');
      });

      it('reports a server certificate from an unknown CA as DatastoreUnavailableError naming the endpoint, with no key material', async () => {
        const tls = etcd.handle.tls;
        if (tls === undefined) throw new Error('the fixture has TLS');
        const ds = datastore({ client, endpoints: [etcd.endpoint], tls: { caFile: tls.untrustedCaFile, certFile: tls.certFile, keyFile: tls.keyFile } });
        const err = await failure(ds.handles.get('h'));
        expect(err).toBeInstanceOf(DatastoreUnavailableError);
        expect(err.message).toContain(hostOf(etcd));
        if (client === 'http') expect(err.message).toContain('TLS handshake failed');
        const text = everything(err);
        for (const line of keyMaterial(tls.keyFile)) expect(text).not.toContain(line);
        expect(text).not.toContain('PRIVATE KEY');
      });

      it('reports a missing client certificate as DatastoreUnavailableError naming the endpoint', async () => {
        const tls = etcd.handle.tls;
        if (tls === undefined) throw new Error('the fixture has TLS');
        const ds = datastore({ client, endpoints: [etcd.endpoint], tls: { caFile: tls.caFile } });
        const err = await failure(ds.handles.get('h'));
        expect(err).toBeInstanceOf(DatastoreUnavailableError);
        expect(err.message).toContain(hostOf(etcd));
      });

      it('refuses a server name the certificate does not carry', async () => {
        const tls = etcd.handle.tls;
        if (tls === undefined) throw new Error('the fixture has TLS');
        const ds = datastore({ client, endpoints: [etcd.endpoint], tls: { caFile: tls.caFile, certFile: tls.certFile, keyFile: tls.keyFile, serverName: 'etcd.invalid' } });
        const err = await failure(ds.handles.get('h'));
        expect(err).toBeInstanceOf(DatastoreUnavailableError);
        expect(err.message).toContain(hostOf(etcd));
      });
    });
  }

  it('refuses TLS files with a plain http endpoint, a certificate without its key, and an unreadable file, without opening anything', () => {
    const tls = etcd.handle.tls;
    if (tls === undefined) throw new Error('the fixture has TLS');
    expect(() => createEtcdDatastore({ endpoints: ['http://127.0.0.1:2379'], tls: { caFile: tls.caFile } })).toThrow(DatastoreConfigError);
    expect(() => createEtcdDatastore({ endpoints: [etcd.endpoint], tls: { caFile: tls.caFile, certFile: tls.certFile } })).toThrow(DatastoreConfigError);
    expect(() => createEtcdDatastore({ endpoints: [etcd.endpoint], tls: { caFile: '/nonexistent/ca.pem' } })).toThrow(/\/nonexistent\/ca\.pem/);
  });

  it('never quotes a TLS file in its error when the file is not PEM', () => {
    // A key file given as the CA: the https agent fails at open, without quoting the file.
    const tls = etcd.handle.tls;
    if (tls === undefined) throw new Error('the fixture has TLS');
    let text = '';
    try {
      createEtcdDatastore({ endpoints: [etcd.endpoint], tls: { caFile: tls.keyFile, certFile: tls.certFile, keyFile: tls.keyFile } });
    } catch (err) {
      text = everything(err as Error);
    }
    for (const line of keyMaterial(tls.keyFile)) expect(text).not.toContain(line);
  });
});

describe('etcd with username/password authentication', () => {
  const etcd = withEtcd({ auth: true });

  for (const client of ETCD_CLIENTS) {
    describe(`${client} client`, () => {
      it('reports a wrong password as DatastoreConfigError naming the endpoint, without the password', async () => {
        const canary = `canary-${process.pid}-${Date.now()}`;
        const ds = datastore({ client, endpoints: [etcd.endpoint], username: 'root', password: canary });
        const err = await failure(ds.handles.get('h'));
        expect(err).toBeInstanceOf(DatastoreConfigError);
        expect(err.message).toContain(hostOf(etcd));
        expect(everything(err)).not.toContain(canary);
      });

      it('keeps a watch delivering across an etcd restart that forgets its tokens', { timeout: 60_000 }, async () => {
        const ds = datastore({ client, endpoints: [etcd.endpoint], ...securityOf(etcd.handle), retry: { attempts: 8, backoff: { baseMs: 100, capMs: 60_000 } } });
        const { revision } = await ds.ipPools.listWithRevision();
        const abort = new AbortController();
        try {
          const { watch, first } = withFirstEvent(ds.ipPools.watch({ fromRevision: revision, signal: abort.signal }));
        const pending = collectEvents(watch, 2, 45_000);
          await ds.ipPools.create({ name: 'before', cidr: '10.1.0.0/16' });
          // The stream is established (it delivered): the restart breaks a running watch.
          await first;
          await etcd.handle.restart();
          await ds.ipPools.create({ name: 'after', cidr: '10.2.0.0/16' });
          expect((await pending).map(describeEvent)).toEqual(['added:before', 'added:after']);
        } finally {
          abort.abort();
        }
      });

      it('authenticates again after etcd restarts and forgets its tokens', { timeout: 60_000 }, async () => {
        const ds = datastore({ client, endpoints: [etcd.endpoint], ...securityOf(etcd.handle), retry: { attempts: 8, backoff: { baseMs: 100, capMs: 60_000 } } });
        await ds.handles.create(sampleHandle('before'));
        await etcd.handle.restart();
        await ds.handles.create(sampleHandle('after'));
        expect((await ds.handles.get('after')).handleId).toBe('after');
      });
    });
  }
});

describe('endpoints with user info', () => {
  const canary = `canary-${process.pid}`;
  const endpoint = `https://root:${canary}@127.0.0.1:2379`;

  it('are refused with a DatastoreConfigError that shows the endpoint without its user info', async () => {
    for (const client of ETCD_CLIENTS) {
      let err: unknown;
      try {
        createEtcdDatastore({ client, endpoints: [endpoint] });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(DatastoreConfigError);
      expect((err as Error).message).toContain('https://<redacted>@127.0.0.1:2379');
      expect(everything(err as Error)).not.toContain(canary);
      expect(everything(err as Error)).not.toContain('root:');
    }
    const viaRoot = await failure(createDatastore({ type: 'etcd', endpoints: [endpoint] }));
    expect(viaRoot).toBeInstanceOf(DatastoreConfigError);
    expect(everything(viaRoot)).not.toContain(canary);
  });

  it('are redacted even when the endpoint is not a URL at all', () => {
    expect(() => createEtcdDatastore({ endpoints: [`root:${canary}@[bad`] })).toThrow(DatastoreConfigError);
    try {
      createEtcdDatastore({ endpoints: [`root:${canary}@[bad`] });
    } catch (err) {
      expect(everything(err as Error)).not.toContain(canary);
    }
  });
});
