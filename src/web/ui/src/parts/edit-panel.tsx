// A person's changes to one memory: edit its text and tags in place, pin or unpin, replace it with new
// text (the old one stays in history), or forget it. Each is a POST the server audits with the actor.
import { useState } from 'preact/hooks';

import { post } from '../api.js';
import { Problem } from '../pages/problem.js';
import { navigate } from '../router.js';
import type { MemoryDetail, MemoryRow } from '../types.js';
import { announce } from './status.js';

type Mode = 'idle' | 'edit' | 'supersede';

export function EditPanel({ detail, onChanged }: { detail: MemoryDetail; onChanged: () => void }) {
  const { memory } = detail;
  const [mode, setMode] = useState<Mode>('idle');
  const [text, setText] = useState(memory.content);
  const [tags, setTags] = useState(memory.tags.join(', '));
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Error | undefined>();
  const superseded = memory.supersededBy !== null;

  const run = async (work: () => Promise<string | undefined>) => {
    setBusy(true);
    setFailure(undefined);
    try {
      const message = await work();
      if (message !== undefined) announce(message);
    } catch (e) {
      setFailure(e as Error);
    } finally {
      setBusy(false);
    }
  };
  const open = (next: Mode) => {
    setText(memory.content);
    setTags(memory.tags.join(', '));
    setMode(next);
  };
  const save = () =>
    run(async () => {
      if (mode === 'supersede') {
        const answer = await post<{ memory: MemoryRow }>(`/api/memories/${memory.id}/supersede`, {
          content: text,
        });
        setMode('idle');
        navigate(`/memory/${answer.memory.id}`);
        return `Replaced ${memory.id} with ${answer.memory.id}.`;
      }
      const answer = await post<{ redactions: number }>(`/api/memories/${memory.id}/edit`, {
        ...(text.trim() === memory.content ? {} : { content: text }),
        tags: tags
          .split(',')
          .map((t) => t.trim())
          .filter((t) => t !== ''),
      });
      setMode('idle');
      onChanged();
      return `Saved ${memory.id}${answer.redactions > 0 ? ` (${answer.redactions} secret${answer.redactions === 1 ? '' : 's'} redacted)` : ''}.`;
    });
  const pin = () =>
    run(async () => {
      await post(`/api/memories/${memory.id}/pin`, { pinned: !memory.pinned });
      onChanged();
      return `${memory.pinned ? 'Unpinned' : 'Pinned'} ${memory.id}.`;
    });
  const forget = () =>
    run(async () => {
      if (!confirm('Forget this memory? It is deleted; the audit trail keeps a record.')) return;
      await post(`/api/memories/${memory.id}/forget`);
      navigate('/memories');
      return `Forgot ${memory.id}.`;
    });

  return (
    <section class="edit-panel" aria-label="Change this memory">
      <div class="row-actions">
        <button type="button" disabled={busy} onClick={() => open('edit')}>
          Edit
        </button>
        <button type="button" disabled={busy || superseded} onClick={() => void pin()}>
          {memory.pinned ? 'Unpin' : 'Pin'}
        </button>
        <button type="button" disabled={busy || superseded} onClick={() => open('supersede')}>
          Supersede
        </button>
        <button type="button" class="danger" disabled={busy} onClick={() => void forget()}>
          Forget
        </button>
      </div>
      {failure === undefined ? null : <Problem error={failure} />}
      {mode === 'idle' ? null : (
        <form
          class="edit-form"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <label for="edit-text">
            {mode === 'edit'
              ? 'Text (edited in place; its origin stays as it is)'
              : 'New text (a new memory written by you; this one stays in history)'}
          </label>
          <textarea
            id="edit-text"
            rows={5}
            value={text}
            onInput={(e) => setText(e.currentTarget.value)}
          />
          {mode === 'edit' ? (
            <>
              <label for="edit-tags">Tags (comma separated)</label>
              <input id="edit-tags" value={tags} onInput={(e) => setTags(e.currentTarget.value)} />
            </>
          ) : null}
          <div class="row-actions">
            <button type="submit" class="primary" disabled={busy}>
              {mode === 'edit' ? 'Save' : 'Replace'}
            </button>
            <button type="button" disabled={busy} onClick={() => setMode('idle')}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
