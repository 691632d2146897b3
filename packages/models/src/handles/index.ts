export * from './handle-ids.js';
export { lengthLimitedId } from './length-limited-id.js';
