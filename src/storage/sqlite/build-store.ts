// Context builds on SQLite: every composed packet with its request, as-of time, selected ids and
// hash, so a packet can be listed, replayed and compared later.

import type Database from 'better-sqlite3';

import type { BuildQuery, ContextBuild, PutContextBuildOp } from '../../spec/storage.js';
import type { Row } from '../shared/rows.js';
import { buildFromRow } from '../shared/service-rows.js';

export class BuildStore {
  private readonly insert: Database.Statement;
  private readonly get: Database.Statement;

  constructor(
    db: Database.Database,
    private readonly cached: (sql: string) => Database.Statement,
  ) {
    this.insert = db.prepare(
      `INSERT INTO context_builds (tenant_id, id, user_id, agent_id, session_id, run_id, purpose, request, as_of, selected, packet_hash, packet, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.get = db.prepare('SELECT * FROM context_builds WHERE tenant_id = ? AND id = ?');
  }

  put(op: PutContextBuildOp): void {
    const build = op.build;
    this.insert.run(
      build.tenant_id, build.id, build.user_id, build.agent_id, build.session_id, build.run_id, build.purpose,
      JSON.stringify(build.request), build.as_of, JSON.stringify(build.selected), build.packet_hash, JSON.stringify(build.packet), build.created_at,
    );
  }

  find(tenantId: string, buildId: string): ContextBuild | null {
    const row = this.get.get(tenantId, buildId) as Row | undefined;
    return row === undefined ? null : buildFromRow(row);
  }

  list(query: BuildQuery): ContextBuild[] {
    const where = ['tenant_id = ?'];
    const params: unknown[] = [query.tenant_id];
    for (const column of ['user_id', 'agent_id', 'session_id', 'run_id'] as const) {
      if (query[column] === undefined) continue;
      where.push(`${column} = ?`);
      params.push(query[column]);
    }
    if (query.created_after !== undefined) {
      where.push('created_at > ?');
      params.push(query.created_after);
    }
    if (query.cursor !== undefined) {
      where.push('id < ?');
      params.push(query.cursor);
    }
    const sql = `SELECT * FROM context_builds WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ?`;
    return (this.cached(sql).all(...params, query.limit) as Row[]).map(buildFromRow);
  }
}
