// Calls to the gateway's JSON API under /web/api/: the session's CSRF token on every call, a lost
// session sends the browser to the login page, and error answers become readable messages.

export const csrfToken = document.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ?? '';

export interface ApiOptions {
  method?: string;
  body?: unknown;
  signal?: AbortSignal;
}

export async function api(path: string, { method = 'GET', body, signal }: ApiOptions = {}): Promise<Response> {
  const response = await fetch(path, {
    method,
    signal,
    headers: { 'x-csrf-token': csrfToken, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 401) {
    location.href = `/login?next=${encodeURIComponent(location.pathname)}`;
    throw new Error('Your session has ended.');
  }
  return response;
}

/** The message of an `{"error": {"message"}}` answer, or one naming the status. */
export async function errorMessage(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { error?: { message?: unknown } };
    return typeof body?.error?.message === 'string' ? body.error.message : `Request failed (${response.status}).`;
  } catch {
    return `Request failed (${response.status}).`;
  }
}
