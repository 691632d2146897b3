import { readFile } from 'node:fs/promises';
import { isRecord } from '@ipamkit/models';
import { ResourceDocumentError } from './resource-errors.js';
import type { V3Document } from './resource-handler.js';

/** Where `-f` reads from: a path, or `-` for standard input. */
export interface DocumentSource {
  readonly file: string;
  readonly stdin: NodeJS.ReadableStream;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

async function readText(source: DocumentSource): Promise<string> {
  if (source.file === '-') return readAll(source.stdin);
  try {
    return await readFile(source.file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'unknown error';
    throw new ResourceDocumentError(`cannot read ${source.file} (${code})`, { cause: err });
  }
}

/** `kind: List` and `kind: <Kind>List` (what `get -o yaml` writes) are unwrapped into their items. */
function flatten(value: unknown, where: string): V3Document[] {
  if (!isRecord(value)) throw new ResourceDocumentError(`${where}: expected a resource (a mapping), got ${Array.isArray(value) ? 'a list' : typeof value}`);
  const kind = value.kind;
  if (typeof kind === 'string' && kind.endsWith('List') && 'items' in value) {
    const items = value.items ?? [];
    if (!Array.isArray(items)) throw new ResourceDocumentError(`${where}: items must be a list`);
    return items.flatMap((item, i) => flatten(item, `${where}, item ${i + 1}`));
  }
  return [value];
}

/**
 * Every resource in a YAML or JSON text (JSON is YAML): single documents, `---`-separated documents,
 * and lists. Empty documents are skipped. Any syntax error fails the whole read.
 */
export async function parseDocuments(text: string, name: string): Promise<V3Document[]> {
  // Loaded on demand: the YAML library costs ~0.1–0.2 s to import, which no `ipam` command should pay.
  const { parseAllDocuments } = await import('yaml');
  const docs = parseAllDocuments(text);
  const all = Array.isArray(docs) ? docs : [docs];
  const out: V3Document[] = [];
  all.forEach((doc, i) => {
    const where = all.length > 1 ? `${name}, document ${i + 1}` : name;
    const first = doc.errors[0];
    if (first !== undefined) throw new ResourceDocumentError(`${where}: not valid YAML or JSON: ${first.message.split('\n')[0] ?? ''}`);
    const value: unknown = doc.toJS();
    if (value === null || value === undefined) return;
    out.push(...flatten(value, where));
  });
  return out;
}

/** Reads and parses `-f`; a file with no resource at all is an error. */
export async function readDocuments(source: DocumentSource): Promise<V3Document[]> {
  const name = source.file === '-' ? 'stdin' : source.file;
  const docs = await parseDocuments(await readText(source), name);
  if (docs.length === 0) throw new ResourceDocumentError(`${name}: no resources found`);
  return docs;
}
