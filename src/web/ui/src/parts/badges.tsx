import type { MemoryRow } from '../types.js';

const BAND_CLASS: Record<string, string> = {
  high: 'band-high',
  medium: 'band-medium',
  low: 'band-low',
  untrusted: 'band-untrusted',
};

export function OriginBadge({ origin, band }: { origin: string; band: string }) {
  return (
    <span
      class={`badge ${BAND_CLASS[band] ?? 'band-untrusted'}`}
      title={`origin ${origin}, trust ${band}`}
    >
      {origin}
      <span class="visually-hidden">, trust {band}</span>
    </span>
  );
}

export function StateBadge({ state }: { state: string }) {
  if (state === 'none') return null;
  return (
    <span class={`badge state-${state}`}>{state === 'pending' ? 'awaiting review' : state}</span>
  );
}

/** The badges of a list row: origin and trust, review state, superseded, pinned. */
export function RowBadges({ memory }: { memory: MemoryRow }) {
  return (
    <span class="badges">
      <OriginBadge origin={memory.origin} band={memory.trustBand} />
      <StateBadge state={memory.quarantine} />
      {memory.superseded ? <span class="badge muted">superseded</span> : null}
      {memory.pinned ? <span class="badge muted">pinned</span> : null}
      {memory.staleness === 'stale' || memory.staleness === 'gone' ? (
        <span class="badge state-rejected stale-badge" title={memory.staleLabel ?? undefined}>
          stale
        </span>
      ) : null}
      <span class="badge muted">{memory.kind}</span>
    </span>
  );
}
