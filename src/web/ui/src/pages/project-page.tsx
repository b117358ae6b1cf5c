// The project page: trusted memories as the Markdown `mnemo pages write` keeps beside CLAUDE.md, and a
// person's edits of that file as a plan to review and apply (as their own memories). Every text is
// shown as text, never as HTML.
import { useState } from 'preact/hooks';

import type { PagePlanView, PageStepView, ProjectPageView } from '../../../page-view.js';
import { apiPath, post } from '../api.js';
import { count } from '../parts/format.js';
import { announce } from '../parts/status.js';
import { useApi } from '../parts/use-api.js';
import { Await, Problem } from './problem.js';

export function ProjectPage({ project }: { project: string | null }) {
  const loaded = useApi<ProjectPageView>(
    project === null ? null : apiPath('project-page', { project }),
  );
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Error | undefined>();
  const run = async (work: () => Promise<string>) => {
    setBusy(true);
    setFailure(undefined);
    try {
      announce(await work());
      loaded.reload();
    } catch (e) {
      setFailure(e as Error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title" tabIndex={-1}>
        Project page
      </h1>
      <p class="hint">
        The memories you wrote or approved, as the Markdown page mnemo keeps in the repository
        (MNEMO.md, or a section of CLAUDE.md). Web captures, held and agent memories are never on
        it. Edit the file in your editor; your edits appear here as a plan to apply.
      </p>
      {project === null ? (
        <p class="empty">Choose a project in the header to see its page.</p>
      ) : (
        <Await loaded={loaded}>
          {(page) => (
            <PageBody
              page={page}
              busy={busy}
              onWrite={() =>
                void run(async () => {
                  const answer = await post<{ written: boolean }>('/api/project-page/write', {
                    project,
                  });
                  return answer.written
                    ? `Wrote ${page.file ?? 'the page'}.`
                    : 'The page was up to date.';
                })
              }
              onApply={(n) =>
                void run(async () => {
                  if (!confirm(`Apply ${count(n, 'change')} as your own memories?`))
                    return 'Nothing applied.';
                  const answer = await post<{ applied: unknown[] }>('/api/project-page/apply', {
                    project,
                    digest: page.digest,
                  });
                  return `Applied ${count(answer.applied.length, 'change')}; the page was written again.`;
                })
              }
            />
          )}
        </Await>
      )}
      {failure === undefined ? null : <Problem error={failure} />}
    </section>
  );
}

function PageBody(props: {
  page: ProjectPageView;
  busy: boolean;
  onWrite: () => void;
  onApply: (n: number) => void;
}) {
  const { page } = props;
  const plan = page.existing.kind === 'parsed' ? page.existing.plan : undefined;
  const pending = (plan?.steps.length ?? 0) + (plan?.conflicts.length ?? 0);
  return (
    <>
      <p class="page-state">
        {count(page.entries, 'entry')} · {count(page.withheld, 'memory')} not trusted for the page ·{' '}
        {page.file === null
          ? 'this project is not checked out where the viewer runs (preview only)'
          : page.current
            ? `${page.file} is up to date`
            : `${page.file} is not up to date`}
      </p>
      {page.existing.kind === 'malformed' ? (
        <p class="problem" role="alert">
          {page.existing.message}
        </p>
      ) : null}
      {plan === undefined || pending === 0 ? null : <Plan plan={plan} />}
      <div class="actions">
        {page.file !== null &&
        !page.current &&
        pending === 0 &&
        page.existing.kind !== 'malformed' ? (
          <button type="button" class="primary" disabled={props.busy} onClick={props.onWrite}>
            Write {page.file}
          </button>
        ) : null}
        {plan !== undefined && plan.steps.length > 0 && plan.conflicts.length === 0 ? (
          <button
            type="button"
            class="primary"
            disabled={props.busy}
            onClick={() => props.onApply(plan.steps.length)}
          >
            Apply {count(plan.steps.length, 'change')}
          </button>
        ) : null}
      </div>
      <h2>The page</h2>
      <pre class="content page-markdown">{page.section}</pre>
    </>
  );
}

function Plan({ plan }: { plan: PagePlanView }) {
  return (
    <section aria-labelledby="plan-title" class="page-plan">
      <h2 id="plan-title">Your edits of the page</h2>
      <ol>
        {plan.steps.map((step, i) => (
          <li key={i}>
            <Step step={step} />
          </li>
        ))}
      </ol>
      {plan.conflicts.map((conflict) => (
        <p key={conflict.id} class="problem" role="alert">
          Line {conflict.line}: {conflict.message}
        </p>
      ))}
      {plan.notes.map((note) => (
        <p key={note} class="note">
          {note}
        </p>
      ))}
    </section>
  );
}

function Step({ step }: { step: PageStepView }) {
  switch (step.action) {
    case 'add':
      return (
        <>
          <strong>Add</strong> a {step.kind} (line {step.line})
          <pre class="content">{step.text}</pre>
        </>
      );
    case 'change':
      return (
        <>
          <strong>Change</strong> <code>{step.id}</code>{' '}
          {step.kind === step.previousKind ? step.kind : `${step.previousKind} → ${step.kind}`}{' '}
          (line {step.line}); the old text stays in history
          <pre class="content">{step.previous}</pre>
          <pre class="content">{step.text}</pre>
        </>
      );
    case 'forget':
      return (
        <>
          <strong>Forget</strong> <code>{step.id}</code> {step.kind} (its entry was deleted)
          <pre class="content">{step.previous}</pre>
        </>
      );
  }
}
