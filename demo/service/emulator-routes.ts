import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, readJsonObject, sendJson } from './http-json.ts';
import type { NotificationQueue } from './notification-queue.ts';
import type { OtpStore } from './otp-store.ts';
import { normalizePhoneNumber } from './phone-number.ts';
import type { PushRoutes } from './push-routes.ts';
import { parseTemplate } from './service-config.ts';
import type { TemplateStore } from './template-store.ts';

/** What the emulator's routes need. */
export interface EmulatorRoutesOptions {
  vapidPublicKey: string;
  otp: OtpStore;
  queue: NotificationQueue;
  templates: TemplateStore;
  push: PushRoutes;
}

/** The local service's own routes under `/_emulator`: what the hosted service shows in its dashboard. */
export interface EmulatorRoutes {
  /** Handle `pathname` if it is an emulator route; false when it is not one. */
  handle(request: IncomingMessage, response: ServerResponse, url: URL): Promise<boolean>;
}

function requireMethod(request: IncomingMessage, method: 'GET' | 'POST'): void {
  if (request.method !== method) throw new HttpError(405, 'method_not_allowed', `Use ${method}.`);
}

/** `GET vapid-public-key`, `GET otp/messages?number=`, `GET notifications/:id`, `POST templates`. */
export function createEmulatorRoutes(options: EmulatorRoutesOptions): EmulatorRoutes {
  return {
    async handle(request, response, url) {
      const { pathname } = url;
      if (pathname === '/_emulator/vapid-public-key') {
        requireMethod(request, 'GET');
        sendJson(response, 200, { publicKey: options.vapidPublicKey });
        return true;
      }
      if (pathname === '/_emulator/otp/messages') {
        requireMethod(request, 'GET');
        // An unencoded `+` in a query string reads as a space: `?number=+1555...` arrives as ` 1555...`.
        const raw = (url.searchParams.get('number') ?? '').trim();
        const number = normalizePhoneNumber(/^\d/.test(raw) ? `+${raw}` : raw);
        if (number === null) throw new HttpError(400, 'invalid_number', 'number must be a valid phone number in E.164 form.');
        sendJson(response, 200, { number, messages: options.otp.inbox(number) });
        return true;
      }
      const notification = /^\/_emulator\/notifications\/([^/]+)$/.exec(pathname);
      if (notification) {
        requireMethod(request, 'GET');
        let id: string;
        try {
          id = decodeURIComponent(notification[1] as string);
        } catch {
          id = '';
        }
        const status = options.queue.status(id);
        if (!status) throw new HttpError(404, 'not_found', 'No such notification.');
        sendJson(response, 200, status);
        return true;
      }
      if (pathname === '/_emulator/templates') {
        requireMethod(request, 'POST');
        const key = options.push.authenticateServer(request);
        let template;
        try {
          template = parseTemplate(await readJsonObject(request, 'validation_error'), 'template');
        } catch (error) {
          if (error instanceof TypeError) {
            throw new HttpError(400, 'validation_error', 'The template is not valid.', { details: [{ field: error.message.split(' ')[0]?.replace(/^template\.?/, '') || 'template', problem: error.message }] }, { cause: error });
          }
          throw error;
        }
        const created = options.templates.put(key.workspace.id, template);
        sendJson(response, created ? 201 : 200, template);
        return true;
      }
      return false;
    },
  };
}
