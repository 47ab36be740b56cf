import type { PushEnvelope } from '../../src/common/envelope.ts';
import { fillTemplate } from './fill-template.ts';
import { HttpError } from './http-json.ts';
import type { TemplateConfig } from './service-config.ts';
import type { SendInput } from './validate.ts';

/** Largest envelope (decisions.md): 3 KiB of JSON still fits 4 KiB after encryption. */
export const MAX_PAYLOAD_BYTES = 3 * 1024;

/**
 * Build the payload of decisions.md for a send. With a template, its data is the default under
 * the send's, `{{name}}` in its title and body is filled from that, and a title or body given in
 * the send itself wins over the template's.
 *
 * @returns the envelope and its JSON.
 * @throws {@link HttpError} 400 `validation_error` (field `payload`) when the JSON exceeds 3 KiB.
 */
export function buildEnvelope(notificationId: string, input: SendInput, template: TemplateConfig | undefined): { envelope: PushEnvelope; json: string } {
  const data: Record<string, string> = { ...template?.data, ...input.data };
  const envelope: PushEnvelope = {
    pushbridge: 1,
    notificationId,
    channel: input.channel,
    title: input.title ?? (template ? fillTemplate(template.title, data) : ''),
    body: input.body ?? (template ? fillTemplate(template.body, data) : ''),
    data,
  };
  if (input.androidChannelId !== undefined || input.androidSound !== undefined) {
    envelope.android = {
      ...(input.androidChannelId === undefined ? {} : { channelId: input.androidChannelId }),
      ...(input.androidSound === undefined ? {} : { sound: input.androidSound }),
    };
  }
  const json = JSON.stringify(envelope);
  const bytes = Buffer.byteLength(json);
  if (bytes > MAX_PAYLOAD_BYTES) {
    throw new HttpError(400, 'validation_error', 'The notification is too large.', {
      details: [{ field: 'payload', problem: `the push payload would be ${bytes} bytes; at most ${MAX_PAYLOAD_BYTES}` }],
    });
  }
  return { envelope, json };
}
