// The live feed: captures as the hooks store them, newest first, from the server's event stream. Every
// new capture also refreshes the counts the page shows (the project picker).
import { useEffect, useState } from 'preact/hooks';

import { apiPath, CHANGED_EVENT, readEvents } from '../api.js';
import { MemoryList } from '../parts/memory-list.js';
import type { MemoryRow } from '../types.js';

/** Captures kept on the page. */
const KEEP = 200;
/** Wait before reopening a feed the server closed or lost. */
const RETRY_MS = 2000;

export function Live({ project }: { project: string | null }) {
  const [items, setItems] = useState<MemoryRow[]>([]);
  const [state, setState] = useState<'connecting' | 'live' | 'lost'>('connecting');
  useEffect(() => {
    const abort = new AbortController();
    let ready = false;
    setItems([]);
    const open = async () => {
      while (!abort.signal.aborted) {
        try {
          await readEvents(apiPath('feed', { project }), abort.signal, (event, data) => {
            if (event === 'ready') {
              ready = true;
              setState('live');
              return;
            }
            if (event !== 'capture') return;
            const row = JSON.parse(data) as MemoryRow;
            setItems((old) =>
              old.some((m) => m.id === row.id) ? old : [row, ...old].slice(0, KEEP),
            );
            if (ready) dispatchEvent(new Event(CHANGED_EVENT));
          });
        } catch {
          if (abort.signal.aborted) return;
        }
        setState('lost');
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    };
    void open();
    return () => abort.abort();
  }, [project]);
  return (
    <section aria-labelledby="page-title">
      <div class="page-head">
        <h1 id="page-title" tabIndex={-1}>
          Live captures
        </h1>
        <p class="feed-state" role="status">
          {state === 'live'
            ? 'Live: new captures appear at the top.'
            : state === 'lost'
              ? 'Connection lost; reconnecting…'
              : 'Connecting…'}
        </p>
      </div>
      <MemoryList memories={items} empty="No captures yet." />
    </section>
  );
}
