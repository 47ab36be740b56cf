import type { PushState } from '../../src/index.ts';
import { byId } from './dom.ts';

function support(state: PushState): string {
  if (state === 'unsupported') return 'Not in this browser';
  if (state === 'needs-install') return 'Needs the home-screen app';
  return 'Supported';
}

function permission(): string {
  if (typeof Notification === 'undefined') return 'Not available';
  return { default: 'Not asked yet', granted: 'Granted', denied: 'Blocked (change it in site settings)' }[Notification.permission];
}

function subscription(state: PushState): string {
  switch (state) {
    case 'subscribed':
    case 'pending':
      return 'Subscribed';
    case 'subscribing':
      return 'Subscribing…';
    default:
      return 'Not subscribed';
  }
}

function registration(state: PushState): string {
  if (state === 'subscribed') return 'Registered with the service';
  if (state === 'pending') return 'Waiting for the backend (retries)';
  if (state === 'subscribing') return 'In progress…';
  return 'Not registered';
}

/**
 * Show a push state as the four facts a person asks about. Every tab calls this from
 * `onStateChange`, which hears the other tabs too, so all tabs show the same.
 */
export function renderStatus(state: PushState): void {
  byId<HTMLOutputElement>('state').value = state;
  byId('status-support').textContent = support(state);
  byId('status-permission').textContent = permission();
  byId('status-subscription').textContent = subscription(state);
  byId('status-registration').textContent = registration(state);
  byId('install-hint').hidden = state !== 'needs-install';
  const on = state === 'subscribed' || state === 'pending';
  byId<HTMLButtonElement>('enable').disabled = on || state === 'subscribing' || state === 'unsupported' || state === 'denied';
  byId<HTMLButtonElement>('disable').disabled = !on;
}
