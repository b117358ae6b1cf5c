import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  type CallToolResult,
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
  ListRootsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach } from 'vitest';

import type { App } from '../../src/app/open-app.js';
import { type Memory, type NewMemory, normaliseContent } from '../../src/core/memory.js';
import { createMcpServer, type CreateMcpServerOptions } from '../../src/mcp/create-mcp-server.js';
import type { Clock } from '../../src/ports/clock.js';
import { contentHash } from '../../src/store/content-hash.js';
import { MNEMO_BIN, type TestHome } from './mnemo-bin.js';
import { useTempDirs } from './temp-dir.js';
import { openTestApp } from './test-app.js';

export interface McpHarness {
  app: App;
  client: Client;
  /** The project directory the client announces as its first root (or the server's cwd). */
  project: string;
  /** Calls a tool and returns its result (a protocol error rejects). */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** Replaces the client's roots and notifies the server. */
  setRoots(dirs: readonly string[]): Promise<void>;
}

export interface HarnessOptions {
  /** Announce roots (default true): the project dir is the first root. */
  roots?: boolean;
  /** Server-side env and cwd (the fallbacks when the client has no roots). */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  clock?: Clock;
  server?: Omit<CreateMcpServerOptions, 'env' | 'cwd'>;
  /**
   * Declare form elicitation and answer each `elicitation/create` with this (the client's user, in a
   * real client). Omitted: the client declares no elicitation capability.
   */
  elicit?: (request: ElicitRequest['params']) => ElicitResult | Promise<ElicitResult>;
  /** The name the client gives at initialize. Default `mnemo-test`. */
  clientName?: string;
}

/**
 * Real app on a temporary home, real server, real SDK `Client`, linked in memory. Everything is closed
 * after the test.
 */
export function useMcpHarness(): (options?: HarnessOptions) => Promise<McpHarness> {
  const tempDir = useTempDirs();
  const open: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of open.splice(0).reverse()) await close();
  });
  return async (options = {}) => {
    const root = tempDir('mnemo-mcp-');
    const project = join(root, 'project');
    mkdirSync(project);
    const app = await openTestApp(join(root, 'home'), { clock: options.clock });
    let roots = [project];
    const server = createMcpServer(app, {
      env: options.env ?? {},
      cwd: options.cwd ?? join(root, 'home'),
      ...options.server,
    });
    const withRoots = options.roots ?? true;
    const { elicit } = options;
    const client = new Client(
      { name: options.clientName ?? 'mnemo-test', version: '0.0.0' },
      {
        capabilities: {
          ...(withRoots ? { roots: { listChanged: true } } : {}),
          ...(elicit === undefined ? {} : { elicitation: { form: {} } }),
        },
      },
    );
    if (elicit !== undefined) {
      client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request.params));
    }
    if (withRoots) {
      client.setRequestHandler(ListRootsRequestSchema, () => ({
        roots: roots.map((dir) => ({ uri: pathToFileURL(dir).href, name: dir })),
      }));
    }
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    await client.connect(clientSide);
    open.push(async () => {
      await client.close();
      await server.close();
      await app.close();
    });
    return {
      app,
      client,
      project,
      call: async (name, args = {}) =>
        (await client.callTool({ name, arguments: args })) as CallToolResult,
      async setRoots(dirs) {
        roots = [...dirs];
        await client.sendRootsListChanged();
      },
    };
  };
}

/** The text of a result's first content block. */
export function textOf(result: CallToolResult): string {
  const block = result.content[0];
  if (block?.type !== 'text') throw new Error(`no text block in ${JSON.stringify(result)}`);
  return block.text;
}

/** Stores a memory directly (a test backdoor: real writers go through the write service). */
export async function seedMemory(
  app: App,
  input: Partial<NewMemory> & { content: string; projectKey: string },
): Promise<Memory> {
  const { memory } = await app.store.remember({ origin: 'user', originTool: 'cli', ...input });
  return memory;
}

/**
 * Does what the PreToolUse hook does before mnemo's `remember` runs: links `content` to `sessionId`.
 * With `taintedBy`, the session first reads untrusted content (as PostToolUse WebFetch would record).
 */
export async function claimSession(
  app: App,
  content: string,
  sessionId: string,
  taintedBy?: { origin: string; toolName: string },
): Promise<void> {
  if (taintedBy !== undefined) {
    await app.store.markSessionTainted(sessionId, taintedBy.origin, taintedBy.toolName);
  }
  await app.store.recordRememberClaim({
    sessionId,
    contentHash: contentHash(normaliseContent(content)),
    toolUseId: null,
  });
}

/** A `mnemo mcp` child process of the BUILT binary, with a real SDK client on its stdio. */
export interface StdioMcp {
  client: Client;
  /** Transport errors: a non-protocol line on the server's stdout shows up here. */
  errors: Error[];
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  pid: number | null;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/**
 * Spawns `node dist/cli/main.js mcp` in `home` (its env, its project as working directory) and connects a
 * client that announces `roots` (default: the home's project) when given.
 */
export async function startStdioMcp(
  home: TestHome,
  options: {
    roots?: readonly string[];
    /** As {@link HarnessOptions.elicit}: declare form elicitation and answer with this. */
    elicit?: HarnessOptions['elicit'];
    clientName?: string;
  } = {},
): Promise<StdioMcp> {
  const env = Object.fromEntries(
    Object.entries(home.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MNEMO_BIN, 'mcp'],
    env,
    cwd: home.project,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const errors: Error[] = [];
  transport.onerror = (error) => errors.push(error);
  const roots = options.roots ?? [home.project];
  const { elicit } = options;
  const client = new Client(
    { name: options.clientName ?? 'mnemo-e2e', version: '0.0.0' },
    {
      capabilities: {
        roots: { listChanged: true },
        ...(elicit === undefined ? {} : { elicitation: { form: {} } }),
      },
    },
  );
  if (elicit !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request.params));
  }
  client.setRequestHandler(ListRootsRequestSchema, () => ({
    roots: roots.map((dir) => ({ uri: pathToFileURL(dir).href })),
  }));
  await client.connect(transport);
  return {
    client,
    errors,
    stderr: () => stderr,
    pid: transport.pid,
    call: async (name, args = {}) =>
      (await client.callTool({ name, arguments: args })) as CallToolResult,
    close: () => client.close(),
  };
}
