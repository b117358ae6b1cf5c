/**
 * The write policy from the configuration. Defaults are defined once, in `config/config.ts`
 * (`CONFIG_DEFAULTS`); the near-duplicate threshold is a calibrated constant of the gate, not a setting.
 */
import type { App } from '../app/open-app.js';
import { type Config, CONFIG_DEFAULTS } from '../config/config.js';
import { NEAR_DUPLICATE_THRESHOLD } from '../core/gate/decide-gate.js';
import type { WriteDeps, WritePolicy } from './write-types.js';

/** The policy a config asks for. */
export function writePolicyFromConfig(
  config: Pick<Config, 'mcpTools' | 'detectors' | 'flood'>,
): WritePolicy {
  return {
    originConfig: { mcpTools: config.mcpTools },
    detectors: config.detectors,
    floodLimit: {
      windowMinutes: config.flood.windowMinutes,
      maxPerOrigin: { ...config.flood.maxPerOrigin },
    },
    nearDuplicateThreshold: NEAR_DUPLICATE_THRESHOLD,
  };
}

/** The policy with every default (tests, and tools that run without a config). */
export const DEFAULT_WRITE_POLICY: WritePolicy = writePolicyFromConfig(CONFIG_DEFAULTS);

/** The write service's dependencies from an opened app. */
export function writeDepsFrom(
  app: Pick<App, 'store' | 'clock' | 'log' | 'config'> & Partial<Pick<App, 'countLater'>>,
): WriteDeps {
  const { countLater } = app;
  return {
    store: app.store,
    clock: app.clock,
    log: app.log,
    policy: writePolicyFromConfig(app.config),
    ...(countLater === undefined ? {} : { countLater: (counter) => countLater(counter) }),
  };
}
