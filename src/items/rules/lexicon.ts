// The words that tell what a preference (or a decision) is about. A preference's key name comes
// from its topic, never from its value, so "a casual tone" and "a formal tone" both land on
// pref:writing:tone. Topic words (tone, editor) name the topic; value words (formal, vim) imply it.

export type PreferenceScope = 'writing' | 'coding' | 'tools' | 'ui' | 'other';

export interface Topic {
  scope: PreferenceScope;
  name: string;
  /** The word names the topic itself (tone), rather than a value of it (formal). */
  isTopicWord: boolean;
  /** The matched term and where it is in the phrase searched. */
  term: string;
  index: number;
  /** For a topic word, a value word of the same topic in the phrase ("4 spaces" beside "indentation"). */
  value?: { term: string; index: number };
}

type Entry = readonly [terms: string, scope: PreferenceScope, name: string, isTopicWord: boolean];

// `|`-separated terms. Longer terms win over their prefixes (the alternation is sorted by length).
const EN_ENTRIES: readonly Entry[] = [
  ['tone|tone of voice', 'writing', 'tone', true],
  ['formal|casual|informal|friendly|professional|polite|playful|neutral|warm|blunt|direct', 'writing', 'tone', false],
  ['style|writing style', 'writing', 'style', true],
  ['language|spoken language', 'writing', 'language', true],
  [
    'english|chinese|mandarin|french|spanish|german|japanese|korean|portuguese|italian|russian|british english|american english|simplified chinese|traditional chinese',
    'writing',
    'language',
    false,
  ],
  ['format|formatting', 'writing', 'format', true],
  [
    'markdown|bullet points|bullets|bullet lists|tables|plain text|numbered lists|headings|prose',
    'writing',
    'format',
    false,
  ],
  ['length|answer length|response length', 'writing', 'length', true],
  [
    'concise|brief|short|shorter|detailed|verbose|long|longer|terse|succinct|in-depth|thorough',
    'writing',
    'length',
    false,
  ],
  ['emoji|emojis|emoticons', 'writing', 'emoji', false],
  ['programming language|coding language', 'coding', 'language', true],
  [
    'typescript|javascript|python|rust|golang|java|kotlin|swift|ruby|php|c\\+\\+|c#|scala|elixir|haskell|clojure|dart|lua',
    'coding',
    'language',
    false,
  ],
  ['framework|web framework', 'coding', 'framework', true],
  [
    'react|vue|angular|svelte|next\\.js|nextjs|django|flask|rails|express|fastapi|spring|nestjs|hono',
    'coding',
    'framework',
    false,
  ],
  ['indentation|indent|indent style', 'coding', 'indent', true],
  ['tabs|spaces|2 spaces|4 spaces|two spaces|four spaces', 'coding', 'indent', false],
  ['test framework|testing framework', 'coding', 'tests', true],
  ['tests|testing|unit tests|tdd|vitest|jest|pytest|mocha', 'coding', 'tests', false],
  ['single quotes|double quotes', 'coding', 'quotes', false],
  ['semicolons', 'coding', 'semicolons', false],
  ['camelcase|snake_case|snake case|kebab-case|pascalcase', 'coding', 'naming', false],
  ['database', 'coding', 'database', true],
  ['postgres|postgresql|mysql|sqlite|mongodb|redis|dynamodb', 'coding', 'database', false],
  ['package manager', 'tools', 'package_manager', true],
  ['npm|pnpm|yarn|bun', 'tools', 'package_manager', false],
  ['editor|ide|text editor', 'tools', 'editor', true],
  ['vim|neovim|emacs|vscode|vs code|visual studio code|intellij|webstorm|sublime|zed|cursor', 'tools', 'editor', false],
  ['terminal', 'tools', 'terminal', true],
  ['iterm|iterm2|tmux|alacritty|kitty|warp', 'tools', 'terminal', false],
  ['shell', 'tools', 'shell', true],
  ['bash|zsh|fish', 'tools', 'shell', false],
  ['browser', 'tools', 'browser', true],
  ['chrome|firefox|safari|edge|arc', 'tools', 'browser', false],
  ['operating system', 'tools', 'os', true],
  ['linux|macos|windows|ubuntu', 'tools', 'os', false],
  ['theme|color scheme|colour scheme', 'ui', 'theme', true],
  ['dark mode|light mode|dark theme|light theme|high contrast', 'ui', 'theme', false],
  ['font|font size|typeface', 'ui', 'font', true],
  ['serif|sans-serif|sans serif|monospace|larger font|smaller font', 'ui', 'font', false],
  ['layout|sidebar', 'ui', 'layout', true],
  ['drink|beverage', 'other', 'drink', true],
  [
    'tea|green tea|black tea|coffee|espresso|latte|cappuccino|decaf|water|juice|beer|wine|matcha',
    'other',
    'drink',
    false,
  ],
  ['food|cuisine', 'other', 'food', true],
  ['pizza|sushi|spicy food|pasta|noodles|ramen|curry', 'other', 'food', false],
  ['diet', 'other', 'diet', true],
  ['vegetarian|vegan|gluten-free|halal|kosher', 'other', 'diet', false],
  ['seat|window seat|aisle seat', 'other', 'seat', false],
  ['meeting time|meetings in the morning|morning meetings|afternoon meetings', 'other', 'meeting_time', false],
];

const ZH_ENTRIES: readonly Entry[] = [
  ['语气|口吻|语调', 'writing', 'tone', true],
  ['正式|随意|轻松|口语化|礼貌|幽默|严肃|友好|专业', 'writing', 'tone', false],
  ['风格|文风|写作风格', 'writing', 'style', true],
  ['语言', 'writing', 'language', true],
  ['中文|英文|英语|汉语|日语|日文|法语|德语|韩语|简体中文|繁体中文|普通话', 'writing', 'language', false],
  ['格式|排版', 'writing', 'format', true],
  ['表格|列表|要点|纯文本|分点', 'writing', 'format', false],
  ['篇幅|长度', 'writing', 'length', true],
  ['简洁|简短|简明|详细|详尽|啰嗦|冗长', 'writing', 'length', false],
  ['表情符号|表情|颜文字', 'writing', 'emoji', false],
  ['编程语言', 'coding', 'language', true],
  ['框架', 'coding', 'framework', true],
  ['缩进', 'coding', 'indent', true],
  ['制表符|空格', 'coding', 'indent', false],
  ['单元测试|测试', 'coding', 'tests', false],
  ['数据库', 'coding', 'database', true],
  ['编辑器|开发工具', 'tools', 'editor', true],
  ['终端|命令行', 'tools', 'terminal', true],
  ['浏览器', 'tools', 'browser', true],
  ['主题|配色', 'ui', 'theme', true],
  ['深色模式|暗色模式|暗黑模式|夜间模式|浅色模式|亮色模式|深色主题|浅色主题', 'ui', 'theme', false],
  ['字体|字号', 'ui', 'font', true],
  ['饮料|饮品', 'other', 'drink', true],
  ['绿茶|红茶|奶茶|乌龙茶|茶|咖啡|拿铁|美式|可乐|啤酒|果汁|白开水', 'other', 'drink', false],
  ['素食|吃素|清真', 'other', 'diet', false],
  ['辣|川菜|粤菜|火锅', 'other', 'food', false],
];

interface Lexicon {
  pattern: RegExp;
  entries: ReadonlyMap<string, Omit<Topic, 'term' | 'index' | 'value'>>;
}

function build(entries: readonly Entry[], boundaries: boolean): Lexicon {
  const map = new Map<string, Omit<Topic, 'term' | 'index' | 'value'>>();
  const sources: string[] = [];
  for (const [terms, scope, name, isTopicWord] of entries) {
    for (const term of terms.split('|')) {
      map.set(term.replace(/\\/g, ''), { scope, name, isTopicWord });
      sources.push(term);
    }
  }
  sources.sort((a, b) => b.length - a.length);
  const body = sources.join('|');
  const pattern = boundaries
    ? new RegExp(`(?<![\\p{L}\\p{N}_])(?:${body})(?![\\p{L}\\p{N}_+#])`, 'gu')
    : new RegExp(body, 'gu');
  return { pattern, entries: map };
}

const EN = build(EN_ENTRIES, true);
const ZH = build(ZH_ENTRIES, false);

function scan(lexicon: Lexicon, lower: string, out: Topic[]): void {
  lexicon.pattern.lastIndex = 0;
  for (let found = lexicon.pattern.exec(lower); found !== null; found = lexicon.pattern.exec(lower)) {
    const entry = lexicon.entries.get(found[0]);
    if (entry !== undefined) out.push({ ...entry, term: found[0], index: found.index });
  }
}

/**
 * What a phrase is about: its first topic word, else its first value word (English terms are also
 * read inside Chinese text, for "我更喜欢用 TypeScript").
 *
 * @example
 * topicOf('a casual tone')?.name // 'tone'
 * topicOf('green tea')            // { scope: 'other', name: 'drink', isTopicWord: false, term: 'green tea', … }
 */
export function topicOf(lower: string, chinese = false): Topic | undefined {
  const found: Topic[] = [];
  if (chinese) scan(ZH, lower, found);
  scan(EN, lower, found);
  if (found.length === 0) return undefined;
  found.sort((a, b) => a.index - b.index);
  const topic = found.find((candidate) => candidate.isTopicWord);
  if (topic === undefined) return found[0];
  const value = found.find((candidate) => !candidate.isTopicWord && candidate.name === topic.name);
  return value === undefined ? topic : { ...topic, value: { term: value.term, index: value.index } };
}

const SCOPE_WORDS: ReadonlyArray<readonly [RegExp, PreferenceScope]> = [
  [
    /\b(?:code|coding|functions?|variables?|classes|commits?|commit messages|branch(?:es)?|lint\w*|types|apis?|modules?|imports?|pull requests?|prs?|refactor\w*)\b|代码|编程|函数|变量|提交|分支/u,
    'coding',
  ],
  [
    /\b(?:writ\w*|docs?|documents?|documentation|emails?|answers?|responses?|replies|reply|messages?|summar\w+|reports?|articles?|posts?|wording|texts?|explanations?)\b|写|文档|邮件|回答|回复|文章|报告|总结/u,
    'writing',
  ],
  [/\b(?:tools?|apps?|ide|cli|plugins?|extensions?)\b|工具|软件|应用|插件/u, 'tools'],
  [/\b(?:ui|interface|colou?rs?|icons?|screen|display)\b|界面|颜色|图标/u, 'ui'],
];

/**
 * The scope of a preference with no known topic word, from the words around it.
 *
 * @example
 * scopeOf('short commit messages') // 'coding'
 */
export function scopeOf(lower: string): PreferenceScope {
  for (const [pattern, scope] of SCOPE_WORDS) if (pattern.test(lower)) return scope;
  return 'other';
}

// Topics of decisions: what kind of thing was chosen, when the sentence does not say "for <topic>".
const DECISION_TOPICS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(?:postgres(?:ql)?|mysql|sqlite|mongodb|dynamodb|cassandra|supabase|database)\b|数据库/u, 'database'],
  [/\b(?:redis|memcached|cache|caching)\b|缓存/u, 'cache'],
  [/\b(?:aws|gcp|azure|vercel|netlify|fly\.io|heroku|cloudflare|kubernetes|k8s|hosting)\b|部署|托管/u, 'hosting'],
  [/\b(?:github actions|circleci|jenkins|gitlab ci|ci)\b/u, 'ci'],
  [/\b(?:kafka|rabbitmq|sqs|nats|queue)\b|消息队列/u, 'queue'],
  [
    /\b(?:react|vue|angular|svelte|next\.js|django|flask|rails|express|fastapi|spring|nestjs|hono|framework)\b|框架/u,
    'framework',
  ],
  [/\b(?:typescript|javascript|python|rust|golang|java|kotlin|swift|ruby|php|scala|elixir)\b|编程语言/u, 'language'],
  [/\b(?:vitest|jest|pytest|mocha|playwright|cypress)\b/u, 'testing'],
  [/\b(?:stripe|paypal|adyen|payments?)\b|支付/u, 'payments'],
  [/\b(?:auth0|oauth|okta|clerk|authentication|auth)\b|认证|登录/u, 'auth'],
  [/\b(?:launch|release|ship)\b.*\b(?:date|on|in)\b|发布日期|上线时间/u, 'launch_date'],
  [/\b(?:licen[cs]e|mit|apache|gpl)\b|许可证/u, 'license'],
  [/\b(?:pricing|price|plan)\b|定价|价格/u, 'pricing'],
  [/\b(?:name|naming|call it)\b|命名|名字/u, 'naming'],
];

/**
 * The topic of a decision from the kind of thing chosen, if it is a known kind.
 *
 * @example
 * decisionTopicOf('use postgres') // 'database'
 */
export function decisionTopicOf(lower: string): string | undefined {
  for (const [pattern, topic] of DECISION_TOPICS) if (pattern.test(lower)) return topic;
  return undefined;
}
