/** The capture policy a config asks for; defaults live in `config/config.ts` (`CONFIG_DEFAULTS.capture`). */
import type { Config } from '../config/config.js';
import type { CapturePolicyConfig } from '../core/capture/capture-policy.js';

/** The capture policy of a resolved config. */
export function captureConfigFrom(config: Pick<Config, 'capture'>): CapturePolicyConfig {
  return { tools: { ...config.capture.tools }, minChars: config.capture.minChars };
}
