import { apiPath } from '../api.js';
import { MemoryList } from '../parts/memory-list.js';
import { Pager } from '../parts/pager.js';
import { useApi } from '../parts/use-api.js';
import { navigate } from '../router.js';
import type { MemoryRow, Page } from '../types.js';
import { Await } from './problem.js';

const LIMIT = 25;

/** The list's filters, as the address holds them (each undefined: any). */
export const FILTERS = [
  'origin',
  'kind',
  'source',
  'session',
  'since',
  'until',
  'staleness',
] as const;
type FilterName = (typeof FILTERS)[number];

export type BrowseParams = Record<FilterName, string | undefined> & { offset: number };

const STALENESS = ['stale', 'fresh'];

export function Memories(props: {
  project: string | null;
  params: BrowseParams;
  vocabulary: { kinds: string[]; origins: string[] };
}) {
  const { project, params } = props;
  const loaded = useApi<Page<MemoryRow>>(
    apiPath('memories', { project, ...params, offset: params.offset, limit: LIMIT }),
  );
  const go = (next: Partial<BrowseParams>) => {
    const merged = { ...params, offset: 0, ...next };
    navigate('/memories', { ...merged, offset: merged.offset || undefined });
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
        <AnyOf
          label="Staleness"
          value={params.staleness}
          options={STALENESS}
          onChange={(staleness) => go({ staleness })}
        />
        <TextFilter
          label="Source"
          placeholder="site or page address"
          value={params.source}
          onChange={(source) => go({ source })}
        />
        <TextFilter
          label="Session"
          placeholder="session id"
          value={params.session}
          onChange={(session) => go({ session })}
        />
        <DateFilter label="From" value={params.since} onChange={(since) => go({ since })} />
        <DateFilter label="Until" value={params.until} onChange={(until) => go({ until })} />
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

/** A free-text filter applied when the person presses Enter or leaves the field. */
function TextFilter(props: {
  label: string;
  placeholder: string;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
}) {
  const apply = (text: string) => {
    const next = text.trim() || undefined;
    if (next !== props.value) props.onChange(next);
  };
  return (
    <label>
      {props.label}{' '}
      <input
        type="search"
        key={props.value ?? ''}
        defaultValue={props.value ?? ''}
        placeholder={props.placeholder}
        onKeyDown={(e) => {
          if (e.key === 'Enter') apply(e.currentTarget.value);
        }}
        onBlur={(e) => apply(e.currentTarget.value)}
      />
    </label>
  );
}

/** A day filter (YYYY-MM-DD). */
function DateFilter(props: {
  label: string;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
}) {
  return (
    <label>
      {props.label}{' '}
      <input
        type="date"
        value={props.value ?? ''}
        onChange={(e) => props.onChange(e.currentTarget.value || undefined)}
      />
    </label>
  );
}
