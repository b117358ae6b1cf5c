import { describe, expect, it } from 'vitest';

import { fetchedSourceUrl } from '../capture/capture-content.js';
import { normaliseDomain, sourceHostOf, sourceUrlOf } from './source-url.js';

describe('sourceUrlOf', () => {
  it('keeps scheme, host, port and path, and drops credentials, query and fragment', () => {
    expect(sourceUrlOf('https://me:pw@Docs.Example.com:8443/a/b?token=abc#top')).toBe(
      'https://docs.example.com:8443/a/b',
    );
    expect(sourceUrlOf('  http://example.org  ')).toBe('http://example.org/');
    expect(sourceUrlOf('https://example.org:443/x')).toBe('https://example.org/x');
  });

  it('gives null for anything that is not an http(s) address', () => {
    for (const raw of [
      undefined,
      null,
      42,
      '',
      'not a url',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'ftp://example.org/x',
      `https://example.org/${'a'.repeat(3000)}`,
    ]) {
      expect(sourceUrlOf(raw), String(raw).slice(0, 30)).toBeNull();
    }
  });

  it('drops an address whose path holds a secret instead of storing it', () => {
    expect(sourceUrlOf('https://api.example.com/v1/ghp_abcdefghijklmnopqrstuvwxyz0123456789')).toBe(
      null,
    );
  });

  it('is idempotent: a kept address normalises to itself', () => {
    for (const raw of [
      'https://A.example/x y',
      'http://example.org/%7Euser/',
      'https://[::1]:8080/',
    ]) {
      const once = sourceUrlOf(raw);
      expect(once).not.toBeNull();
      expect(sourceUrlOf(once)).toBe(once);
    }
  });
});

describe('sourceHostOf and normaliseDomain', () => {
  it('reads the lower-case host without the port', () => {
    expect(sourceHostOf('https://docs.example.com:8443/a')).toBe('docs.example.com');
    expect(sourceHostOf(null)).toBeNull();
    expect(sourceHostOf('nonsense')).toBeNull();
  });

  it('turns what a person types into the host it names', () => {
    expect(normaliseDomain('Example.COM')).toBe('example.com');
    expect(normaliseDomain('.example.com')).toBe('example.com');
    expect(normaliseDomain('https://docs.example.com/x')).toBe('docs.example.com');
    expect(normaliseDomain('   ')).toBeNull();
    expect(normaliseDomain('exa mple.com')).toBeNull();
  });
});

describe('fetchedSourceUrl', () => {
  it('reads the address the fetch builder wrote on the first line', () => {
    expect(fetchedSourceUrl('Fetched https://example.org/page?q=1:\nbody: with colons')).toBe(
      'https://example.org/page',
    );
  });

  it('gives null for other text, a tool-name fallback or a capped address', () => {
    expect(fetchedSourceUrl('Fetched WebFetch:\nbody')).toBeNull();
    expect(
      fetchedSourceUrl('Fetched https://example.org/x … [truncated 5 chars]:\nbody'),
    ).toBeNull();
    expect(fetchedSourceUrl('I fetched https://example.org/x:\nbody')).toBeNull();
    expect(fetchedSourceUrl('Fetched https://example.org/x without a colon line')).toBeNull();
  });
});
