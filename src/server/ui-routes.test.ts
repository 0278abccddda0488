import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';

import { installProblemHandling } from './problem.js';
import { registerInspector } from './ui-routes.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

async function appWith(root: string) {
  const app = Fastify();
  installProblemHandling(app);
  await registerInspector(app, root);
  return app;
}

describe('the inspector routes', () => {
  it('serve the built page under /ui/ with a strict content security policy, and redirect /ui there', async () => {
    const root = mkdtempSync(join(tmpdir(), 'engram-ui-'));
    folders.push(root);
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>inspector</title>');
    const app = await appWith(root);
    const redirect = await app.inject({ method: 'GET', url: '/ui' });
    expect(redirect.statusCode).toBe(302);
    expect(redirect.headers['location']).toBe('/ui/');
    const page = await app.inject({ method: 'GET', url: '/ui/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('inspector');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).toContain("connect-src 'self'");
    expect((await app.inject({ method: 'GET', url: '/ui/../package.json' })).statusCode).toBe(404);
    await app.close();
  });

  it('answer 404 with what to run when the inspector was not built', async () => {
    const app = await appWith(join(tmpdir(), 'engram-no-such-folder'));
    const response = await app.inject({ method: 'GET', url: '/ui/' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({
      code: 'ROUTE_NOT_FOUND',
      detail: expect.stringContaining('npm run build'),
    });
    await app.close();
  });
});
