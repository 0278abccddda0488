// Who said an event, as memory shows it: the speaker's name with its whitespace made single spaces,
// and cut for the label of a prompt line.

import type { EventRecord } from '../spec/event.js';

/**
 * An event's speaker as memory names it: every run of whitespace one space, trimmed; undefined for none.
 *
 * @example
 * speakerName(' Mary\n Ann ') // 'Mary Ann'
 */
export function speakerName(speaker: EventRecord['speaker']): string | undefined {
  const name = speaker === null ? '' : speaker.replace(/\s+/gu, ' ').trim();
  return name === '' ? undefined : name;
}

/** The most characters of a speaker's name a prompt line shows (a name is up to 256 characters long). */
const LABEL_CHARS = 40;

/**
 * The label a prompt line gives a speaker (`speakerName`): at most LABEL_CHARS characters, whole
 * characters; undefined for none.
 *
 * @example
 * speakerLabel('Caroline') // 'Caroline'
 */
export function speakerLabel(speaker: string | null | undefined): string | undefined {
  const name = speakerName(speaker ?? null);
  const label = name === undefined ? '' : [...name].slice(0, LABEL_CHARS).join('').trim();
  return label === '' ? undefined : label;
}
