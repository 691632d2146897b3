// `-o json` and report files: 2-space JSON like JSON.stringify(value, null, 2), except that a
// bigint (a sequence number or an IPv6 count) is written as a plain JSON number, losslessly.

function write(value: unknown, indent: string): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'bigint':
      return value.toString();
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    case 'object':
      break;
    default:
      return undefined;
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const items = value.map((item: unknown) => `${inner}${write(item, inner) ?? 'null'}`);
    return `[\n${items.join(',\n')}\n${indent}]`;
  }
  const parts: string[] = [];
  for (const [key, item] of Object.entries(value)) {
    const text = write(item, inner);
    if (text !== undefined) parts.push(`${inner}${JSON.stringify(key)}: ${text}`);
  }
  return parts.length === 0 ? '{}' : `{\n${parts.join(',\n')}\n${indent}}`;
}

/** Pretty JSON text ending in a newline. */
export function prettyJson(value: unknown): string {
  return `${write(value, '') ?? 'null'}\n`;
}
