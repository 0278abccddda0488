// The extractive episode of one topic segment, for rule-based reflection: its one or two best
// sentences, the names it mentions, its domains, and what was decided, planned or asked in it.
// Deterministic: text, roles and times only.

import type { ItemCandidate } from '../spec/items.js';
import type { EpisodeCandidate } from '../spec/reflection.js';
import type { SummarySentence } from '../spec/summary.js';
import { describeValue } from '../items/values.js';
import { endsWithQuestionMark, shorten } from '../items/rules/text.js';
import { sentences } from '../util/segment.js';
import { renderSummary, sentencesOf } from '../working-memory/summary.js';
import { toolName, unitCounts, type RunUnit } from './segments.js';

const SUMMARY_CHARS = 300;
// Capitalised words that name no entity.
const NOT_A_NAME =
  /^(?:january|february|march|april|may|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday|ok|okay|thanks)$/i;

/** The one or two best sentences of a segment, in log order, with who said them. */
function summaryOf(segment: readonly RunUnit[]): string {
  const scored: Array<{ sentence: SummarySentence; at: number }> = segment.flatMap((unit) =>
    sentencesOf(unit.event).map((sentence) => ({ sentence, at: unit.index })),
  );
  const ranked = [...scored].sort(
    (a, b) => b.sentence.score - a.sentence.score || a.at - b.at || a.sentence.position - b.sentence.position,
  );
  const best = ranked.slice(0, 2).sort((a, b) => a.at - b.at || a.sentence.position - b.sentence.position);
  if (best.length > 0) {
    const text = renderSummary(best.map(({ sentence }) => ({ ...sentence, text: shorten(sentence.text, 180) })));
    return shorten(text.replace(/\n/g, ' '), SUMMARY_CHARS);
  }
  const tools = [...new Set(segment.flatMap((unit) => toolName(unit.event) ?? []))];
  if (tools.length > 0) return shorten(`Tool calls: ${tools.join(', ')}.`, SUMMARY_CHARS);
  return shorten(segment[0]?.text.replace(/\s+/g, ' ').trim() ?? '', SUMMARY_CHARS) || 'An exchange with no text.';
}

const NAME_WORD = /^\p{Lu}[\p{L}\p{N}]*(?:[-'’][\p{L}\p{N}]+)*$/u;

/** Capitalised names inside sentences of messages (not a sentence's first word, not "I"). */
function capitalisedNames(segment: readonly RunUnit[]): string[] {
  const out: string[] = [];
  for (const unit of segment) {
    if (unit.event.kind !== 'message') continue;
    for (const sentence of sentences(unit.text)) {
      let run: string[] = [];
      const flush = (): void => {
        if (run.length > 0) out.push(run.join(' '));
        run = [];
      };
      sentence.split(/\s+/).forEach((token, at) => {
        const word = token.replace(/^[("'“‘*_`]+|[)"'”’*_`.,;:!?]+$/gu, '').replace(/['’]s$/u, '');
        const name = at > 0 && word !== 'I' && word.length > 1 && NAME_WORD.test(word) && !NOT_A_NAME.test(word);
        if (name) run.push(word);
        else flush();
        if (/[.,;:!?)]$/.test(token)) flush();
      });
      flush();
    }
  }
  return out;
}

/** A name as the segment writes it ("Atlas" for the canonical "atlas"), else as given. */
function asWritten(segment: readonly RunUnit[], name: string): string {
  for (const unit of segment) {
    const lower = unit.text.toLowerCase();
    const at = lower.length === unit.text.length ? lower.indexOf(name.toLowerCase()) : -1;
    if (at !== -1) return unit.text.slice(at, at + name.length);
  }
  return name;
}

/** Names the segment mentions: the rule extractor's references and repeated names, then capitalised names. */
function entitiesOf(segment: readonly RunUnit[], candidates: readonly ItemCandidate[]): string[] {
  const found: string[] = [];
  for (const candidate of candidates) {
    if (candidate.type !== 'entities' || candidate.action !== 'upsert') continue;
    const aliases = candidate.value['aliases'];
    const canonical = candidate.value['canonical'];
    if (Array.isArray(aliases) && typeof aliases[0] === 'string') found.push(aliases[0]);
    else found.push(asWritten(segment, typeof canonical === 'string' ? canonical : candidate.key));
  }
  const seen = new Set<string>();
  return [...found, ...capitalisedNames(segment)]
    .filter((name) => {
      const id = name.toLowerCase();
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    })
    .slice(0, 8);
}

/** Item scopes and projects of the segment's candidates, then its most frequent topic terms. */
function domainsOf(
  segment: readonly RunUnit[],
  candidates: readonly ItemCandidate[],
  run: readonly RunUnit[],
): string[] {
  const out: string[] = [];
  for (const candidate of candidates) {
    const domain = candidate.type === 'preferences' ? candidate.value['scope'] : candidate.value['project'];
    if (typeof domain === 'string' && domain !== 'other' && domain !== 'general' && domain !== '') out.push(domain);
  }
  // Terms frequent here but rare in the rest of the run name the segment best.
  const here = unitCounts(segment);
  const everywhere = unitCounts(run);
  const weight = (term: string, count: number): number =>
    count * Math.log(1 + run.length / (everywhere.get(term) ?? count));
  const terms = [...here]
    .sort((a, b) => weight(...b) - weight(...a))
    .slice(0, 3)
    .map(([term]) => term);
  return [...new Set([...out, ...terms])].slice(0, 5);
}

const MEANING_TYPES = ['decisions', 'tasks', 'goals', 'preferences', 'profile', 'events'] as const;

/** What was decided, planned or stated in the segment, else the first question asked; null if neither. */
function meaningOf(segment: readonly RunUnit[], candidates: readonly ItemCandidate[]): string | null {
  const ranked = MEANING_TYPES.flatMap((type) =>
    candidates.filter((candidate) => candidate.type === type && candidate.action === 'upsert'),
  );
  const said = ranked.slice(0, 2).map((candidate) => describeValue(candidate.type, candidate.value));
  if (said.length > 0) return shorten(said.join('; '), 240);
  for (const unit of segment) {
    if (unit.event.kind !== 'message' || unit.event.role !== 'human') continue;
    const question = sentences(unit.text).find(endsWithQuestionMark);
    if (question !== undefined) return shorten(`Asked: ${question}`, 240);
  }
  return null;
}

/**
 * The episode a segment proposes: its best one or two sentences as the summary (at most 300
 * characters), names, domains, its events, a confidence growing with its size (0.5 for one event,
 * 0.8 from ten), and what was decided or asked in it. `candidates` are the run's rule candidates;
 * those whose evidence is in the segment describe it. `run` (all the run's units) lets the domains
 * prefer terms particular to the segment over those of the whole run.
 *
 * @example
 * describeEpisode(segmentRun(units)[0]!, candidates, units).summary // 'User: I prefer a concise tone. …'
 */
export function describeEpisode(
  segment: readonly RunUnit[],
  candidates: readonly ItemCandidate[],
  run: readonly RunUnit[] = segment,
): EpisodeCandidate {
  const ids = new Set(segment.map((unit) => unit.event.id));
  const own = candidates.filter((candidate) => candidate.source_event_ids.some((id) => ids.has(id)));
  return {
    summary: summaryOf(segment),
    entities: entitiesOf(segment, own),
    domains: domainsOf(segment, own, run),
    source_event_ids: segment.map((unit) => unit.event.id),
    confidence: Math.round((0.5 + 0.3 * Math.min(1, (segment.length - 1) / 9)) * 100) / 100,
    candidate_meaning: meaningOf(segment, own),
  };
}
