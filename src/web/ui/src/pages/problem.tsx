import type { ComponentChildren } from 'preact';

import { ApiError } from '../api.js';

/** An error as a person can act on it: the server's message, in an alert region. */
export function Problem({ error }: { error: Error }) {
  const status = error instanceof ApiError ? ` (${error.status})` : '';
  return (
    <p class="problem" role="alert">
      {error.message}
      {status}
    </p>
  );
}

/** The error of a load, "Loading…" while it runs, and `children(data)` once it is there. */
export function Await<T>(props: {
  loaded: { data: T | undefined; error: Error | undefined };
  children: (data: T) => ComponentChildren;
}) {
  const { data, error } = props.loaded;
  if (error !== undefined) return <Problem error={error} />;
  if (data === undefined) return <p aria-live="polite">Loading…</p>;
  return <>{props.children(data)}</>;
}
