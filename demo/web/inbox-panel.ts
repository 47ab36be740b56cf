import type { PushClient } from '../../src/index.ts';
import { byId, element } from './dom.ts';

/**
 * The in-app inbox: the worker's `inbox` store, newest first, with the unread count and a
 * "Mark as read" button per unread item. Returns `refresh`, called whenever the worker or
 * another tab says the inbox changed. Renders are serialized so a slow read never overwrites
 * a newer one.
 */
export function createInboxPanel(push: PushClient): { refresh(): Promise<void> } {
  const list = byId<HTMLUListElement>('inbox');
  const empty = byId('inbox-empty');
  const count = byId('unread-count');
  let rendering: Promise<void> = Promise.resolve();

  async function render(): Promise<void> {
    const items = await push.inbox.list();
    const rows = items.map((item) => {
      const row = element('li');
      row.dataset.notificationId = item.notificationId;
      row.dataset.unread = String(item.readAt === null);
      row.append(element('span', item.title, 'item-title'), element('span', item.body));
      if (item.readAt === null) {
        const button = element('button', 'Mark as read', 'secondary');
        button.type = 'button';
        button.setAttribute('aria-label', `Mark "${item.title}" as read`);
        button.addEventListener('click', () => {
          button.disabled = true;
          // The inbox message that follows re-renders every tab, this one included.
          push.inbox.markRead(item.notificationId).catch(() => {
            button.disabled = false;
          });
        });
        row.append(element('br'), button);
      }
      return row;
    });
    list.replaceChildren(...rows);
    empty.hidden = items.length > 0;
    count.textContent = String(items.filter((item) => item.readAt === null).length);
  }

  return {
    refresh() {
      rendering = rendering.then(render, render);
      return rendering;
    },
  };
}
