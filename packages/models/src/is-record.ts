/** A JSON object as decoded: an object that is neither null nor an array (design/models.md, "Defined fields"). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
