import type { PushClient } from '../../src/index.ts';
import { byId, element } from './dom.ts';

const time = (): string => new Date().toLocaleTimeString();

/**
 * The event log: what the worker tells open pages. `data-type` is the message's type
 * (`notification`, `click`, `inbox`) or, for reported events, the event's (`delivered`,
 * `clicked`, `dismissed`), so tests and people can tell them apart.
 */
export function startEventLog(push: PushClient): void {
  const log = byId<HTMLUListElement>('events');
  const add = (type: string, text: string): void => {
    const item = element('li', `${time()}  ${text}`);
    item.dataset.type = type;
    log.prepend(item);
    // A long session keeps the newest 100.
    while (log.children.length > 100) log.lastElementChild?.remove();
  };
  push.on('notification', (message) => {
    const how = message.shown === false ? 'in-app only (page visible)' : message.channel === 'in_app' ? 'in-app, also shown' : 'shown';
    add('notification', `${how}: ${message.title}`);
  });
  push.on('event', ({ event }) => {
    const action = event.type === 'clicked' && event.action ? ` (action ${event.action})` : '';
    add(event.type, `${event.type}${action}: ${event.notificationId ?? 'foreign push'}`);
  });
  push.on('inbox', ({ item }) => {
    if (item.readAt === null) add('inbox', `inbox: ${item.title}`);
  });
}
