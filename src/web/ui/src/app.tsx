import { useEffect, useState } from 'preact/hooks';

import { ApiError, openSession } from './api.js';
import { Dashboard } from './pages/dashboard.js';
import { Ledger } from './pages/ledger.js';
import { Live } from './pages/live.js';
import { FILTERS, Memories } from './pages/memories.js';
import { Memory } from './pages/memory.js';
import { Problem } from './pages/problem.js';
import { ProjectPage } from './pages/project-page.js';
import { Review, type ReviewParams } from './pages/review.js';
import { Search } from './pages/search.js';
import { Session as SessionPage } from './pages/session.js';
import { projectName } from './parts/format.js';
import { StatusRegion } from './parts/status.js';
import { useApi } from './parts/use-api.js';
import { href, navigate, type Route, useRoute } from './router.js';
import type { Session } from './types.js';

const PROJECT_KEY = 'mnemo-project';
const ALL = '';

const NAV = [
  ['/', 'Dashboard'],
  ['/search', 'Search'],
  ['/memories', 'Memories'],
  ['/live', 'Live'],
  ['/review', 'Review'],
  ['/ledger', 'Ledger'],
  ['/page', 'Project page'],
] as const;

export function App() {
  const [session, setSession] = useState<Session | undefined>();
  const [failure, setFailure] = useState<Error | undefined>();
  useEffect(() => {
    openSession().then(setSession, (e: unknown) => setFailure(e as Error));
  }, []);
  if (failure !== undefined) return <Locked error={failure} />;
  if (session === undefined) return <p aria-live="polite">Opening…</p>;
  return <Shell session={session} />;
}

/** Without a valid token nothing is shown but how to get one. */
export function Locked({ error }: { error?: Error }) {
  const unauthorised = error === undefined || (error instanceof ApiError && error.status === 401);
  return (
    <main class="locked">
      <h1>mnemo</h1>
      {unauthorised ? (
        <p>
          This viewer opens with the address <code>mnemo ui</code> printed: it carries a token that
          changes every time the viewer starts. Run <code>mnemo ui --open</code>, or copy the
          address it prints.
        </p>
      ) : (
        <Problem error={error} />
      )}
    </main>
  );
}

function Shell({ session }: { session: Session }) {
  const route = useRoute();
  const projects = useApi<{ projects: { key: string; count: number }[] }>('/api/projects', {
    refreshOnChange: true,
  });
  const [project, setProject] = useState<string>(
    () => sessionStorage.getItem(PROJECT_KEY) ?? session.defaultProject ?? ALL,
  );
  const known = projects.data?.projects;
  // A project without memories (the directory `mnemo ui` ran in, say) is no filter worth keeping.
  useEffect(() => {
    if (known !== undefined && project !== ALL && !known.some((p) => p.key === project))
      setProject(ALL);
  }, [known, project]);
  useEffect(() => sessionStorage.setItem(PROJECT_KEY, project), [project]);
  // A new page takes the focus to its title (screen readers announce it), unless the page itself put
  // the focus somewhere inside it already (search focuses its field).
  useEffect(() => {
    if (document.getElementById('main')?.contains(document.activeElement) === true) return;
    document.getElementById('page-title')?.focus();
  }, [route.path]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      const typing = target !== null && ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
      if (event.key === '/' && !typing && !event.ctrlKey && !event.metaKey) {
        event.preventDefault();
        if (route.path === '/search') document.getElementById('search-input')?.focus();
        else navigate('/search');
      }
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [route.path]);
  const section = `/${route.path.split('/')[1] ?? ''}`;
  const current = project === ALL ? null : project;
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href={href('/')}>
          mnemo
        </a>
        <nav aria-label="Pages">
          <ul>
            {NAV.map(([path, label]) => (
              <li key={path}>
                <a
                  href={href(path)}
                  aria-current={
                    section === path ||
                    (path === '/memories' && section === '/memory') ||
                    (path === '/ledger' && section === '/session')
                      ? 'page'
                      : undefined
                  }
                >
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <label class="project-picker">
          Project{' '}
          <select value={project} onChange={(e) => setProject(e.currentTarget.value)}>
            <option value={ALL}>All projects</option>
            {(known ?? []).map((p) => (
              <option key={p.key} value={p.key} title={p.key}>
                {projectName(p.key)} ({p.count.toLocaleString()})
              </option>
            ))}
          </select>
        </label>
      </header>
      <StatusRegion />
      <main id="main">
        <Page route={route} project={current} session={session} />
      </main>
      <footer>
        mnemo {session.version} · served by{' '}
        {session.servedBy === 'engine' ? 'the resident engine' : 'mnemo ui'} · decisions recorded as{' '}
        <code>{session.actor}</code> · press <kbd>/</kbd> to search
      </footer>
    </>
  );
}

function number(params: URLSearchParams, name: string, fallback: number): number {
  const value = Number(params.get(name));
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

function optional(params: URLSearchParams, name: string): string | undefined {
  const value = params.get(name);
  return value === null || value === '' ? undefined : value;
}

function Page({
  route,
  project,
  session,
}: {
  route: Route;
  project: string | null;
  session: Session;
}) {
  const { path, params } = route;
  if (path.startsWith('/memory/'))
    return <Memory id={decodeURIComponent(path.slice('/memory/'.length))} />;
  if (path.startsWith('/session/'))
    return <SessionPage id={decodeURIComponent(path.slice('/session/'.length))} />;
  switch (path) {
    case '/':
      return <Dashboard project={project} days={number(params, 'days', 30)} />;
    case '/search':
      return <Search project={project} query={params.get('q') ?? ''} />;
    case '/memories':
      return (
        <Memories
          project={project}
          vocabulary={session.vocabulary}
          params={{
            ...(Object.fromEntries(FILTERS.map((name) => [name, optional(params, name)])) as Record<
              (typeof FILTERS)[number],
              string | undefined
            >),
            offset: number(params, 'offset', 0),
          }}
        />
      );
    case '/review':
      return (
        <Review
          project={project}
          params={{
            state: optional(params, 'state') ?? 'pending',
            by: optional(params, 'by') as ReviewParams['by'],
            key: optional(params, 'key'),
            offset: number(params, 'offset', 0),
          }}
        />
      );
    case '/ledger':
      return (
        <Ledger
          project={project}
          days={number(params, 'days', 7)}
          session={optional(params, 'session')}
          offset={number(params, 'offset', 0)}
        />
      );
    case '/page':
      return <ProjectPage project={project} />;
    case '/live':
      return <Live project={project} />;
    default:
      return (
        <section>
          <h1 id="page-title" tabIndex={-1}>
            Not found
          </h1>
          <p>
            No page here. <a href={href('/')}>Back to the dashboard</a>
          </p>
        </section>
      );
  }
}
