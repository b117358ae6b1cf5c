export { seededRandom } from '../../src/store/contract/fixtures.js';

/**
 * The seed of a randomised torture or fuzz run: `MNEMO_TEST_SEED` when set (to replay a failure), else a
 * fresh one. Tests print it in every failure message, so a red run can be reproduced exactly.
 */
export function testSeed(): number {
  const raw = process.env['MNEMO_TEST_SEED'];
  const parsed = raw === undefined ? Number.NaN : Number(raw);
  return Number.isSafeInteger(parsed) ? parsed : Math.floor(Math.random() * 2 ** 31);
}
