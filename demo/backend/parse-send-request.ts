import type { SendNotificationRequest } from '../clients/notification-client.ts';
import { BackendError } from './backend-error.ts';

const LIMITS = { recipientId: 256, title: 200, body: 1000, url: 1024, templateId: 64, androidChannelId: 64, androidSound: 64 } as const;

function optionalText(body: Record<string, unknown>, field: keyof typeof LIMITS): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new BackendError(400, 'invalid_request', `${field} must be text.`, { field });
  const trimmed = value.trim();
  if (trimmed.length > LIMITS[field]) throw new BackendError(400, 'invalid_request', `${field} is longer than ${LIMITS[field]} characters.`, { field });
  return trimmed.length > 0 ? trimmed : undefined;
}

/**
 * The page's send form, checked and turned into the service's send request. The page sends
 * `{recipientId, channel, title, body, url, templateId, androidChannelId, androidSound}`; `url`
 * becomes `data.url` and must be a path on this site; with a template, the recipient id also
 * goes in `data.name` so that the template can greet the person.
 *
 * @throws {@link BackendError} 400 with the field at fault.
 */
export function parseSendRequest(body: Record<string, unknown>): SendNotificationRequest {
  const recipientId = optionalText(body, 'recipientId');
  if (recipientId === undefined) throw new BackendError(400, 'invalid_request', 'Enter a recipient.', { field: 'recipientId' });
  const channel = body.channel ?? 'push';
  if (channel !== 'push' && channel !== 'in_app') throw new BackendError(400, 'invalid_request', 'channel must be push or in_app.', { field: 'channel' });
  const templateId = optionalText(body, 'templateId');
  if (templateId !== undefined && !/^[\w.-]+$/.test(templateId)) {
    throw new BackendError(400, 'invalid_request', 'A template id has letters, digits, dots, dashes and underscores only.', { field: 'templateId' });
  }
  const title = optionalText(body, 'title');
  const text = optionalText(body, 'body');
  if (templateId === undefined && (title === undefined || text === undefined)) {
    throw new BackendError(400, 'title_body_required', 'Enter a title and a body, or a template.', { field: title === undefined ? 'title' : 'body' });
  }
  const url = optionalText(body, 'url') ?? '/';
  // A path of this site only: the worker refuses other origins at click time, the backend says so at once.
  if (!url.startsWith('/') || url.startsWith('//') || url.includes('\\')) {
    throw new BackendError(400, 'invalid_url', 'The URL path must start with a single / (a page of this site).', { field: 'url' });
  }
  const androidChannelId = optionalText(body, 'androidChannelId');
  const androidSound = optionalText(body, 'androidSound');
  return {
    recipientId,
    channel,
    ...(title === undefined ? {} : { title }),
    ...(text === undefined ? {} : { body: text }),
    ...(templateId === undefined ? {} : { templateId }),
    ...(androidChannelId === undefined ? {} : { androidChannelId }),
    ...(androidSound === undefined ? {} : { androidSound }),
    data: templateId === undefined ? { url } : { url, name: recipientId },
  };
}
