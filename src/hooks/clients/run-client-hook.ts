/**
 * `mnemo hook --client <id> <event>`: the entry point of another client's hooks. Not yet mapped: every
 * event is logged and ignored, and the hook exits 0 with nothing printed.
 */
import { reportUnknownHook } from '../run-hook.js';

/** The process seams of a client hook. */
export interface ClientHookIo {
  stdin: AsyncIterable<Uint8Array | string>;
  stdout: { write(text: string): unknown };
  env: NodeJS.ProcessEnv;
}

/** Runs one client hook; never throws, prints nothing it was not meant to. */
export async function runClientHook(
  client: string,
  event: string,
  io: ClientHookIo,
): Promise<void> {
  reportUnknownHook(`${client}:${event}`, io.env);
  await Promise.resolve();
}
