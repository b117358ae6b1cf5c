import { Fragment } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

import { apiPath } from '../api.js';
import { fixed, projectName } from '../parts/format.js';
import { MemoryList } from '../parts/memory-list.js';
import { useApi } from '../parts/use-api.js';
import { navigate } from '../router.js';
import type { SearchHit, SearchResult } from '../types.js';
import { Problem } from './problem.js';

export function Search({ project, query }: { project: string | null; query: string }) {
  const [text, setText] = useState(query);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => setText(query), [query]);
  useEffect(() => input.current?.focus(), []);
  const { data, error, loading } = useApi<SearchResult>(
    query === '' ? null : apiPath('search', { q: query, project, limit: 20 }),
  );
  const submit = (event: Event) => {
    event.preventDefault();
    navigate('/search', { q: text.trim() });
  };
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title" tabIndex={-1}>
        Search
      </h1>
      <form class="search-form" role="search" onSubmit={submit}>
        <label for="search-input">Search memories</label>
        <input
          id="search-input"
          ref={input}
          type="search"
          value={text}
          onInput={(e) => setText(e.currentTarget.value)}
          placeholder="e.g. which package manager, NODE_ENV, src/db/pool.ts"
          autoComplete="off"
        />
        <button type="submit">Search</button>
      </form>
      <p class="hint">
        {project === null
          ? 'Across all projects only the word index ranks. Choose a project above for hybrid recall (words, code terms, vectors) with every signal explained.'
          : `Hybrid recall in ${projectName(project)} plus global memories, exactly as a session there would recall. Searching here does not count as use.`}
      </p>
      {error === undefined ? null : <Problem error={error} />}
      {loading ? <p aria-live="polite">Searching…</p> : null}
      {data === undefined || loading ? null : <Results result={data} />}
    </section>
  );
}

function Results({ result }: { result: SearchResult }) {
  return (
    <>
      <p class="legs" aria-live="polite">
        {result.hits.length} of {result.candidates} candidates.{' '}
        {result.legs.map((leg) => (
          <span key={leg.name} class={`leg ${leg.ran ? 'on' : 'off'}`}>
            {leg.name}{' '}
            {leg.ran
              ? `${leg.candidates}${leg.weight === undefined ? '' : ` × ${leg.weight}`}`
              : `off (${leg.skipped ?? 'not run'})`}
          </span>
        ))}
        {result.rerank === undefined ? null : (
          <span class={`leg ${result.rerank.ran ? 'on' : 'off'}`}>
            rerank{' '}
            {result.rerank.ran
              ? `${result.rerank.model ?? ''} over ${result.rerank.window}`
              : `off (${result.rerank.skipped ?? 'not run'})`}
          </span>
        )}
      </p>
      {result.relevanceFloor !== undefined &&
      result.hits.length > 0 &&
      result.hits.every((hit) => (hit.relevance ?? 0) < result.relevanceFloor!) ? (
        <p class="hint" role="status">
          None of these clears the relevance floor ({result.relevanceFloor}): they are only the
          closest matches, and a session would be given none of them.
        </p>
      ) : null}
      <MemoryList
        memories={result.hits.map((hit) => hit.memory)}
        empty={`No memories match "${result.query}".`}
        extra={(memory) => {
          const hit = result.hits.find((h) => h.memory.id === memory.id);
          return hit === undefined ? null : <Explain hit={hit} fusion={result.fusion} />;
        }}
      />
    </>
  );
}

/** Every signal the recall reported for one hit: ranks per leg, each leg's share, the multipliers. */
function Explain({ hit, fusion }: { hit: SearchHit; fusion: SearchResult['fusion'] }) {
  const ranks = Object.entries(hit.ranks).filter(([, rank]) => rank !== undefined);
  const factors = Object.entries(hit.factors ?? {});
  const shares = Object.entries(hit.contributions ?? {});
  return (
    <details class="explain">
      <summary>
        Why: score {fixed(hit.score, 4)}
        {ranks.map(([signal, rank]) => ` · ${signal} #${rank}`).join('')}
        {hit.stale ? ' · stale' : ''}
      </summary>
      <dl class="explain-grid">
        {hit.relevance === undefined ? null : (
          <>
            <dt>relevance (calibrated)</dt>
            <dd>{fixed(hit.relevance, 3)}</dd>
          </>
        )}
        {hit.fusedScore === undefined ? null : (
          <>
            <dt>{fusion === 'rrf' ? 'fused (RRF)' : 'fused (z-score, by rank)'}</dt>
            <dd>{fixed(hit.fusedScore, 5)}</dd>
          </>
        )}
        {factors.map(([name, value]) => (
          <Fragment key={`f-${name}`}>
            <dt>× {name}</dt>
            <dd>{fixed(value)}</dd>
          </Fragment>
        ))}
        {shares.map(([name, value]) => (
          <Fragment key={`c-${name}`}>
            <dt>{name} share</dt>
            <dd>{fixed(value, 5)}</dd>
          </Fragment>
        ))}
        {hit.heat === undefined ? null : (
          <>
            <dt>heat now</dt>
            <dd>{fixed(hit.heat, 2)}</dd>
          </>
        )}
        {hit.quarantined === true ? (
          <>
            <dt>review</dt>
            <dd>awaiting review: recall only, never injected</dd>
          </>
        ) : null}
        {hit.stale ? (
          <>
            <dt>stale</dt>
            <dd>{hit.staleLabel ?? 'a file it cites changed, moved or was deleted'}</dd>
          </>
        ) : null}
      </dl>
    </details>
  );
}
