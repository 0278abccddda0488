// The web inspector end to end: a real `engram serve` on loopback over a seeded SQLite file, driven
// in headless Chromium (Debian's, through playwright-core). Logs in with a pasted key and with the
// login link, finds an item and opens its source event; corrects memory (an edit that the next
// packet shows, a restore, a retraction that takes a fact out of packets, a delete confirmed with
// what goes); reviews (a proposal made twice decided once, edit, reject, bulk approve that writes
// items, keyboard shortcuts); composes a packet and asks why an event is not in it; replays a build
// and shows the text that came and went between two; reads a snapshot's narrative; shows API errors
// clearly — and checks on the wire that a secret event's content never reaches the browser. Every
// view is shot at 1280×800 and 390×844 into test-results/ui/, and none is taller than three screens.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createEngram, newId, openStore, type Engram, type StorageAdapter } from '../../src/index.js';
import { storeOptionsOf } from '../../src/runtime/config.js';
import { startEngram, type EngramProcess } from '../helpers/engram-process.js';
import { recordOutcome } from '../reliability/results.js';

const CHROMIUM = '/usr/bin/chromium';
const root = join(import.meta.dirname, '..', '..');
const shots = join(root, 'test-results', 'ui');
const CANARY = 'canary-7f3a9c-never-in-browser';
const scope = { user_id: 'mira', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };
const markers = ['PLAN_DONE', 'ACT_DONE', 'OBSERVE_DONE', 'STEP_DONE'] as const;

/** A user's history: preferences, a secret, tool results, a compacted run, candidates and builds. */
async function seed(store: string): Promise<void> {
  // Low compaction thresholds, so the run is compacted into a snapshot within these few turns.
  const storage = await openStore(store, storeOptionsOf({}));
  const engram = await createEngram({ store: storage, compaction: { eventThreshold: 5, stepFallback: 3 } });
  try {
    await engram.commitTurn({
      scope,
      turn_id: 't1',
      messages: [
        { role: 'user', content: 'I prefer concise answers. My name is Mira and I live in Lisbon.' },
        { role: 'assistant', content: 'Noted, Mira.' },
      ],
    });
    await engram.commitTurn({
      scope,
      turn_id: 't2',
      messages: [{ role: 'user', content: `my deploy token is ${CANARY}`, sensitivity: 'secret' }],
    });
    await engram.commitTurn({
      scope,
      turn_id: 't3',
      messages: [{ role: 'user', content: 'Deploy billing to staging, then check the dashboard.' }],
      tool_results: [{ tool_name: 'build_image', content: { ok: true, image: 'billing:42' } }],
      run: { objective: 'Ship billing', done_definition: 'billing is deployed to staging' },
    });
    await engram.commitTurn({ scope, turn_id: 't4', markers: [...markers] });
    const compacted = await engram.commitTurn({ scope, turn_id: 't5', markers: [...markers] });
    if (compacted.compaction === undefined) throw new Error('the seed run was not compacted');
    await engram.reflect({ scope: { user_id: scope.user_id, agent_id: scope.agent_id, run_id: scope.run_id } });
    // A second run with its own lessons: more candidates to review.
    const second = { ...scope, session_id: 's2', run_id: 'r2' };
    await engram.commitTurn({
      scope: second,
      turn_id: 'u1',
      messages: [
        {
          role: 'user',
          content:
            'Last week the deploy failed because the migration timed out. We decided to run migrations before the deploy from now on.',
        },
        { role: 'assistant', content: 'Understood: migrations first, then deploy.' },
      ],
    });
    await engram.commitTurn({
      scope: second,
      turn_id: 'u2',
      messages: [{ role: 'user', content: 'My sister Ana visits Porto every May; remind me to book the train.' }],
    });
    await engram.reflect({ scope: { user_id: scope.user_id, agent_id: scope.agent_id, run_id: second.run_id } });
    // A third run: a preference said twice (a memory proposal) and a plan (an episode).
    const third = { ...scope, session_id: 's3', run_id: 'r3' };
    await engram.commitTurn({
      scope: third,
      turn_id: 'v1',
      messages: [
        { role: 'user', content: 'I prefer a formal tone. Can you draft the Atlas update?' },
        { role: 'assistant', content: 'Here is a formal draft of the Atlas update.' },
      ],
    });
    await engram.commitTurn({
      scope: third,
      turn_id: 'v2',
      messages: [{ role: 'user', content: 'Please keep a formal tone in the draft.' }],
    });
    await engram.commitTurn({
      scope: third,
      turn_id: 'v3',
      messages: [{ role: 'user', content: 'We agreed to ship Atlas on Friday.' }],
    });
    await engram.reflect({ scope: { user_id: scope.user_id, agent_id: scope.agent_id, run_id: third.run_id } });
    await storeLegacyDuplicate(engram, storage);
    await engram.compose({ scope, purpose: 'responder', cues: { query: 'Lisbon' } });
    await engram.compose({ scope, purpose: 'planner' });
  } finally {
    await engram.close();
  }
}

/**
 * A proposal stored twice, as reflecting over a run twice did before a second reflection stopped
 * adding what the first proposed: the review queue shows and decides the two as one.
 */
async function storeLegacyDuplicate(engram: Engram, storage: StorageAdapter): Promise<void> {
  const [memory] = await engram.review.list({
    scope: { user_id: scope.user_id },
    kind: ['memory'],
    status: ['pending'],
  });
  if (memory === undefined) throw new Error('the seed made no memory proposal');
  await storage.write([{ op: 'put_candidate', candidate: { ...memory, id: newId('cand') } }]);
}

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

const hasChromium = existsSync(CHROMIUM);
if (!hasChromium && process.env['ENGRAM_REQUIRE_BROWSER'] === '1')
  throw new Error(`${CHROMIUM} is missing: apt-get install chromium chromium-driver`);

// Skipped only where Debian's Chromium is not installed (CI installs it and sets ENGRAM_REQUIRE_BROWSER=1).
describe.skipIf(!hasChromium)('web inspector in headless Chromium', () => {
  const folder = mkdtempSync(join(tmpdir(), 'engram-ui-'));
  const store = join(folder, 'engram.db');
  let server: EngramProcess;
  let base: string;
  let loginLink: string;
  let adminKey: string;
  let browser: Browser;
  let page: Page;
  /** Every body the browser received, with its address. */
  const wire: Array<{ url: string; body: string }> = [];

  beforeAll(async () => {
    const built = spawnSync(process.execPath, [join(root, 'ui', 'build.mjs')], { cwd: root, encoding: 'utf8' });
    expect(built.status, built.stderr).toBe(0);
    await seed(`sqlite:${store}`);
    server = startEngram(['--store', `sqlite:${store}`, 'serve', '--port', '0', '--quiet', '--no-worker']);
    const [, link, key] = await server.waitFor(/log in: (http:\S+\/ui\/#key=(\S+))\)/);
    loginLink = link!;
    adminKey = key!;
    base = loginLink.replace(/\/ui\/#key=.*$/, '');
    mkdirSync(shots, { recursive: true });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless=new',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    page = await browser.newPage({ viewport: DESKTOP });
    // Fail within a test's time, with the locator that did not appear.
    page.setDefaultTimeout(10_000);
    page.on('response', (response) => {
      void response.text().then(
        (body) => wire.push({ url: response.url(), body }),
        () => undefined,
      );
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('refuses a wrong key with the API’s error, then logs in with a pasted key and lists the scopes', async () => {
    await page.goto(`${base}/ui/`);
    await page.getByLabel('API key').fill('ek_wrong');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/UNAUTHENTICATED/);
    await page.getByLabel('API key').fill(adminKey);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Scopes' }).waitFor();
    const users = page.locator('table').first();
    await expect.poll(() => users.textContent()).toContain('mira');
    const sessionRow = page.locator('tr', { hasText: 's1' }).first();
    expect(await sessionRow.textContent()).toMatch(/assistant.*s1.*r1/);
    await page.screenshot({ path: join(shots, 'scopes.png'), fullPage: true });
  });

  it('logs in from the link serve prints, and takes the key out of the address', async () => {
    const second = await browser.newPage();
    await second.goto(loginLink);
    await second.getByRole('heading', { name: 'Scopes' }).waitFor();
    expect(second.url()).not.toContain(adminKey);
    await second.close();
  });

  it('shows a session timeline with the secret event present but its content withheld', async () => {
    await page.locator('tr', { hasText: 's1' }).first().getByRole('link', { name: 'timeline' }).click();
    await page.getByRole('heading', { name: 'Timeline' }).waitFor();
    const events = page.getByRole('list', { name: 'Events' });
    await expect.poll(() => events.textContent()).toContain('I prefer concise answers');
    expect(await events.textContent()).toContain('Secret content — not shown');
    // The tool result is folded until opened; the markers show as labels.
    const tool = page.locator('details', { hasText: 'Tool result' }).first();
    expect(await tool.getAttribute('open')).toBeNull();
    expect(await events.textContent()).toContain('STEP_DONE');
    await page.screenshot({ path: join(shots, 'timeline.png'), fullPage: true });
  });

  /** Every body the browser received as JSON, from the API, parsed. */
  const api = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${adminKey}` } });
    return (await response.json()) as T;
  };
  const itemOf = async (key: string) =>
    (
      await api<{ items: Array<{ id: string; key: string; version: number; value: Record<string, unknown> }> }>(
        '/v1/items?user_id=mira&agent_id=assistant&limit=1000',
      )
    ).items.find((item) => item.key === key);
  /** Composes a responder packet for s1 and answers its prompt text. */
  const composeText = async (query: string): Promise<string> => {
    await page.goto(`${base}/ui/#/compose?user_id=mira&agent_id=assistant&session_id=s1&run_id=r1`);
    await page.getByLabel('Query').fill(query);
    await page.getByRole('button', { name: 'Compose', exact: true }).click();
    await page.locator('.bar-row[data-section="total"]').waitFor();
    await page.getByRole('tab', { name: 'Prompt text' }).click();
    return (await page.getByLabel('Rendered prompt text').textContent()) ?? '';
  };
  const drawer = () => page.locator('aside.drawer');

  it('finds an item by search with its signal scores, opens it over the list, and follows its source to the event', async () => {
    await page.goto(`${base}/ui/#/memory?user_id=mira&agent_id=assistant`);
    await page.getByRole('heading', { name: 'Memory' }).waitFor();
    await page.getByLabel('Search memory').fill('concise');
    await page.getByLabel('Search memory').press('Enter');
    const hits = page.getByRole('list', { name: 'Search results' });
    await expect.poll(() => hits.textContent()).toContain('pref:writing:length');
    expect(await hits.textContent()).toMatch(/full_text rank 1/);
    // Items read as the line a packet shows.
    await hits.getByRole('link', { name: 'Prefers concise (writing length)' }).click();
    await expect.poll(() => drawer().textContent()).toContain('Version history');
    // The drawer lies over the table: the table keeps its width.
    const table = await page.locator('table.items').boundingBox();
    expect(table!.width).toBeGreaterThan(1000);
    expect(await drawer().getByRole('list', { name: 'Sources' }).textContent()).toContain('I prefer concise answers');
    await drawer().getByRole('list', { name: 'Sources' }).getByRole('link', { name: 'event' }).first().click();
    await page.getByRole('heading', { name: 'Event' }).waitFor();
    await expect.poll(() => page.locator('main').textContent()).toContain('I prefer concise answers');
  });

  it('edits a value: a new version stamped with the key’s label, which the next packet shows; then restores the old one', async () => {
    const length = await itemOf('pref:writing:length');
    await page.goto(`${base}/ui/#/memory?user_id=mira&agent_id=assistant&item=${length!.id}`);
    await drawer().getByRole('button', { name: 'Edit value' }).click();
    const editor = drawer().getByLabel(/The value \(JSON\)/);
    await editor.fill(JSON.stringify({ ...length!.value, value: 'thorough' }));
    await drawer().getByRole('button', { name: 'Save as a new version' }).click();
    await expect.poll(() => drawer().locator('h2').textContent()).toBe('Prefers thorough (writing length)');
    const history = drawer().getByRole('list', { name: 'Version history' });
    await expect.poll(() => history.textContent()).toContain('explicit: inspector:created on first start');
    await page.screenshot({ path: join(shots, 'memory-edited.png') });
    const text = await composeText('How long should answers be?');
    expect(text).toContain('Prefers thorough (writing length)');
    expect(text).not.toContain('Prefers concise (writing length)');
    // Restore version 1 (superseded by the edit): a third version with its value.
    await page.goto(
      `${base}/ui/#/memory?user_id=mira&agent_id=assistant&item=${(await itemOf('pref:writing:length'))!.id}`,
    );
    await drawer().getByRole('button', { name: 'Restore version 1' }).click();
    await expect.poll(() => drawer().locator('h2').textContent()).toBe('Prefers concise (writing length)');
    await expect.poll(() => history.textContent()).toMatch(/v3\s*active/);
  });

  it('retracts a fact, which takes it out of packets, and restores it', async () => {
    expect(await composeText('Where does Mira live?')).toContain('location: Lisbon');
    const profile = await itemOf('profile:user');
    await page.goto(`${base}/ui/#/memory?user_id=mira&agent_id=assistant&item=${profile!.id}`);
    await drawer().getByRole('button', { name: 'Retract…' }).click();
    await drawer().getByLabel('Reason (optional)').fill('moved away');
    await drawer().getByRole('button', { name: 'Retract', exact: true }).click();
    await expect.poll(() => drawer().textContent()).toMatch(/retracted/);
    expect(await composeText('Where does Mira live?')).not.toContain('location: Lisbon');
    await page.goto(`${base}/ui/#/memory?user_id=mira&agent_id=assistant&item=${profile!.id}`);
    // The retracted version comes back as the next version (restored from the version history; the
    // drawer's Corrections group offers the same button once it has loaded the retraction).
    await drawer()
      .getByRole('list', { name: 'Version history' })
      .getByRole('button', { name: `Restore version ${profile!.version}` })
      .click();
    await expect
      .poll(() => drawer().getByRole('list', { name: 'Version history' }).textContent())
      .toMatch(new RegExp(`v${profile!.version + 1}\\s*active`));
    expect(await composeText('Where does Mira live?')).toContain('location: Lisbon');
  });

  it('deletes a key only after a confirmation that lists every version that goes', async () => {
    const length = await itemOf('pref:writing:length');
    await page.goto(`${base}/ui/#/memory?user_id=mira&agent_id=assistant&item=${length!.id}`);
    await drawer().getByRole('button', { name: 'Delete…' }).click();
    const confirm = drawer().getByRole('status');
    await expect.poll(() => confirm.textContent()).toContain('This deletes 3 versions for good');
    const goes = drawer().getByRole('list', { name: 'What goes' });
    expect(await goes.textContent()).toContain('Prefers thorough (writing length)');
    await page.screenshot({ path: join(shots, 'memory-delete-confirm.png') });
    // Only this version: the plan changes to one.
    await drawer().getByLabel('only version 3').check();
    await expect.poll(() => confirm.textContent()).toContain('This deletes 1 version for good');
    await drawer()
      .getByLabel(/every version of/)
      .check();
    await expect.poll(() => confirm.textContent()).toContain('3 versions');
    await drawer().getByRole('button', { name: 'Delete 3 versions' }).click();
    await drawer().waitFor({ state: 'detached' });
    expect(await itemOf('pref:writing:length')).toBeUndefined();
    await expect.poll(() => page.locator('table.items').textContent()).not.toContain('writing length');
  });

  it('shows a proposal made twice once, and decides both with one approval', async () => {
    await page.goto(`${base}/ui/#/review?user_id=mira`);
    await page.getByRole('heading', { name: 'Review queue' }).waitFor();
    const pending = await api<{ items: unknown[] }>('/v1/review?user_id=mira&status=pending');
    expect(await page.getByRole('navigation', { name: 'Pending per user' }).textContent()).toContain(
      `mira · ${pending.items.length}`,
    );
    const card = page.locator('article.card', { hasText: 'proposed 2 times' });
    await card.waitFor();
    expect(await page.locator('article.card').count()).toBeGreaterThan(1);
    // Evidence is quoted inline.
    await expect.poll(() => card.getByRole('list', { name: 'Evidence' }).textContent()).toContain('formal tone');
    await page.screenshot({ path: join(shots, 'review.png') });
    await card.getByRole('button', { name: 'Approve', exact: true }).click();
    const decision = card.getByRole('status');
    await expect.poll(() => decision.textContent()).toMatch(/approved by inspector/);
    expect(await decision.textContent()).toContain('The same proposal made 1 more time was rejected with it.');
  });

  it('edits what a candidate writes, approves the edit, and shows the edited item', async () => {
    await page.goto(`${base}/ui/#/review?user_id=mira`);
    const pending = page
      .locator('article.card', { has: page.getByRole('button', { name: 'Edit and approve' }) })
      .first();
    await pending.waitFor();
    const card = page.locator(`article[aria-labelledby="${await pending.getAttribute('aria-labelledby')}"]`);
    await card.getByRole('button', { name: 'Edit and approve' }).click();
    const editor = card.getByLabel('What to write instead (JSON)');
    const edit = JSON.parse(await editor.inputValue()) as { write: string; value?: Record<string, unknown> };
    expect(edit.write).toBe('item');
    // A broken edit is refused in the page, with the reason, and nothing is decided.
    await editor.fill('{ not json');
    await card.getByRole('button', { name: 'Approve the edit' }).click();
    await expect.poll(() => card.getByRole('alert').textContent()).toContain('the edit is not JSON');
    await editor.fill(JSON.stringify({ ...edit, value: { ...edit.value, edited_note: 'checked by a reviewer' } }));
    await card.getByRole('button', { name: 'Approve the edit' }).click();
    await expect.poll(() => card.getByRole('status').textContent()).toMatch(/edited by inspector/);
    await card.getByRole('link', { name: /See the item written/ }).click();
    await expect.poll(() => drawer().textContent()).toContain('checked by a reviewer');
  });

  it('rejects a candidate only with a reason, from the keyboard', async () => {
    await page.goto(`${base}/ui/#/review?user_id=mira`);
    await page.locator('article.card').first().waitFor();
    const first = page.locator('article.card').first();
    // x ticks the focused proposal, j moves on; r opens the reason of the focused one.
    await page.keyboard.press('x');
    await expect.poll(() => page.getByRole('group', { name: 'Ticked proposals' }).textContent()).toContain('1 ticked');
    for (const key of ['x', 'j', 'k', 'r']) await page.keyboard.press(key);
    await first.getByLabel('Reason').fill('not a lasting fact');
    await first.getByRole('button', { name: 'Reject', exact: true }).click();
    await expect
      .poll(() => first.getByRole('status').textContent())
      .toMatch(/rejected by inspector: not a lasting fact/);
  });

  it('approves ticked proposals together, and each writes its item', async () => {
    // Away and back, so the queue is read again without the proposals decided before.
    await page.goto(`${base}/ui/#/scopes`);
    await page.goto(`${base}/ui/#/review?user_id=mira`);
    const cards = page.locator('article.card');
    await cards.first().waitFor();
    const count = await cards.count();
    expect(count).toBeGreaterThanOrEqual(2);
    await cards.nth(0).getByRole('checkbox').check();
    await cards.nth(1).getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Approve ticked' }).click();
    for (const at of [0, 1])
      await expect.poll(() => cards.nth(at).getByRole('status').textContent()).toMatch(/approved by inspector/);
    const written = await Promise.all(
      [0, 1].map(
        async (at) =>
          (await cards
            .nth(at)
            .getByRole('link', { name: /See the item written/ })
            .getAttribute('href'))!.match(/item=(mem_\w+)/)![1]!,
      ),
    );
    for (const id of written) expect((await api<{ status: string }>(`/v1/items/${id}`)).status).toBe('active');
  });

  it('composes a packet and shows its budget bars, selected items as text, omitted ones and the prompt text', async () => {
    await page.goto(`${base}/ui/#/compose?user_id=mira&agent_id=assistant&session_id=s1&run_id=r1`);
    await page.getByLabel('Query').fill('Where does Mira live?');
    await page.getByLabel('Max tokens').fill('800');
    await page.getByRole('button', { name: 'Compose', exact: true }).click();
    const total = page.locator('.bar-row[data-section="total"] .bar-figure');
    await total.waitFor();
    const [used, max] = ((await total.textContent()) ?? '').split('/').map((part) => Number(part.trim()));
    expect(max).toBe(800);
    expect(used).toBeGreaterThan(0);
    expect(used).toBeLessThanOrEqual(800);
    // One bar per section, each with its allowance.
    const facts = await page.locator('.bar-row[data-section="facts"] .bar-figure').textContent();
    expect(facts).toMatch(/^\d+ \/ \d+$/);
    await page.screenshot({ path: join(shots, 'compose.png') });
    await page.getByRole('tab', { name: /Selected/ }).click();
    const selected = await page.getByRole('table', { name: 'Selected items' }).textContent();
    // Each selected record as the text the packet holds, with its id and rule.
    expect(selected).toContain('My name is Mira and I live in Lisbon.');
    expect(selected).toMatch(/evt_\w+cue\.hybrid/);
    await page.getByRole('tab', { name: /Omitted/ }).click();
    expect(await page.getByRole('list', { name: 'Omitted items' }).textContent()).toContain('not_allowed_for_purpose');
    await page.getByRole('tab', { name: 'Prompt text' }).click();
    expect(await page.getByLabel('Rendered prompt text').textContent()).toContain('Lisbon');
  });

  it('says why an event is not in the packet, and why a fact is', async () => {
    await page.getByRole('tab', { name: 'Why (not)?' }).click();
    const choice = page.getByLabel('An item of the user or an event of the session');
    await expect.poll(async () => (await choice.locator('option').allTextContents()).join('\n')).toContain('(secret)');
    const secret = (await choice.locator('option').allTextContents()).find((label) => label.includes('(secret)'))!;
    await choice.selectOption({ label: secret });
    await page.getByRole('button', { name: 'Explain' }).click();
    const answer = page.getByRole('status', { name: 'Explanation' });
    await expect.poll(() => answer.textContent()).toContain('not in the packet');
    expect(await answer.textContent()).toMatch(/filtered.*filter: sensitivity/);
    await page.screenshot({ path: join(shots, 'compose-why-not.png') });
    // A "why?" on a selected fact answers where it was placed and by which rule.
    await page.getByRole('tab', { name: /Selected/ }).click();
    await page
      .getByRole('table', { name: 'Selected items' })
      .getByRole('button', { name: /^Why: mem_/ })
      .first()
      .click();
    await expect
      .poll(() => page.getByRole('status', { name: 'Explanation' }).textContent())
      .toMatch(/in the packet.*Placed in/);
  });

  it('shows an API error with its code and field', async () => {
    await page.getByLabel('Max tokens').fill('10');
    await page.getByRole('button', { name: 'Compose', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/VALIDATION_FAILED \(budget\.max_tokens\)/);
  });

  it('opens a stored context build, replays it byte-identically, and shows the text that came and went between two', async () => {
    await page.goto(`${base}/ui/#/builds?user_id=mira`);
    await page.getByRole('heading', { name: 'Context builds' }).waitFor();
    const rows = page.locator('tbody tr');
    await rows.first().waitFor();
    // The newest build: older ones held an item deleted since, and a deletion cannot be replayed.
    await rows.first().getByRole('link').click();
    await page.getByRole('button', { name: 'Replay as of its time' }).click();
    await expect.poll(() => page.locator('.replay [role=status]').textContent()).toContain('Byte-identical');
    await page.screenshot({ path: join(shots, 'build-replay.png') });
    await page.getByRole('button', { name: 'Close the panel' }).click();
    // The compose before the last retraction's and the one after it: the location fact went.
    const ids = await api<{ items: Array<{ id: string; request: { cues?: { query?: string } } }> }>(
      '/v1/builds?user_id=mira&limit=100',
    );
    const lisbon = ids.items.filter((build) => build.request.cues?.query === 'Where does Mira live?');
    await page.goto(`${base}/ui/#/builds?user_id=mira&a=${lisbon.at(-1)!.id}&b=${lisbon.at(-2)!.id}`);
    await expect.poll(() => drawer().getByRole('list', { name: 'Differences' }).textContent()).not.toBe('');
    expect(await drawer().getByRole('list', { name: 'Went (only in the first)' }).textContent()).toContain(
      'location: Lisbon',
    );
    expect(await drawer().getByLabel('Prompt text changes').textContent()).toContain('location: Lisbon');
    await page.screenshot({ path: join(shots, 'build-diff.png') });
  });

  it('shows a snapshot with its validation checks and its narrative', async () => {
    await page.goto(`${base}/ui/#/snapshots?user_id=mira`);
    await page.getByRole('heading', { name: 'Snapshots' }).waitFor();
    await page.locator('tbody tr').first().getByRole('link').click();
    await expect.poll(() => page.getByLabel('Narrative').textContent()).toContain('Ship billing');
    expect(await drawer().textContent()).toMatch(/Validation\s*PASS/);
  });

  it('shows every view within three screens at 1280×800 and 390×844, and keeps a shot of each', async () => {
    const item = await itemOf('profile:user');
    const builds = await api<{ items: Array<{ id: string }> }>('/v1/builds?user_id=mira&limit=2');
    const snapshots = await api<{ items: Array<{ snapshot: { snapshot_id: string } }> }>(
      '/v1/snapshots?user_id=mira&limit=1',
    );
    const scope = 'user_id=mira&agent_id=assistant&session_id=s1&run_id=r1';
    const views: Array<[string, string, (view: Page) => Promise<void>]> = [
      ['scopes', '#/scopes', (view) => view.getByRole('heading', { name: 'Sessions' }).waitFor()],
      ['timeline', `#/timeline?${scope}`, (view) => view.getByRole('list', { name: 'Events' }).waitFor()],
      ['memory', '#/memory?user_id=mira&agent_id=assistant&all=1', (view) => view.locator('table.items').waitFor()],
      [
        'memory-item',
        `#/memory?user_id=mira&agent_id=assistant&item=${item!.id}`,
        (view) => view.getByRole('list', { name: 'Version history' }).waitFor(),
      ],
      ['review', '#/review?user_id=mira&status=all', (view) => view.locator('article.card').first().waitFor()],
      [
        'compose',
        `#/compose?${scope}`,
        async (view) => {
          await view.getByLabel('Query').fill('Where does Mira live?');
          await view.getByRole('button', { name: 'Compose', exact: true }).click();
          await view.locator('.bar-row[data-section="total"]').waitFor();
        },
      ],
      ['builds', '#/builds?user_id=mira', (view) => view.locator('table.builds').waitFor()],
      [
        'build-diff',
        `#/builds?user_id=mira&a=${builds.items[1]!.id}&b=${builds.items[0]!.id}`,
        (view) => view.getByRole('list', { name: 'Differences' }).waitFor(),
      ],
      [
        'snapshot',
        `#/snapshots?user_id=mira&snapshot=${snapshots.items[0]!.snapshot.snapshot_id}`,
        (view) => view.getByLabel('Narrative').waitFor(),
      ],
    ];
    for (const [size, viewport] of [
      ['1280', DESKTOP],
      ['390', PHONE],
    ] as const) {
      const view = await browser.newPage({ viewport });
      view.setDefaultTimeout(10_000);
      await view.goto(loginLink);
      await view.getByRole('heading', { name: 'Scopes' }).waitFor();
      for (const [name, hash, ready] of views) {
        await view.goto(`${base}/ui/${hash}`);
        await ready(view);
        await view.waitForLoadState('networkidle');
        await view.screenshot({ path: join(shots, `${name}-${size}.png`), fullPage: true });
        const height = (await view.evaluate('document.documentElement.scrollHeight')) as number;
        expect(height, `${name} at ${size} px wide is ${height} px tall`).toBeLessThanOrEqual(3 * viewport.height);
      }
      await view.close();
    }
  }, 120_000);

  it('never received the secret event’s content: not on the wire, not in the page', async () => {
    // Settle: the last responses' bodies are read asynchronously.
    await page.waitForTimeout(200);
    expect(wire.length).toBeGreaterThan(20);
    expect(wire.some((entry) => entry.url.includes('/v1/events'))).toBe(true);
    for (const entry of wire) expect(entry.body, entry.url).not.toContain(CANARY);
    await page.goto(`${base}/ui/#/timeline?user_id=mira&agent_id=assistant&session_id=s1`);
    await page.getByRole('list', { name: 'Events' }).waitFor();
    expect(await page.content()).not.toContain(CANARY);
    recordOutcome('inspector-wire', {
      responses_checked: wire.length,
      api_responses: wire.filter((entry) => entry.url.includes('/v1/')).length,
      canary_found: 0,
    });
  });
});
