/**
 * Doctor's view of session start in the working directory's project: the same plan the hook makes
 * (hooks/session-start.ts), read-only, so the counts are what a new session there would get: how many
 * memories it injects, how many are labelled stale, and how many it withholds and why. A report, not a
 * failure: withholding is the gate working.
 */
import { fullBudget } from '../anchors/verify-anchors.js';
import type { App } from '../app/open-app.js';
import { planSessionStart, reportedWithheld } from '../hooks/session-start.js';
import { pass } from './doctor-check.js';

/** Session start's plan for `cwd`, as counts and reasons. */
export async function checkSessionStart(app: App, cwd: string) {
  const budgetTokens = app.config.injection.sessionStartTokens;
  if (budgetTokens <= 0) {
    return pass('session-start injection is off (injection.sessionStartTokens = 0)', { off: true });
  }
  const plan = await planSessionStart(app, {
    cwd,
    sessionId: null,
    budgetTokens,
    budget: fullBudget(),
    persist: false,
  });
  const withheld = reportedWithheld(plan.pack);
  const reasons: Record<string, number> = {};
  for (const entry of withheld) {
    for (const reason of entry.reasons) reasons[reason] = (reasons[reason] ?? 0) + 1;
  }
  const injected = plan.pack.entries.map((entry) => entry.memory.id);
  const stale = injected.filter((id) => plan.staleness.get(id)?.status === 'stale').length;
  const data = {
    project: plan.projectKey,
    candidates: plan.candidates,
    injected: injected.length,
    stale,
    withheld: withheld.map((entry) => ({ id: entry.id, reasons: entry.reasons })),
    reasons,
  };
  const where = plan.projectKey ?? 'no project (global memories only)';
  const why = Object.entries(reasons)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([reason, n]) => `${reason} ${n}`)
    .join(', ');
  return pass(
    `in ${where}: ${plan.candidates} candidates, ${injected.length} injected` +
      `${stale > 0 ? ` (${stale} labelled stale)` : ''}, ${withheld.length} withheld` +
      `${withheld.length > 0 ? ` (${why}; \`mnemo explain <id>\` says why for each)` : ''}`,
    data,
  );
}
