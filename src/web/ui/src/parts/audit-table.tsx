import type { AuditRow } from '../types.js';
import { when } from './format.js';

/** The audit trail as a table: what happened, who did it, and its details as name/value pairs. */
export function AuditTable({ rows }: { rows: AuditRow[] }) {
  if (rows.length === 0) return <p class="empty">No audit entries.</p>;
  return (
    <table class="audit">
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">What happened</th>
          <th scope="col">Who</th>
          <th scope="col">Details</th>
          <th scope="col">Hash</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.seq} data-action={row.action}>
            <td>
              {when(row.at)}
              {row.times > 1 ? <span class="note"> to {when(row.lastAt)}</span> : null}
            </td>
            <td>
              {row.label}
              {row.times > 1 ? <span class="badge muted"> ×{row.times}</span> : null}
            </td>
            <td>{row.actor ?? '–'}</td>
            <td>
              {row.details.length === 0 ? (
                '–'
              ) : (
                <dl class="audit-details">
                  {row.details.map((d) => (
                    <div key={d.name}>
                      <dt>{d.name}</dt>
                      <dd>{d.value}</dd>
                    </div>
                  ))}
                </dl>
              )}
            </td>
            <td class="mono" title={row.hash}>
              {row.hash.slice(0, 10)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
