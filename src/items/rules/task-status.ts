// Task status changes (MemoryTypes v0.1 §3.4: commit_turn recognises done and blocked). The title
// named is matched against tasks already known or produced in this input, so the change lands on
// the key the task was created under. A status change that names no known task creates none: "the
// passport task is done" closes the open task, it does not add a second, done one.

import type { ItemCandidate } from '../../spec/items.js';
import { makeKey } from '../keys.js';
import { projectOf } from './project.js';
import { CONVERSATION, emit, USER_ONLY, type Language, type Rule, type SentenceContext } from './rule.js';
import { cleanPhrase, clauseEnd, contentWords, idFrom } from './text.js';
import { RELATIVES } from './profile-family.js';
import { bestTasks, titleAndDue } from './tasks.js';

type Status = 'done' | 'blocked' | 'doing';

interface StatusPattern {
  pattern: RegExp;
  /** The group holding the task title; 0 means the clause after the match. */
  titleGroup: number;
  /** The group holding what blocks it. */
  blockerGroup?: number;
  /** False when the title may not name a person (what came is a thing). */
  person?: false;
  /** The group holding the state said, which also names the task when it is specific ("restrung"). */
  stateGroup?: number;
}

// A pronoun names no task: "whenever I'm working on one, it's like…".
const PRONOUN = /^(?:one|ones|it|that|this|them|those|these|something|anything|everything|stuff)\b/iu;
// States too common to name a task by themselves.
const PLAIN_STATE = /^(?:back|made|done|sent|posted|printed|cleared|ticked off|crossed off|picked up|dropped off)$/iu;

interface StatusSpec {
  name: string;
  language: Language;
  status: Status;
  trigger: RegExp;
  patterns: readonly StatusPattern[];
  /** A status for a task nobody created: only "done" and "blocked", and only for specific titles. */
  createsUnmatched: boolean;
  /** Whose words may say it (default: the conversation's); "I renewed…" is the speaker's own doing. */
  roles?: Rule['roles'];
}

const TASK_WORD = /^(?:the\s+)?(?:task|todo|ticket|item)\s*(?:to\s+|of\s+|[:\-–]\s*)?/i;

function titleOf(context: SentenceContext, found: RegExpExecArray, spec: StatusPattern): string {
  const state = spec.stateGroup === undefined ? undefined : found[spec.stateGroup];
  if (spec.titleGroup > 0)
    return `${found[spec.titleGroup] ?? ''}${state === undefined || PLAIN_STATE.test(state) ? '' : ` ${state}`}`;
  const from = found.index + found[0].length;
  return context.text.slice(from, clauseEnd(context.text, from));
}

function statusOf(context: SentenceContext, rule: Rule, spec: StatusSpec): ItemCandidate[] {
  for (const pattern of spec.patterns) {
    const found = pattern.pattern.exec(context.text);
    if (found === null) continue;
    const { title } = titleAndDue(
      context,
      cleanPhrase(titleOf(context, found, pattern)).replace(TASK_WORD, ''),
      context.language,
    );
    if (title === '' || PRONOUN.test(title) || (pattern.person === false && namesPerson(title))) continue;
    const project = projectOf(context).name;
    const matches = bestTasks(context.memory, project, title, false);
    const blocker = pattern.blockerGroup === undefined ? undefined : found[pattern.blockerGroup];
    const notes =
      blocker === undefined ? undefined : [`blocked on ${blocker.trim().replace(/[\s.;:!?。；！？]+$/u, '')}`];
    const change = (key: string) => {
      const value: Record<string, unknown> = { task_id: key.slice(key.lastIndexOf(':') + 1), status: spec.status };
      if (notes !== undefined) value['notes'] = notes;
      return value;
    };
    if (matches.length === 1) return [emit(context, rule, { key: matches[0]!, value: change(matches[0]!) })];
    // Several open tasks fit as well: each reading waits for a person to choose (engram.review).
    if (matches.length > 1) {
      const why = `"${title}" matches ${matches.length} open tasks equally: ${matches.join(', ')}`;
      return matches.map((key) => ({ ...emit(context, rule, { key, value: change(key) }), review: why }));
    }
    // No known task by this reading: another pattern may read the sentence differently.
    const specific = context.language === 'zh' ? title.length >= 4 : contentWords(title).length >= 2;
    if (!spec.createsUnmatched || !specific) continue;
    const taskId = idFrom(title, 6);
    if (taskId === '') return [];
    const value: Record<string, unknown> = { project, task_id: taskId, title, status: spec.status };
    if (notes !== undefined) value['notes'] = notes;
    return [emit(context, rule, { key: makeKey('tasks', [project, taskId]), value, confidence: 0.6 })];
  }
  return [];
}

function statusRule(spec: StatusSpec): Rule {
  return {
    name: spec.name,
    languages: [spec.language],
    roles: spec.roles ?? CONVERSATION,
    type: 'tasks',
    confidence: 0.85,
    gate: 'must',
    trigger: spec.trigger,
    match: (context, rule) => statusOf(context, rule, spec),
  };
}

const BE = String.raw`(?:is|are|was|were|has been|have been|'s|got)`;
/** What a finished task is said to be. */
const DONE_WORDS = String.raw`done|finished|completed?|shipped|merged|fixed|resolved|sorted|submitted|sent|paid|booked|returned|renewed|filed|signed|altered|handled|taken care of`;
const DONE_ACTIONS = String.raw`renewed|booked|paid|sent|submitted|called|bought|picked up|returned|filed|signed|scheduled|ordered|cleaned|sorted|replaced|registered|applied|cancelled|canceled|emailed|posted|printed|packed|handed in|turned in|updated|backed up`;

/** What a finished thing is said to be only after "is" or "got": "the oud is restrung", "the laptop is back". */
const DONE_STATES = String.raw`written|made|restrung|repaired|serviced|delivered|collected|picked up|dropped off|cleared|installed|received|approved|back|ticked off|crossed off|printed|posted|done and dusted`;
/** A thing that came: "PASSPORT CAME this morning", "the new card finally arrived". */
const ARRIVED = String.raw`came|arrived|turned up|showed up|got here|is here`;
// Who came is a person, not the thing a task waits for: "my sister came over" closes no "call my
// sister", "Tom came by" none either (a capitalised word after the first is a name: case matters).
const PERSON_WORD = new RegExp(
  String.raw`\b(?:I|we|you|he|she|they|someone|somebody|everyone|everybody|friends?|guests?|people|client|boss|team|${RELATIVES})\b`,
  'iu',
);
const NAME_WORD = /(?<!^)\b\p{Lu}\p{Ll}+/u;
const namesPerson = (title: string): boolean => PERSON_WORD.test(title) || NAME_WORD.test(title);

/** Words without which an English sentence changes no task's status (the writer loads the current keys on them). */
export const STATUS_CUE = new RegExp(
  String.raw`\b(?:${DONE_WORDS}|${DONE_ACTIONS}|${DONE_STATES}|${ARRIVED}|wrapped up|blocked|stuck|on hold)\b`,
);

export const TASK_STATUS_RULES: readonly Rule[] = [
  statusRule({
    name: 'en.task.done',
    language: 'en',
    status: 'done',
    trigger: new RegExp(String.raw`\b(?:${DONE_WORDS}|${DONE_STATES}|wrapped up)\b`),
    patterns: [
      // "The docs update is done", "car insurance done too", "the reviews were submitted".
      {
        pattern: new RegExp(
          String.raw`^(.+?)\s+(?:${BE}\s+)?(?:now\s+|finally\s+|all\s+|already\s+|just\s+)?(?:${DONE_WORDS})\b`,
          'i',
        ),
        titleGroup: 1,
      },
      {
        pattern: new RegExp(
          String.raw`^(.+?)\s+(?:${BE}|got)\s+(?:now\s+|finally\s+|all\s+|already\s+|just\s+)?(${DONE_STATES})\b`,
          'i',
        ),
        titleGroup: 1,
        stateGroup: 2,
      },
      { pattern: /\bmark(?:ed)?\s+(.+?)\s+as\s+(?:done|complete|completed|finished)\b/i, titleGroup: 1 },
      { pattern: /^(?:done|finished|completed)\s*[:\-–]\s*/i, titleGroup: 0 },
      {
        pattern:
          /\b(?:I|we)(?:'ve| have)?\s+(?:just\s+|finally\s+|already\s+)?(?:finished|completed|wrapped up|done with|fixed)\s+/i,
        titleGroup: 0,
      },
    ],
    createsUnmatched: false,
  }),
  // "I renewed my passport yesterday": a thing done, which closes the open task it names; with no
  // such task it is an event of the log, not a new task.
  statusRule({
    name: 'en.task.done_action',
    language: 'en',
    status: 'done',
    roles: USER_ONLY,
    trigger: new RegExp(String.raw`\b(?:${DONE_ACTIONS})\b`),
    patterns: [
      // The speaker's own action, or a sentence that starts with it ("finally returned the books"):
      // the task is named by what was done, after the verb.
      {
        pattern: new RegExp(
          String.raw`(?:\b(?:I|we)(?:'ve| have)?\s+|^)(?:just\s+|finally\s+|already\s+)?(?:${DONE_ACTIONS})\b([^.;!?,]*)`,
          'i',
        ),
        titleGroup: 1,
      },
    ],
    createsUnmatched: false,
  }),
  // "PASSPORT CAME this morning": the thing a task waited for has come.
  statusRule({
    name: 'en.task.arrived',
    language: 'en',
    status: 'done',
    roles: USER_ONLY,
    trigger: new RegExp(String.raw`\b(?:${ARRIVED})\b`),
    patterns: [
      {
        pattern: new RegExp(
          String.raw`^(?!.*\b(?:need|have|got)\s+to\b)(.+?)\s+(?:finally\s+|just\s+|already\s+)?(?:${ARRIVED})\b`,
          'i',
        ),
        titleGroup: 1,
        person: false,
      },
    ],
    createsUnmatched: false,
  }),
  statusRule({
    name: 'en.task.blocked',
    language: 'en',
    status: 'blocked',
    trigger: /\b(?:blocked|stuck|on hold)\b/,
    patterns: [
      {
        pattern: new RegExp(
          String.raw`^(.+?)\s+${BE}\s+(?:still\s+|currently\s+|now\s+)?(?:blocked|stuck|on hold)(?:\s+(?:on|by|until)\s+([^.;!?]+))?`,
          'i',
        ),
        titleGroup: 1,
        blockerGroup: 2,
      },
    ],
    createsUnmatched: false,
  }),
  statusRule({
    name: 'en.task.doing',
    language: 'en',
    status: 'doing',
    trigger: /working on|started|in progress/,
    patterns: [
      { pattern: new RegExp(String.raw`^(.+?)\s+${BE}\s+(?:now\s+)?in progress\b`, 'i'), titleGroup: 1 },
      {
        pattern:
          /\b(?:I'm|I am|we're|we are)\s+(?:now\s+|currently\s+|still\s+)?working\s+on\s+|\b(?:I|we)(?:'ve| have)?\s+(?:just\s+)?started\s+(?:on\s+|working\s+on\s+)?/i,
        titleGroup: 0,
      },
    ],
    createsUnmatched: false,
  }),
  statusRule({
    name: 'zh.task.blocked',
    language: 'zh',
    status: 'blocked',
    trigger: /阻塞|卡住|卡在|搁置/u,
    patterns: [
      {
        pattern: /^(.+?)(?:被|给)?(?:阻塞|卡住|卡在|搁置)了?(?:[，,]?\s*(?:因为|在等|等待?)([^。！!；;]+))?/u,
        titleGroup: 1,
        blockerGroup: 2,
      },
    ],
    createsUnmatched: false,
  }),
  statusRule({
    name: 'zh.task.doing',
    language: 'zh',
    status: 'doing',
    trigger: /正在|在做|开始/u,
    patterns: [{ pattern: /我们?(?:正在做|正在|在做|开始做|开始)/u, titleGroup: 0 }],
    createsUnmatched: false,
  }),
];
