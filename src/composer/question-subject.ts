// Whose words a question is about, read from the question itself: the speaker it names, the user
// when it speaks in the first person (not when it asks about what its listener said), whether it
// speaks of its speaker at all, and whether it asks about the user's present. Compose weighs the
// passages of its history by it (cue-search.ts, cue-passages.ts) and gives facts more room (policy.ts).

import type { EventRecord } from '../spec/event.js';
import { questionTense } from '../util/time/time-expressions.js';
import { words } from '../util/segment.js';
import { STOPWORDS } from '../util/stopwords.js';

/**
 * Whose words a question is about: a speaker of the history it names ("What did Caroline
 * research?"), or the user when it asks in the first person ("Which doctors did I see?").
 */
export type CueSubject = { speaker: string } | { role: 'user' };

const FIRST_PERSON: ReadonlySet<string> = new Set(['i', 'me', 'my', 'mine', 'myself', '我']);
/** The first person plural: the speaker among others ("we moved", "our dog"). */
const FIRST_PERSON_PLURAL: ReadonlySet<string> = new Set(['we', 'us', 'our', 'ours', 'ourselves', '我们']);

/**
 * Whether a text speaks of its speaker: a word of the first person, singular or plural, contracted
 * too ("I'm", "we've").
 *
 * @example
 * speaksOfItself("Can you suggest a gift for my teacher?") // true
 * speaksOfItself('Do they enjoy the dog park?') // false
 */
export function speaksOfItself(text: string): boolean {
  return words(text).some((word) => {
    const base = word.split(/['\u2019]/u)[0]!;
    return FIRST_PERSON.has(base) || FIRST_PERSON_PLURAL.has(base);
  });
}

/** The second person: the one the question is put to, the assistant in a user's chat. */
const SECOND_PERSON: ReadonlySet<string> = new Set(['you', 'your', 'yours', 'yourself', 'yourselves', '你', '您']);
/**
 * Words before "you" that make a request of the listener, not a question about them ("Can you
 * remind me…", "Do you remember…"; "Did you…" asks what they did).
 */
const ASKING_ENGLISH: ReadonlySet<string> = new Set(['can', 'could', 'would', 'will', 'do']);
/** Words after 你 / 您 that make a request of the listener (你能…吗, 你可以…, 你帮我…, 你还记得…). */
const ASKING_CHINESE: ReadonlySet<string> = new Set(['能', '可以', '帮', '帮我', '给我', '还', '记得']);

/**
 * Whether a question asks about its listener's own words or doings ("the hotel you recommended",
 * "你推荐的那家餐厅"), beyond asking them for something ("Can you remind me…", "你能…吗").
 *
 * @example
 * asksAboutListener('Can you remind me which hotel you recommended?') // true
 * asksAboutListener('Can you remind me where I moved?') // false
 */
export function asksAboutListener(text: string): boolean {
  const all = words(text);
  return all.some((word, index) => {
    const base = word.split(/['\u2019]/u)[0]!;
    if (!SECOND_PERSON.has(base)) return false;
    const asking = /\p{Script=Han}/u.test(base)
      ? ASKING_CHINESE.has(all[index + 1] ?? '')
      : ASKING_ENGLISH.has(all[index - 1] ?? '');
    return !asking;
  });
}

/**
 * The subject of a question among the speakers of its passages: the one speaker it names (by a
 * word of their name), else the user when it speaks in the first person and not of its listener
 * ("Which doctors did I see?", but not "What did you tell me about Lisbon?", whose answer is the
 * assistant's turn); null when it names several, or nobody and not itself.
 *
 * @example
 * questionSubject('What did Caroline research?', ['Caroline', 'Melanie']) // { speaker: 'Caroline' }
 * questionSubject('Which doctors did I see?', []) // { role: 'user' }
 * questionSubject('Which hotel did you recommend to me?', []) // null
 */
export function questionSubject(text: string, speakers: Iterable<string>): CueSubject | null {
  const terms = new Set(words(text));
  const named = new Set<string>();
  for (const speaker of speakers) {
    if (words(speaker).some((part) => part.length > 1 && !STOPWORDS.has(part) && terms.has(part))) named.add(speaker);
  }
  if (named.size === 1) return { speaker: [...named][0]! };
  if (named.size === 0 && [...terms].some((term) => FIRST_PERSON.has(term)) && !asksAboutListener(text))
    return { role: 'user' };
  return null;
}

/**
 * Whether a question asks about the user's own present or future: it speaks in the first person
 * and its tense is not the past. Current facts answer it better than quoted history.
 *
 * @example
 * asksAboutUserNow('Which city do I live in now?') // true
 * asksAboutUserNow('What did I buy four weeks ago?') // false
 * asksAboutUserNow('What did Caroline research?') // false
 */
export function asksAboutUserNow(text: string): boolean {
  return words(text).some((term) => FIRST_PERSON.has(term)) && questionTense(text) !== 'past';
}

/** Whether an event is the subject's own words. */
export function bySubject(event: EventRecord, subject: CueSubject): boolean {
  return 'speaker' in subject ? event.speaker === subject.speaker : event.role === 'human';
}
