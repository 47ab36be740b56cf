import { HttpError } from './http-json.ts';

/** One problem with one field, as Interface B's `details` lists them. */
export interface FieldProblem {
  field: string;
  problem: string;
}

/** A valid register request (decisions.md, `POST /v1/subscribers/register`). */
export interface RegisterInput {
  recipientId: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  metadata: Record<string, string | number | boolean>;
}

/** A valid send request (decisions.md, `POST /v1/send`), before the recipient and template are looked up. */
export interface SendInput {
  recipientId: string;
  channel: 'push' | 'in_app';
  title: string | undefined;
  body: string | undefined;
  templateId: string | undefined;
  data: Record<string, string>;
  androidChannelId: string | undefined;
  androidSound: string | undefined;
}

const isLoopback = (host: string): boolean => host === 'localhost' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);

/** A body's own field: `__proto__` and friends from the prototype never count. */
const own = (body: Record<string, unknown>, field: string): unknown => (Object.hasOwn(body, field) ? body[field] : undefined);

function base64UrlLength(value: unknown): number | null {
  if (typeof value !== 'string' || !/^[A-Za-z0-9_-]+={0,2}$/.test(value)) return null;
  return Buffer.from(value, 'base64url').length;
}

function fail(problems: FieldProblem[]): never {
  throw new HttpError(400, 'validation_error', 'The request is not valid.', { details: problems });
}

/**
 * Check a register request field by field, naming every problem.
 *
 * @throws {@link HttpError} 400 `validation_error` with `details`.
 */
export function validateRegister(body: Record<string, unknown>): RegisterInput {
  const problems: FieldProblem[] = [];
  const [recipientId, platform, deviceTransport, webPush, metadata] = ['recipientId', 'platform', 'deviceTransport', 'webPush', 'metadata'].map((field) => own(body, field));
  if (typeof recipientId !== 'string' || recipientId.length < 1 || recipientId.length > 256) {
    problems.push({ field: 'recipientId', problem: 'must be a string of 1 to 256 characters' });
  }
  if (platform !== 'web') problems.push({ field: 'platform', problem: 'must be "web"' });
  if (deviceTransport !== 'web_push') problems.push({ field: 'deviceTransport', problem: 'must be "web_push"' });
  const push = typeof webPush === 'object' && webPush !== null && !Array.isArray(webPush) ? (webPush as Record<string, unknown>) : null;
  if (!push) problems.push({ field: 'webPush', problem: 'must be an object' });
  const endpoint = push ? own(push, 'endpoint') : undefined;
  const keysValue = push ? own(push, 'keys') : undefined;
  const keys = typeof keysValue === 'object' && keysValue !== null && !Array.isArray(keysValue) ? (keysValue as Record<string, unknown>) : null;
  if (push) {
    if (!validEndpoint(endpoint)) {
      problems.push({ field: 'webPush.endpoint', problem: 'must be an absolute https URL (http only to loopback hosts)' });
    }
    if (!keys) problems.push({ field: 'webPush.keys', problem: 'must be an object' });
    else {
      const p256dh = base64UrlLength(own(keys, 'p256dh'));
      if (p256dh !== 65 || Buffer.from(String(keys.p256dh), 'base64url')[0] !== 4) {
        problems.push({ field: 'webPush.keys.p256dh', problem: 'must be base64url of a 65-byte uncompressed P-256 point' });
      }
      if (base64UrlLength(own(keys, 'auth')) !== 16) problems.push({ field: 'webPush.keys.auth', problem: 'must be base64url of 16 bytes' });
    }
  }
  const meta = validateMetadata(metadata, problems);
  if (problems.length > 0) fail(problems);
  return {
    recipientId: recipientId as string,
    endpoint: endpoint as string,
    p256dh: (keys as Record<string, string>).p256dh as string,
    auth: (keys as Record<string, string>).auth as string,
    metadata: meta,
  };
}

function validEndpoint(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname));
}

function validateMetadata(value: unknown, problems: FieldProblem[]): Record<string, string | number | boolean> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push({ field: 'metadata', problem: 'must be an object' });
    return {};
  }
  const entries = Object.entries(value);
  const out: Record<string, string | number | boolean> = Object.create(null);
  if (entries.length > 50) problems.push({ field: 'metadata', problem: 'must have at most 50 keys' });
  if (Buffer.byteLength(JSON.stringify(value)) > 4096) problems.push({ field: 'metadata', problem: 'must be at most 4 KiB' });
  for (const [key, item] of entries) {
    if (typeof item === 'string' || typeof item === 'boolean' || (typeof item === 'number' && Number.isFinite(item))) out[key] = item;
    else problems.push({ field: `metadata.${key}`, problem: 'must be a string, number or boolean' });
  }
  return out;
}

/**
 * Check a send request's fields and the title/body rule.
 *
 * @throws {@link HttpError} 400 `validation_error` with `details`, or 400 `title_body_required`.
 */
export function validateSend(body: Record<string, unknown>): SendInput {
  const problems: FieldProblem[] = [];
  const optionalString = (field: string): string | undefined => {
    const value = own(body, field);
    if (value === undefined) return undefined;
    if (typeof value !== 'string') problems.push({ field, problem: 'must be a string' });
    return typeof value === 'string' ? value : undefined;
  };
  const recipientId = own(body, 'recipientId');
  const channel = own(body, 'channel') ?? 'push';
  const data = own(body, 'data');
  if (typeof recipientId !== 'string' || recipientId.length < 1 || recipientId.length > 256) {
    problems.push({ field: 'recipientId', problem: 'must be a string of 1 to 256 characters' });
  }
  if (channel !== 'push' && channel !== 'in_app') problems.push({ field: 'channel', problem: 'must be "push" or "in_app"' });
  const title = optionalString('title');
  const text = optionalString('body');
  const templateId = optionalString('templateId');
  const androidChannelId = optionalString('androidChannelId');
  const androidSound = optionalString('androidSound');
  const values: Record<string, string> = Object.create(null);
  if (data !== undefined) {
    if (typeof data !== 'object' || data === null || Array.isArray(data)) problems.push({ field: 'data', problem: 'must be an object' });
    else {
      for (const [key, item] of Object.entries(data)) {
        if (typeof item === 'string') values[key] = item;
        else problems.push({ field: `data.${key}`, problem: 'must be a string' });
      }
      if (Buffer.byteLength(JSON.stringify(data)) > 2048) problems.push({ field: 'data', problem: 'must be at most 2 KiB' });
    }
  }
  if (problems.length > 0) fail(problems);
  if (templateId === undefined && (!title || !text)) {
    throw new HttpError(400, 'title_body_required', 'title and body are required when templateId is not provided.');
  }
  return {
    recipientId: recipientId as string,
    channel: channel as 'push' | 'in_app',
    title,
    body: text,
    templateId,
    data: values,
    androidChannelId,
    androidSound,
  };
}
