// Reads vitest's JSON report and prints the plain closing line CI looks for: "N passed, N failed".
import { readFileSync } from 'node:fs';

const report = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const passed = report.numPassedTests ?? 0;
// A test file that fails to load has no test results; count each as one failure so it cannot pass unseen.
const brokenFiles = (report.testResults ?? []).filter(
  (file) => file.status === 'failed' && (file.assertionResults ?? []).length === 0,
).length;
const failed = (report.numFailedTests ?? 0) + brokenFiles;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
if (passed + failed === 0) {
  console.log('0 passed, 1 failed');
  process.exit(1);
}
console.log(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
