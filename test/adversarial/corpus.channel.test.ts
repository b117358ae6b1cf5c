/** Category A (channel and origin: W1, W3, W4, W5, W7), with the detector-independence rerun. */
import { useTestHomes } from '../helpers/mnemo-bin.js';
import { describeAttackCases } from './corpus-runner.js';

describeAttackCases('a-channel.jsonl', useTestHomes(), { detectorIndependence: true });
