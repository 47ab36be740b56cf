/**
 * The `data` key under which pushbridge keeps its bookkeeping on a notification (the id beside a
 * custom tag, action URLs). Reserved: {@link parsePush} drops it from a payload's `data`, so that
 * an app's own key of that name can neither break nor forge the bookkeeping.
 */
export const META_KEY = '__pushbridge';
