/**
 * Generated hostile hook payloads (threat model W9): malformed JSON, huge fields, deep nesting, wrong
 * types, invalid UTF-8 and newline floods, each built from a recorded payload of the event so that the
 * shapes that pass validation reach the handlers too. Deterministic for a seed (fast-check's `sample`).
 */
import fc from 'fast-check';

import { hookFixture, type HookFixtureName } from './hook-fixtures.js';

/** The recorded payload each hook event is fuzzed from. */
export const FUZZ_EVENTS: readonly { event: string; fixture: HookFixtureName }[] = [
  { event: 'post-tool-use', fixture: 'post-tool-use-edit' },
  { event: 'post-tool-use', fixture: 'post-tool-use-webfetch' },
  { event: 'post-tool-use', fixture: 'post-tool-use-bash' },
  { event: 'post-tool-use-failure', fixture: 'post-tool-use-failure-bash' },
  { event: 'pre-tool-use', fixture: 'pre-tool-use-remember' },
  { event: 'user-prompt-submit', fixture: 'user-prompt-submit' },
  { event: 'session-start', fixture: 'session-start.startup' },
  { event: 'pre-compact', fixture: 'pre-compact.auto' },
  { event: 'session-end', fixture: 'session-end.exit' },
];

export interface FuzzCase {
  event: string;
  kind: string;
  bytes: Buffer;
}

/** Stands in for a spliced part until the payload is serialised. */
const MARKER = 'FUZZ_SPLICE_MARKER';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every path to a leaf or branch of `value`, for picking one to replace. */
function paths(value: Json, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = prefix.length > 0 ? [prefix] : [];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...paths(v, [...prefix, i])));
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...prefix, k]));
  }
  return out;
}

function replaceAt(value: Json, path: (string | number)[], next: Json): Json {
  if (path.length === 0) return next;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  if (Array.isArray(value)) {
    const copy = [...value];
    copy[head as number] = replaceAt(copy[head as number] ?? null, rest, next);
    return copy;
  }
  const object = { ...(value as Record<string, Json>) };
  object[head as string] = replaceAt(object[head as string] ?? null, rest, next);
  return object;
}

const hugeText = fc
  .record({
    unit: fc.constantFrom('a', 'é', '🙂', 'x\n', '\n', '\r\n', ' ', '\\', '"', '\u2028', '\u0000'),
    times: fc.integer({ min: 5_000, max: 60_000 }),
  })
  .map(({ unit, times }) => unit.repeat(times));

const weirdValue: fc.Arbitrary<Json> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.double(),
  fc.integer(),
  fc.string({ maxLength: 200, unit: 'binary' }),
  fc.array(fc.string({ maxLength: 20 }), { maxLength: 20 }),
  fc.dictionary(fc.string({ maxLength: 10 }), fc.string({ maxLength: 20 }), { maxKeys: 10 }),
  fc.json().map((text) => JSON.parse(text) as Json),
);

/** The arbitrary of one fuzz case for the recorded payload `base` of `event`. */
function caseFor(event: string, base: Json): fc.Arbitrary<FuzzCase> {
  const text = JSON.stringify(base);
  const all = paths(base);
  const at = fc.integer({ min: 0, max: Math.max(0, all.length - 1) }).map((i) => all[i] ?? []);
  const json = (kind: string) => (value: Json) => ({
    event,
    kind,
    bytes: Buffer.from(JSON.stringify(value)),
  });
  return fc.oneof(
    // Malformed JSON: a cut recorded payload, or arbitrary text.
    fc
      .integer({ min: 0, max: text.length - 1 })
      .map((n) => ({ event, kind: 'truncated', bytes: Buffer.from(text.slice(0, n)) })),
    fc
      .string({ maxLength: 2000, unit: 'binary' })
      .map((s) => ({ event, kind: 'text', bytes: Buffer.from(s) })),
    // Wrong types anywhere in the envelope.
    fc
      .tuple(at, weirdValue)
      .map(([path, value]) => json('wrong-type')(replaceAt(base, path, value))),
    // Huge fields (below and above the input cap's reach) and newline floods.
    fc.tuple(at, hugeText).map(([path, value]) => json('huge-field')(replaceAt(base, path, value))),
    // Deep nesting, as a whole payload or in one field.
    fc
      .record({ depth: fc.integer({ min: 30, max: 200_000 }), open: fc.constantFrom('[', '{"a":') })
      .map(({ depth, open }) => {
        const close = open === '[' ? ']' : '}';
        return {
          event,
          kind: 'deep',
          bytes: Buffer.from(open.repeat(depth) + '1' + close.repeat(depth)),
        };
      }),
    // Spliced as text: building it as a value would overflow JSON.stringify's own recursion.
    fc.tuple(at, fc.integer({ min: 10, max: 5000 })).map(([path, depth]) => {
      const withMarker = JSON.stringify(replaceAt(base, path, MARKER));
      const nested = `${'['.repeat(depth)}"leaf"${']'.repeat(depth)}`;
      const bytes = Buffer.from(withMarker.replace(`"${MARKER}"`, nested));
      return { event, kind: 'deep-field', bytes };
    }),
    // Invalid UTF-8 inside a string of a valid envelope, or raw bytes.
    fc.tuple(at, fc.uint8Array({ minLength: 1, maxLength: 64 })).map(([path, noise]) => {
      const withMarker = Buffer.from(JSON.stringify(replaceAt(base, path, MARKER)));
      const at = withMarker.indexOf(MARKER);
      const invalid = Buffer.from(noise.map((b) => b | 0x80));
      const bytes =
        at < 0
          ? Buffer.concat([withMarker, invalid])
          : Buffer.concat([
              withMarker.subarray(0, at),
              invalid,
              withMarker.subarray(at + MARKER.length),
            ]);
      return { event, kind: 'invalid-utf8', bytes };
    }),
    fc
      .uint8Array({ maxLength: 4096 })
      .map((b) => ({ event, kind: 'bytes', bytes: Buffer.from(b) })),
  );
}

/** `count` generated cases spread over every event, reproducible from `seed`. */
export function fuzzCases(projectDir: string, count: number, seed: number): FuzzCase[] {
  const arbitraries = FUZZ_EVENTS.map(({ event, fixture }) =>
    caseFor(event, hookFixture(fixture, { cwd: projectDir }) as Json),
  );
  return fc.sample(fc.oneof(...arbitraries), { seed, numRuns: count });
}
