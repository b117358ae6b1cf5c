// The one way the page talks to the server: every request carries the per-start token; changes also
// carry the CSRF token from /api/session and a JSON body. The token comes from the address `mnemo ui`
// printed (in its fragment) and lives in this tab's sessionStorage only.
import type { Session } from './types.js';

const TOKEN_KEY = 'mnemo-token';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Takes the credential out of the address bar (so it is not bookmarked or shared by accident): the
 * token itself (the printed address), or a one-time code traded for it (`mnemo ui --open`).
 */
export async function adoptCredentials(): Promise<void> {
  const match = /^#(token|code)=([A-Za-z0-9_-]+)/.exec(location.hash);
  if (match?.[2] === undefined) return;
  history.replaceState(null, '', `${location.pathname}#/`);
  if (match[1] === 'token') {
    sessionStorage.setItem(TOKEN_KEY, match[2]);
    return;
  }
  const response = await fetch('/api/claim', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ code: match[2] }),
  });
  if (response.ok) {
    const { token } = (await response.json()) as { token: string };
    sessionStorage.setItem(TOKEN_KEY, token);
  }
}

export function hasToken(): boolean {
  return sessionStorage.getItem(TOKEN_KEY) !== null;
}

let csrf = '';

async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {
    Authorization: `Bearer ${sessionStorage.getItem(TOKEN_KEY) ?? ''}`,
  };
  if (method === 'POST') {
    headers['Content-Type'] = 'application/json';
    headers['X-CSRF-Token'] = csrf;
  }
  const response = await fetch(path, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const data = (await response.json().catch(() => ({}))) as {
    error?: { code?: string; message?: string };
  };
  if (!response.ok) {
    throw new ApiError(
      response.status,
      data.error?.code ?? 'HTTP',
      data.error?.message ?? `The server answered ${response.status}.`,
    );
  }
  return data as T;
}

/** Opens the session: checks the token and fetches the CSRF token. */
export async function openSession(): Promise<Session> {
  const session = await call<Session>('GET', '/api/session');
  csrf = session.csrfToken;
  return session;
}

/** Builds `/api/<path>?…` from the parameters that are set. */
export function apiPath(
  path: string,
  params: Record<string, string | number | undefined | null>,
): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') query.set(key, String(value));
  }
  const text = query.toString();
  return `/api/${path}${text === '' ? '' : `?${text}`}`;
}

export const get = <T>(path: string): Promise<T> => call<T>('GET', path);
/** Fired after every change the server accepted, and for each live capture: counts shown go stale. */
export const CHANGED_EVENT = 'mnemo:changed';

export async function post<T>(path: string, body: unknown = {}): Promise<T> {
  const answer = await call<T>('POST', path, body);
  dispatchEvent(new Event(CHANGED_EVENT));
  return answer;
}

/**
 * Reads a server-sent event stream with `fetch`, so the token travels in its header as on every other
 * request (an EventSource could only carry it in the address). Calls `onEvent` per event until `signal`
 * aborts; resolves when the server closes the stream.
 */
export async function readEvents(
  path: string,
  signal: AbortSignal,
  onEvent: (event: string, data: string) => void,
): Promise<void> {
  const response = await fetch(path, {
    headers: {
      Authorization: `Bearer ${sessionStorage.getItem(TOKEN_KEY) ?? ''}`,
      Accept: 'text/event-stream',
    },
    signal,
  });
  if (!response.ok || response.body === null) {
    throw new ApiError(response.status, 'HTTP', `The feed answered ${response.status}.`);
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
      }
      onEvent(event, data.join('\n'));
    }
  }
}
