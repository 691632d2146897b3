import { SelectorParseError } from '../errors.js';
import { parseSelector } from '../selector/parse-selector.js';
import { someNode } from '../selector/selector-node.js';

/** Longest selector the IPPool schema admits. */
export const MAX_SELECTOR_LENGTH = 1024;

/** Problems with a pool selector field: too long, unparsable, or using `global()`. */
export function selectorProblems(field: string, text: string): string[] {
  if (text.length > MAX_SELECTOR_LENGTH) return [`${field} is longer than ${MAX_SELECTOR_LENGTH} characters`];
  try {
    const selector = parseSelector(text);
    return someNode(selector.root, (n) => n.kind === 'global') ? [`${field} must not use global()`] : [];
  } catch (err) {
    if (err instanceof SelectorParseError) return [`${field} does not parse: ${err.message}`];
    throw err;
  }
}
