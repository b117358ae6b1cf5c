import { apiPath } from '../api.js';
import { count, projectName, when } from '../parts/format.js';
import { Pager } from '../parts/pager.js';
import { useApi } from '../parts/use-api.js';
import { href, navigate } from '../router.js';
import type { Ledger as LedgerData } from '../types.js';
import { Await } from './problem.js';

const DAY_OPTIONS = [1, 7, 30, 90];

export function Ledger(props: {
  project: string | null;
  days: number;
  session: string | undefined;
  offset: number;
}) {
  const loaded = useApi<LedgerData>(
    apiPath('ledger', {
      project: props.project,
      days: props.days,
      session: props.session,
      offset: props.offset,
    }),
  );
  return (
    <section aria-labelledby="page-title">
      <div class="page-head">
        <h1 id="page-title" tabIndex={-1}>
          Injection ledger
        </h1>
        <nav class="segmented" aria-label="Time window">
          {DAY_OPTIONS.map((n) => (
            <a
              key={n}
              href={href('/ledger', { days: n, session: props.session })}
              aria-current={n === props.days ? 'true' : undefined}
            >
              {n === 1 ? 'today' : `${n} days`}
            </a>
          ))}
        </nav>
      </div>
      <p class="hint">
        What mnemo put in front of the agent without being asked (at session start and with
        prompts), when, and what it cost in tokens.
        {props.session === undefined ? null : (
          <>
            {' '}
            Session <code>{props.session}</code> only.{' '}
            <a href={href('/ledger', { days: props.days })}>Show all sessions</a>
          </>
        )}
      </p>
      <Await loaded={loaded}>
        {(data) => <LedgerBody data={data} days={props.days} session={props.session} />}
      </Await>
    </section>
  );
}

function LedgerBody({
  data,
  days,
  session,
}: {
  data: LedgerData;
  days: number;
  session: string | undefined;
}) {
  const readAs =
    data.reader === null ? null : (
      <p class="ledger-reader">
        Injections into the sessions of <strong>{data.reader}</strong>; another author&apos;s
        sessions are theirs and are not shown here.
      </p>
    );
  if (data.totals.injections === 0)
    return (
      <>
        {readAs}
        <p class="empty">No injections since {data.since.slice(0, 10)}.</p>
      </>
    );
  return (
    <>
      {readAs}
      <ul class="tiles">
        <li>
          <strong>{data.totals.injections.toLocaleString()}</strong> injections
        </li>
        <li>
          <strong>{data.totals.tokens.toLocaleString()}</strong> tokens
        </li>
        <li>
          <strong>{data.totals.memories.toLocaleString()}</strong> distinct memories
        </li>
        <li>
          <strong>{data.totals.sessions.toLocaleString()}</strong> sessions
        </li>
      </ul>
      {data.partial ? <p class="note">Only the newest 10,000 injections were read.</p> : null}
      <h2>Per day</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">Day (UTC)</th>
            <th scope="col">Injections</th>
            <th scope="col">Tokens</th>
            <th scope="col">By event</th>
          </tr>
        </thead>
        <tbody>
          {data.byDay.map((d) => (
            <tr key={d.day}>
              <th scope="row">{d.day}</th>
              <td>{d.injections}</td>
              <td>{d.tokens.toLocaleString()}</td>
              <td>
                {Object.entries(d.events)
                  .map(([event, n]) => `${event} ${n}`)
                  .join(', ')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Per session, newest first</h2>
      {data.sessions.map((s) => (
        <section key={s.sessionId} class="ledger-session" aria-label={`Session ${s.sessionId}`}>
          <h3>
            <a href={href('/ledger', { days, session: s.sessionId })}>{s.sessionId}</a>{' '}
            <span class="muted">
              {projectName(s.projectKey)} · {count(s.injections, 'injection')} ·{' '}
              {s.tokens.toLocaleString()} tokens · {when(s.first)} – {when(s.last)}
              {authorNote(s.author, data.reader)}
            </span>{' '}
            <a class="timeline-link" href={href(`/session/${encodeURIComponent(s.sessionId)}`)}>
              timeline
            </a>
          </h3>
          <table>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Event</th>
                <th scope="col">Tokens</th>
                <th scope="col">What was injected</th>
              </tr>
            </thead>
            <tbody>
              {s.entries.map((e) => (
                <tr key={e.seq}>
                  <td>{when(e.at)}</td>
                  <td>{e.source === null ? e.event : `${e.event} (${e.source})`}</td>
                  <td>{e.tokens}</td>
                  <td>
                    <ul class="injected">
                      {e.memoryIds.map((id) => {
                        const memory = data.memories[id];
                        return (
                          <li key={id}>
                            {memory === undefined ? (
                              <span class="muted">
                                <span class="mono">{id}</span> (forgotten since)
                              </span>
                            ) : (
                              <a href={href(`/memory/${id}`)}>
                                {memory.snippet.split('\n')[0]?.slice(0, 100)}
                              </a>
                            )}
                          </li>
                        );
                      })}
                    </ul>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
      <Pager
        total={data.sessionCount}
        offset={data.offset}
        limit={data.limit}
        noun="session"
        onPage={(offset) => navigate('/ledger', { days, session, offset })}
      />
    </>
  );
}

/** Whose session it was, said only when it is not the reader's: a row from before authors were kept. */
function authorNote(author: string | null, reader: string | null): string {
  if (author === reader) return '';
  return author === null ? ' · author not recorded' : ` · by ${author}`;
}
