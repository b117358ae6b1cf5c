/**
 * The generic retrieval-benchmark dataset: conversations made of dated sessions of turns, and questions
 * that name the turns holding their answer. Any corpus converted to this shape can be run by the
 * benchmark; docs/bench-dataset-format.md is the normative description. Pure: parsing and validation
 * only, no I/O.
 */

/** Format tag written into every file, so a future incompatible shape is refused instead of misread. */
export const DATASET_FORMAT = 'mnemo-bench-dataset/1';

export interface BenchCategory {
  /** Stable id as the source dataset spells it (LoCoMo: "1".."5"). */
  id: string;
  /** Human name printed in reports (LoCoMo: "multi-hop"...). */
  name: string;
  /** Questions built to mislead (answer absent or about someone else); reported apart as well. */
  adversarial?: boolean;
}

export interface BenchTurn {
  /** Unique within its conversation; evidence refers to it. */
  id: string;
  speaker: string;
  text: string;
  /** A description of an image shared with the turn, when the source has one. */
  caption?: string;
}

export interface BenchSession {
  id: string;
  /** ISO-8601 instant the session started. */
  startedAt: string;
  /** The date as the source wrote it, used in the memory text ("1:56 pm on 8 May, 2023"). */
  dateText: string;
  turns: BenchTurn[];
}

export interface BenchQuestion {
  id: string;
  question: string;
  /** Reference answer, when the source has one (not used for retrieval scoring). */
  answer: string | null;
  /** A `BenchCategory.id`. */
  category: string;
  /** Ids of the turns that hold the answer; never empty in a valid dataset. */
  evidence: string[];
}

export interface BenchConversation {
  id: string;
  sessions: BenchSession[];
  questions: BenchQuestion[];
}

export interface BenchDataset {
  format: typeof DATASET_FORMAT;
  name: string;
  categories: BenchCategory[];
  conversations: BenchConversation[];
}

/**
 * Checks a parsed JSON value against the format and returns it typed. Throws an Error naming the first
 * problem (path and what was expected), so a hand-made dataset can be fixed without reading code.
 */
export function parseDataset(value: unknown): BenchDataset {
  const root = object(value, '$');
  if (root.format !== DATASET_FORMAT) {
    throw new Error(`$.format must be "${DATASET_FORMAT}", got ${JSON.stringify(root.format)}.`);
  }
  const categories = array(root.categories, '$.categories').map((raw, i) => {
    const c = object(raw, `$.categories[${i}]`);
    const category: BenchCategory = {
      id: text(c.id, `$.categories[${i}].id`),
      name: text(c.name, `$.categories[${i}].name`),
    };
    if (c.adversarial === true) category.adversarial = true;
    return category;
  });
  const categoryIds = new Set(categories.map((c) => c.id));
  const conversations = array(root.conversations, '$.conversations').map((raw, ci) => {
    const at = `$.conversations[${ci}]`;
    const c = object(raw, at);
    const turnIds = new Set<string>();
    const sessions = array(c.sessions, `${at}.sessions`).map((rawSession, si) => {
      const sAt = `${at}.sessions[${si}]`;
      const s = object(rawSession, sAt);
      const startedAt = text(s.startedAt, `${sAt}.startedAt`);
      if (Number.isNaN(Date.parse(startedAt))) throw new Error(`${sAt}.startedAt is not ISO-8601.`);
      const turns = array(s.turns, `${sAt}.turns`).map((rawTurn, ti) => {
        const tAt = `${sAt}.turns[${ti}]`;
        const t = object(rawTurn, tAt);
        const turn: BenchTurn = {
          id: text(t.id, `${tAt}.id`),
          speaker: text(t.speaker, `${tAt}.speaker`),
          text: text(t.text, `${tAt}.text`),
        };
        if (t.caption !== undefined) turn.caption = text(t.caption, `${tAt}.caption`);
        if (turnIds.has(turn.id)) throw new Error(`${tAt}.id "${turn.id}" is not unique.`);
        turnIds.add(turn.id);
        return turn;
      });
      return {
        id: text(s.id, `${sAt}.id`),
        startedAt,
        dateText: text(s.dateText, `${sAt}.dateText`),
        turns,
      };
    });
    const questions = array(c.questions, `${at}.questions`).map((rawQ, qi) => {
      const qAt = `${at}.questions[${qi}]`;
      const q = object(rawQ, qAt);
      const category = text(q.category, `${qAt}.category`);
      if (!categoryIds.has(category)) throw new Error(`${qAt}.category "${category}" is unknown.`);
      const evidence = array(q.evidence, `${qAt}.evidence`).map((e, ei) =>
        text(e, `${qAt}.evidence[${ei}]`),
      );
      if (evidence.length === 0) throw new Error(`${qAt}.evidence is empty.`);
      for (const id of evidence) {
        if (!turnIds.has(id)) throw new Error(`${qAt}.evidence names unknown turn "${id}".`);
      }
      return {
        id: text(q.id, `${qAt}.id`),
        question: text(q.question, `${qAt}.question`),
        answer:
          q.answer === null || q.answer === undefined ? null : text(q.answer, `${qAt}.answer`),
        category,
        evidence,
      };
    });
    return { id: text(c.id, `${at}.id`), sessions, questions };
  });
  return { format: DATASET_FORMAT, name: text(root.name, '$.name'), categories, conversations };
}

function object(value: unknown, at: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`${at} must be an object.`);
  }
  return value as Record<string, unknown>;
}

function array(value: unknown, at: string): unknown[] {
  if (!Array.isArray(value)) throw new Error(`${at} must be an array.`);
  return value as unknown[];
}

function text(value: unknown, at: string): string {
  if (typeof value !== 'string' || value.trim().length === 0) {
    throw new Error(`${at} must be a non-empty string.`);
  }
  return value;
}

/**
 * The conversations a `--conversations` spec names (`0-4`, `0,2,5`, `0-2,7`), sorted, each once; all of
 * them without a spec. Throws on an index the dataset does not have.
 */
export function selectConversations(spec: string | undefined, count: number): number[] {
  if (spec === undefined) return Array.from({ length: count }, (_, i) => i);
  const out = new Set<number>();
  for (const part of spec.split(',')) {
    const [from, to] = part.split('-').map(Number);
    for (let i = from!; i <= (to ?? from!); i++) {
      if (!Number.isInteger(i) || i < 0 || i >= count) throw new Error(`No conversation ${i}.`);
      out.add(i);
    }
  }
  return [...out].sort((a, b) => a - b);
}
