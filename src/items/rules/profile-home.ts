// Where the user lives and comes from (the `location` and `origin` facts of profile:user,
// MemoryTypes v0.1 §3.1): "I live in Lisbon", "we moved to Porto", "here in Pune", "got transferred
// to the Berlin office", "I'm originally from Accra".

import { NAME, NAME_SKIP, type FactPattern } from './fact-patterns.js';
import { placeNamed } from './places.js';

// A clause about someone else: "my sister is a nurse here in Cork" says where she works, not where the user lives.
const SOMEONE_ELSE =
  /\b(?:my|our|his|her|their)\s+[\p{L}-]+(?:\s+[\p{L}-]+)?\s+(?:is|are|was|were|works?|lives?|teaches|studies)\b|\b(?:he|she|they)(?:'s|'re|\s+is|\s+are|\s+works?|\s+lives?)\b/iu;

/** The clause a match is in, up to the match. */
function clauseBefore(found: RegExpExecArray): string {
  return (
    found.input
      .slice(0, found.index)
      .split(/[,;.!?—–]/u)
      .at(-1) ?? ''
  );
}

/** The known place a name ends with ("Deloitte Cape Town": Cape Town), if any. */
function placeAtEnd(name: string): string | undefined {
  const words = name.split(/\s+/u);
  for (let start = 0; start < words.length; start += 1) {
    const place = placeNamed(words.slice(start).join(' '));
    if (place !== undefined) return place.name;
  }
  return undefined;
}

/** Where the user lives, then where they come from. */
export const HOME_FACTS: readonly FactPattern[] = [
  {
    k: 'location',
    pattern: new RegExp(
      String.raw`\b(?:I|[Ww]e)\s+(?:now\s+|currently\s+|still\s+|actually\s+)?(?:live|reside|am based|'m based|are based|'re based|am living|'m living|are living|'re living|currently live)\s+(?:in|on)\s+${NAME}`,
      'u',
    ),
  },
  {
    k: 'location',
    pattern: new RegExp(
      String.raw`\b(?:I|[Ww]e)(?:(?:'ve| have)?|\b[^.!?;]{0,80}?\band)\s+(?:just\s+|finally\s+|recently\s+|then\s+)?(?:moved|relocated)\s+(?:from\s+${NAME_SKIP}\s+)?(?:over\s+|back\s+)?to\s+${NAME}`,
      'u',
    ),
    withSince: true,
  },
  // "I'm leaving Edinburgh for a job in Madrid in June": where the user lives until the move.
  {
    k: 'location',
    pattern: new RegExp(
      String.raw`\b(?:I'm|I am|[Ww]e're|[Ww]e are)\s+(?:finally\s+|soon\s+)?leaving\s+${NAME}\s+(?:for|to|in|at\s+the\s+end\s+of)\b`,
      'u',
    ),
  },
  // "I'm in Galway now", "living in London now", "we've been in Stuttgart for two weeks", "here in Pune".
  {
    k: 'location',
    pattern: new RegExp(String.raw`\b(?:I'm|I am|[Ww]e're|[Ww]e are)\s+(?:now\s+)?in\s+${NAME}\s+now\b`, 'u'),
    withSince: true,
  },
  { k: 'location', pattern: new RegExp(String.raw`\b[Ll]iving\s+in\s+${NAME}`, 'u') },
  {
    k: 'location',
    pattern: new RegExp(String.raw`\b(?:I|[Ww]e)(?:'ve| have)\s+been\s+(?:living\s+)?in\s+${NAME}\s+for\b`, 'u'),
  },
  {
    k: 'location',
    pattern: new RegExp(String.raw`\bhere\s+in\s+${NAME}`, 'u'),
    accept: (value, found) => (SOMEONE_ELSE.test(clauseBefore(found)) ? undefined : value),
  },
  // "two weeks in Bangalore now", "ended up in Indiranagar", "our flat in Milan", "I'm in Accra and…",
  // "an engineer at BMW in Munich", "rented a house in Franklin".
  {
    k: 'location',
    pattern: new RegExp(
      String.raw`\b(?:\d+|a|one|two|three|four|five|six|few|several)\s+(?:days?|weeks?|months?|years?)\s+in\s+${NAME}\s+now\b`,
      'u',
    ),
    withSince: true,
  },
  {
    k: 'location',
    pattern: new RegExp(String.raw`(?:^|\b(?:I|[Ww]e)\s+)ended\s+up\s+(?:living\s+)?in\s+${NAME}`, 'u'),
    withSince: true,
  },
  {
    k: 'location',
    pattern: new RegExp(
      String.raw`\b(?:[Mm]y|[Oo]ur)\s+(?:little\s+|tiny\s+|new\s+|small\s+)?(?:flat|apartment|house|place|home|studio)\s+in\s+${NAME}`,
      'u',
    ),
  },
  {
    k: 'location',
    pattern: new RegExp(String.raw`\b(?:I'm|I am)\s+in\s+${NAME}(?=\s*[,.;!]|\s+(?:and|but|so|btw)\b|\s*$)`, 'u'),
  },
  {
    k: 'location',
    pattern: new RegExp(
      String.raw`\bI(?:'m| am)\s+an?\s+[\p{L}\s-]{2,40}?\s+(?:at\s+${NAME_SKIP}\s+)?in\s+${NAME}`,
      'u',
    ),
  },
  {
    k: 'location',
    pattern: new RegExp(
      String.raw`\b(?:rented|bought|found|moved\s+into)\s+(?:a|an|our|my|the)\s+(?:[\p{L}\d-]+\s+){0,2}(?:house|flat|apartment|place|home|cottage|studio|room|condo|loft)\s+in\s+${NAME}`,
      'u',
    ),
    withSince: true,
  },
  // "I rent a flat in Leeds", "we share a house in Bristol": where the user lives now (a house owned
  // may be a holiday home).
  {
    k: 'location',
    pattern: new RegExp(
      String.raw`\b(?:I|[Ww]e)\s+(?:now\s+|currently\s+|still\s+)?(?:rent|share)\s+(?:a|an|our|my|the)\s+(?:[\p{L}\d-]+\s+){0,2}(?:house|flat|apartment|place|home|cottage|studio|room|condo|loft)\s+in\s+${NAME}`,
      'u',
    ),
  },
  // A transfer to an office in another town: "transferred to the Deloitte Cape Town office", "got moved to the Berlin team".
  {
    k: 'location',
    // The user is the one moved: the verb opens the clause, follows "I" ("I got transferred"), or has "me" after it.
    pattern: new RegExp(
      String.raw`(?:(?:^|[,.;:!—–-]\s*|\bI\s+(?:(?:was|got|have\s+been|'ve\s+been|just|finally|recently)\s+)*)(?:transferred|relocated|moved|posted)|\b(?:transferred|relocated|moved|posted|sent)\s+me)\s+to\s+(?:the|our|their|a)\s+${NAME}\s+(?:office|branch|site|campus|team|hq|headquarters|clinic|hospital|store)\b`,
      'u',
    ),
    accept: (value) => placeAtEnd(value),
    withSince: true,
  },
  { k: 'origin', pattern: new RegExp(String.raw`\bI(?:'m| am| come| came)\s+(?:originally\s+)?from\s+${NAME}`, 'u') },
  // Where the user grew up: "I grew up in Ohio", "I was born and raised in Texas", "my home country, Sweden".
  {
    k: 'origin',
    pattern: new RegExp(
      String.raw`\bI\s+(?:grew\s+up|was\s+(?:born\s+and\s+)?(?:raised|brought\s+up))\s+in\s+${NAME}`,
      'u',
    ),
  },
  { k: 'origin', pattern: new RegExp(String.raw`\b[Mm]y\s+home\s+country(?:,\s*|\s+of\s+|\s+is\s+)${NAME}`, 'u') },
];
