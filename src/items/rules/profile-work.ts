// Work in the user's profile facts (MemoryTypes v0.1 §3.1): their role, their employer and the
// town they work in, from explicit first-person statements ("I work as a nurse", "I'm head chef
// now", "I drive for FedEx", "I joined a firm called Taller Norte").

import { NAME, NAME_SKIP, type FactPattern } from './fact-patterns.js';
import { placeNamed } from './places.js';

// Roles end like roles: engineer, designer, scientist, analyst, student, founder, CEO.
const ROLE_END =
  /(?:er|or|ist|yst|ian|ant|ent|ect|ive|ager|ess|ee|ster|ler|smith|wright|man|woman|person|ceo|cto|cfo|coo|pm|vp|lead|head|chef|nurse|medic|mechanic|founder|student|dev|intern|partner|director|officer|professor|doctor|artist|teacher|owner)$/i;
// Roles at a family occasion are no job: "I'm the godmother".
const NOT_ROLE =
  /^(?:regular|member|guest|customer|client|patient|visitor|tourist|passenger|subscriber|resident|bit|little|lot|fan|big|huge|total|complete|mess|fast|slow|quick|morning|night|real|good|bad|great|fine|new|old|native|speaker|godmother|godfather|godparent|bridesmaid|groomsman|best man|maid of hono(?:u)?r|flower girl|ring bearer)\b/i;
// What others say the user is ("now they think I'm a cat scientist") is no role.
const REPORTED =
  /\b(?:think|thinks|thought|say|says|said|joke|jokes|joked|believe|believes|assume|assumes|assumed|pretend|pretended)\s+(?:that\s+)?$/iu;

// Ranks that make a role without an article ("I'm head chef now").
const RANK = String.raw`(?:[Hh]ead|[Ss]ous|[Ss]enior|[Jj]unior|[Ll]ead|[Cc]hief|[Pp]rincipal|[Ss]taff|[Aa]ssistant|[Dd]eputy|[Ee]xecutive|[Aa]ssociate)`;
// Places people work at, for an employer named by its kind ("a logistics company", "a solar startup").
const WORKPLACE = String.raw`(?:startup|start-up|company|firm|agency|bank|hospital|school|clinic|studio|restaurant|caf[eé]|hotel|shop|store|bakery|consultancy|charity|nonprofit|non-profit|lab|council|ministry|newspaper|magazine|factory|warehouse|practice|airline|supermarket|gym|salon|garage|pharmacy|nursery|university|college)`;
// What follows a role tells it is one when its word does not ("a GP in Cork", "a junior associate at a
// law firm", "a water engineer with WaterAid"): a workplace, a named employer, or a town.
const WORK_AFTER = new RegExp(
  String.raw`^\s+(?:at|with|for)\s+(?:an?\s+(?:[\p{L}-]+\s+){0,3}?${WORKPLACE}\b|(?:the\s+)?\p{Lu})`,
  'u',
);
const TOWN_AFTER = /^\s+in\s+(\p{Lu}[\p{L}\p{M}'’-]*(?:\s+\p{Lu}[\p{L}\p{M}'’-]*){0,2})/u;

/** Whether the words after a match name where the user works. */
function worksThere(found: RegExpExecArray): boolean {
  const after = found.input.slice(found.index + found[0].length);
  if (WORK_AFTER.test(after)) return true;
  const town = TOWN_AFTER.exec(after)?.[1];
  return town !== undefined && placeNamed(town) !== undefined;
}

/** Role, employer and place of work, in the order profile.ts reads them. */
export const WORK_FACTS: readonly FactPattern[] = [
  {
    k: 'role',
    pattern: /\bI\s+work\s+as\s+(?:an?\s+|the\s+)?([\p{L}\s-]{2,60}?)(?=\s+(?:at|for|in|with|on)\b|[,.;!?]|$)/iu,
  },
  {
    k: 'role',
    pattern:
      /\bI(?:'m| am)\s+(?:an?|the)\s+([\p{L}\s-]{2,60}?)(?=\s+(?:at|for|in|with|on|and|who|based|from|here|now)\b|[,.;!?]|$)/iu,
    accept: (value, found) =>
      NOT_ROLE.test(value) ||
      !(ROLE_END.test(value) || worksThere(found)) ||
      value.split(/\s+/).length > 5 ||
      REPORTED.test(found.input.slice(0, found.index))
        ? undefined
        : value,
  },
  { k: 'employer', pattern: new RegExp(String.raw`\bI\s+(?:work|am working|'m working)\s+(?:at|for)\s+${NAME}`, 'u') },
  // "I'm retired", "I retired last year", "I'm self-employed now".
  {
    k: 'role',
    pattern:
      /\bI(?:'m|\s+am)\s+(?:now\s+|fully\s+|finally\s+)?(retired|semi-retired|self-employed|freelance|a freelancer|a stay-at-home (?:mum|mom|dad|parent))\b/u,
    withSince: true,
  },
  {
    k: 'role',
    pattern: /\bI\s+(?:just\s+|finally\s+)?(retired)\s+(?:last|this|in|from|after|a\s+(?:few|couple))\b/u,
    withSince: true,
  },
  // A rank needs no article ("I'm head chef now"); a new role may come with no subject at all
  // ("junior UX designer at Bitpanda!"); "I teach maths", "I start as a nurse at Ullevål".
  {
    k: 'role',
    pattern: new RegExp(
      String.raw`\bI(?:'m| am)\s+(?:now\s+)?(${RANK}\s+[\p{L}-]+(?:\s+[\p{L}-]+)?)(?=\s+(?:now|at|for|in|here|with)\b|\s*[,.;!?]|\s*$)`,
      'iu',
    ),
    accept: (value) => (ROLE_END.test(value) ? value : undefined),
    withSince: true,
  },
  {
    k: 'role',
    pattern: new RegExp(String.raw`(?:^|[.!?]\s+)(${RANK}\s+[\p{L}-]+(?:\s+[\p{L}-]+){0,2})\s+at\s+\p{Lu}`, 'iu'),
    accept: (value) => (ROLE_END.test(value) ? value : undefined),
    withSince: true,
  },
  {
    k: 'role',
    pattern: /\bI\s+teach\s+([\p{L}\p{N}\s]{2,30}?)\s+(?:at|in|to)\b/u,
    accept: (value) => `teaches ${value}`,
  },
  // What the user does for a living, where: "I teach chemistry at Kelvin High", "I drive for FedEx",
  // "I drive a forklift at the DHL depot", "I nurse at St Mary's". A verb of work, never of shopping.
  {
    k: 'employer',
    pattern: new RegExp(
      String.raw`\bI\s+(?:also\s+|still\s+|now\s+|currently\s+)?(?:teach|drive|deliver|nurse|cook|clean|volunteer|intern|code|tutor|coach|lecture|bartend|waitress|wait tables|serve|care|do shifts|work shifts|pick|pack|stack shelves)(?:\s+(?!at\b|for\b)[\p{L}\p{N}'-]+){0,3}\s+(?:at|for)\s+(?:the\s+)?${NAME}`,
      'u',
    ),
    accept: (value) => value.replace(/\s+(?:depot|warehouse|office|branch|store|site)$/u, ''),
  },
  {
    k: 'location',
    pattern: new RegExp(
      String.raw`\bI\s+(?:work|teach|nurse|drive|volunteer|intern|study)\b[^.!?;]{0,60}?\s+(?:at|for)\s+(?:the\s+)?${NAME_SKIP}\s+(?:depot\s+|warehouse\s+|office\s+|branch\s+)?(?:in|outside|near)\s+${NAME}`,
      'u',
    ),
  },
  {
    k: 'role',
    pattern:
      /\bI\s+(?:start|started|begin|began)\s+(?:work\s+)?as\s+an?\s+([\p{L}\s-]{2,40}?)(?=\s+(?:at|for|in|on|with)\b|[,.;!?]|$)/u,
    withSince: true,
  },
  {
    k: 'employer',
    pattern: new RegExp(String.raw`(?:^|[.!?]\s+)${RANK}\s+[\p{L}-]+(?:\s+[\p{L}-]+){0,2}\s+at\s+${NAME}`, 'u'),
    withSince: true,
  },
  {
    k: 'employer',
    pattern: new RegExp(
      String.raw`\bI\s+(?:start|started|begin|began)\s+(?:work\s+)?as\s+an?\s+[^,.;!?]{2,60}?\s+at\s+${NAME}`,
      'u',
    ),
    withSince: true,
  },
  {
    k: 'employer',
    pattern: new RegExp(String.raw`\bgot\s+the\s+${NAME}\s+(?:offer|job|role|position)\b`, 'u'),
    withSince: true,
  },
  {
    k: 'employer',
    pattern: new RegExp(
      String.raw`\b(?:I|[Ww]e)\s+(?:\w+\s+)?(?:run|own|founded|started|co-founded|launched|opened)\s+(?:my|our)\s+own\s+[^,.;!?]{2,40},\s+${NAME}`,
      'u',
    ),
    withSince: true,
  },
  {
    k: 'employer',
    pattern: new RegExp(
      String.raw`\bI(?:'m| am|\s+work as)?\s+(?:now\s+)?(?:working\s+(?:for|at)|work\s+(?:for|at)|an?\s+[\p{L}\s-]{2,40}?\s+at)\s+(an?\s+(?:[\p{L}-]+\s+){0,3}?${WORKPLACE})\b`,
      'u',
    ),
    withSince: true,
  },
  {
    k: 'employer',
    group: 2,
    pattern: new RegExp(String.raw`\bI(?:'m| am| work as)\s+an?\s+([\p{L}\s-]{2,40}?)\s+(?:at|for)\s+${NAME}`, 'u'),
    accept: (value, found) => (NOT_ROLE.test(found[1]!) ? undefined : value),
  },
];

// Fields of work by name: "I work in London" is a place, not a field.
const FIELDS = String.raw`marketing|sales|finance|tech|IT|healthcare|health\s+care|education|retail|hospitality|construction|advertising|publishing|insurance|banking|real\s+estate|logistics|HR|human\s+resources|engineering|law|consulting|accounting|software|design|media|journalism|government|the\s+public\s+sector|non-?profits?|the\s+non-?profit\s+sector|pharma|biotech|customer\s+service|operations|research|academia|fashion|film|television|TV|music|gaming|the\s+music\s+industry|the\s+film\s+industry|manufacturing|agriculture|social\s+work|public\s+relations|PR|cybersecurity|data\s+science|nursing|medicine`;

// What may follow a field without being part of its name ("marketing now", "finance at Barclays").
const NOT_FIELD_WORD = String.raw`(?:and|but|or|so|for|at|in|on|with|from|to|as|because|since|now|too|which|who|where|when|while|though|lol|haha|btw|tbh|stores?|shops?|offices?|buildings?|centers?|centres?|every|all|these|this)`;

/** A new job taken; listed after the family facts in profile.ts, as it always was, so facts come out in the same order. */
export const JOB_CHANGE_FACTS: readonly FactPattern[] = [
  // Work changes: "I accepted a job at Porsche", "I joined a firm called Taller Norte", "I'm at Meezan Bank now".
  {
    k: 'employer',
    pattern: new RegExp(
      String.raw`\b(?:I\s+(?:just\s+|finally\s+)?(?:accepted\s+(?:a|the|an)\s+(?:job|position|role|offer)\s+(?:at|with|from)|got\s+(?:a|the)\s+job\s+(?:at|with)|joined|started\s+(?:a\s+new\s+job\s+)?at)|(?:I'm|I am)\s+(?:now\s+)?working\s+(?:for|at)|(?:I'm|I am)\s+at)\s+(?:a\s+(?:firm|company|startup)\s+called\s+)?${NAME}`,
      'u',
    ),
    accept: (value) => (/^(?:The|A|An|My|Our|Home|Work|Least|Most|First|Last|Least)$/u.test(value) ? undefined : value),
    withSince: true,
  },
  // A new job by what it is: "I got a job as a barista", "I just landed a new job as a UX designer at Spotify".
  {
    k: 'role',
    pattern:
      /\bI\s+(?:just\s+|finally\s+|recently\s+)?(?:got|landed|accepted|took|started)\s+(?:a|the|my\s+first|a\s+new)\s+(?:job|position|role)\s+as\s+(?!a\s+result\b)(?:an?\s+|the\s+)?([\p{L}\s-]{2,40}?)(?=\s+(?:at|for|in|with|and)\b|[,.;!?]|$)/iu,
    accept: (value) => (NOT_ROLE.test(value) ? undefined : value),
    withSince: true,
  },
  // The field worked in: "I work in marketing", "I've worked in healthcare for years".
  {
    k: 'role',
    pattern: new RegExp(
      String.raw`\bI(?:'ve|\s+have)?\s+(?:also\s+|now\s+|still\s+|currently\s+|always\s+)?(?:work|worked|been\s+working)\s+in\s+((?:${FIELDS})(?:\s+(?!${NOT_FIELD_WORD}\b)[a-z]+)?)\b(?!\s+(?:stores?|shops?|offices?|buildings?|centers?|centres?)\b)`,
      'u',
    ),
    accept: (value) => `works in ${value}`,
  },
];
