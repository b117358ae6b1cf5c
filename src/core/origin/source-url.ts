/**
 * The source address of a captured tool event: the page a fetch read, taken from the tool's input in the
 * hook envelope (never from the fetched content), so a person can review or purge "everything that came
 * from this page or this site". Only scheme, host, port and path are kept: credentials, query and fragment
 * are where URLs carry tokens, so they never reach the store. A URL whose remaining text would be redacted
 * is dropped whole, as the write path drops a tag that held a secret. Pure.
 */
import { sanitiseForStorage } from '../redact/redact-secrets.js';

/** Longest source URL kept; a longer one is not an address a person groups by. */
export const MAX_SOURCE_URL_LENGTH = 2048;

/**
 * `scheme://host[:port]/path` of an http(s) URL, or null for anything else (not a string, not http(s),
 * unparsable, over {@link MAX_SOURCE_URL_LENGTH}, or holding a secret).
 */
export function sourceUrlOf(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const text = raw.trim();
  if (text.length === 0 || text.length > 4 * MAX_SOURCE_URL_LENGTH) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') return null;
  const kept = `${url.protocol}//${url.host}${url.pathname}`;
  if (kept.length > MAX_SOURCE_URL_LENGTH) return null;
  const clean = sanitiseForStorage(kept);
  return clean.redactions === 0 && clean.text === kept ? kept : null;
}

/** The lower-case host name of a source URL (no port), or null. */
export function sourceHostOf(url: string | null): string | null {
  if (url === null) return null;
  try {
    const host = new URL(url).hostname.toLowerCase();
    return host === '' ? null : host;
  } catch {
    return null;
  }
}

/**
 * A domain as a person types it (`Example.COM`, `https://docs.example.com/x`, `.example.com`), as the
 * lower-case host name it stands for, or null when it names no host.
 */
export function normaliseDomain(raw: string): string | null {
  const text = raw.trim().toLowerCase().replace(/^\.+/, '');
  if (text.length === 0 || text.length > 253) return null;
  const host = sourceHostOf(text.includes('://') ? text : `http://${text}`);
  return host !== null && /^[a-z0-9.\-[\]:]+$/.test(host) ? host : null;
}
