import type { injectableOrigins as InjectableOrigins } from '../../src/core/injection/injectable.js';
import type { QuarantineState } from '../../src/core/memory.js';
import type { Scope } from '../../src/store/store.js';

/**
 * The two recall requests the latency benchmarks time: an agent's `recall` (limit 10) and what
 * `mnemo hook user-prompt-submit` asks when no engine runs (hooks/prompt-recall.ts). Built from the
 * checkout's own `injectableOrigins` and `PROMPT_CANDIDATES`, so another checkout is timed on its rules.
 */
export function recallRequests(
  scope: Scope,
  injectableOrigins: typeof InjectableOrigins,
  promptCandidates: number,
) {
  return {
    request: (query: string) => ({ query, scope, limit: 10, recordAccess: false }),
    hookRequest: (query: string) => ({
      query,
      scope,
      limit: promptCandidates,
      filters: {
        origins: injectableOrigins({ proactiveLocal: false }),
        quarantine: ['none', 'approved'] as QuarantineState[],
      },
    }),
  };
}
