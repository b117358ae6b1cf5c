import { apiPath } from '../api.js';
import { MemoryList } from '../parts/memory-list.js';
import { Pager } from '../parts/pager.js';
import { useApi } from '../parts/use-api.js';
import { navigate } from '../router.js';
import type { MemoryRow, Page } from '../types.js';
import { Await } from './problem.js';

const LIMIT = 25;

export interface BrowseParams {
  origin: string | undefined;
  kind: string | undefined;
  offset: number;
}

export function Memories(props: {
  project: string | null;
  params: BrowseParams;
  vocabulary: { kinds: string[]; origins: string[] };
}) {
  const { project, params } = props;
  const loaded = useApi<Page<MemoryRow>>(
    apiPath('memories', {
      project,
      origin: params.origin,
      kind: params.kind,
      offset: params.offset,
      limit: LIMIT,
    }),
  );
  const go = (next: Partial<BrowseParams>) => {
    const merged = { ...params, offset: 0, ...next };
    navigate('/memories', {
      origin: merged.origin,
      kind: merged.kind,
      offset: merged.offset || undefined,
    });
  };
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title" tabIndex={-1}>
        Memories
      </h1>
      <div class="toolbar">
        <AnyOf
          label="Origin"
          value={params.origin}
          options={props.vocabulary.origins}
          onChange={(origin) => go({ origin })}
        />
        <AnyOf
          label="Kind"
          value={params.kind}
          options={props.vocabulary.kinds}
          onChange={(kind) => go({ kind })}
        />
      </div>
      <Await loaded={loaded}>
        {(data) => (
          <>
            <MemoryList memories={data.items} empty="No memories match." />
            <Pager
              total={data.total}
              offset={data.offset}
              limit={data.limit}
              noun="memory"
              onPage={(offset) => go({ offset })}
            />
          </>
        )}
      </Await>
    </section>
  );
}

/** A labelled choice of one value or "any" (undefined). */
function AnyOf(props: {
  label: string;
  value: string | undefined;
  options: string[];
  onChange: (value: string | undefined) => void;
}) {
  return (
    <label>
      {props.label}{' '}
      <select
        value={props.value ?? ''}
        onChange={(e) => props.onChange(e.currentTarget.value || undefined)}
      >
        <option value="">any</option>
        {props.options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </label>
  );
}
