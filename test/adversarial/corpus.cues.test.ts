/** Category B (content-shaped bypass cues, W2: cue × origin), with the detector-independence rerun. */
import { useTestHomes } from '../helpers/mnemo-bin.js';
import { describeAttackCases } from './corpus-runner.js';

describeAttackCases('b-cues.jsonl', useTestHomes(), { detectorIndependence: true });
