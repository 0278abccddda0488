import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { renderPacket } from '../index.js';
import { scope, tempEngram, type TempEngram } from '../../test/helpers/temp-engram.js';
import { lazyForm, profileParts } from './forms.js';

describe('lazyForm', () => {
  it('builds its value on the first read only, and gives the same value after', () => {
    let made = 0;
    const form = lazyForm('summary', () => {
      made += 1;
      return { text: `cut ${made}` };
    });
    expect(form.level).toBe('summary');
    expect(made).toBe(0);
    const first = form.value;
    expect(first).toEqual({ text: 'cut 1' });
    expect(form.value).toBe(first);
    expect(made).toBe(1);
  });

  it('keeps a value that is undefined without building it again', () => {
    let made = 0;
    const form = lazyForm<string | undefined>('quote', () => {
      made += 1;
      return made === 1 ? undefined : 'again';
    });
    expect(form.value).toBeUndefined();
    expect(form.value).toBeUndefined();
    expect(made).toBe(1);
  });
});

const keysOf = (value: Record<string, unknown>) => (value['facts'] as Array<{ k: string }>).map((fact) => fact.k);

// A user known for months: far more facts than a responder's facts share holds.
const FACTS = [
  { k: 'allergy:peanuts', v: 'allergic to peanuts' },
  { k: 'location', v: 'Lisbon' },
  { k: 'family:wife', v: 'wife Ana' },
  { k: 'role', v: 'data engineer' },
  { k: 'employer', v: 'Feedzai' },
  { k: 'family:sister:marta', v: 'sister Marta' },
  { k: 'diet', v: 'vegetarian' },
  { k: 'taste:guitar', v: 'plays the guitar' },
  { k: 'birthday', v: 'birthday 12 November' },
  { k: 'possession:car', v: 'Tesla Model 3' },
  { k: 'taste:jazz', v: 'likes jazz' },
  { k: 'taste:cilantro', v: 'dislikes cilantro' },
  { k: 'routine:swim', v: 'go swimming every Tuesday' },
  { k: 'family:brother:rui', v: 'brother Rui' },
  { k: 'health:asthma', v: 'asthma' },
  { k: 'family:son:tiago', v: 'son Tiago' },
  { k: 'taste:hiking', v: 'likes hiking in the Alps' },
  { k: 'possession:laptop', v: 'ThinkPad' },
  { k: 'family:daughter:ines', v: 'daughter Inês' },
  { k: 'routine:tea', v: 'drink green tea every morning' },
  { k: 'pet:bolt', v: 'dog Bolt' },
];

describe('profileParts', () => {
  it('puts the facts the cues ask about first, by their words or what their key is about, then the rest in order', () => {
    const profile = { subject: 'user', facts: FACTS };
    expect(keysOf(profileParts(profile, ['dog', 'called'])[0]!).slice(0, 2)).toEqual(['pet:bolt', 'allergy:peanuts']);
    // "live" names no fact's words; `location` is what it asks about.
    expect(keysOf(profileParts(profile, ['live'])[0]!)[0]).toBe('location');
    expect(keysOf(profileParts(profile, ['medication'])[0]!).slice(0, 2)).toEqual(['allergy:peanuts', 'health:asthma']);
    // Age, relationship status and languages by what a question calls them.
    const person = {
      subject: 'user',
      facts: [
        ...FACTS,
        { k: 'age', v: '34' },
        { k: 'relationship', v: 'married' },
        { k: 'languages', v: 'speaks Spanish' },
      ],
    };
    expect(keysOf(profileParts(person, ['old'])[0]!)[0]).toBe('age');
    expect(keysOf(profileParts(person, ['marri'])[0]!)[0]).toBe('relationship');
    expect(keysOf(profileParts(person, ['languag'])[0]!)[0]).toBe('languages');
    // Chinese questions find their facts by the same key words.
    const chinese = {
      subject: 'user',
      facts: [
        { k: 'employer', v: '腾讯' },
        { k: 'location', v: '深圳' },
      ],
    };
    expect(keysOf(profileParts(chinese, ['住在', '哪个', '城市'])[0]!)).toEqual(['location']);
    expect(keysOf(profileParts(chinese, ['我在', '哪', '上班'])[0]!)).toEqual(['employer']);
  });

  it('offers ever smaller parts, each smaller than the whole, and nothing for a profile of one fact', () => {
    const parts = profileParts({ subject: 'user', facts: FACTS }, []);
    expect(parts.map((part) => keysOf(part).length)).toEqual([12, 8, 5, 3, 2, 1]);
    // No cue: the profile's own order.
    expect(keysOf(parts[2]!)).toEqual(FACTS.slice(0, 5).map((fact) => fact.k));
    expect(parts[0]).toMatchObject({ subject: 'user' });
    expect(profileParts({ subject: 'user', facts: [FACTS[0]] }, ['peanuts'])).toEqual([]);
  });

  it('never shows an ended fact', () => {
    const parts = profileParts(
      { subject: 'user', facts: [{ k: 'pet:rex', v: null, was: 'dog Rex' }, ...FACTS.slice(0, 3)] },
      ['dog'],
    );
    expect(parts.flatMap(keysOf)).not.toContain('pet:rex');
  });
});

describe('a rich profile in a packet', () => {
  let t: TempEngram;
  beforeEach(async () => {
    t = await tempEngram();
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('shows the fact a question asks about when the whole profile does not fit, and says it shortened it', async () => {
    await t.engram.items.remember({
      scope,
      type: 'profile',
      key: 'profile:user',
      value: { subject: 'user', facts: FACTS },
    });
    for (const [question, shown] of [
      ['What is my dog called?', 'dog Bolt'],
      ['Which evening do I go swimming?', 'go swimming every Tuesday'],
      ['Where do I work?', 'Feedzai'],
    ] as const) {
      const packet = await t.engram.compose({
        scope,
        purpose: 'responder',
        cues: { query: question },
        budget: { max_tokens: 400 },
      });
      const profile = packet.long_term.facts.find((fact) => fact.fact_key === 'profile:user');
      expect(profile?.notes, question).toContain(shown);
      expect(renderPacket(packet)).toContain(shown);
      expect(
        packet.budget_report.degradations.some((step) =>
          step.action.startsWith(`facts:${profile!.fact_id}: raw→summary`),
        ),
        question,
      ).toBe(true);
    }
  });

  it('never shows a responder a fact as a bare reference; a planner may get one', async () => {
    for (const [index, fact] of FACTS.entries()) {
      await t.engram.items.remember({
        scope,
        type: 'preferences',
        key: `pref:writing:rule_${index}`,
        value: { scope: 'writing', name: `rule_${index}`, value: `house rule number ${index}: ${fact.v}` },
      });
    }
    const budget = {
      max_tokens: 256,
      per_section: { working_state: 10, short_term_summary: 10, facts: 60, procedures: 0, episodes: 0, insights: 0 },
    };
    const responder = await t.engram.compose({ scope, purpose: 'responder', cues: { query: 'house rules' }, budget });
    expect(responder.long_term.facts.length).toBeGreaterThan(0);
    expect(responder.long_term.facts.every((fact) => (fact.notes ?? '') !== '')).toBe(true);
    expect(responder.budget_report.degradations.some((step) => step.action.endsWith('→ref'))).toBe(false);
    const planner = await t.engram.compose({ scope, purpose: 'planner', cues: { query: 'house rules' }, budget });
    expect(planner.budget_report.degradations.some((step) => step.action.endsWith('→ref'))).toBe(true);
  });
});
