import { isJsonObject, type JsonObject, type JsonValue } from './lossless-json.js';
import { KubeStatusError, statusErrors } from './status.js';

/** RFC 7386 JSON merge patch: objects merge, `null` removes, everything else replaces. */
export function applyMergePatch(target: JsonValue, patch: JsonValue): JsonValue {
  if (!isJsonObject(patch)) return patch;
  const out: JsonObject = isJsonObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) Reflect.deleteProperty(out, key);
    else out[key] = applyMergePatch(out[key] ?? null, value);
  }
  return out;
}

interface PatchOp {
  op?: unknown;
  path?: unknown;
  from?: unknown;
  value?: JsonValue;
}

function pointer(path: unknown): string[] {
  if (typeof path !== 'string' || (path !== '' && !path.startsWith('/'))) throw statusErrors.badRequest(`invalid JSON pointer ${String(path)}`);
  return path === '' ? [] : path.slice(1).split('/').map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
}

function parentOf(doc: JsonValue, tokens: string[]): { parent: JsonValue; last: string } {
  let node = doc;
  for (const token of tokens.slice(0, -1)) {
    const next: JsonValue | undefined = Array.isArray(node) ? node[Number(token)] : isJsonObject(node) ? node[token] : undefined;
    if (next === undefined) throw statusErrors.badRequest(`the server rejected our request due to an error in our request: missing path segment ${token}`);
    node = next;
  }
  return { parent: node, last: tokens[tokens.length - 1] ?? '' };
}

function read(doc: JsonValue, tokens: string[]): JsonValue {
  if (tokens.length === 0) return doc;
  const { parent, last } = parentOf(doc, tokens);
  const v = Array.isArray(parent) ? parent[Number(last)] : isJsonObject(parent) ? parent[last] : undefined;
  if (v === undefined) throw statusErrors.badRequest(`the server rejected our request: path /${tokens.join('/')} does not exist`);
  return v;
}

function remove(doc: JsonValue, tokens: string[]): void {
  const { parent, last } = parentOf(doc, tokens);
  read(doc, tokens);
  if (Array.isArray(parent)) parent.splice(Number(last), 1);
  else if (isJsonObject(parent)) Reflect.deleteProperty(parent, last);
}

function add(doc: JsonValue, tokens: string[], value: JsonValue, replace: boolean): JsonValue {
  if (tokens.length === 0) return value;
  const { parent, last } = parentOf(doc, tokens);
  if (Array.isArray(parent)) {
    const index = last === '-' ? parent.length : Number(last);
    if (!Number.isInteger(index) || index < 0 || index > parent.length) throw statusErrors.badRequest(`array index ${last} out of range`);
    if (replace) parent[index] = value;
    else parent.splice(index, 0, value);
  } else if (isJsonObject(parent)) {
    if (replace) read(doc, tokens);
    parent[last] = value;
  } else throw statusErrors.badRequest(`cannot add at /${tokens.join('/')}`);
  return doc;
}

/** RFC 6902 JSON patch: add, remove, replace, move, copy, test. */
export function applyJsonPatch(target: JsonValue, ops: JsonValue): JsonValue {
  if (!Array.isArray(ops)) throw statusErrors.badRequest('a JSON patch must be an array of operations');
  let doc = structuredClone(target);
  for (const raw of ops as PatchOp[]) {
    const tokens = pointer(raw.path);
    switch (raw.op) {
      case 'add':
      case 'replace':
        if (raw.value === undefined) throw statusErrors.badRequest(`${raw.op} needs a value`);
        doc = add(doc, tokens, structuredClone(raw.value), raw.op === 'replace');
        break;
      case 'remove':
        remove(doc, tokens);
        break;
      case 'move':
      case 'copy': {
        const from = pointer(raw.from);
        const value = structuredClone(read(doc, from));
        if (raw.op === 'move') remove(doc, from);
        doc = add(doc, tokens, value, false);
        break;
      }
      case 'test':
        if (JSON.stringify(read(doc, tokens), bigintSafe) !== JSON.stringify(raw.value ?? null, bigintSafe)) {
          throw new KubeStatusError(422, 'Invalid', `the server rejected our request: testing value /${tokens.join('/')} failed`);
        }
        break;
      default:
        throw statusErrors.badRequest(`unknown JSON patch operation ${String(raw.op)}`);
    }
  }
  return doc;
}

function bigintSafe(_k: string, v: unknown): unknown {
  return typeof v === 'bigint' ? v.toString() : v;
}
