// The subscription helpers live in src/common, shared with the worker; page code imports them here.
export { sameApplicationServerKey } from './common/same-application-server-key.js';
export { subscribeWithKey } from './common/subscribe-with-key.js';
export { subscriptionKeys } from './common/subscription-keys.js';
