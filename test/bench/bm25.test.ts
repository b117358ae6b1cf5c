import { describe, expect, it } from 'vitest';

import { Bm25Index, lightStem, tokenize } from '../../bench/retrieval/bm25.js';
import { memoryText } from '../../bench/retrieval/memory-text.js';

describe('Bm25Index', () => {
  it('ranks the document sharing the rarer query term first', () => {
    const index = new Bm25Index([
      'the cat sat on the mat',
      'a dog chased the cat',
      'the dog barked at the mailman',
    ]);
    expect(index.search('mailman dog', 3).map((h) => h.doc)).toEqual([2, 1]);
  });

  it('returns nothing for stop words only and breaks ties by position', () => {
    const index = new Bm25Index(['red fox', 'red fox']);
    expect(index.search('the and of', 5)).toEqual([]);
    expect(index.search('fox', 5).map((h) => h.doc)).toEqual([0, 1]);
  });
});

describe('tokenize', () => {
  it('lowercases, drops stop words and strips common inflections', () => {
    expect(tokenize('When did Caroline go to the support groups?')).toEqual([
      'caroline',
      'go',
      'support',
      'group',
    ]);
    expect(['painting', 'painted', 'stories', 'class'].map(lightStem)).toEqual([
      'paint',
      'paint',
      'story',
      'class',
    ]);
  });
});

describe('memoryText', () => {
  const session = {
    id: 'session_1',
    startedAt: '2023-05-08T13:56:00.000Z',
    dateText: '1:56 pm on 8 May, 2023',
    turns: [
      { id: 'D1:1', speaker: 'Ann', text: 'Hi' },
      { id: 'D1:2', speaker: 'Bo', text: 'Look', caption: 'a photo of a dog' },
      { id: 'D1:3', speaker: 'Ann', text: 'Cute' },
    ],
  };

  it('prefixes the session date and speaker and appends the image caption', () => {
    expect(memoryText(session, 1)).toBe(
      '[1:56 pm on 8 May, 2023] Bo: Look [shares a photo: a photo of a dog]',
    );
  });

  it('adds neighbouring turns of the same session as a context line', () => {
    expect(memoryText(session, 0, { contextBefore: 1, contextAfter: 1, captions: false })).toBe(
      '[1:56 pm on 8 May, 2023] Ann: Hi\n(context) Bo: Look',
    );
  });
});
