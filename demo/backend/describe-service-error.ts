import type { ServiceError } from '../clients/service-error.ts';

function wait(seconds: number | null): string {
  if (seconds === null) return 'a little while';
  if (seconds < 90) return `${Math.max(1, Math.ceil(seconds))} seconds`;
  if (seconds < 5400) return `${Math.ceil(seconds / 60)} minutes`;
  return `${Math.ceil(seconds / 3600)} hours`;
}

/**
 * A sentence for a person about what the service refused, and what to do next. The service's
 * own message is written for developers; the page shows this one, next to the code.
 */
export function describeServiceError(error: ServiceError): string {
  switch (error.code) {
    case 'plan_limit_reached':
      switch (error.limit) {
        case 'interval':
          return `A code was sent to this number moments ago. You can ask for another in ${wait(error.retryAfter)}.`;
        case 'daily':
          return `Today's free-plan allowance of messages is used up. Try again in ${wait(error.retryAfter)}.`;
        case 'monthly':
          return `This month's allowance of messages is used up. Try again in ${wait(error.retryAfter)}.`;
        case 'channel_slots':
          return 'The messaging plan has no free channel slot, so no message can be sent. Add a slot in the dashboard.';
        default:
          return `The messaging plan's limit is reached. Try again in ${wait(error.retryAfter)}.`;
      }
    case 'rate_limited':
      return `Too many requests. Try again in ${wait(error.retryAfter)}.`;
    case 'invalid_number':
      return 'The service does not accept that phone number.';
    case 'invalid_api_key':
      return "The service refused this backend's key. Check PUSH_API_KEY / OTP_API_KEY.";
    case 'subscription_conflict':
      return 'This browser is registered to another recipient. Use Switch user to move it.';
    case 'recipient_not_found':
      return 'Nobody with that recipient id has turned notifications on yet. Click Enable notifications first.';
    case 'template_not_found':
      return 'There is no template with that id. The local service has one called "welcome".';
    case 'title_body_required':
      return 'Enter a title and a body, or a template.';
    case 'validation_error':
      return error.details?.length ? `The service refused: ${error.details.map((d) => `${d.field} ${d.problem}`).join('; ')}.` : 'The service refused the request.';
    case 'service_unreachable':
      return 'The service could not be reached. Is it running?';
    case 'timeout':
      return 'The service did not answer in time. Try again.';
    default:
      return error.message;
  }
}
