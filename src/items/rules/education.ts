// What the user studies or has studied, in English: "I'm doing a PhD in marine biology at Uppsala",
// "third year nursing student at OsloMet", "I studied architecture at TU Delft", "I graduated from
// Leeds", "I got into Boğaziçi", "I passed the B1 exam", "preparing for the GRE". One fact per
// school (else per programme), `education:<school>`, so a new stage at the same school replaces the old.

import { factRule, NAME, slug, type Fact } from './fact-patterns.js';
import type { Rule, SentenceContext } from './rule.js';
import { cleanPhrase, idFrom, shorten } from './text.js';

// Words of a programme, a stage or an exam: without one (or a school's name) a phrase is no study.
const STUDY_WORD =
  /\b(?:phd|doctorate|master'?s|masters|msc|mres|mba|mphil|llm|bachelor'?s|bachelors|bachelor|bsc|bcom|beng|llb|ba|ma|degree|diploma|certificate|certification|course|apprenticeship|a-levels|gcses|bootcamp|classes|lessons|module|programme|program|exam|level\s+\w+|seminar|thesis|dissertation|viva|residency|school|college|university|uni|student|semester)\b/iu;
// A degree held, as its phrase opens: "a PhD in physics", not "a question about my PhD".
const DEGREE =
  /^(?:(?:first[- ]class|joint|double|postgraduate|undergraduate|law|medical|nursing|teaching)\s+)?(?:phd|doctorate|master'?s|masters|msc|mres|mba|mphil|llm|bachelor'?s|bachelors|bachelor|bsc|bcom|beng|llb|ba|ma|degree|diploma|certificate)\b/iu;
// Languages one learns, by their English names.
const LANGUAGE =
  'English|Spanish|French|German|Italian|Portuguese|Dutch|Swedish|Norwegian|Danish|Finnish|Icelandic|Polish|Czech|Slovak|Hungarian|Romanian|Greek|Turkish|Russian|Ukrainian|Arabic|Hebrew|Persian|Farsi|Hindi|Urdu|Bengali|Punjabi|Tamil|Telugu|Japanese|Korean|Chinese|Mandarin|Cantonese|Thai|Vietnamese|Indonesian|Malay|Tagalog|Swahili|Latin|Irish|Welsh|Catalan|Basque|Croatian|Serbian|Bulgarian';
// The phrase studied, up to the end of its clause or a time.
const PHRASE = String.raw`([\p{L}\p{N}][\p{L}\p{N}\s'’&.-]{1,80}?)(?=\s*[,;:!?()—–]|\.(?:\s|$)|\s+(?:and|but|so|because|since|which|while|where|who|starting|from|last|this|next|part-time|full-time|in\s+(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|\d{4})\b|on\s+(?:top|the\s+side)|lol|haha|btw|tbh|now|here|yesterday|today|tomorrow|soon|a\s+(?:week|month|year)|two|three)\b|\s*$)`;
const SUBJECT = String.raw`(?:\bI(?:'m|'ve|\s+am|\s+have)?\s+|^)(?:(?:just|finally|also|currently|now|still|officially|actually)\s+)*`;

interface StudyPattern {
  pattern: RegExp;
  /** Reads the match: the fact's value, or undefined. */
  value: (found: RegExpExecArray) => string | undefined;
}

// A field of study by its name, as the phrase opens: "law at Edinburgh", "computer science".
const FIELD =
  /^(?:law|medicine|nursing|computer\s+science|biology|chemistry|physics|math(?:s|ematics)?|economics|history|philosophy|psychology|sociology|(?:mechanical|civil|electrical|software|chemical|aerospace|biomedical)\s+engineering|engineering|architecture|accounting|finance|business(?:\s+administration)?|journalism|literature|english\s+literature|linguistics|political\s+science|politics|international\s+relations|art\s+history|fine\s+arts?|graphic\s+design|music|dentistry|pharmacy|veterinary\s+(?:medicine|science)|data\s+science|statistics|geography|geology|anthropology|social\s+work|film(?:\s+studies)?|photography|fashion\s+design|nutrition|public\s+health|neuroscience|biochemistry|astronomy|environmental\s+science|theology|classics|criminology|marine\s+biology|game\s+design|animation|interior\s+design|midwifery|physiotherapy|occupational\s+therapy)\b/iu;

const withStudyWord = (phrase: string | undefined): string | undefined =>
  phrase !== undefined && STUDY_WORD.test(phrase) ? phrase : undefined;
const named = (phrase: string | undefined): string | undefined =>
  phrase !== undefined && (STUDY_WORD.test(phrase) || FIELD.test(phrase) || /^\p{Lu}/u.test(phrase))
    ? phrase
    : undefined;

const EN_STUDIES: readonly StudyPattern[] = [
  // "I'm doing a part-time Master's in HCI at UBC", "doing my BCom in Accounting through UNISA".
  {
    pattern: new RegExp(
      String.raw`${SUBJECT}(?:doing|studying|taking|pursuing|starting|started|finishing|enrolled in|halfway through|in\s+(?:the|my)\s+\w+\s+year\s+of)\s+(?:an?\s+|my\s+|the\s+)?${PHRASE}`,
      'iu',
    ),
    value: (found) => withStudyWord(found[1]),
  },
  // "I'm studying law at Edinburgh", "majoring in computer science": a field of study by its name.
  {
    pattern: new RegExp(String.raw`${SUBJECT}(?:studying|majoring\s+in)\s+${PHRASE}`, 'iu'),
    value: (found) => (found[1] !== undefined && FIELD.test(found[1]) ? found[1] : undefined),
  },
  // "third year nursing student at OsloMet", "I'm a second-year law student".
  {
    pattern:
      /(?:^|\bI(?:'m|\s+am)\s+(?:an?\s+)?)((?:first|second|third|fourth|fifth|final|last|\d(?:st|nd|rd|th))[- ]year\s+(?:[\p{L}-]+\s+){0,2}student(?:\s+(?:at|in)\s+(?:the\s+)?\p{Lu}[\p{L}\p{N}'’.-]*(?:\s+(?:of\s+)?\p{Lu}[\p{L}\p{N}'’.-]*){0,3})?)/iu,
    value: (found) => found[1],
  },
  // "I have a PhD in physics", "I've got a master's in nursing", "I hold an MBA from INSEAD".
  {
    pattern: new RegExp(String.raw`\bI(?:\s+have|'ve\s+got|\s+hold|\s+got)\s+(?:an?\s+|my\s+)${PHRASE}`, 'u'),
    value: (found) => (found[1] !== undefined && DEGREE.test(found[1]) ? found[1] : undefined),
  },
  // "I'm learning Japanese", "studying Spanish on Duolingo": a language learned.
  {
    pattern: new RegExp(String.raw`${SUBJECT}(?:learning|studying|taking\s+up|picking\s+up)\s+(${LANGUAGE})\b`, 'u'),
    value: (found) => `learning ${found[1]!}`,
  },
  // "I studied architecture at TU Delft", "I majored in economics".
  {
    pattern: new RegExp(String.raw`\bI\s+(?:study|studied|majored\s+in|major\s+in)\s+${PHRASE}`, 'u'),
    value: (found) => named(found[1]),
  },
  // "I graduated from Leeds in 2019", "I graduated!".
  {
    pattern: new RegExp(String.raw`${SUBJECT}graduated(?:\s+(?:from|in)\s+${PHRASE})?`, 'iu'),
    value: (found) => (found[1] === undefined ? 'graduated' : `graduated from ${found[1]}`),
  },
  // "I got into Boğaziçi", "I got accepted to the midwifery bachelor at ZHAW", "admitted to a master's at UCL".
  { pattern: new RegExp(String.raw`${SUBJECT}got\s+into\s+${NAME}`, 'u'), value: (found) => found[1] },
  {
    pattern: new RegExp(
      String.raw`${SUBJECT}(?:got\s+|was\s+|been\s+)?(?:accepted|admitted)\s+(?:to|into|onto)\s+(?:an?\s+|the\s+)?${PHRASE}`,
      'iu',
    ),
    value: (found) => named(found[1]),
  },
  // "I finished the Google UX certificate", "passed my half-time seminar", "cleared CFA Level 1".
  {
    pattern: new RegExp(
      String.raw`${SUBJECT}(?:finished|completed|passed|cleared|got|earned|aced|sat)\s+(?!to\s)(?:the\s+|my\s+|an?\s+)?${PHRASE}`,
      'iu',
    ),
    // The thing done is the study ("the Google UX certificate"), not a clause that ends at one
    // ("got great news - I'm in the study abroad program", "got to volunteer at a … school").
    value: (found) => withStudyWord(found[1]?.split(/\s+/u).slice(0, 4).join(' ')) && found[1],
  },
  // "I take German classes at the Goethe-Institut".
  {
    pattern: new RegExp(String.raw`\bI\s+(?:take|attend|go\s+to)\s+${PHRASE}`, 'u'),
    value: (found) =>
      found[1] !== undefined && /\b(?:classes|lessons|course|school|college|university)\b/iu.test(found[1])
        ? found[1]
        : undefined,
  },
  // "preparing for the YKS in June", "now studying for Level 2".
  {
    pattern: new RegExp(
      String.raw`\b(?:preparing|studying|revising|cramming)\s+for\s+(?:the\s+|my\s+)?${PHRASE}`,
      'iu',
    ),
    value: (found) =>
      found[1] !== undefined && (STUDY_WORD.test(found[1]) || /^\p{Lu}{2,}\b/u.test(found[1])) ? found[1] : undefined,
  },
];

// A school named in the phrase keys the fact; else the programme does.
const SCHOOL =
  /\b(?:at|with|through|from|on)\s+(?:the\s+)?(\p{Lu}[\p{L}\p{N}'’.-]*(?:\s+(?:of\s+)?\p{Lu}[\p{L}\p{N}'’.-]*){0,3})/u;
const UNREAL =
  /\b(?:if|unless|whether|would|could|should|might|wish|want to|wanna|hope to|thinking (?:of|about)|considering|planning to|going to|gonna)\b/iu;

/** The studies a sentence states: at most one. */
export function studiesOf(context: Pick<SentenceContext, 'text' | 'date'>): Fact[] {
  if (UNREAL.test(context.text)) return [];
  for (const study of EN_STUDIES) {
    const found = study.pattern.exec(context.text);
    if (found === null) continue;
    const raw = study.value(found);
    const value = raw === undefined ? '' : cleanPhrase(raw.replace(/\s+here$/u, ''));
    if (value === '' || value.split(/\s+/u).length > 14) continue;
    const school = SCHOOL.exec(value)?.[1];
    const k = `education:${school === undefined ? idFrom(value, 3) || 'graduated' : slug(school)}`;
    return [{ k, v: shorten(value, 120), since: context.date }];
  }
  return [];
}

export const EDUCATION_RULES: readonly Rule[] = [
  factRule(
    'en.profile.education',
    'en',
    /doing|studying|majoring|learning|picking up|\bhave\b|'ve got|\bhold\b|taking|pursuing|starting|started|finishing|enrolled|halfway|year of|year student|-year|student|study|studied|majored|major in|graduated|got into|accepted|admitted|finished|completed|passed|cleared|earned|aced|\bsat\b|\bgot\b|classes|lessons|course|preparing|revising|cramming/,
    studiesOf,
  ),
];
