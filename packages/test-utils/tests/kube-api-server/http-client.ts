import type { KubeApiServer } from '../../src/index.js';
import { parseLosslessJson, stringifyLosslessJson } from '../../src/kube-api-server/lossless-json.js';

export interface Reply {
  status: number;
  body: unknown;
}

/** The value at `path` inside a decoded JSON body (undefined when absent). */
export function at(value: unknown, ...path: (string | number)[]): unknown {
  let node = value;
  for (const step of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string | number, unknown>)[step];
  }
  return node;
}

/** `at(...)` as a string, for resourceVersions, names and messages. */
export function str(value: unknown, ...path: (string | number)[]): string {
  const v = at(value, ...path);
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** A bare HTTP client for the server tests: lossless JSON, bearer token, no Kubernetes client in between. */
export async function call(server: KubeApiServer, method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<Reply> {
  const res = await fetch(server.url + path, {
    method,
    headers: { authorization: `Bearer ${server.token}`, ...(body === undefined ? {} : { 'content-type': contentType }) },
    ...(body === undefined ? {} : { body: stringifyLosslessJson(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : parseLosslessJson(text) };
}

export interface OpenWatch {
  /** The next event, or undefined once the server ended the stream. */
  next(): Promise<unknown>;
  close(): void;
}

/** Opens a watch stream; events are read one at a time, so a test can act between them. */
export async function openWatch(server: KubeApiServer, path: string): Promise<OpenWatch> {
  const abort = new AbortController();
  const res = await fetch(server.url + path, { headers: { authorization: `Bearer ${server.token}` }, signal: abort.signal });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  return {
    async next() {
      for (;;) {
        const nl = buffered.indexOf('\n');
        if (nl >= 0) {
          const line = buffered.slice(0, nl);
          buffered = buffered.slice(nl + 1);
          return parseLosslessJson(line);
        }
        const { value, done } = await reader.read();
        if (done) return undefined;
        buffered += decoder.decode(value, { stream: true });
      }
    },
    close() {
      abort.abort();
    },
  };
}

/** Opens a watch and reads `count` events (fewer if the server ends the stream). */
export async function watchEvents(server: KubeApiServer, path: string, count: number): Promise<unknown[]> {
  const watch = await openWatch(server, path);
  const events: unknown[] = [];
  try {
    while (events.length < count) {
      const event = await watch.next();
      if (event === undefined) break;
      events.push(event);
    }
  } finally {
    watch.close();
  }
  return events;
}

export function widget(name: string, spec: Record<string, unknown> = { size: 1 }, labels?: Record<string, string>): Record<string, unknown> {
  return { apiVersion: 'test.ipamkit.io/v1', kind: 'Widget', metadata: { name, ...(labels === undefined ? {} : { labels }) }, spec };
}
