/**
 * The MCP edge: mnemo's tools for a model, served over stdio by `mnemo mcp`. Every SDK import lives in
 * this folder, so a move to the SDK's v2 packages touches nothing else. Tools reach the store only
 * through `app` (the MemoryStore port), the write service and retrieval; never a backend.
 *
 * This file defines the shape of one tool: `defineTool` pairs a zod input schema, an output schema and a
 * prompt-style description with a `run` that returns domain data plus the text the model reads. `call`
 * turns that into a `CallToolResult`, and every error into the boundary's result (`to-tool-result.ts`).
 */
import type {
  CallToolResult,
  ElicitRequestFormParams,
  ElicitResult,
  ToolAnnotations,
} from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';

import type { App } from '../app/open-app.js';
import type { Logger } from '../log/log.js';
import { toToolResult } from './to-tool-result.js';

/** What a tool's `run` receives: the app, the connection's project and a fresh nonce per emission. */
export interface ToolContext {
  readonly app: App;
  readonly log: Logger;
  /**
   * The project this connection serves (the client's first root, else `CLAUDE_PROJECT_DIR`, else the
   * working directory), or null when none resolves: then only global memories are visible and writes
   * are refused. Awaits a roots request still in flight.
   */
  projectKey(): Promise<string | null>;
  /**
   * The directory that project was resolved from (where its files are, for anchors), or null with it.
   * Never derived from the project key.
   */
  projectDir(): Promise<string | null>;
  /** Fresh crypto-random hex for one rendered emission (threat model R2). */
  nonce(): string;
  /**
   * The person using the client, reached through MCP form elicitation (a request the client puts to its
   * user, not to the model), tied to the tool call in progress; null when the client did not declare
   * the capability at initialize.
   */
  person(): PersonAtClient | null;
}

/** A question channel to the client's user (`elicitation/create`, form mode). */
export interface PersonAtClient {
  /** The client's name as it gave it at initialize (`clientInfo.name`), or '' when it gave none. */
  readonly client: string;
  /** Asks one form question; rejects on a transport error, a timeout or an answer off the schema. */
  ask(params: ElicitRequestFormParams): Promise<ElicitResult>;
}

/** What `run` returns: the structured result (validated against `output`) and the model-facing text. */
export interface ToolReply<O> {
  structured: O;
  text: string;
}

/** Object schemas only: MCP tool arguments and structured results are JSON objects. */
export type ObjectSchema = z.ZodObject;

/** The definition a tool file writes. */
export interface ToolSpec<I extends ObjectSchema, O extends ObjectSchema> {
  /** snake_case `verb_noun`; public API, seen by hooks as `mcp__mnemo__<name>`. */
  readonly name: string;
  readonly title: string;
  /** Prompt text: what it does, when to use it, when not to. Snapshot-tested. */
  readonly description: string;
  readonly input: I;
  readonly output: O;
  readonly annotations: ToolAnnotations;
  run(ctx: ToolContext, args: z.output<I>): Promise<ToolReply<z.output<O>>>;
}

/** A defined tool with its types erased, so all tools fit one array. */
export interface McpTool {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly input: ObjectSchema;
  readonly output: ObjectSchema;
  readonly annotations: ToolAnnotations;
  /** Runs the tool on arguments the SDK has already validated against `input`. Never throws. */
  call(ctx: ToolContext, args: unknown): Promise<CallToolResult>;
}

/** Defines one tool. */
export function defineTool<I extends ObjectSchema, O extends ObjectSchema>(
  spec: ToolSpec<I, O>,
): McpTool {
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    input: spec.input,
    output: spec.output,
    annotations: { title: spec.title, openWorldHint: false, ...spec.annotations },
    async call(ctx, args) {
      try {
        // The SDK parsed `args` with `spec.input` before calling us.
        const reply = await spec.run(ctx, args as z.output<I>);
        return {
          content: [{ type: 'text', text: reply.text }],
          structuredContent: reply.structured,
        };
      } catch (error) {
        return toToolResult(error, { tool: spec.name, log: ctx.log });
      }
    },
  };
}
