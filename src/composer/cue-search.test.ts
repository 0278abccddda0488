import { afterEach, describe, expect, it } from 'vitest';

import { EngramError } from '../spec/errors.js';
import type { EmbeddingModel } from '../spec/providers.js';
import { topicModel } from '../testing/topic-model.js';
import { createEngram, type Engram } from '../runtime/engram.js';
import type { Clock } from '../util/clock.js';
import { resolveTimeWindows } from '../util/time/time-expressions.js';
import { searchTerms } from '../util/word-forms.js';
import { tempEngram } from '../../test/helpers/temp-engram.js';
import { meaningWeight, ruleOf, searchCues } from './cue-search.js';
import { asksAboutUserNow, questionSubject } from './question-subject.js';

/** Concepts a question and a turn can share without sharing a word. */
const CONCEPTS: ReadonlyArray<readonly string[]> = [
  ['doctor', 'doctors', 'dermatologist', 'physician', 'ent', 'specialist', 'clinic'],
  ['buy', 'bought', 'investment', 'shares', 'stock', 'fund'],
  ['pasta', 'recipe', 'cook', 'dinner'],
];
const conceptModel = (options: { busy?: () => boolean } = {}) =>
  topicModel(CONCEPTS, { modelId: 'concepts', ...options });

const scope = { user_id: 'mira', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };
/** A clock one millisecond later at every reading, from 2026-06-30 noon: every write and compose has its own time. */
function ticking(): Clock {
  let at = Date.parse('2026-06-30T12:00:00.000Z');
  return { now: () => new Date((at += 1)) };
}

describe('compose finds passages by words, meaning and time', () => {
  let engram: Engram | undefined;
  afterEach(async () => {
    await engram?.close();
    engram = undefined;
  });

  /** An Engram over a new in-memory store with the user's turns committed, each at its time. */
  async function seeded(
    model: EmbeddingModel,
    turns: ReadonlyArray<[ts: string, content: string]> = [
      ['2026-05-10T09:00:00.000Z', 'Saw the dermatologist, Dr. Lee, about the rash on my arm.'],
      ['2026-05-20T09:00:00.000Z', 'The ENT specialist says my hearing is fine.'],
      ['2026-06-02T09:00:00.000Z', 'I put some money into an index fund this morning.'],
      ['2026-06-20T09:00:00.000Z', 'Tried a new pasta recipe for dinner, it was great.'],
      ['2026-06-25T09:00:00.000Z', 'How many different doctors did my brother visit last year?'],
    ],
  ): Promise<Engram> {
    engram = await createEngram({ store: 'sqlite::memory:', embeddings: model, clock: ticking(), worker: false });
    for (const [index, [ts, content]] of turns.entries()) {
      await engram.commitTurn({ scope, turn_id: `t${index}`, ts, messages: [{ role: 'user', content }] });
    }
    return engram;
  }

  const passages = (packet: Awaited<ReturnType<Engram['compose']>>) =>
    (packet.short_term.key_quotes ?? []).map((quote) => quote.quote);

  /** A responder packet for a question asked at `reference_time`, once the turns have their vectors. */
  async function askAt(store: Engram, query: string, reference_time: string, max_tokens: number) {
    await store.maintenance.runEmbeddings();
    return store.compose({ scope, purpose: 'responder', cues: { query }, reference_time, budget: { max_tokens } });
  }

  it('finds a turn that shares no word with the question by meaning, and says which signals found each passage', async () => {
    const model = conceptModel();
    const store = await seeded(model);
    await store.maintenance.runEmbeddings();
    const packet = await store.compose({
      scope,
      purpose: 'responder',
      cues: { query: 'Which physicians have I seen?' },
      budget: { max_tokens: 600 },
    });
    const shown = passages(packet);
    expect(shown.some((quote) => quote.includes('dermatologist'))).toBe(true);
    expect(shown.some((quote) => quote.includes('ENT specialist'))).toBe(true);
    const derm = packet.explain.selected.find((line) => line.includes('key_quotes:') && line.includes('meaning #'));
    expect(derm).toMatch(/cue\.hybrid\((words #\d+, )?meaning #\d+/u);
    expect(packet.explain.filters['retrieval']).toMatchObject({ meaning: 'used', embedding_model: 'test:concepts' });
    // The query was embedded once, on the interactive lane.
    expect(model.queries).toEqual(['Which physicians have I seen?']);
  });

  it('weighs meaning more when the best word match holds few of the question’s words, as far as the model reads the question', async () => {
    const model = conceptModel();
    const store = await seeded(model);
    await store.maintenance.runEmbeddings();
    const weightFor = async (query: string) => {
      const packet = await store.compose({ scope, purpose: 'responder', cues: { query }, budget: { max_tokens: 600 } });
      return (packet.explain.filters['retrieval'] as { meaning_weight: number }).meaning_weight;
    };
    // Every content word in the best match ("pasta", "recipe"): words find it, meaning keeps 0.4.
    expect(await weightFor('Which pasta recipe?')).toBe(0.4);
    // No word of the question in any turn: meaning weighs 0.4 + 0.25.
    expect(await weightFor('Which physicians?')).toBe(0.65);
    // Half of them ("doctors" is held, "dentist" is not).
    expect(await weightFor('Which doctors or dentists?')).toBe(0.525);
  });

  it('refuses a model whose coverage is not a share from 0 to 1, naming it, and stores no build', async () => {
    for (const coverage of [
      () => 2,
      () => Number.NaN,
      () => 'all' as unknown as number,
      () => {
        throw new Error('no table');
      },
    ]) {
      const store = await seeded({ ...conceptModel(), coverage });
      await store.maintenance.runEmbeddings();
      const error = await store.compose({ scope, purpose: 'responder', cues: { query: 'Which physicians?' } }).then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(EngramError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: 'INTERNAL', field: 'embeddings.coverage' });
      expect(await store.builds.list({ user_id: scope.user_id })).toEqual([]);
      await store.close();
      engram = undefined;
    }
  });

  it('gives meaning no more weight for a question the model cannot read', () => {
    const best = {
      content: { text: 'Saw the dermatologist about the rash.' },
    } as unknown as Parameters<typeof meaningWeight>[1];
    expect(meaningWeight('Which physicians?', best, 1)).toBe(0.65);
    expect(meaningWeight('Which physicians?', best, 0.2)).toBe(0.45);
    // "seen" is a form of "saw", which the match holds: one of the two words.
    expect(meaningWeight('Which physicians have I seen?', best, 1)).toBe(0.525);
    expect(meaningWeight('我看过哪些医生？', undefined, 0)).toBe(0.4);
    expect(meaningWeight('Which dermatologist?', best, 1)).toBe(0.4);
    // A word counts by its other forms: "bought" is in the match for "buy".
    const bought = { content: { text: 'I bought shares today.' } } as unknown as Parameters<typeof meaningWeight>[1];
    expect(meaningWeight('What did I buy?', bought, 1)).toBe(0.4);
  });

  it('finds by words alone until turns have vectors, and explain says how many candidates had none', async () => {
    const store = await seeded(conceptModel());
    const packet = await store.compose({
      scope,
      purpose: 'responder',
      cues: { query: 'the dermatologist Dr. Lee' },
      budget: { max_tokens: 600 },
    });
    expect(passages(packet).some((quote) => quote.includes('dermatologist'))).toBe(true);
    expect((packet.explain.filters['retrieval'] as Record<string, unknown>)['meaning']).toBe('used');
    const derm = packet.short_term.key_quotes!.find((quote) => quote.quote.includes('dermatologist'))!;
    const explained = await store.builds.explain({
      build_id: packet.explain.determinism!['context_build_id'] as string,
      id: derm.evidence_id,
    });
    expect(explained.verdict).toBe('selected');
    expect(JSON.stringify(explained)).toMatch(/\d+ of the passages words found have no vector yet/u);
  });

  it('finds by words a turn that told in another form of an irregular verb what the question asks', async () => {
    // No vectors yet: words alone. "buy" and "bought" share no stem; the question's verb brings its past.
    const store = await seeded(conceptModel(), [
      ['2026-06-01T09:00:00.000Z', 'Yesterday I bought a vintage camera.'],
      ['2026-06-02T09:00:00.000Z', 'The weather was lovely on the coast.'],
      ['2026-06-03T09:00:00.000Z', 'Tried a new pasta recipe for dinner.'],
    ]);
    const packet = await store.compose({
      scope,
      purpose: 'responder',
      cues: { query: 'What did I buy?' },
      budget: { max_tokens: 400 },
    });
    const camera = packet.short_term.key_quotes!.find((quote) => quote.quote.includes('bought'))!;
    expect(packet.explain.selected).toContainEqual(
      expect.stringMatching(new RegExp(`key_quotes:${camera.evidence_id}.*cue\\.hybrid\\(words #1`, 'u')),
    );
    const hits = await store.events.search({ scope: { user_id: 'mira' }, query: 'What did I buy?' });
    expect(hits.map((hit) => hit.event.id)).toEqual([camera.evidence_id]);
  });

  it('goes on by words when the model is too busy for the query, and says so', async () => {
    const store = await seeded(conceptModel({ busy: () => true }));
    await store.maintenance.runEmbeddings();
    const packet = await store.compose({
      scope,
      purpose: 'responder',
      cues: { query: 'pasta recipe' },
      budget: { max_tokens: 600 },
    });
    expect(passages(packet).some((quote) => quote.includes('pasta recipe'))).toBe(true);
    expect(packet.explain.filters['retrieval']).toMatchObject({ meaning: 'overloaded' });
  });

  it('resolves "four weeks ago" against the reference time and brings that window’s turns in', async () => {
    const store = await seeded(conceptModel());
    await store.maintenance.runEmbeddings();
    const packet = await store.compose({
      scope,
      purpose: 'responder',
      cues: { query: 'I mentioned something four weeks ago, what was it?' },
      reference_time: '2026-06-30T12:00:00.000Z',
      budget: { max_tokens: 400 },
    });
    const retrieval = packet.explain.filters['retrieval'] as {
      time_windows: Array<{ start: string; end: string }>;
      reference_time: string;
    };
    expect(retrieval.reference_time).toBe('2026-06-30T12:00:00.000Z');
    expect(retrieval.time_windows).toHaveLength(1);
    expect(
      retrieval.time_windows[0]!.start <= '2026-06-02T09:00:00.000Z' &&
        retrieval.time_windows[0]!.end >= '2026-06-02T09:00:00.000Z',
    ).toBe(true);
    const fund = packet.explain.selected.find((line) => line.includes('time #'));
    expect(fund).toBeDefined();
    expect(passages(packet).some((quote) => quote.includes('index fund'))).toBe(true);
  });

  it('counts for a window the turn told after it that names a time inside it, not one told after about later', async () => {
    const store = await seeded(conceptModel(), [
      ['2026-03-14T09:00:00.000Z', 'Spent the whole weekend gardening.'],
      ['2026-04-03T09:00:00.000Z', 'My colleagues and I went to a convention last month, all about tech for good.'],
      ['2026-04-05T09:00:00.000Z', 'I baked bread today, first time in years.'],
      ['2026-06-01T09:00:00.000Z', 'Back from a long walk by the river.'],
    ]);
    const packet = await askAt(store, 'What did I do in March?', '2026-06-30T12:00:00.000Z', 600);
    const ruleOfQuote = (text: string) => {
      const quote = packet.short_term.key_quotes!.find((entry) => entry.quote.includes(text));
      return quote && packet.explain.selected.find((line) => line.startsWith(`key_quotes:${quote.evidence_id}:`));
    };
    expect(ruleOfQuote('gardening')).toMatch(/time #\d/u);
    // Said on 3 April, "last month" is March.
    expect(ruleOfQuote('convention')).toMatch(/time #\d/u);
    // Said after March too, but "today" is 5 April; and June is past the days a March is told in.
    expect(ruleOfQuote('bread') ?? '').not.toMatch(/time #/u);
    expect(ruleOfQuote('river') ?? '').not.toMatch(/time #/u);
  });

  it('reads deep into the turns told after a window: a teller that ranks low by meaning still counts for it', async () => {
    // Twenty-five turns of early April about cooking come first by meaning for a question about
    // cooking; the one that tells of March ("last month") shares no word or topic with it.
    const cooking = Array.from({ length: 25 }, (_, index): [string, string] => [
      `2026-04-${String(2 + Math.floor(index / 2)).padStart(2, '0')}T${String(8 + (index % 2)).padStart(2, '0')}:00:00.000Z`,
      `Made pasta for dinner again, recipe number ${index + 1}.`,
    ]);
    const store = await seeded(conceptModel(), [
      ...cooking,
      ['2026-04-20T09:00:00.000Z', 'Last month I baked sourdough for the first time.'],
    ]);
    const packet = await askAt(store, 'What did I cook in March?', '2026-06-30T12:00:00.000Z', 2000);
    const quote = packet.short_term.key_quotes!.find((entry) => entry.quote.includes('sourdough'));
    expect(quote).toBeDefined();
    expect(packet.explain.selected.find((line) => line.startsWith(`key_quotes:${quote!.evidence_id}:`))).toMatch(
      /time #1\b/u,
    );
  });

  it('puts the best turn of the time a question names first, ahead of a run of other days that share its words', async () => {
    // Every evening of April "cooking is fun" shares a word with the question; the one turn about
    // March ("last month", said in April) shares none and would come after the run.
    const april = Array.from({ length: 20 }, (_, index): [string, string] => [
      `2026-04-${String(index + 1).padStart(2, '0')}T19:00:00.000Z`,
      'Made pasta for dinner again tonight. Cooking is fun after work.',
    ]);
    const store = await seeded(conceptModel(), [
      ...april,
      ['2026-04-25T09:00:00.000Z', 'Last month I baked sourdough for the first time.'],
    ]);
    const packet = await askAt(store, 'What did I cook in March?', '2026-05-02T12:00:00.000Z', 300);
    const [first] = packet.short_term.key_quotes!;
    expect(first!.quote).toContain('sourdough');
    expect(packet.explain.selected).toContainEqual(
      expect.stringMatching(
        new RegExp(`^key_quotes:${first!.evidence_id}: .*time #1.*best of the time named first\\) \\[quote\\]$`, 'u'),
      ),
    );
  });

  it('replays a packet exactly after more turns were embedded: the replay compares only vectors stored before it', async () => {
    const model = conceptModel();
    const store = await seeded(model);
    const packet = await store.compose({
      scope,
      purpose: 'responder',
      cues: { query: 'Which physicians have I seen?' },
      budget: { max_tokens: 600 },
    });
    // Before any vector: nothing found by meaning.
    expect(packet.explain.selected.some((line) => line.includes('meaning #'))).toBe(false);
    await store.maintenance.runEmbeddings();
    const buildId = packet.explain.determinism!['context_build_id'] as string;
    const replayed = await store.builds.replay(buildId);
    expect(replayed.identical).toBe(true);
  });

  it('refuses a reference time that is not a date-time, naming the field, and stores no build', async () => {
    const store = await seeded(conceptModel());
    const error = await store
      .compose({ scope, purpose: 'responder', cues: { query: 'four weeks ago' }, reference_time: 'last tuesday' })
      .then(
        () => undefined,
        (reason: unknown) => reason,
      );
    expect(EngramError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(JSON.stringify((error as EngramError).details ?? error)).toContain('reference_time');
    expect(await store.builds.list({ user_id: scope.user_id })).toEqual([]);
  });

  it('names each signal and its rank in the rule, and what lowered or raised it', () => {
    expect(ruleOf({ words: 2, meaning: 1, time: null })).toBe('cue.hybrid(words #2, meaning #1)');
    expect(ruleOf({ words: null, meaning: null, time: 3 })).toBe('cue.hybrid(time #3)');
    expect(ruleOf({ words: 4, meaning: null, time: null }, { notBy: { speaker: 'Caroline' }, session: 1.456 })).toBe(
      'cue.hybrid(words #4; not by Caroline ×0.5, session ×1.46)',
    );
    expect(ruleOf({ words: 1, meaning: null, time: null }, { notBy: { role: 'user' }, session: 1 })).toBe(
      'cue.hybrid(words #1; not by the user ×0.5)',
    );
  });
});

describe('whose words and which conversation a question is about', () => {
  let engram: Engram | undefined;
  afterEach(async () => {
    await engram?.close();
    engram = undefined;
  });

  /** An Engram with no embedding model (words and time only), a turn a day from 2026-05-01 committed. */
  async function wordsOnly(
    talk: typeof scope,
    turns: ReadonlyArray<{ role: 'user' | 'assistant'; content: string; speaker?: string }>,
  ): Promise<Engram> {
    engram = await createEngram({
      store: 'sqlite::memory:',
      embeddings: { provider: 'none' },
      clock: ticking(),
      worker: false,
    });
    for (const [index, message] of turns.entries()) {
      await engram.commitTurn({
        scope: talk,
        turn_id: `t${index}`,
        ts: `2026-05-0${index + 1}T09:00:00.000Z`,
        messages: [message],
      });
    }
    return engram;
  }

  it('takes the one speaker a question names as its subject, else the user when it asks in the first person', () => {
    expect(questionSubject('What did Caroline research?', ['Caroline', 'Melanie'])).toEqual({ speaker: 'Caroline' });
    expect(questionSubject("What is Caroline's favourite book?", ['Caroline', 'Melanie'])).toEqual({
      speaker: 'Caroline',
    });
    expect(questionSubject('Which doctors did I see?', ['Caroline'])).toEqual({ role: 'user' });
    expect(questionSubject('我上周见了哪位医生？', [])).toEqual({ role: 'user' });
    // Two speakers named, or nobody and not the asker: no subject.
    expect(questionSubject('When did Caroline and Melanie meet?', ['Caroline', 'Melanie'])).toBeNull();
    expect(questionSubject('When is the launch?', ['Caroline', 'Melanie'])).toBeNull();
    // A name word that is a function word does not name a speaker.
    expect(questionSubject('What is the plan?', ['The Planner'])).toBeNull();
  });

  it('takes no subject when a first-person question asks about what its listener said, but does for a request', () => {
    expect(questionSubject('Which hotel did you recommend to me?', [])).toBeNull();
    expect(questionSubject("Can you remind me of the book you've suggested?", [])).toBeNull();
    expect(questionSubject('你上次推荐给我的餐厅叫什么？', [])).toBeNull();
    // Asking the listener for something is not asking about them.
    expect(questionSubject('Can you remind me where I moved?', [])).toEqual({ role: 'user' });
    expect(questionSubject('你能提醒我一下我搬到哪里了吗？', [])).toEqual({ role: 'user' });
    expect(questionSubject('Do you remember where I moved?', [])).toEqual({ role: 'user' });
    expect(questionSubject('你还记得我搬到哪里了吗？', [])).toEqual({ role: 'user' });
    expect(questionSubject('Did you suggest a hotel to me?', [])).toBeNull();
  });

  it('tells a question about the user’s own present or future from one about the past or about someone else', () => {
    for (const question of [
      'Which city do I call home now?',
      'What big celebration do I have coming up?',
      'Have I bought a present for the couple yet?',
      'What will my next trip be?',
      '我夏天要飞去哪儿喝喜酒？',
      '我现在住在哪？',
    ]) {
      expect(asksAboutUserNow(question), question).toBe(true);
    }
    for (const question of [
      'What did I buy four weeks ago?',
      'Where was I living last year?',
      '我上周见了哪位医生了？',
      'What is Caroline’s favourite book?',
      'When is the launch?',
    ]) {
      expect(asksAboutUserNow(question), question).toBe(false);
    }
  });

  it('puts the named speaker’s own turn before another’s turn that only addresses them', async () => {
    const talk = { user_id: 'locomo', agent_id: 'friend', session_id: 'day1', run_id: 'r1' };
    const store = await wordsOnly(talk, [
      {
        speaker: 'Caroline',
        role: 'user',
        content: 'I spent the week researching adoption agencies, it has been a dream of mine.',
      },
      {
        speaker: 'Melanie',
        role: 'assistant',
        content: 'Caroline, your research sounds great! Caroline, tell me more.',
      },
      { speaker: 'Melanie', role: 'assistant', content: 'I painted a lake at sunrise last weekend.' },
    ]);
    const packet = await store.compose({
      scope: { ...talk, session_id: 'questions' },
      purpose: 'responder',
      cues: { query: 'What did Caroline research?' },
      budget: { max_tokens: 400 },
    });
    const quotes = packet.short_term.key_quotes ?? [];
    expect(quotes[0]?.quote).toContain('adoption agencies');
    expect(packet.explain.filters['retrieval']).toMatchObject({ subject: { speaker: 'Caroline' } });
    const melanie = quotes.find((quote) => quote.quote.includes('your research'))!;
    expect(packet.explain.selected.find((line) => line.includes(melanie.evidence_id))).toMatch(
      /not by Caroline ×0\.5/u,
    );
    // Every match is in one session: the session weighs nothing and no rule names it.
    expect(packet.explain.selected.some((line) => line.includes('session ×'))).toBe(false);
  });

  it('puts the assistant’s own answer first when the user asks what the assistant said', async () => {
    const store = await wordsOnly(scope, [
      { role: 'user', content: 'Any hotel tips for my Lisbon trip in May?' },
      {
        role: 'assistant',
        content: 'For Lisbon I recommend the Memmo Alfama hotel, it has a rooftop pool and views of the river.',
      },
      { role: 'user', content: 'I booked a hotel in Porto last year and hated it.' },
    ]);
    const ask = (query: string) =>
      store.compose({
        scope: { ...scope, session_id: 's2' },
        purpose: 'responder',
        cues: { query },
        budget: { max_tokens: 400 },
      });
    const aboutAssistant = await ask('Which hotel in Lisbon did you recommend to me?');
    expect(aboutAssistant.short_term.key_quotes?.[0]?.quote).toContain('Memmo Alfama');
    expect(aboutAssistant.explain.filters['retrieval']).toMatchObject({ subject: null });
    // Asked of the user's own words, the user's turn goes first and the assistant's reply counts half.
    const aboutUser = await ask('Which hotel in Lisbon did I ask about?');
    expect(aboutUser.short_term.key_quotes?.[0]?.quote).toContain('Any hotel tips');
    expect(aboutUser.explain.filters['retrieval']).toMatchObject({ subject: { role: 'user' } });
  });

  it('ranks a match in the conversation that holds the best matches before an equal match elsewhere', async () => {
    engram = await createEngram({
      store: 'sqlite::memory:',
      embeddings: { provider: 'none' },
      clock: ticking(),
      worker: false,
    });
    const base = { user_id: 'hiker', agent_id: 'assistant', run_id: 'r1' };
    const turns: Array<[string, string]> = [
      ['trip', 'We are planning the hiking trip to the Alps in June.'],
      ['trip', 'The hiking trip needs new boots and a tent.'],
      ['trip', 'I packed the boots already.'],
      ['chores', 'Cleaned the boots today.'],
    ];
    for (const [index, [session_id, content]] of turns.entries()) {
      await engram.commitTurn({
        scope: { ...base, session_id },
        turn_id: `t${index}`,
        ts: `2026-05-0${index + 1}T09:00:00.000Z`,
        messages: [{ role: 'user', content }],
      });
    }
    const packet = await engram.compose({
      scope: { ...base, session_id: 'now' },
      purpose: 'responder',
      cues: { query: 'hiking trip boots' },
      budget: { max_tokens: 400 },
    });
    const order = (packet.short_term.key_quotes ?? []).map((quote) => quote.quote);
    const packed = order.findIndex((quote) => quote.includes('packed the boots'));
    const cleaned = order.findIndex((quote) => quote.includes('Cleaned the boots'));
    expect(packed).toBeGreaterThanOrEqual(0);
    expect(cleaned).toBeGreaterThan(packed);
    expect(packet.explain.selected.some((line) => /session ×2\b/u.test(line))).toBe(true);
  });
});

describe('searchCues', () => {
  it('reads the best passage of a named time past its rank, in the last place, and marks it so explain does not take the place for its rank', async () => {
    const t = await tempEngram('2026-06-01T12:00:00.000Z', { embeddings: { provider: 'none' } });
    try {
      const commit = (turn: string, ts: string, speaker: string, content: string) =>
        t.engram.commitTurn({ scope, turn_id: turn, ts, messages: [{ role: 'user', speaker, content }] });
      // Caroline's April turns rank above the one of Melanie's that tells of March in passing: the
      // question is about Caroline, so another speaker's passage counts at half.
      for (let index = 0; index < 6; index += 1)
        await commit(
          `d${index}`,
          `2026-04-0${index + 1}T09:00:00.000Z`,
          'Caroline',
          `Deploy day: the deploy of service ${index}.`,
        );
      const told = await commit(
        'told',
        '2026-04-20T09:00:00.000Z',
        'Melanie',
        'Last month I did one small deploy, then lunch.',
      );
      const text = 'What did Caroline deploy in March?';
      const search = (limit: number) =>
        searchCues(t.storage, undefined, {
          base: {
            tenant_id: 'default',
            user_id: scope.user_id,
            now: '2026-06-01T12:00:00.000Z',
            terms: searchTerms(text),
            limit,
          },
          text,
          windows: resolveTimeWindows(text, '2026-06-01T12:00:00.000Z'),
          embeddedBefore: '2026-06-01T12:00:00.000Z',
        });
      const deep = await search(10);
      const rank = deep.hits.findIndex((hit) => hit.event.id === told.events[0]!.event_id);
      expect(deep.hits[rank]!.signals.time).toBe(1);
      expect(rank).toBeGreaterThan(1);
      expect(deep.hits.some((hit) => hit.keptForTime === true)).toBe(false);
      const { hits } = await search(2);
      expect(hits).toHaveLength(2);
      expect(hits[0]!.keptForTime).toBeUndefined();
      expect(hits[1]).toMatchObject({ event: { id: told.events[0]!.event_id }, keptForTime: true });
    } finally {
      await t.cleanup();
    }
  });
});
