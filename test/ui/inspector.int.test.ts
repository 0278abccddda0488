// The web inspector end to end: a real `engram serve` on loopback over a seeded SQLite file, driven
// in headless Chromium (Debian's, through playwright-core). Logs in with a pasted key and with the
// login link, finds an item and opens its source event, approves a candidate and sees the item it
// wrote, composes a packet and reads its budget bars, replays a context build, reads a snapshot's
// narrative, shows API errors clearly — and checks on the wire that a secret event's content never
// reaches the browser. Screenshots go to test-results/ui/.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createEngram } from '../../src/index.js';
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
  const engram = await createEngram({ store, compaction: { eventThreshold: 5, stepFallback: 3 } });
  try {
    await engram.commitTurn({ scope, turn_id: 't1', messages: [{ role: 'user', content: 'I prefer concise answers. My name is Mira and I live in Lisbon.' }, { role: 'assistant', content: 'Noted, Mira.' }] });
    await engram.commitTurn({ scope, turn_id: 't2', messages: [{ role: 'user', content: `my deploy token is ${CANARY}`, sensitivity: 'secret' }] });
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
        { role: 'user', content: 'Last week the deploy failed because the migration timed out. We decided to run migrations before the deploy from now on.' },
        { role: 'assistant', content: 'Understood: migrations first, then deploy.' },
      ],
    });
    await engram.commitTurn({ scope: second, turn_id: 'u2', messages: [{ role: 'user', content: 'My sister Ana visits Porto every May; remind me to book the train.' }] });
    await engram.reflect({ scope: { user_id: scope.user_id, agent_id: scope.agent_id, run_id: second.run_id } });
    await engram.compose({ scope, purpose: 'responder', cues: { query: 'Lisbon' } });
    await engram.compose({ scope, purpose: 'planner' });
  } finally {
    await engram.close();
  }
}

const hasChromium = existsSync(CHROMIUM);
if (!hasChromium && process.env['ENGRAM_REQUIRE_BROWSER'] === '1') throw new Error(`${CHROMIUM} is missing: apt-get install chromium chromium-driver`);

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
      args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
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

  it('finds an item by search with its signal scores, opens it, and follows its source to the event', async () => {
    await page.keyboard.press('3');
    await page.getByRole('heading', { name: 'Memory' }).waitFor();
    await page.getByLabel('Search memory').fill('concise');
    await page.getByLabel('Search memory').press('Enter');
    const hits = page.getByRole('list', { name: 'Search results' });
    await expect.poll(() => hits.textContent()).toContain('pref:writing:length');
    expect(await hits.textContent()).toMatch(/full_text rank 1/);
    await hits.getByRole('link', { name: 'pref:writing:length' }).click();
    const detail = page.locator('aside.panel');
    await expect.poll(() => detail.textContent()).toContain('Version history');
    await page.screenshot({ path: join(shots, 'memory-item.png'), fullPage: true });
    await detail.locator('ul.sources a').first().click();
    await page.getByRole('heading', { name: 'Event' }).waitFor();
    await expect.poll(() => page.locator('main').textContent()).toContain('I prefer concise answers');
  });

  it('approves a pending candidate and shows the item it wrote in Memory', async () => {
    await page.goto(`${base}/ui/#/review?user_id=mira`);
    await page.getByRole('heading', { name: 'Review queue' }).waitFor();
    const card = page.locator('article.card').first();
    await card.waitFor();
    const pendingBefore = await page.locator('article.card').count();
    expect(pendingBefore).toBeGreaterThan(0);
    await page.screenshot({ path: join(shots, 'review.png'), fullPage: true });
    await card.getByRole('button', { name: 'Approve', exact: true }).click();
    const decision = card.getByRole('status');
    await expect.poll(() => decision.textContent()).toMatch(/approved by inspector/);
    await card.getByRole('link', { name: /See the item written/ }).click();
    await page.getByRole('heading', { name: 'Memory' }).waitFor();
    const detail = page.locator('aside.panel');
    await expect.poll(() => detail.textContent()).toContain('Version history');
    expect(await detail.textContent()).toContain('active');
  });

  it('edits what a candidate writes, approves the edit, and shows the edited item', async () => {
    await page.goto(`${base}/ui/#/review?user_id=mira`);
    const pending = page.locator('article.card', { has: page.getByRole('button', { name: 'Edit and approve' }) }).first();
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
    await expect.poll(() => page.locator('aside.panel').textContent()).toContain('checked by a reviewer');
  });

  it('rejects a candidate only with a reason', async () => {
    await page.goto(`${base}/ui/#/review?user_id=mira`);
    const pending = page.locator('article.card', { has: page.getByRole('button', { name: 'Reject…' }) }).first();
    await pending.waitFor();
    // The card keeps its heading id whatever its buttons become.
    const card = page.locator(`article[aria-labelledby="${await pending.getAttribute('aria-labelledby')}"]`);
    await card.getByRole('button', { name: 'Reject…' }).click();
    await card.getByLabel('Reason').fill('not a lasting fact');
    await card.getByRole('button', { name: 'Reject', exact: true }).click();
    await expect.poll(() => card.getByRole('status').textContent()).toMatch(/rejected by inspector: not a lasting fact/);
  });

  it('composes a packet and shows its budget bars, selected and omitted items and the prompt text', async () => {
    await page.goto(`${base}/ui/#/compose?user_id=mira&agent_id=assistant&session_id=s1&run_id=r1`);
    await page.getByLabel('Query').fill('Where does Mira live?');
    await page.getByLabel('Max tokens').fill('800');
    await page.getByRole('button', { name: 'Compose' }).click();
    const total = page.locator('.bar-row[data-section="total"] .bar-figure');
    await total.waitFor();
    const [used, max] = ((await total.textContent()) ?? '').split('/').map((part) => Number(part.trim()));
    expect(max).toBe(800);
    expect(used).toBeGreaterThan(0);
    expect(used).toBeLessThanOrEqual(800);
    // One bar per section, each with its allowance.
    const facts = await page.locator('.bar-row[data-section="facts"] .bar-figure').textContent();
    expect(facts).toMatch(/^\d+ \/ \d+$/);
    expect(await page.getByRole('list', { name: 'Selected items' }).textContent()).toMatch(/facts:mem_/);
    expect(await page.getByRole('list', { name: 'Omitted items' }).textContent()).toContain('not_allowed_for_purpose');
    expect(await page.getByLabel('Rendered prompt text').textContent()).toContain('Lisbon');
    await page.screenshot({ path: join(shots, 'compose.png'), fullPage: true });
  });

  it('shows an API error with its code and field', async () => {
    await page.getByLabel('Max tokens').fill('10');
    await page.getByRole('button', { name: 'Compose' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/VALIDATION_FAILED \(budget\.max_tokens\)/);
  });

  it('opens a stored context build, replays it byte-identically, and diffs two builds', async () => {
    await page.goto(`${base}/ui/#/builds?user_id=mira`);
    await page.getByRole('heading', { name: 'Context builds' }).waitFor();
    const rows = page.locator('tbody tr');
    await rows.first().waitFor();
    await rows.last().getByRole('link').click();
    await page.getByRole('button', { name: 'Replay as of its time' }).click();
    await expect.poll(() => page.locator('.replay [role=status]').textContent()).toContain('Byte-identical');
    await page.screenshot({ path: join(shots, 'build-replay.png'), fullPage: true });
    await rows.nth(0).getByRole('checkbox').check();
    await rows.nth(1).getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Diff the two ticked' }).click();
    await expect.poll(() => page.getByRole('list', { name: 'Differences' }).textContent()).not.toBe('');
  });

  it('shows a snapshot with its validation checks and its narrative', async () => {
    await page.goto(`${base}/ui/#/snapshots?user_id=mira`);
    await page.getByRole('heading', { name: 'Snapshots' }).waitFor();
    await page.locator('tbody tr').first().getByRole('link').click();
    await expect.poll(() => page.getByLabel('Narrative').textContent()).toContain('Ship billing');
    expect(await page.locator('aside.panel').textContent()).toMatch(/Validation\s*PASS/);
    await page.screenshot({ path: join(shots, 'snapshot.png'), fullPage: true });
  });

  it('never received the secret event’s content: not on the wire, not in the page', async () => {
    // Settle: the last responses' bodies are read asynchronously.
    await page.waitForTimeout(200);
    expect(wire.length).toBeGreaterThan(20);
    expect(wire.some((entry) => entry.url.includes('/v1/events'))).toBe(true);
    for (const entry of wire) expect(entry.body, entry.url).not.toContain(CANARY);
    await page.goto(`${base}/ui/#/timeline?user_id=mira&agent_id=assistant&session_id=s1`);
    await page.getByRole('list', { name: 'Events' }).waitFor();
    expect(await page.content()).not.toContain(CANARY);
    recordOutcome('inspector-wire', { responses_checked: wire.length, api_responses: wire.filter((entry) => entry.url.includes('/v1/')).length, canary_found: 0 });
  });
});
