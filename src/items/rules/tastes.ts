// What the user loves or can't stand, in English, said outright or in passing: "I love Texas BBQ",
// "I've been really into jazz lately", "big fan of Korean food", "Tana French is my absolute fave",
// "I can't stand cilantro", "not a fan of horror movies", "baseball bores me", "seafood is a no from
// me". One fact per thing (`taste:jazz`), so a changed mind replaces the old verdict; a thing of a
// known preference topic (a drink, an editor, a tone) that a preference rule kept is left to it.

import { factRule, factsBy, PHRASE_END, slug, type Fact, type FactPattern } from './fact-patterns.js';
import { topicOf } from './lexicon.js';
import type { Rule, SentenceContext } from './rule.js';

// The thing liked, up to the end of its phrase.
const OBJECT = String.raw`([\p{L}\p{N}][\p{L}\p{N}\s'’&-]{1,40}?)(?=\s+(?:like\s+(?:this|that|these|those)|this|last|since|recently|every|all|on|around|near|during)\b|${PHRASE_END.slice(3)}`;
// Words a clause may start with before the thing itself: "…, and seafood is a no from me".
// "go" before a pastime: "I like to go skateboarding" likes skateboarding; "a sucker for any
// superhero", "into all kinds of puzzles": the kind itself.
const LEAD =
  /^(?:(?:and|but|so|also|honestly|tbh|mostly|lately|currently|plus|though|then|now)\s+|go\s+(?=[\p{L}-]+ing\b)|(?:(?:any|every|all)\s+(?:kinds?|sorts?|types?)\s+of|any)\s+(?=\p{L}))+/iu;
// A clause's start: the sentence's, or after punctuation or a conjunction.
const CLAUSE = String.raw`(?:^|[,;:—–-]\s*|\b(?:and|but|so|also|honestly|currently|tbh|mostly|lately)\s+)`;
const DEGREE = String.raw`(?:(?:really|super|so|totally|kind of|kinda|pretty|quite|very|deeply|completely|absolutely|properly|seriously|a bit|deep|currently|now|also|still|just|truly|do)\s+)*`;
const FAN = String.raw`(?:an?\s+)?(?:big\s+|huge\s+|massive\s+|real\s+)?fan\s+of`;
// A pronoun, a clause or a generic word is not a thing someone likes; nor is what a reaction to the
// listener's news or picture praises ("I love the color and texture!", "I love the thought!").
const NOT_TASTE =
  /^(?:it|that|this|these|those|them|him|her|his|their|theirs|you|yours|your|me|us|how|when|what|to|being|having|doing|getting|going|most|all|some|one|everything|anything|nothing|lots|a lot|a bit|working|living|the idea)\b|^(?:genre|show|series|book|books|game|games|place|idea|food|music|movie|movies|film|films|song|songs|album|band|team|sport|city|country|weather|vibe|style|concept|thing|things|stuff|one|ones|process|job|work|part|way|fact|smell|taste|texture|look|sound|feeling|people|colou?rs?|design|details?|pics?|pictures?|photos?|name|message|energy|thought|family|kids|children|friends)$/iu;

// What follows "I love…" that is no thing: a light verb and its object ("I like to just take a look
// at the sunset", "I love to give it a try"), a verb of saying, hearing or coming alone or before a
// pronoun, a preposition or a particle ("That's what I like to hear", "as I like to say", "I love to
// help people"; "go-karts" and "talk shows" are things; LEAD has taken "go" off "go riding"), the
// rest of a clause ("doing something I love is awesome"), a time ("a job I enjoy every day"), and a
// generic verb whose object is a pronoun or was left behind ("I love making this", "holding them").
const NOT_A_THING = new RegExp(
  [
    String.raw`^(?:take|have|give|get|make)\s+(?:(?:it|them)\s+)?(?:a|an|some|another)\s+(?:look|go|try|shot|break|peek|rest|chance|moment|second|minute|listen|read)\b`,
    String.raw`^(?:hear|say|tell|talk|help|come|get|see|know|think|do|go)(?:$|\s+(?:it|that|this|them|you|him|her|me|us|people|others|everyone|about|to|with|from|for|out|of|up|back|in|on|at|more|again|around|away|along|into|over|through|together|lost|started|going)\b)`,
    String.raw`^(?:is|are|was|were|be|been|every|each)\b`,
    // A verb after "I love" is the clause's own: "the things I love makes writing fun".
    String.raw`^(?:makes|gives|keeps|helps|brings|feels|sounds|looks|means|takes|gets|has|does|goes|comes|seems|lets|puts|shows|tells|reminds|inspires|motivates)\b`,
    // A verb that needs its object, cut before a particle ("I love throwing on some music").
    String.raw`^(?:making|doing|having|getting|holding|using|seeing|trying|throwing|putting|taking|giving|bringing|finding|keeping|turning|setting|picking|showing|sharing|spending)$`,
    String.raw`\b(?:it|them|this|that|these|those|him|her)$`,
  ].join('|'),
  'iu',
);

// A name the sentence ends on, addressing the listener: "I love the thought Nate!".
const ADDRESSED = /\s+\p{Lu}[\p{Ll}'’-]+$/u;
const INFINITIVE = /^\s*to\s+/iu;
const OPENING_GERUND = /^\p{Lu}\p{Ll}+ing\b/u;

/**
 * A taste as a fact's value, or undefined: not for a pronoun, a generic word or a long clause, nor
 * for one of those followed by the listener's name. A pastime said with "to" keeps it ("I love to
 * read": likes to read; "I hate to cook": doesn't like to cook).
 */
const tasteOf = (verdict: 'likes' | 'dislikes') => (captured: string, found?: RegExpExecArray) => {
  // A pastime opening the sentence is written with a capital: "Painting is my passion".
  const value = captured.replace(LEAD, '').replace(OPENING_GERUND, (word) => word.toLowerCase());
  const rejected = (text: string) =>
    NOT_TASTE.test(text) || NOT_A_THING.test(text) || /\bones?\b/iu.test(text) || text.split(/\s+/u).length > 5;
  if (rejected(value)) return undefined;
  const addressed = ADDRESSED.exec(value);
  if (addressed !== null && addressed.index > 0 && rejected(value.slice(0, addressed.index))) return undefined;
  // "to go skateboarding" reads as the pastime itself once "go" is gone.
  const infinitive = found?.[1] !== undefined && INFINITIVE.test(found[1]) && !/^(?:to\s|[\p{L}-]+ing\b)/iu.test(value);
  if (!infinitive) return `${verdict} ${value}`;
  return verdict === 'likes' ? `likes to ${value}` : `doesn't like to ${value}`;
};
const key = (value: string): string => `taste:${slug(value.replace(LEAD, ''))}`;

// What "I play …", "I collect …" and "I've been doing … for years" take that is no pastime.
const NOT_PLAYED =
  /^(?:a|an|some|with|around|along|by|dumb|nice|fair|hard|safe|well|together|outside|favou?rites|catch|pretend|games?|video|board|cards|any|no|every|each|this|that|these|those)$/iu;
const NOT_COLLECTED = /^(?:thoughts|data|information|feedback|money|points|rent|payments?|the\s+kids|myself|dust)\b/iu;
const NOT_DONE =
  /^(?:well|great|okay|ok|good|fine|better|worse|much|a\s+lot|my\s+best|this|that|it|the\s+same|nothing|something)$/iu;

const EN_TASTES: readonly FactPattern[] = [
  // A pastime with the place it is done in: "we both love hiking in the Vercors", "I love surfing in Ericeira".
  {
    k: (value) => `taste:${slug(value.split(/\s+in\s+/u)[0]!)}`,
    pattern: new RegExp(
      String.raw`(?:\bI|\b[Ww]e\s+(?:both|all)|\b[Aa]nd\s+I)\s+${DEGREE}(?:love|adore|enjoy|like)\s+([\p{L}-]+ing\s+in\s+(?:the\s+)?\p{Lu}[\p{L}\p{M}'’-]+(?:\s+\p{Lu}[\p{L}\p{M}'’-]+){0,2})`,
      'u',
    ),
    accept: tasteOf('likes'),
  },
  // "I really love Texas BBQ", "I enjoy bouldering", "we both love sea swimming", "Ana and I love tango".
  {
    k: key,
    pattern: new RegExp(
      String.raw`(?:\bI|\bwe\s+(?:both|all)|\band\s+I)\s+${DEGREE}(?:love|adore|enjoy|like)\s+${OBJECT}`,
      'iu',
    ),
    accept: tasteOf('likes'),
  },
  // "I've been really into jazz lately", "I'm way more into folk", "I'm a huge fan of K-dramas".
  {
    k: key,
    pattern: new RegExp(
      String.raw`\bI(?:'m|\s+am|'ve\s+been|\s+have\s+been|'ve\s+gotten|\s+got|'ve\s+become|\s+became)\s+${DEGREE}(?:(?:much\s+|way\s+|far\s+|a\s+lot\s+)?more\s+)?(?:into|obsessed\s+with|hooked\s+on|crazy\s+about|passionate\s+about|addicted\s+to|mad\s+about|keen\s+on|big\s+on|${FAN}|a\s+sucker\s+for)\s+${OBJECT}`,
      'iu',
    ),
    accept: tasteOf('likes'),
  },
  // In passing, with no subject: "big fan of Korean food", "currently deep into nordic noir".
  {
    k: key,
    pattern: new RegExp(
      String.raw`${CLAUSE}(?:(?:big|huge|massive)\s+fan\s+of|(?:really|so|super|totally|deep|deeply|currently)\s+into|obsessed\s+with|hooked\s+on)\s+${OBJECT}`,
      'iu',
    ),
    accept: tasteOf('likes'),
  },
  // "Tana French is my absolute fave", "jazz is my jam".
  {
    k: key,
    pattern: new RegExp(
      String.raw`${CLAUSE}([\p{L}\p{N}][\p{L}\p{N}\s'’&-]{1,30}?)\s+(?:is|are)\s+my\s+(?:absolute\s+|all-time\s+|total\s+|new\s+|current\s+)?(?:fave|favourite|favorite|go-to|jam|obsession|guilty pleasure)\b`,
      'iu',
    ),
    accept: tasteOf('likes'),
  },
  // A pastime told by what it does for the user: "the only thing keeping me sane is bouldering",
  // "climbing keeps me sane", "pottery is my therapy".
  {
    k: key,
    pattern: new RegExp(
      String.raw`\bthe\s+(?:only\s+)?thing\s+(?:that\s+)?(?:keeps|is\s+keeping|keeping)\s+me\s+sane\s+(?:is|are)\s+${OBJECT}`,
      'iu',
    ),
    accept: tasteOf('likes'),
  },
  {
    k: key,
    pattern: new RegExp(
      String.raw`${CLAUSE}([\p{L}\p{N}][\p{L}\p{N}\s'’&-]{1,30}?)\s+(?:keeps\s+me\s+sane|is\s+keeping\s+me\s+sane|is\s+my\s+(?:therapy|happy\s+place|passion|(?:favou?rite\s+)?(?:hobby|pastime)))\b`,
      'iu',
    ),
    accept: tasteOf('likes'),
  },
  // Tried once and taken with it: "had a flat white last week and I'm hooked", "tried padel on Saturday and I'm obsessed".
  {
    k: key,
    pattern:
      /(?:^|\bI\s+|[,;:—–-]\s*|\b(?:so|and|finally)\s+)(?:(?:just|finally|recently)\s+)?(?:had|tried|tasted|played|watched)\s+(?:a|an|the|some|my\s+first)?\s*([\p{L}][\p{L}'’-]*(?:\s+(?!(?:last|yesterday|this|on|at|in|and|for|with)\b)[\p{L}'’-]+){0,3})(?:\s+(?:last|yesterday|this|on|at|in|for|with)\b[^.!?]{0,30}?)?\s+and\s+I(?:'m|\s+am)\s+(?:totally\s+|completely\s+|so\s+|now\s+)?(?:hooked|obsessed|in\s+love)\b/iu,
    accept: tasteOf('likes'),
  },
  // "I'm a huge Arsenal fan".
  {
    k: key,
    pattern:
      /\bI(?:'m| am)\s+(?:a\s+)?(?:big|huge|massive|die-hard|diehard|lifelong)\s+([\p{L}\p{N}\s'’-]{2,30}?)\s+fan\b/iu,
    accept: tasteOf('likes'),
  },
  // "I support Benfica", "we've always supported Al Ahly": a team followed, by its name.
  {
    k: (value) => `taste:${slug(value)}`,
    pattern:
      /\b(?:I|[Ww]e)(?:'ve| have)?\s+(?:always\s+|still\s+|also\s+)?(?:support|supported)\s+(\p{Lu}[\p{L}'’.-]*(?:\s+\p{Lu}[\p{L}'’.-]*){0,2})/u,
    accept: (value) => `supports ${value}`,
  },
  // "I play the oud", "I also play the cello in a band": an instrument played is a pastime kept.
  {
    k: (value) => `taste:${slug(value)}`,
    pattern:
      /(?:^|\bI\s+(?:also\s+|still\s+|mostly\s+)?)play\s+the\s+([\p{L}-]{2,20})\b(?!\s+(?:game|card|role|field|part|lottery|long))/iu,
    accept: (value) => (NOT_TASTE.test(value) ? undefined : `plays the ${value}`),
  },
  // "I play clarinet", "I play tennis with my brother": an instrument or a game by its name alone,
  // the phrase ending there (a time after it is a routine's: "I play tennis every Sunday").
  {
    k: (value) => `taste:${slug(value)}`,
    pattern:
      /\bI\s+(?:also\s+|still\s+|mostly\s+|mainly\s+)?play\s+([\p{L}-]{3,20})(?=\s*[,.;:!?)]|\s+(?:in|with|at|for|since|and|but|so|too|myself|professionally|competitively)\b|\s*$)/iu,
    accept: (value) => (NOT_TASTE.test(value) || NOT_PLAYED.test(value) ? undefined : `plays ${value}`),
  },
  // "My hobby is painting", "my main hobbies are hiking and chess": the first one named.
  {
    k: key,
    pattern: new RegExp(
      String.raw`\bmy\s+(?:main\s+|big\s+|new\s+|latest\s+|biggest\s+)?(?:hobby|hobbies|pastime|pastimes|passion)\s+(?:is|are|has\s+(?:always\s+)?been|have\s+(?:always\s+)?been)\s+${OBJECT}`,
      'iu',
    ),
    accept: tasteOf('likes'),
  },
  // "I spend my weekends hiking", "I spend most of my free time reading".
  {
    k: key,
    pattern: new RegExp(
      String.raw`\bI\s+(?:usually\s+|often\s+|mostly\s+|always\s+)?spend\s+(?:most\s+of\s+|all\s+of\s+)?my\s+(?:weekends|free\s+time|spare\s+time|evenings|days\s+off|summers|downtime|holidays)\s+(?=[\p{L}-]+ing\b)${OBJECT}`,
      'iu',
    ),
    accept: tasteOf('likes'),
  },
  // "I collect vinyl records", "I've collected stamps since I was a kid".
  {
    k: key,
    pattern: new RegExp(
      String.raw`\bI(?:'ve|\s+have)?\s+(?:also\s+|still\s+|always\s+)?(?:collect|collected)\s+${OBJECT}`,
      'iu',
    ),
    accept: (value) => {
      const taste = tasteOf('likes')(value);
      return taste === undefined || NOT_COLLECTED.test(value) ? undefined : `collects ${value}`;
    },
  },
  // "I've been doing yoga for years": a pastime kept up.
  {
    k: key,
    pattern: new RegExp(
      String.raw`\bI(?:'ve|\s+have)\s+been\s+doing\s+([\p{L}][\p{L}\s'’-]{1,25}?)\s+for\s+(?:years|ages|decades|a\s+(?:while|long\s+time|few\s+years)|(?:\d+|two|three|four|five|six|seven|eight|nine|ten|many|several)\s+years)\b`,
      'iu',
    ),
    accept: (value) => (tasteOf('likes')(value) === undefined || NOT_DONE.test(value) ? undefined : `does ${value}`),
  },
  // "I can't stand cilantro", "I really don't like horror", "I'm not a fan of spicy food".
  {
    k: key,
    pattern: new RegExp(
      String.raw`\bI\s+${DEGREE}(?:hate|dislike|detest|loathe|despise|can't\s+stand|cannot\s+stand|can't\s+bear|don't\s+(?:really\s+)?(?:like|enjoy)|do\s+not\s+(?:like|enjoy))\s+${OBJECT}`,
      'iu',
    ),
    accept: tasteOf('dislikes'),
  },
  {
    k: key,
    pattern: new RegExp(
      String.raw`\bI(?:'m|\s+am)\s+(?:really\s+|just\s+|honestly\s+)?not\s+(?:really\s+|much\s+of\s+)?(?:into|${FAN}|big\s+on|keen\s+on)\s+${OBJECT}`,
      'iu',
    ),
    accept: tasteOf('dislikes'),
  },
  // In passing: "not a fan of horror movies", "not really into opera", "I'm so done with sourdough".
  {
    k: key,
    pattern: new RegExp(String.raw`${CLAUSE}not\s+(?:really\s+|much\s+of\s+)?(?:${FAN}|into)\s+${OBJECT}`, 'iu'),
    accept: tasteOf('dislikes'),
  },
  {
    k: key,
    pattern: new RegExp(
      String.raw`\bI(?:'m|\s+am)\s+(?:so\s+|totally\s+|completely\s+)?(?:done\s+with|over(?!\s+(?:the\s+moon|here|there|at|in|on|to|with|for)\b))\s+${OBJECT}`,
      'iu',
    ),
    accept: tasteOf('dislikes'),
  },
  // The thing first: "baseball bores me to death", "seafood is a no from me", "opera isn't my thing".
  {
    k: key,
    pattern: new RegExp(
      String.raw`${CLAUSE}([\p{L}\p{N}][\p{L}\p{N}\s'’&-]{1,30}?)\s+(?:bores?\s+me|(?:is|are)\s+(?:a\s+)?(?:hard\s+|big\s+)?no\s+(?:from|for)\s+me|(?:isn't|is not|aren't|are not)\s+(?:really\s+)?(?:my\s+thing|for\s+me)|(?:gives?|give)\s+me\s+the\s+(?:creeps|ick))\b`,
      'iu',
    ),
    accept: tasteOf('dislikes'),
  },
  // What someone around the user brings, plays or cooks, then the user's verdict on it: "my aunt
  // always brings durian, I can't stand it", "my coworkers keep blasting reggaeton in the office, I
  // can't stand it". Only a dislike: "…, I love it" is as often said of an idea or a plan.
  {
    k: key,
    pattern:
      /\b(?:brings?|bringing|brought|buys?|buying|bought|cooks?|cooking|cooked|makes?|making|serves?|serving|plays?|playing|blast(?:s|ing)?|puts?\s+on|putting\s+on|listen(?:s|ing)?\s+to|watch(?:es|ing)?)\s+(?:the\s+|some\s+)?([\p{L}][\p{L}\s'’-]{1,25}?)(?:\s+(?:in|at|on|all|every|for)\b[^,;—–]{0,30})?\s*[,;—–-]\s*(?:and\s+|but\s+|honestly\s+)?I\s+(?:really\s+|just\s+|honestly\s+)?(?:hate|can't\s+stand|cannot\s+stand|can't\s+bear|detest|loathe)\s+(?:it|them)\b/iu,
    accept: tasteOf('dislikes'),
  },
  // "no mushrooms, I can't stand them": the thing refused, then the pronoun.
  {
    k: key,
    pattern:
      /\bno\s+([\p{L}\s'’-]{2,25}?)\s*[,;—–-]\s*I\s+(?:really\s+|just\s+)?(?:hate|can't stand|cannot stand|don't like|detest|loathe)\s+(?:it|them)\b/iu,
    accept: tasteOf('dislikes'),
  },
];

// A taste in a condition, a wish or a question asked of the assistant is not the user's.
const UNREAL = /\b(?:if|unless|whether|would you|do you|wish|hope you)\b/iu;

/**
 * The tastes a sentence states; a thing of a known preference topic ("I love green tea") only when
 * no preference rule kept the sentence (the rule runs after them).
 */
export function tastesOf(context: Pick<SentenceContext, 'text' | 'date' | 'here'>): Fact[] {
  if (UNREAL.test(context.text)) return [];
  const preferred = context.here.some((candidate) => candidate.type === 'preferences');
  return factsBy(EN_TASTES, context).filter(
    (fact) =>
      !preferred ||
      topicOf(
        String(fact.v)
          .replace(/^(?:dis)?likes /u, '')
          .toLowerCase(),
      ) === undefined,
  );
}

export const TASTE_RULES: readonly Rule[] = [
  factRule(
    'en.profile.taste',
    'en',
    /love|adore|enjoy|like|into\b|play the\b|support|obsessed|hooked|crazy about|passionate|addicted|mad about|keen|big on|fan\b|sucker|fave|favou?rite|go-to|jam\b|obsession|guilty pleasure|hate|dislike|detest|loathe|despise|can't stand|cannot stand|can't bear|done with|\bover\b|bores?\b|no from me|no for me|my thing|for me|creeps|\bick\b|\bsane\b|therapy|happy place|\bplay |hobby|hobbies|pastime|passion|spend|collect|been doing/,
    tastesOf,
  ),
];
