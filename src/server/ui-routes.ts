// The web inspector at /ui: static files built from ui/ into dist/ui (by `npm run build`) and
// served as they are. The page talks to the API with the key the user gives it; the server gives
// it nothing else. A strict content security policy keeps it to its own files and this origin.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

import { HttpError } from './http-error.js';

/** Where the built inspector lives: dist/ui at the package root (from src/server or dist/server). */
export const INSPECTOR_ROOT = fileURLToPath(new URL('../../dist/ui/', import.meta.url));

/** Only this origin's scripts, styles and API; no frames, no forms elsewhere. */
const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * Serves the inspector under /ui/ (and /ui redirects there). Without built assets, /ui answers 404
 * with what to run.
 *
 * @example
 * await registerInspector(app);
 */
export async function registerInspector(app: FastifyInstance, root = INSPECTOR_ROOT): Promise<void> {
  app.get('/ui', async (_request, reply) => reply.redirect('/ui/', 302));
  if (!existsSync(root)) {
    app.get('/ui/*', async () => {
      throw new HttpError(
        'ROUTE_NOT_FOUND',
        'the web inspector is not built in this installation: run `npm run build`',
      );
    });
    return;
  }
  await app.register(fastifyStatic, {
    root,
    prefix: '/ui/',
    index: ['index.html'],
    // The assets change with the package; a reload after an upgrade picks them up.
    cacheControl: true,
    maxAge: 0,
    setHeaders: (reply) => {
      reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
      reply.header('x-content-type-options', 'nosniff');
      reply.header('referrer-policy', 'no-referrer');
    },
  });
}
