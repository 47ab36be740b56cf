/** An error answer of the example backend: `{error, message, retryAfter?, limit?, attemptsLeft?}`. */
export interface BackendFailure {
  status: number;
  error: string;
  message: string;
  retryAfter?: number;
}

/** The answer to a backend call: its JSON on success, or what went wrong. */
export type BackendAnswer<T> = { ok: true; value: T } | { ok: false; failure: BackendFailure };

/**
 * Call the example backend. Never rejects: a network failure becomes a failure with status 0,
 * so every form can show something.
 */
export async function callBackend<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<BackendAnswer<T>> {
  try {
    const response = await fetch(path, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const json = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (response.ok) return { ok: true, value: json as T };
    return {
      ok: false,
      failure: {
        status: response.status,
        error: typeof json.error === 'string' ? json.error : 'error',
        message: typeof json.message === 'string' ? json.message : `The backend answered ${response.status}.`,
        ...(typeof json.retryAfter === 'number' ? { retryAfter: json.retryAfter } : {}),
      },
    };
  } catch (error) {
    return { ok: false, failure: { status: 0, error: 'network', message: `Could not reach the backend (${String(error)}).` } };
  }
}

/** One line for a person: status and code first (for whoever debugs), then the backend's sentence. */
export function describeFailure(failure: BackendFailure): string {
  return `${failure.status} ${failure.error}: ${failure.message}`;
}

/** Show `text` in an output, marked as success or error for styling. */
export function showResult(output: HTMLOutputElement, kind: 'ok' | 'error' | 'busy', text: string): void {
  output.dataset.kind = kind;
  output.value = text;
}
