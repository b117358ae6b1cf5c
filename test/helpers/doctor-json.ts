import type { TestHome } from './mnemo-bin.js';

/** `mnemo doctor --json` as printed. */
export interface DoctorJson {
  ok: boolean;
  checks: {
    name: string;
    ok: boolean;
    detail: string;
    fix?: string;
    data?: Record<string, unknown>;
  }[];
}

/** Runs `mnemo doctor --json [extra…]` in the home and parses its report. */
export async function doctorJson(
  home: TestHome,
  extra: readonly string[] = [],
): Promise<{ code: number | null; report: DoctorJson }> {
  const result = await home.run(['doctor', '--json', ...extra]);
  return { code: result.code, report: JSON.parse(result.stdout) as DoctorJson };
}

/** The check called `name`; throws (with the report) when there is none. */
export function doctorCheck(report: DoctorJson, name: string): DoctorJson['checks'][number] {
  const found = report.checks.find((c) => c.name === name);
  if (found === undefined) throw new Error(`no check named ${name}: ${JSON.stringify(report)}`);
  return found;
}
