import { useCallback, useEffect, useState } from 'preact/hooks';

import { CHANGED_EVENT, get } from '../api.js';

export interface Loaded<T> {
  /** The last answer, kept while another path loads (a pager does not flicker). */
  data: T | undefined;
  /** `data` as answered for the current path: what a page must show when it speaks of that path. */
  current: T | undefined;
  error: Error | undefined;
  loading: boolean;
  reload: () => void;
}

/**
 * GETs `path` (null: nothing yet) and again whenever it changes or `reload` is called, and with
 * `refreshOnChange` after every change the page made or a live capture arrived.
 */
export function useApi<T>(
  path: string | null,
  options: { refreshOnChange?: boolean } = {},
): Loaded<T> {
  const [state, setState] = useState<{
    data?: T;
    /** The path `data` was answered for. */
    of?: string;
    error?: Error;
    loading: boolean;
  }>({
    loading: path !== null,
  });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (path === null) {
      setState({ loading: false });
      return;
    }
    let live = true;
    setState((previous) => ({ ...previous, loading: true, error: undefined }));
    get<T>(path).then(
      (data) => live && setState({ data, of: path, loading: false }),
      (error: unknown) =>
        live &&
        setState({
          error: error instanceof Error ? error : new Error(String(error)),
          loading: false,
        }),
    );
    return () => {
      live = false;
    };
  }, [path, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  useEffect(() => {
    if (!options.refreshOnChange) return;
    addEventListener(CHANGED_EVENT, reload);
    return () => removeEventListener(CHANGED_EVENT, reload);
  }, [options.refreshOnChange, reload]);
  return {
    data: state.data,
    current: state.of === path ? state.data : undefined,
    error: state.error,
    loading: state.loading,
    reload,
  };
}
