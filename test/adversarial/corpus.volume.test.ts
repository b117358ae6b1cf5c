/** Category H (volume and pathological input: W8 flood, W9 size, newline runs, deep JSON). */
import { useTestHomes } from '../helpers/mnemo-bin.js';
import { describeAttackCases } from './corpus-runner.js';

describeAttackCases('h-volume.jsonl', useTestHomes(), { detectorIndependence: false });
