// Corrections in a run, for rule-based reflection: a user message that changes a known value, denies
// it, or says so in words the rules miss ("No, I meant …", "不是X，而是Y"), each proposed as a
// correction of the items it is about.

import type { EventRecord } from '../spec/event.js';
import type { Salience } from '../spec/items.js';
import type { CandidateTarget } from '../spec/reflection.js';
import { cleanPhrase, hasHan, shorten } from '../items/rules/text.js';
import { describeValue } from '../items/values.js';
import {
  appliesWhen,
  extractSync,
  itemTarget,
  norm,
  PRINCIPAL_FIELD,
  priorsAt,
  r2,
  related,
  statementsOf,
  type Prior,
  type Proposal,
  type RunContext,
  type Statement,
} from './run-statements.js';

// Corrections: strong cues correct on their own; weak ones only when a known value changes.
const EN_STRONG =
  /^\s*(?:no|nope|nah)\b[\s,.!-]+(?:i|we)\s+(?:meant|mean|said|wanted|asked for)\b|\b(?:i|we)\s+meant\b|\bthat(?:'s|’s| is| was)\s+(?:wrong|incorrect|not (?:right|correct|true|what i (?:said|meant|asked|wanted)))\b|\byou(?:'re|’re| are| got (?:it|that))\s+wrong\b|\byou misunderstood\b|\bi was wrong\b|\bi misspoke\b|\bcorrection\s*:|\bscratch that\b|\bi take (?:that|it) back\b/i;
const EN_WEAK =
  /^\s*(?:actually|well,?\s+actually|in fact|no|nope)\b|\binstead\b|\bi changed my mind\b|\bon second thought\b|\bnot\s+(?!only\b)[^,.;!?]{1,40}?\s*,?\s+but\b/i;
const ZH_STRONG = /说错了|搞错了|弄错了|写错了|记错了|(?<!对)不对|(?<!没)错了|更正|纠正|我的意思是|我是说|我指的是/u;
const ZH_WEAK = /^(?:其实|实际上)|应该是|改成|改为|换成|还是用|不是[^，,。！？!?]{1,20}[，,]?\s*而是/u;

/** What a correction says: the new value, and the old one when it names it ("not X but Y"). */
const SUBSTITUTIONS: ReadonlyArray<{ pattern: RegExp; next: number; old?: number }> = [
  { pattern: /\bnot\s+(?!only\b)([^,.;!?]{1,40}?)\s*,?\s+but\s+(?:rather\s+)?([^,.;!?]{1,60})/i, old: 1, next: 2 },
  { pattern: /\b(?:i|we)\s+meant\s+([^,.;!?]{1,60}?)\s*,?\s+not\s+([^,.;!?]{1,40})/i, next: 1, old: 2 },
  { pattern: /\b(?:i|we)\s+meant\s+(?:to\s+say\s+)?([^,.;!?]{1,60})/i, next: 1 },
  { pattern: /不是([^，,。！？!?]{1,20}?)[，,]?\s*而是([^，,。！？!?]{1,30})/u, old: 1, next: 2 },
  { pattern: /(?:我的意思是|我是说|我指的是|应该是)([^，,。！？!?]{1,30})/u, next: 1 },
];

function cueOf(text: string): 'strong' | 'weak' | undefined {
  if (EN_STRONG.test(text) || ZH_STRONG.test(text)) return 'strong';
  return EN_WEAK.test(text) || ZH_WEAK.test(text) ? 'weak' : undefined;
}

function supersede(
  prior: Prior,
  statement: Pick<Statement, 'type' | 'key' | 'value' | 'principal'>,
  confidence: number,
  salience: Partial<Salience>,
  event: number,
  id: string,
): Proposal {
  const value = statement.value;
  const claim = `Correction: ${describeValue(statement.type, value)} (was "${shorten(prior.principal, 80)}")`;
  const memory = {
    claim,
    memory_type: 'correction' as const,
    applies_when: appliesWhen(statement.type, value),
    does_not_apply_when: [],
    initial_salience: correctionSalience(salience),
    confidence: r2(confidence),
  };
  return {
    label: prior.label,
    memory,
    target: itemTarget(statement.type, statement.key, value),
    item_ids: prior.item_ids,
    events: [...prior.events, id],
    at: event,
  };
}

function correctionSalience(salience: Partial<Salience>): Salience {
  return {
    consequence: r2(Math.max(salience.consequence ?? 0, 0.6)),
    emotional_charge: r2(Math.max(salience.emotional_charge ?? 0, 0.3)),
    reusability: r2(salience.reusability ?? 0.8),
  };
}

/** A new principal written into a prior value of its type. */
function withPrincipal(prior: Prior, principal: string): Pick<Statement, 'type' | 'key' | 'value' | 'principal'> {
  const field = prior.type === 'procedure' ? undefined : PRINCIPAL_FIELD[prior.type];
  const facts: unknown = prior.value['facts'];
  let value: Record<string, unknown> = field === undefined ? prior.value : { ...prior.value, [field]: principal };
  if (prior.type === 'profile' && Array.isArray(facts))
    value = {
      ...prior.value,
      facts: facts.map((fact: unknown) => ({ ...(fact as Record<string, unknown>), v: principal })),
    };
  return { type: prior.type, key: prior.key, value, principal };
}

/** Corrections an event's wording implies when the rules found nothing: "No, I meant …", "不是X，而是Y". */
function substituted(
  context: RunContext,
  event: EventRecord,
  text: string,
  priors: ReadonlyMap<string, Prior>,
  at: number,
): Proposal | undefined {
  for (const { pattern, next, old } of SUBSTITUTIONS) {
    const found = pattern.exec(text);
    if (found === null) continue;
    const wanted = cleanPhrase(found[next] ?? '');
    const was = old === undefined ? undefined : norm(cleanPhrase(found[old] ?? ''));
    if (wanted === '') continue;
    const probe = {
      event_id: event.id,
      kind: 'message' as const,
      role: 'user' as const,
      text: hasHan(wanted) ? `我更喜欢${wanted}` : `I prefer ${wanted}`,
      ts: event.ts,
    };
    for (const statement of statementsOf(
      extractSync(context.extractor, { events: [probe], known_keys: context.knownKeys }),
      context.order,
    )) {
      const prior = priors.get(statement.label);
      const matches = was === undefined || (prior !== undefined && related(norm(prior.principal), was));
      if (
        prior !== undefined &&
        matches &&
        statement.principal !== undefined &&
        norm(prior.principal) !== norm(statement.principal)
      )
        return supersede(prior, statement, 0.75, statement.salience, at, event.id);
    }
    if (was === undefined || was === '') continue;
    const hits = [...priors.values()].filter((prior) => related(norm(prior.principal), was));
    const prior = hits.sort((a, b) => Number(a.events.length === 0) - Number(b.events.length === 0))[0];
    if (prior !== undefined) return supersede(prior, withPrincipal(prior, wanted), 0.7, {}, at, event.id);
  }
  return undefined;
}

function retraction(
  statement: Statement,
  prior: Prior | undefined,
  context: RunContext,
  at: number,
  id: string,
): Proposal {
  const target: CandidateTarget =
    statement.type === 'profile'
      ? itemTarget('profile', statement.key, statement.value)
      : { write: 'retract', key: statement.key };
  const what = prior === undefined ? statement.label : describeValue(prior.type, prior.value);
  return {
    label: statement.label,
    memory: {
      claim: `No longer true: ${what}`,
      memory_type: 'correction',
      applies_when: [],
      does_not_apply_when: [],
      initial_salience: correctionSalience(statement.salience),
      confidence: r2(statement.confidence),
    },
    target,
    item_ids: context.known.get(statement.label)?.item_ids ?? prior?.item_ids ?? [],
    events: [...(prior?.events ?? []), id],
    at,
  };
}

/**
 * The corrections of one user message: changed values, denials, and corrections the rules missed.
 *
 * @example
 * const corrections = correctionsOf(context, event, at, contentText(event.content));
 */
export function correctionsOf(context: RunContext, event: EventRecord, at: number, text: string): Proposal[] {
  const cue = cueOf(text);
  const own = context.statements.filter((statement) => statement.events.includes(event.id) && statement.first === at);
  if (cue === undefined && !own.some((statement) => statement.retract)) return [];
  const priors = priorsAt(context, at);
  const out: Proposal[] = [];
  const changed = new Set<string>();
  for (const statement of own) {
    const prior = priors.get(statement.label);
    if (
      statement.retract ||
      statement.principal === undefined ||
      prior === undefined ||
      norm(prior.principal) === norm(statement.principal)
    )
      continue;
    const denied = own.some((other) => other.retract && other.key === statement.key);
    if (!denied && cue === undefined) continue;
    changed.add(statement.key);
    out.push(
      supersede(
        prior,
        statement,
        Math.min(0.95, statement.confidence + (cue === 'strong' ? 0.05 : 0)),
        statement.salience,
        at,
        event.id,
      ),
    );
  }
  for (const statement of own) {
    if (statement.retract && !changed.has(statement.key))
      out.push(retraction(statement, priors.get(statement.label), context, at, event.id));
  }
  if (out.length > 0 || cue === undefined) return out;
  const found = substituted(context, event, text, priors, at);
  if (found !== undefined || cue !== 'strong') return found === undefined ? [] : [found];
  const claim = `Correction: "${shorten(text.replace(/\s+/g, ' ').trim(), 200)}"`;
  const memory = {
    claim,
    memory_type: 'correction' as const,
    applies_when: [],
    does_not_apply_when: [],
    initial_salience: correctionSalience({}),
    confidence: 0.4,
  };
  return [{ memory, target: { write: 'none' }, item_ids: [], events: [event.id], at }];
}
