// One session's timeline: what it captured and what was injected into it, when, on which event, at what
// token cost, and what the gate withheld and why.
import { apiPath } from '../api.js';
import { count, when } from '../parts/format.js';
import { MemoryList } from '../parts/memory-list.js';
import { useApi } from '../parts/use-api.js';
import { href } from '../router.js';
import type { SessionTimeline } from '../types.js';
import { Await } from './problem.js';

const EVENT_TEXT: Record<string, string> = {
  'session-start': 'Injected at session start',
  'prompt-recall': 'Injected with a prompt (recall)',
};

export function Session({ id }: { id: string }) {
  const loaded = useApi<SessionTimeline>(apiPath(`sessions/${encodeURIComponent(id)}`, {}));
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title" tabIndex={-1}>
        Session <code>{id}</code>
      </h1>
      <Await loaded={loaded}>
        {(data) => (
          <>
            <p class="hint timeline-summary">
              {count(data.captures, 'capture')} · {count(data.injections, 'injection')} ·{' '}
              {data.tokens.toLocaleString()} tokens injected ·{' '}
              <a href={href('/memories', { session: id })}>its memories in the list</a>
            </p>
            {data.events.length === 0 ? (
              <p class="empty">Nothing recorded for this session.</p>
            ) : (
              <ol class="timeline">
                {data.events.map((e) =>
                  e.type === 'capture' ? (
                    <li key={`c-${e.memory.id}`} class="timeline-item" data-type="capture">
                      <p>
                        <span class="timeline-kind">Captured</span>
                        {when(e.at)} · {e.memory.originTool ?? e.memory.origin}
                      </p>
                      <MemoryList memories={[e.memory]} empty="" />
                    </li>
                  ) : (
                    <li key={`i-${e.seq}`} class="timeline-item" data-type="injection">
                      <p>
                        <span class="timeline-kind">{EVENT_TEXT[e.event] ?? e.event}</span>
                        {when(e.at)}
                        {e.source === null ? '' : ` (${e.source})`} ·{' '}
                        {count(e.memories.length, 'memory')}, {e.tokens} tokens
                        {e.gone > 0 ? ` · ${e.gone} deleted since` : ''}
                        {e.indexed.length > 0
                          ? ` · ${e.indexed.length} shown as an index line only`
                          : ''}
                      </p>
                      <MemoryList memories={e.memories} empty="No memory of it is visible here." />
                      {e.withheld.length === 0 ? null : (
                        <div class="withheld">
                          <p>Withheld from this injection:</p>
                          <ul>
                            {e.withheld.map((w) => (
                              <li key={w.id}>
                                <a href={href(`/memory/${w.id}`)}>{w.id}</a>:{' '}
                                {w.reasons.map((r) => r.meaning).join('; ')}
                              </li>
                            ))}
                          </ul>
                        </div>
                      )}
                    </li>
                  ),
                )}
              </ol>
            )}
          </>
        )}
      </Await>
    </section>
  );
}
