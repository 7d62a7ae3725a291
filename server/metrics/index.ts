export { Metrics } from './metrics-route.js';
export { CONTENT_TYPE } from './registry.js';
