import { openPushbridgeDb, type InboxItem } from './common/database.js';
import type { MessageBus } from './message-bus.js';

/** The read side of the in-app inbox that the worker fills. */
export interface Inbox {
  /** Every item, newest first. */
  list(): Promise<InboxItem[]>;
  /** How many items have not been marked read. */
  unreadCount(): Promise<number>;
  /** Mark one item read (every tab hears of it); unknown ids are ignored. */
  markRead(notificationId: string): Promise<void>;
}

/**
 * The inbox of the shared IndexedDB.
 *
 * @example
 * ```ts
 * badge.textContent = String(await push.inbox.unreadCount());
 * ```
 */
export function createInbox(bus: MessageBus, now: () => number): Inbox {
  async function all(): Promise<InboxItem[]> {
    const db = await openPushbridgeDb();
    try {
      return (await db.getAllFromIndex('inbox', 'by-received')).reverse();
    } finally {
      db.close();
    }
  }
  return {
    list: all,
    async unreadCount() {
      return (await all()).filter((item) => item.readAt === null).length;
    },
    async markRead(notificationId) {
      const db = await openPushbridgeDb();
      let updated: InboxItem | undefined;
      try {
        const tx = db.transaction('inbox', 'readwrite');
        const item = await tx.store.get(notificationId);
        if (item && item.readAt === null) {
          updated = { ...item, readAt: now() };
          await tx.store.put(updated, notificationId);
        }
        await tx.done;
      } finally {
        db.close();
      }
      if (updated) bus.post({ pushbridge: 1, type: 'inbox', item: updated });
    },
  };
}
