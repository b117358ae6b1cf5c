/**
 * The shape of one `mnemo doctor` check and the runner that turns a thrown error into a failed check, so
 * one broken part never hides the state of the others.
 */

/** The outcome of one check. `fix` says what to do, and is present on every failure. */
export interface CheckResult {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
  readonly fix?: string;
  /** Machine-readable facts for `--json` (sizes, counts, versions). */
  readonly data?: Record<string, unknown>;
}

/** A named check. */
export interface DoctorCheck {
  readonly name: string;
  run(): Promise<Omit<CheckResult, 'name'>>;
}

/** A passing result. */
export function pass(detail: string, data?: Record<string, unknown>): Omit<CheckResult, 'name'> {
  return data === undefined ? { ok: true, detail } : { ok: true, detail, data };
}

/** A failing result with its fix. */
export function fail(
  detail: string,
  fix: string,
  data?: Record<string, unknown>,
): Omit<CheckResult, 'name'> {
  return data === undefined ? { ok: false, detail, fix } : { ok: false, detail, fix, data };
}

/** Runs the checks in order; an exception becomes that check's failure, with its message. */
export async function runChecks(
  checks: readonly DoctorCheck[],
  onResult?: (result: CheckResult) => void,
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const check of checks) {
    let result: CheckResult;
    try {
      result = { name: check.name, ...(await check.run()) };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      result = {
        name: check.name,
        ok: false,
        detail: message.slice(0, 500),
        fix: 'See the message above; `mnemo --verbose doctor` prints the full error in the log.',
      };
    }
    results.push(result);
    onResult?.(result);
  }
  return results;
}
