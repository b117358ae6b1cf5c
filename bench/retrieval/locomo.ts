/**
 * Converts LoCoMo (Maharana et al., ACL 2024; `data/locomo10.json` of snap-research/LoCoMo) into the
 * generic benchmark dataset. Pure: takes the parsed JSON, returns the dataset and a report of every
 * evidence reference it had to repair or drop, so the cleaning is visible rather than silent.
 */
import {
  type BenchCategory,
  type BenchConversation,
  type BenchDataset,
  type BenchQuestion,
  type BenchSession,
  type BenchTurn,
  DATASET_FORMAT,
} from './dataset.js';

/**
 * Category ids as the dataset's own evaluation code defines them. Several public harnesses swap 1 and
 * 4 or 2 and 3; these are the authoritative names.
 */
export const LOCOMO_CATEGORIES: readonly BenchCategory[] = [
  { id: '1', name: 'multi-hop' },
  { id: '2', name: 'temporal' },
  { id: '3', name: 'open-domain' },
  { id: '4', name: 'single-hop' },
  { id: '5', name: 'adversarial', adversarial: true },
];

/** One evidence string that was not already a single, existing turn id, and what became of it. */
export interface EvidenceRepair {
  conversation: string;
  question: string;
  raw: string;
  /** Turn ids kept from it (after splitting and normalising). */
  kept: string[];
  /** Pieces dropped: not a `D<session>:<turn>` id, or naming a turn that does not exist. */
  dropped: string[];
}

export interface LocomoConversion {
  dataset: BenchDataset;
  repairs: EvidenceRepair[];
  /** Questions left out because none of their evidence names an existing turn. */
  excluded: { conversation: string; question: string; category: string; evidence: string[] }[];
  /** Questions in the source, before exclusion. */
  sourceQuestions: number;
}

const SESSION_KEY = /^session_(\d+)$/;
const TURN_REF = /^D(\d+):(\d+)$/;
const DATE_TEXT = /^(\d{1,2}):(\d{2})\s*([ap]m)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})$/i;
const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** Converts the parsed `locomo10.json`. Throws an Error naming the first structural problem. */
export function convertLocomo(source: unknown): LocomoConversion {
  if (!Array.isArray(source)) throw new Error('LoCoMo data must be a JSON array of samples.');
  const repairs: EvidenceRepair[] = [];
  const excluded: LocomoConversion['excluded'] = [];
  let sourceQuestions = 0;
  const conversations: BenchConversation[] = source.map((rawSample, index) => {
    const sample = record(rawSample, `sample ${index}`);
    const id = typeof sample.sample_id === 'string' ? sample.sample_id : `conv-${index}`;
    const conversation = record(sample.conversation, `${id}.conversation`);
    const sessions = convertSessions(conversation, id);
    const turnIds = new Set(sessions.flatMap((s) => s.turns.map((t) => t.id)));
    const questions: BenchQuestion[] = [];
    const qa = Array.isArray(sample.qa) ? (sample.qa as unknown[]) : [];
    qa.forEach((rawQuestion, qIndex) => {
      sourceQuestions += 1;
      const q = record(rawQuestion, `${id}.qa[${qIndex}]`);
      const question = stringField(q.question).trim();
      const category = String(q.category);
      const rawEvidence = Array.isArray(q.evidence) ? q.evidence.map(String) : [];
      const evidence = cleanEvidence(rawEvidence, turnIds, (repair) =>
        repairs.push({ conversation: id, question, ...repair }),
      );
      if (evidence.length === 0) {
        excluded.push({ conversation: id, question, category, evidence: rawEvidence });
        return;
      }
      questions.push({
        id: `${id}/q${qIndex}`,
        question,
        // Category-5 questions carry `adversarial_answer` instead of (rarely: as well as) `answer`.
        answer: answerText(q.answer ?? q.adversarial_answer),
        category,
        evidence,
      });
    });
    return { id, sessions, questions };
  });
  return {
    dataset: {
      format: DATASET_FORMAT,
      name: 'locomo',
      categories: LOCOMO_CATEGORIES.map((c) => ({ ...c })),
      conversations,
    },
    repairs,
    excluded,
    sourceQuestions,
  };
}

/**
 * Splits evidence strings that hold several refs (`D8:6; D9:17`, `D9:1 D4:4`), normalises numbers
 * (`D30:05` → `D30:5`), and drops pieces that are not refs (`D`, `D:11:26`) or name no existing turn.
 * Order is kept, duplicates removed. `onRepair` hears about every string that was not already clean.
 */
export function cleanEvidence(
  raw: readonly string[],
  turnIds: ReadonlySet<string>,
  onRepair: (repair: { raw: string; kept: string[]; dropped: string[] }) => void = () => {},
): string[] {
  const out: string[] = [];
  for (const entry of raw) {
    const kept: string[] = [];
    const dropped: string[] = [];
    for (const piece of entry.split(/[\s;,]+/).filter((p) => p.length > 0)) {
      const match = TURN_REF.exec(piece);
      const id = match === null ? null : `D${Number(match[1])}:${Number(match[2])}`;
      if (id !== null && turnIds.has(id)) kept.push(id);
      else dropped.push(piece);
    }
    if (!(kept.length === 1 && dropped.length === 0 && kept[0] === entry)) {
      onRepair({ raw: entry, kept, dropped });
    }
    for (const id of kept) if (!out.includes(id)) out.push(id);
  }
  return out;
}

/** Parses LoCoMo's session dates ("1:56 pm on 8 May, 2023") as UTC instants; throws on other shapes. */
export function parseLocomoDate(text: string): string {
  const match = DATE_TEXT.exec(text.trim());
  const month = match === null ? -1 : MONTHS.indexOf(match[5]!.toLowerCase());
  if (match === null || month < 0) throw new Error(`Unrecognised LoCoMo date "${text}".`);
  const hour12 = Number(match[1]) % 12;
  const hour = match[3]!.toLowerCase() === 'pm' ? hour12 + 12 : hour12;
  const time = Date.UTC(Number(match[6]), month, Number(match[4]), hour, Number(match[2]));
  return new Date(time).toISOString();
}

function convertSessions(conversation: Record<string, unknown>, id: string): BenchSession[] {
  const numbers = Object.keys(conversation)
    .map((key) => SESSION_KEY.exec(key))
    .filter((m): m is RegExpExecArray => m !== null && Array.isArray(conversation[m[0]]))
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
  return numbers.map((n) => {
    const dateText = conversation[`session_${n}_date_time`];
    if (typeof dateText !== 'string') throw new Error(`${id}.session_${n} has no date_time.`);
    const turns = (conversation[`session_${n}`] as unknown[]).map((rawTurn, t): BenchTurn => {
      const turn = record(rawTurn, `${id}.session_${n}[${t}]`);
      const out: BenchTurn = {
        id: String(turn.dia_id),
        speaker: String(turn.speaker),
        text: stringField(turn.text),
      };
      if (typeof turn.blip_caption === 'string' && turn.blip_caption.trim() !== '') {
        out.caption = turn.blip_caption;
      }
      return out;
    });
    return { id: `session_${n}`, startedAt: parseLocomoDate(dateText), dateText, turns };
  });
}

function stringField(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function answerText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function record(value: unknown, at: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`${at} must be an object.`);
  }
  return value as Record<string, unknown>;
}
