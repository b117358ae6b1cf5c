/**
 * Envelope keys that claim privileges. Claude Code never sends them; their presence means a forged
 * payload (threat model W4). A module of its own, without the schemas, so the executable's client-hook
 * mapping (clients/plan-client-hook.ts) can carry them onto a mapped payload without loading valibot.
 */
export const RESERVED_CLAIM_KEYS = [
  'force',
  'deliberate',
  'write_class',
  'origin',
  'origin_tool',
  'trust',
] as const;
