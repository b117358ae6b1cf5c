/** `2026-05-01 14:03` in the viewer's local time. */
export function when(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The last path segment of a project key, which is what people recognise. */
export function projectName(key: string | null): string {
  if (key === null || key === '') return 'no project';
  const parts = key.split(/[\\/]/).filter(Boolean);
  return parts.at(-1) ?? key;
}

export function count(n: number, word: string): string {
  if (n === 1) return `1 ${word}`;
  const plural = /[^aeiou]y$/.test(word) ? `${word.slice(0, -1)}ies` : `${word}s`;
  return `${n.toLocaleString()} ${plural}`;
}

export function fixed(n: number | undefined, digits = 3): string {
  return n === undefined || !Number.isFinite(n) ? '–' : n.toFixed(digits);
}
