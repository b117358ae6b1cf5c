// One polite live region for the outcome of actions (approved, purged...), read out by screen readers
// and shown at the top of the page.
import { useEffect, useState } from 'preact/hooks';

type Listener = (text: string) => void;
const listeners = new Set<Listener>();

export function announce(text: string): void {
  for (const listener of listeners) listener(text);
}

export function StatusRegion() {
  const [text, setText] = useState('');
  useEffect(() => {
    const listener: Listener = (next) => setText(next);
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }, []);
  return (
    <p class={text === '' ? 'status empty-status' : 'status'} role="status" aria-live="polite">
      {text}
    </p>
  );
}
