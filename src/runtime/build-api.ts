// The build area (`engram.builds`): the context builds every compose stores, replayed, compared and
// explained — why an event or item is, or is not, in a packet.

import { NotFoundError } from '../spec/errors.js';
import type { ExplainBuildRequest } from '../spec/requests.js';
import type { ContextBuild } from '../spec/storage.js';
import { requireCount, requireId, requireTenant, tenantOrDefault } from './arguments.js';
import { diffBuilds, replay, type BuildDiff, type ReplayResult } from './builds.js';
import { explainBuild, type BuildExplanation } from './explain-build.js';
import type { Runtime } from './runtime.js';

/** Which builds `engram.builds.list` returns: a tenant's, or one user's, agent's or session's. */
export interface ListBuildsQuery {
  tenant_id?: string;
  user_id?: string;
  agent_id?: string;
  session_id?: string;
  /** The last build id of the previous page. */
  cursor?: string;
  /** At most this many (1–1000, default 50). */
  limit?: number;
}

/** Stored context builds (`engram.builds`). */
export interface Builds {
  /**
   * A stored context build (every compose stores one; its id is in `explain.determinism.context_build_id`).
   *
   * @example
   * const build = await engram.builds.get(packet.explain.determinism.context_build_id);
   */
  get(buildId: string, tenantId?: string): Promise<ContextBuild>;
  /**
   * Context builds, newest first, of a tenant (optionally one user, agent or session).
   *
   * @example
   * const builds = await engram.builds.list({ user_id: 'mira', limit: 20 });
   */
  list(query?: ListBuildsQuery): Promise<ContextBuild[]>;
  /**
   * Rebuilds a stored packet as of its time and tells whether it is byte-identical.
   *
   * @example
   * const { identical, packet } = await engram.builds.replay('ctx_01J…');
   */
  replay(buildId: string, tenantId?: string): Promise<ReplayResult>;
  /**
   * What changed between two context builds: selection, request, section budgets.
   *
   * @example
   * const diff = await engram.builds.diff('ctx_a…', 'ctx_b…');
   */
  diff(a: string, b: string, tenantId?: string): Promise<BuildDiff>;
  /**
   * Why an event or item version is, or is not, in a stored build's packet: where it was placed, or
   * the filter that left it out, the omission the packet recorded, and each signal's rank for it as
   * of the build's time.
   *
   * @example
   * const { verdict, signals } = await engram.builds.explain({ build_id: 'ctx_01J…', id: 'evt_01J…' });
   */
  explain(request: ExplainBuildRequest): Promise<BuildExplanation>;
}

export function buildsOf(runtime: Runtime): Builds {
  return {
    get: async (buildId, tenantId) => {
      const { storage } = runtime.store();
      requireId('ctx', buildId, 'build_id');
      const build = await storage.sessions.getBuild(tenantOrDefault(tenantId), buildId);
      if (build === null) throw new NotFoundError('build_id', buildId);
      return build;
    },
    list: async (query = {}) => {
      const { storage } = runtime.store();
      const limit = query.limit ?? 50;
      requireCount(limit, 'limit', 1, 1000);
      if (query.cursor !== undefined) requireId('ctx', query.cursor, 'cursor');
      const tenant = tenantOrDefault(query.tenant_id);
      for (const field of ['user_id', 'agent_id', 'session_id'] as const)
        if (query[field] !== undefined) requireTenant(query[field], field);
      return storage.sessions.listBuilds({ ...query, tenant_id: tenant, limit });
    },
    replay: async (buildId, tenantId) => {
      const context = runtime.read();
      requireId('ctx', buildId, 'build_id');
      return replay(context, tenantOrDefault(tenantId), buildId);
    },
    diff: async (a, b, tenantId) => {
      const { storage } = runtime.store();
      requireId('ctx', a, 'a');
      requireId('ctx', b, 'b');
      return diffBuilds(storage, tenantOrDefault(tenantId), a, b);
    },
    explain: async (request) => explainBuild(runtime.read(), request),
  };
}
