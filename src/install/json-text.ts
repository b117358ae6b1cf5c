/**
 * Surgical edits of JSON text. A user's settings keep their key order, indentation, line endings and
 * trailing newline: only the spans mnemo changes are rewritten (jsonc-parser's `modify`, the same
 * machinery as VS Code's settings editor). Parsing is strict JSON, with the line and column of the first
 * error, because Claude Code itself reads these files as JSON.
 */
import {
  applyEdits,
  type Edit,
  findNodeAtLocation,
  format,
  type FormattingOptions,
  type JSONPath,
  modify,
  type Node,
  parse,
  type ParseError,
  parseTree,
  printParseErrorCode,
  stripComments,
} from 'jsonc-parser';

import { MemoryError } from '../core/errors.js';

/** A JSON object as parsed. */
export type JsonObject = Record<string, unknown>;

const BOM = '\uFEFF';

/** A JSON document being edited: its text (without a byte-order mark) and how it is laid out. */
export class JsonText {
  private constructor(
    private body: string,
    private readonly bom: string,
    private readonly formatting: FormattingOptions,
    private readonly fresh: boolean,
    private readonly comments: boolean,
  ) {}

  /**
   * Parses `text` (undefined or blank: a new, empty object). `label` names the file in errors.
   * With `comments`, line and block comments are allowed and kept (a client that reads its file as
   * JSON with comments: VS Code, Gemini CLI).
   * Throws INVALID_INPUT for invalid JSON (with line and column) or a top level that is not an object.
   */
  static parse(
    text: string | undefined,
    label: string,
    options: { comments?: boolean } = {},
  ): JsonText {
    const comments = options.comments === true;
    const bom = text?.startsWith(BOM) === true ? BOM : '';
    const body = text === undefined ? '' : text.slice(bom.length);
    const fresh = body.trim().length === 0;
    const doc = new JsonText(fresh ? '{}' : body, bom, detectFormatting(body), fresh, comments);
    if (!fresh) {
      const errors: ParseError[] = [];
      const value: unknown = parse(body, errors, {
        disallowComments: !comments,
        allowTrailingComma: false,
        allowEmptyContent: false,
      });
      const first = errors[0];
      if (first !== undefined) {
        const { line, column } = position(body, first.offset);
        throw new MemoryError(
          'INVALID_INPUT',
          `${label}:${line}:${column}: not valid JSON (${printParseErrorCode(first.error)}). ` +
            'Fix the file (its client cannot read it either) and run the command again; nothing was written.',
        );
      }
      if (!isObject(value)) {
        throw new MemoryError(
          'INVALID_INPUT',
          `${label}: the top level is not a JSON object. Fix the file and run the command again; nothing was written.`,
        );
      }
    }
    return doc;
  }

  /** The parsed value. */
  value(): JsonObject {
    // The body is strict JSON (validated, and every edit writes JSON), and JSON.parse keeps a
    // `__proto__` key as data where jsonc-parser's object building would drop it.
    return JSON.parse(this.comments ? stripComments(this.body) : this.body) as JsonObject;
  }

  /** The value at `path`, or undefined. */
  get(path: JSONPath): unknown {
    let node: unknown = this.value();
    for (const key of path) {
      if (typeof key === 'number') node = Array.isArray(node) ? (node[key] as unknown) : undefined;
      else node = isObject(node) && Object.hasOwn(node, key) ? node[key] : undefined;
      if (node === undefined) return undefined;
    }
    return node;
  }

  /** Sets (or with `undefined`, removes) the value at `path`, creating missing parent objects. */
  set(path: JSONPath, value: unknown): void {
    if (value === undefined) this.remove(path);
    else this.insert(path, value, false);
  }

  /** Appends `value` to the array at `path`. */
  append(path: JSONPath, value: unknown): void {
    this.insert([...path, -1], value, true);
  }

  /** The document's text, laid out like the original. A new document is `JSON.stringify(_, null, 2)` + newline. */
  text(): string {
    if (this.fresh) {
      const value = this.value();
      return Object.keys(value).length === 0
        ? ''
        : this.bom + JSON.stringify(value, null, 2) + this.formatting.eol;
    }
    return this.bom + this.body;
  }

  /**
   * Inserts or replaces through jsonc-parser's `modify`, unformatted, then lays out only the new text
   * and the rest of its container. jsonc-parser's own formatting would also rewrite the user's line the
   * edit starts on (a compact sibling object would be expanded).
   */
  private insert(path: JSONPath, value: unknown, isArrayInsertion: boolean): void {
    const tree = this.tree();
    const [edit] = modify(this.body, path, value, { isArrayInsertion });
    if (edit === undefined) return;
    const container = edit.length === 0 ? containerAt(tree, edit.offset) : undefined;
    let start = edit.offset;
    let end = edit.offset + edit.content.length;
    if (container !== undefined) {
      // A new member: also lay out the whitespace up to the container's closing bracket, and after its
      // opening bracket when it was empty, so the member gets its own line.
      if ((container.children ?? []).length === 0) start = container.offset;
      end = container.offset + container.length + edit.content.length;
    }
    const next = applyEdits(this.body, [edit]);
    const layout = format(next, { offset: start, length: end - start }, this.formatting);
    this.body = applyEdits(next, layout);
  }

  /**
   * Removes the member at `path` with its separator, and nothing else; a container left empty becomes
   * `{}`/`[]` as JSON.stringify writes it. Done here because jsonc-parser 3.3.1 cuts the last array
   * element short when `]` follows it directly (`[{},{}]`) and eats the whitespace before a first key.
   */
  private remove(path: JSONPath): void {
    const node = findNodeAtLocation(this.tree(), path);
    const member = node?.parent?.type === 'property' ? node.parent : node;
    const parent = member?.parent;
    if (member === undefined || parent === undefined) return;
    const items = parent.children ?? [];
    const index = items.indexOf(member);
    const before = items[index - 1];
    const after = items[index + 1];
    let edit: Edit;
    if (after !== undefined) {
      edit = { offset: member.offset, length: after.offset - member.offset, content: '' };
    } else if (before !== undefined) {
      const offset = before.offset + before.length;
      edit = { offset, length: member.offset + member.length - offset, content: '' };
    } else {
      edit = { offset: parent.offset + 1, length: parent.length - 2, content: '' };
    }
    this.body = applyEdits(this.body, [edit]);
  }

  private tree(): Node {
    const tree = parseTree(this.body);
    if (tree === undefined) throw new Error('JsonText holds unparsable text');
    return tree;
  }
}

/** The innermost object or array whose brackets enclose `offset`. */
function containerAt(node: Node, offset: number): Node | undefined {
  if (offset <= node.offset || offset >= node.offset + node.length) return undefined;
  for (const child of node.children ?? []) {
    const inner = containerAt(child, offset);
    if (inner !== undefined) return inner;
  }
  return node.type === 'object' || node.type === 'array' ? node : undefined;
}

/** True for a plain JSON object (not an array or null). */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Structural equality of parsed JSON values; key order is ignored. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((key) => Object.hasOwn(b, key) && jsonEqual(a[key], b[key]))
    );
  }
  return false;
}

/** Indentation and line ending as the file already uses them; two spaces and `\n` when it says nothing. */
function detectFormatting(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /^([ \t]+)["}\]]/m.exec(text)?.[1];
  if (indent?.startsWith('\t') === true) return { insertSpaces: false, tabSize: 1, eol };
  return { insertSpaces: true, tabSize: indent === undefined ? 2 : indent.length, eol };
}

function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}
