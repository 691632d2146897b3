// The Calico label-selector language (design/calico-ipam.md#selectors).
export type { Selector } from './parse-selector.js';
export { parseSelector, selectorFromNode, evaluateSelector, selectorToString } from './parse-selector.js';
export type { SelectorNode, StringComparisonKind, SetComparisonKind } from './selector-node.js';
export type { SelectorToken, SelectorTokenKind } from './tokenize-selector.js';
export { tokenizeSelector, MAX_LABEL_LENGTH } from './tokenize-selector.js';
