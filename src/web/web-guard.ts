/**
 * The web viewer's gate, run before every route (threat model O2). It is bound to loopback, but a
 * browser can still be made to talk to it: by any page the user opens (cross-site requests), by a page
 * whose host name was rebound to 127.0.0.1 (DNS rebinding), and by other local users of the machine.
 * So, in order:
 * 1. the Host header must name this server (127.0.0.1 or localhost with our port): a rebound name fails;
 * 2. an Origin header, when sent, must be ours, and a state-changing request must carry it;
 * 3. every /api request must carry the per-start token as `Authorization: Bearer …` (the printed URL
 *    hands it to the page in its fragment, which never reaches a server or a Referer); there is no
 *    cookie, so a cross-site request has nothing ambient to ride on;
 * 4. a state-changing request must also carry the CSRF token (`X-CSRF-Token`, from `GET /api/session`)
 *    and a JSON body: a form post can send neither.
 * The one exception to 3 and 4 is `POST /api/claim`, which trades a one-time code for the token
 * (web-open-codes.ts): it needs our Origin and a JSON body, and answers only a same-origin reader.
 * Static assets need no token: they are the same public code for everyone and hold no data.
 */
import { timingSafeEqual } from 'node:crypto';

import type { MiddlewareHandler } from 'hono';

/** Who this server is: the port it listens on, read when a request arrives (known after listen). */
export interface WebIdentity {
  port(): number;
}

export interface GuardOptions {
  identity: WebIdentity;
  token: string;
  csrfToken: string;
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);
/** Where a one-time open code is traded for the token. */
export const CLAIM_PATH = '/api/claim';

/** The Host values this server answers to. */
export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

/** The Origin values of its own pages. */
export function allowedOrigins(port: number): string[] {
  return allowedHosts(port).map((host) => `http://${host}`);
}

/** Constant-time comparison, so the token cannot be found one byte at a time by timing. */
export function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

function refuse(status: 401 | 403 | 415, message: string): Response {
  return new Response(JSON.stringify({ error: { code: 'REFUSED', message } }), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });
}

/** The middleware. */
export function webGuard(options: GuardOptions): MiddlewareHandler {
  return async (c, next) => {
    const port = options.identity.port();
    const host = c.req.header('host');
    if (host === undefined || !allowedHosts(port).includes(host.toLowerCase())) {
      return refuse(403, 'Unknown Host: open the address `mnemo ui` printed.');
    }
    const origin = c.req.header('origin');
    const unsafe = !SAFE_METHODS.has(c.req.method);
    if (origin !== undefined && !allowedOrigins(port).includes(origin.toLowerCase())) {
      return refuse(403, 'Cross-origin requests are refused.');
    }
    const fetchSite = c.req.header('sec-fetch-site');
    if (fetchSite !== undefined && !['same-origin', 'none'].includes(fetchSite)) {
      return refuse(403, 'Cross-site requests are refused.');
    }
    if (!c.req.path.startsWith('/api/')) {
      if (unsafe) return refuse(403, 'Only the API accepts changes.');
      return next();
    }
    const type = c.req.header('content-type') ?? '';
    const json = /^application\/json(;|$)/i.test(type);
    if (c.req.path === CLAIM_PATH && c.req.method === 'POST') {
      if (origin === undefined) return refuse(403, 'A claim needs the Origin header.');
      return json ? next() : refuse(415, 'A claim is a JSON request.');
    }
    const auth = c.req.header('authorization');
    const bearer = auth?.startsWith('Bearer ') === true ? auth.slice('Bearer '.length) : undefined;
    if (!sameSecret(bearer, options.token)) {
      return refuse(401, 'Missing or wrong token: open the address `mnemo ui` printed.');
    }
    if (unsafe) {
      if (origin === undefined) return refuse(403, 'A change needs the Origin header.');
      if (!sameSecret(c.req.header('x-csrf-token'), options.csrfToken)) {
        return refuse(403, 'Missing or wrong CSRF token: reload the page.');
      }
      if (!json) return refuse(415, 'Changes are JSON requests.');
    }
    return next();
  };
}

/**
 * Headers of every response: a Content-Security-Policy that allows only this server's own scripts,
 * styles and requests (no inline code, no CDN, no frames), no sniffing, no referrer, no caching of data.
 */
export const securityHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  const h = c.res.headers;
  h.set(
    'content-security-policy',
    [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self'",
      "font-src 'self'",
      "connect-src 'self'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
  );
  h.set('x-content-type-options', 'nosniff');
  h.set('referrer-policy', 'no-referrer');
  h.set('x-frame-options', 'DENY');
  h.set('cross-origin-opener-policy', 'same-origin');
  h.set('cross-origin-resource-policy', 'same-origin');
  if (!h.has('cache-control')) h.set('cache-control', 'no-store');
};
