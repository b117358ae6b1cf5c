// Hash routes: every page is `/` to the server, so a reload or a link never sends anything but the
// page's own address. `#/memory/<id>`, `#/search?q=…`, and so on.
import { useEffect, useState } from 'preact/hooks';

export interface Route {
  /** The path part, e.g. `/memory/01J…`. */
  path: string;
  params: URLSearchParams;
}

function current(): Route {
  const hash = location.hash.replace(/^#/, '') || '/';
  const cut = hash.indexOf('?');
  return {
    path: cut === -1 ? hash : hash.slice(0, cut),
    params: new URLSearchParams(cut === -1 ? '' : hash.slice(cut + 1)),
  };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(current);
  useEffect(() => {
    const onChange = () => setRoute(current());
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

/** A hash link to `path` with the parameters that are set. */
export function href(
  path: string,
  params: Record<string, string | number | undefined> = {},
): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') query.set(key, String(value));
  }
  const text = query.toString();
  return `#${path}${text === '' ? '' : `?${text}`}`;
}

export function navigate(
  path: string,
  params: Record<string, string | number | undefined> = {},
): void {
  location.hash = href(path, params).slice(1);
}
