import { count } from './format.js';

export function Pager(props: {
  total: number;
  offset: number;
  limit: number;
  noun: string;
  onPage: (offset: number) => void;
}) {
  const { total, offset, limit } = props;
  if (total === 0) return null;
  const last = Math.min(total, offset + limit);
  return (
    <nav class="pager" aria-label={`${props.noun} pages`}>
      <span>
        {(offset + 1).toLocaleString()}–{last.toLocaleString()} of {count(total, props.noun)}
      </span>
      <button
        type="button"
        disabled={offset === 0}
        onClick={() => props.onPage(Math.max(0, offset - limit))}
      >
        Previous
      </button>
      <button type="button" disabled={last >= total} onClick={() => props.onPage(offset + limit)}>
        Next
      </button>
    </nav>
  );
}
