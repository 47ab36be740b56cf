import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import dbus from 'dbus-next';

/** A notification Chromium handed to the desktop. */
export interface DesktopNotification {
  id: number;
  summary: string;
  body: string;
  actions: string[];
}

/** A running fake desktop notification daemon on a private session bus. */
export interface FakeNotificationDaemon {
  /** `DBUS_SESSION_BUS_ADDRESS` for Chromium. */
  address: string;
  notifications: DesktopNotification[];
  /** Resolve with the first notification (already shown or yet to come) whose summary is `summary`. */
  waitFor(summary: string): Promise<DesktopNotification>;
  /** Click it, as a user would: Chromium fires a trusted `notificationclick`. */
  click(id: number, action?: string): void;
  /** Dismiss it: Chromium fires `notificationclose`. */
  dismiss(id: number): void;
  stop(): Promise<void>;
}

/**
 * Run a private `dbus-daemon` with a fake `org.freedesktop.Notifications` service. Chromium on
 * Linux shows notifications through it; signalling `ActionInvoked` is a real user click.
 */
export async function startFakeNotificationDaemon(): Promise<FakeNotificationDaemon> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pushbridge-dbus-'));
  const address = `unix:path=${path.join(dir, 'bus')}`;
  const config = path.join(dir, 'bus.conf');
  // No service activation (nothing else gets started) and no access rules: the bus is ours alone.
  writeFileSync(
    config,
    `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>${address}</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>`,
  );
  const daemon = spawn('dbus-daemon', [`--config-file=${config}`, '--nofork', '--print-address'], { stdio: ['ignore', 'pipe', 'ignore'] });
  await Promise.race([
    once(daemon.stdout, 'data'),
    once(daemon, 'exit').then(([code]) => {
      throw new Error(`dbus-daemon exited with ${String(code)}`);
    }),
  ]);

  const notifications: DesktopNotification[] = [];
  const waiters: { summary: string; resolve: (n: DesktopNotification) => void }[] = [];
  let nextId = 1;
  const { Interface } = dbus.interface;

  class Notifications extends Interface {
    GetCapabilities(): string[] {
      return ['body', 'actions', 'body-markup', 'persistence'];
    }
    GetServerInformation(): string[] {
      return ['pushbridge-test', 'pushbridge', '1.0', '1.2'];
    }
    Notify(_app: string, replacesId: number, _icon: string, summary: string, body: string, actions: string[]): number {
      const id = replacesId || nextId++;
      const notification = { id, summary, body, actions };
      notifications.push(notification);
      for (const waiter of waiters.filter((w) => w.summary === summary)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(notification);
      }
      return id;
    }
    CloseNotification(): void {}
    ActionInvoked(id: number, key: string): [number, string] {
      return [id, key];
    }
    NotificationClosed(id: number, reason: number): [number, number] {
      return [id, reason];
    }
  }
  Notifications.configureMembers({
    methods: {
      GetCapabilities: { inSignature: '', outSignature: 'as' },
      GetServerInformation: { inSignature: '', outSignature: 'ssss' },
      Notify: { inSignature: 'susssasa{sv}i', outSignature: 'u' },
      CloseNotification: { inSignature: 'u', outSignature: '' },
    },
    signals: { ActionInvoked: { signature: 'us' }, NotificationClosed: { signature: 'uu' } },
  });

  const bus = dbus.sessionBus({ busAddress: address });
  const service = new Notifications('org.freedesktop.Notifications');
  bus.export('/org/freedesktop/Notifications', service);
  await bus.requestName('org.freedesktop.Notifications', 0);

  return {
    address,
    notifications,
    waitFor(summary) {
      const shown = notifications.find((n) => n.summary === summary);
      if (shown) return Promise.resolve(shown);
      return new Promise((resolve) => waiters.push({ summary, resolve }));
    },
    click(id, action = 'default') {
      service.ActionInvoked(id, action);
    },
    dismiss(id) {
      service.NotificationClosed(id, 2);
    },
    async stop() {
      bus.disconnect();
      daemon.kill('SIGTERM');
      if (daemon.exitCode === null) await once(daemon, 'exit');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
