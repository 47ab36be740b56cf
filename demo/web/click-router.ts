import type { PushClient } from '../../src/index.ts';
import { byId, element } from './dom.ts';

function showRoute(fromNotification: boolean): void {
  const banner = byId('route');
  const path = `${location.pathname}${location.search}`;
  if (path === '/') {
    banner.hidden = true;
    return;
  }
  banner.replaceChildren(
    element('span', fromNotification ? 'Opened from a notification: ' : 'You are on '),
    element('code', path),
    element('span', '. A real app would show that page here.'),
  );
  banner.hidden = false;
}

/**
 * Route notification clicks in the page, SPA style: listening to `click` acknowledges it, so the
 * worker focuses this window without reloading it, and the page moves itself to the URL. The
 * worker sends the click to the one window it brought forward, so only that tab moves. The log
 * gets the click too (`data-type="click"`).
 */
export function startClickRouter(push: PushClient, log: HTMLUListElement): void {
  showRoute(false);
  push.on('click', (message) => {
    const item = element('li', `${new Date().toLocaleTimeString()}  clicked: ${message.url}`);
    item.dataset.type = 'click';
    log.prepend(item);
    const target = new URL(message.url);
    // The worker only sends URLs of this origin; the check keeps the page honest on its own.
    if (target.origin !== location.origin) return;
    if (`${target.pathname}${target.search}` !== `${location.pathname}${location.search}`) history.pushState(null, '', target.pathname + target.search + target.hash);
    showRoute(true);
  });
  addEventListener('popstate', () => showRoute(false));
}
