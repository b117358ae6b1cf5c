import { describe, expect, it } from 'vitest';

import { parseDataset } from '../../bench/retrieval/dataset.js';
import { cleanEvidence, convertLocomo, parseLocomoDate } from '../../bench/retrieval/locomo.js';

/** A LoCoMo-shaped sample: two sessions (a third is dated but empty), every malformed-evidence shape. */
function fixture(): unknown {
  return [
    {
      sample_id: 'conv-x',
      conversation: {
        speaker_a: 'Ann',
        speaker_b: 'Bo',
        session_1_date_time: '1:56 pm on 8 May, 2023',
        session_1: [
          { speaker: 'Ann', dia_id: 'D1:1', text: 'I adopted a dog.' },
          {
            speaker: 'Bo',
            dia_id: 'D1:2',
            text: 'Lovely!',
            img_url: ['x'],
            blip_caption: 'a photo of a dog',
          },
        ],
        session_2_date_time: '10:04 am on 19 June, 2023',
        session_2: [
          { speaker: 'Ann', dia_id: 'D2:1', text: 'The dog is called Rex.' },
          { speaker: 'Bo', dia_id: 'D2:5', text: 'Nice name.' },
        ],
        session_3_date_time: '9:00 am on 1 July, 2023',
      },
      qa: [
        { question: 'What did Ann adopt?', answer: 'a dog', evidence: ['D1:1'], category: 4 },
        { question: 'Split refs?', answer: 'x', evidence: ['D1:1; D2:1'], category: 1 },
        { question: 'Spaces?', answer: 'x', evidence: ['D1:2 D2:1 D2:1'], category: 3 },
        { question: 'Leading zero?', answer: 2023, evidence: ['D2:05'], category: 2 },
        { question: 'Junk kept?', answer: 'x', evidence: ['D', 'D1:1', 'D:11:26'], category: 1 },
        { question: 'Missing turn?', answer: 'x', evidence: ['D9:9'], category: 3 },
        { question: 'No evidence?', answer: 'x', evidence: [], category: 3 },
        {
          question: 'Adversarial?',
          adversarial_answer: 'a cat',
          evidence: ['D2:1'],
          category: 5,
        },
      ],
    },
  ];
}

describe('convertLocomo', () => {
  it('names the categories as the dataset defines them, marking only 5 as adversarial', () => {
    const { dataset } = convertLocomo(fixture());
    expect(dataset.categories).toEqual([
      { id: '1', name: 'multi-hop' },
      { id: '2', name: 'temporal' },
      { id: '3', name: 'open-domain' },
      { id: '4', name: 'single-hop' },
      { id: '5', name: 'adversarial', adversarial: true },
    ]);
  });

  it('splits, normalises and drops malformed evidence, and excludes questions left without any', () => {
    const { dataset, repairs, excluded, sourceQuestions } = convertLocomo(fixture());
    const evidence = Object.fromEntries(
      dataset.conversations[0]!.questions.map((q) => [q.question, q.evidence]),
    );
    expect(evidence).toEqual({
      'What did Ann adopt?': ['D1:1'],
      'Split refs?': ['D1:1', 'D2:1'],
      'Spaces?': ['D1:2', 'D2:1'],
      'Leading zero?': ['D2:5'],
      'Junk kept?': ['D1:1'],
      'Adversarial?': ['D2:1'],
    });
    expect(sourceQuestions).toBe(8);
    expect(excluded.map((e) => e.question)).toEqual(['Missing turn?', 'No evidence?']);
    expect(repairs.map((r) => [r.raw, r.kept, r.dropped])).toEqual([
      ['D1:1; D2:1', ['D1:1', 'D2:1'], []],
      ['D1:2 D2:1 D2:1', ['D1:2', 'D2:1', 'D2:1'], []],
      ['D2:05', ['D2:5'], []],
      ['D', [], ['D']],
      ['D:11:26', [], ['D:11:26']],
      ['D9:9', [], ['D9:9']],
    ]);
  });

  it('takes the adversarial answer when a question has no answer, and stringifies numbers', () => {
    const questions = convertLocomo(fixture()).dataset.conversations[0]!.questions;
    expect(questions.find((q) => q.category === '5')?.answer).toBe('a cat');
    expect(questions.find((q) => q.category === '2')?.answer).toBe('2023');
  });

  it('keeps sessions that have turns, in order, with parsed dates and captions', () => {
    const conversation = convertLocomo(fixture()).dataset.conversations[0]!;
    expect(conversation.sessions.map((s) => [s.id, s.startedAt, s.turns.length])).toEqual([
      ['session_1', '2023-05-08T13:56:00.000Z', 2],
      ['session_2', '2023-06-19T10:04:00.000Z', 2],
    ]);
    expect(conversation.sessions[0]!.turns[1]).toEqual({
      id: 'D1:2',
      speaker: 'Bo',
      text: 'Lovely!',
      caption: 'a photo of a dog',
    });
  });

  it('produces a dataset that the generic format accepts unchanged', () => {
    const { dataset } = convertLocomo(fixture());
    expect(parseDataset(JSON.parse(JSON.stringify(dataset)))).toEqual(dataset);
  });

  it('refuses input that is not an array of samples', () => {
    expect(() => convertLocomo({ qa: [] })).toThrow(/JSON array/);
  });
});

describe('cleanEvidence', () => {
  it('keeps clean refs without reporting them and drops duplicates', () => {
    const heard: string[] = [];
    const kept = cleanEvidence(['D1:1', 'D1:1'], new Set(['D1:1']), (r) => heard.push(r.raw));
    expect(kept).toEqual(['D1:1']);
    expect(heard).toEqual([]);
  });
});

describe('parseLocomoDate', () => {
  it.each([
    ['12:09 am on 13 March, 2023', '2023-03-13T00:09:00.000Z'],
    ['12:30 pm on 1 January, 2024', '2024-01-01T12:30:00.000Z'],
    ['7:05 pm on 28 February, 2022', '2022-02-28T19:05:00.000Z'],
  ])('reads %s as UTC', (text, iso) => {
    expect(parseLocomoDate(text)).toBe(iso);
  });

  it('refuses an unknown shape', () => {
    expect(() => parseLocomoDate('8 May 2023')).toThrow(/Unrecognised/);
  });
});

describe('parseDataset', () => {
  it('names the path of the first problem', () => {
    const { dataset } = convertLocomo(fixture());
    const broken = JSON.parse(JSON.stringify(dataset)) as {
      conversations: { questions: { evidence: string[] }[] }[];
    };
    broken.conversations[0]!.questions[0]!.evidence = ['D7:7'];
    expect(() => parseDataset(broken)).toThrow(
      '$.conversations[0].questions[0].evidence names unknown turn "D7:7".',
    );
  });
});
