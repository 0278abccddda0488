// The LoCoMo conversations (Maharana et al., ACL 2024; CC BY-NC 4.0, evaluation only) read from
// outside the repository: the file is never copied here or shipped. This module checks the shape of
// what it reads and turns each conversation into dated turns and questions with clean evidence ids.

import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { normaliseEvidence } from './locomo-recall.js';

/** Where the data set is read from: ENGRAM_LOCOMO, else `../shared/datasets/locomo/locomo10.json` beside the repository. */
export function locomoPath(): string {
  return (
    process.env['ENGRAM_LOCOMO'] ??
    fileURLToPath(new URL('../../shared/datasets/locomo/locomo10.json', import.meta.url))
  );
}

/** One dialogue turn, as committed and as the baselines pack it. */
export interface LocomoTurn {
  dia_id: string;
  /** 1-based session number (`session_<n>`). */
  session: number;
  speaker: string;
  /** `a` is the user, `b` the agent. */
  side: 'a' | 'b';
  /** The turn's text, an image turn's caption appended. */
  text: string;
  /** The session's date and time plus the turn's index in seconds, so turns keep their order. */
  ts: string;
}

export interface LocomoQuestion {
  question: string;
  category: 1 | 2 | 3 | 4 | 5;
  /** Evidence ids after normalisation, only those naming a turn of the conversation. */
  evidence: string[];
  /** The reference answer (categories 1–4; adversarial questions have none), as text. */
  answer: string | null;
}

export interface LocomoConversation {
  sample_id: string;
  speaker_a: string;
  speaker_b: string;
  turns: LocomoTurn[];
  questions: LocomoQuestion[];
}

/** What normalising the evidence ids did across the file. */
export interface EvidenceAudit {
  evidence_strings: number;
  /** Strings that were not one well-formed id of an existing turn. */
  malformed: number;
  /** Malformed strings that yielded at least one id of an existing turn. */
  repaired: number;
  /** Ids dropped: unparseable, or naming no turn of the conversation. */
  dropped: string[];
  /** Questions left with no evidence (kept out of recall). */
  questions_without_evidence: number;
}

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

/**
 * `"1:56 pm on 8 May, 2023"` → `2023-05-08T13:56:00.000Z` (the data set names no time zone; UTC).
 *
 * @example
 * parseSessionTime('12:06 am on 11 November, 2022') // '2022-11-11T00:06:00.000Z'
 */
export function parseSessionTime(text: string): string {
  const match = /^\s*(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})\s*$/i.exec(text);
  const month = match === null ? -1 : MONTHS.indexOf(match[5]!.toLowerCase());
  if (match === null || month === -1)
    throw new RangeError(`LoCoMo: cannot read the session time ${JSON.stringify(text)}`);
  const hour = (Number(match[1]) % 12) + (match[3]!.toLowerCase() === 'pm' ? 12 : 0);
  return new Date(Date.UTC(Number(match[6]), month, Number(match[4]), hour, Number(match[2]))).toISOString();
}

function record(value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new TypeError(`LoCoMo: ${where} is not an object`);
  return value as Record<string, unknown>;
}

function text(value: unknown, where: string): string {
  if (typeof value !== 'string') throw new TypeError(`LoCoMo: ${where} is not a string`);
  return value;
}

function list(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value)) throw new TypeError(`LoCoMo: ${where} is not a list`);
  return value;
}

function turnsOf(conversation: Record<string, unknown>, sampleId: string): LocomoTurn[] {
  const speakerA = text(conversation['speaker_a'], `${sampleId}.speaker_a`);
  const sessions = Object.keys(conversation)
    .map((key) => /^session_(\d+)$/.exec(key))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => Number(match[1]))
    .sort((a, b) => a - b);
  const turns: LocomoTurn[] = [];
  for (const session of sessions) {
    const where = `${sampleId}.session_${session}`;
    const start = Date.parse(
      parseSessionTime(text(conversation[`session_${session}_date_time`], `${where}_date_time`)),
    );
    for (const [index, raw] of list(conversation[`session_${session}`], where).entries()) {
      const turn = record(raw, `${where}[${index}]`);
      const speaker = text(turn['speaker'], `${where}[${index}].speaker`);
      const caption = turn['blip_caption'];
      const body = text(turn['text'], `${where}[${index}].text`);
      turns.push({
        dia_id: text(turn['dia_id'], `${where}[${index}].dia_id`),
        session,
        speaker,
        side: speaker === speakerA ? 'a' : 'b',
        text: typeof caption === 'string' && caption !== '' ? `${body}\n[image: ${caption}]` : body,
        ts: new Date(start + index * 1000).toISOString(),
      });
    }
  }
  return turns;
}

function isCategory(value: unknown): value is LocomoQuestion['category'] {
  return value === 1 || value === 2 || value === 3 || value === 4 || value === 5;
}

/** Reads and checks the data set; `audit` receives what normalising the evidence did. */
export function loadLocomo(path = locomoPath()): { conversations: LocomoConversation[]; audit: EvidenceAudit } {
  if (!existsSync(path)) {
    throw new Error(
      `LoCoMo not found at ${path}: set ENGRAM_LOCOMO to locomo10.json (https://github.com/snap-research/locomo, data/locomo10.json; CC BY-NC 4.0)`,
    );
  }
  const samples = list(JSON.parse(readFileSync(path, 'utf8')) as unknown, 'the file');
  const audit: EvidenceAudit = {
    evidence_strings: 0,
    malformed: 0,
    repaired: 0,
    dropped: [],
    questions_without_evidence: 0,
  };
  const conversations = samples.map((raw, index) => {
    const sample = record(raw, `sample ${index}`);
    const sampleId = text(sample['sample_id'], `sample ${index}.sample_id`);
    const conversation = record(sample['conversation'], `${sampleId}.conversation`);
    const turns = turnsOf(conversation, sampleId);
    const known = new Set(turns.map((turn) => turn.dia_id));
    const questions = list(sample['qa'], `${sampleId}.qa`).map((entry, at) => {
      const qa = record(entry, `${sampleId}.qa[${at}]`);
      const category = qa['category'];
      if (!isCategory(category)) throw new TypeError(`LoCoMo: ${sampleId}.qa[${at}].category is not 1–5`);
      const evidence: string[] = [];
      for (const raw of list(qa['evidence'], `${sampleId}.qa[${at}].evidence`)) {
        const given = text(raw, `${sampleId}.qa[${at}].evidence`);
        const ids = normaliseEvidence(given);
        const kept = ids.filter((id) => known.has(id));
        audit.evidence_strings += 1;
        if (kept.length !== 1 || kept[0] !== given) audit.malformed += 1;
        if (kept.length > 0 && (kept.length !== 1 || kept[0] !== given)) audit.repaired += 1;
        if (kept.length < Math.max(1, ids.length)) audit.dropped.push(`${sampleId} ${given}`);
        for (const id of kept) if (!evidence.includes(id)) evidence.push(id);
      }
      if (evidence.length === 0) audit.questions_without_evidence += 1;
      const answer = qa['answer'];
      return {
        question: text(qa['question'], `${sampleId}.qa[${at}].question`),
        category,
        evidence,
        answer: typeof answer === 'string' || typeof answer === 'number' ? String(answer) : null,
      };
    });
    return {
      sample_id: sampleId,
      speaker_a: text(conversation['speaker_a'], `${sampleId}.speaker_a`),
      speaker_b: text(conversation['speaker_b'], `${sampleId}.speaker_b`),
      turns,
      questions,
    };
  });
  return { conversations, audit };
}
