/**
 * Hook payloads as Claude Code sends them, made from the recorded ones in test/fixtures/hooks: the
 * recorded working directory is moved to the benchmark's repository (the transcript path with it, the
 * way Claude Code derives it), and each payload gets its own session id. Pure.
 */

/** The working directory the recorded payloads were captured in (test/helpers/hook-fixtures.ts). */
export const RECORDED_CWD = '/home/dev/work/acme-api';

/** Claude Code's transcript folder name for a working directory: every non-alphanumeric becomes `-`. */
export function transcriptFolder(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, '-');
}

/**
 * `template` (a recorded payload) for `cwd` and `sessionId`, with `patch` applied last. The transcript
 * path keeps the recorded home directory and names the new session.
 */
export function payloadFrom(
  template: Readonly<Record<string, unknown>>,
  options: { cwd: string; sessionId: string; patch?: Record<string, unknown> },
): Record<string, unknown> {
  const payload: Record<string, unknown> = { ...template };
  payload['cwd'] = options.cwd;
  payload['session_id'] = options.sessionId;
  const recorded = template['transcript_path'];
  if (typeof recorded === 'string') {
    const projects = recorded.slice(0, recorded.lastIndexOf('/', recorded.lastIndexOf('/') - 1));
    payload['transcript_path'] =
      `${projects}/${transcriptFolder(options.cwd)}/${options.sessionId}.jsonl`;
  }
  return { ...payload, ...options.patch };
}
