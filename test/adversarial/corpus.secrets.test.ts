/** Category C (secrets, W6): redacted in the memory and absent from the raw database and WAL bytes. */
import { useTestHomes } from '../helpers/mnemo-bin.js';
import { describeAttackCases } from './corpus-runner.js';

describeAttackCases('c-secrets.jsonl', useTestHomes(), { detectorIndependence: false });
