// Context builds on SQLite: every composed packet with its request, as-of time, selected ids and
// hash, so a packet can be listed, replayed and compared later.

import type Database from 'better-sqlite3';

import type { BuildQuery, ContextBuild, PutContextBuildOp } from '../../spec/storage.js';
import { buildList } from '../shared/list-queries.js';
import type { Row } from '../shared/rows.js';
import { buildFromRow, buildValues } from '../shared/service-rows.js';
import { BUILD_SQL } from '../shared/service-sql.js';

export class BuildStore {
  private readonly insert: Database.Statement;
  private readonly get: Database.Statement;

  constructor(
    db: Database.Database,
    private readonly cached: (sql: string) => Database.Statement,
  ) {
    this.insert = db.prepare(BUILD_SQL.insert);
    this.get = db.prepare(BUILD_SQL.get);
  }

  put(op: PutContextBuildOp): void {
    this.insert.run(...buildValues(op.build, op.packet_json));
  }

  find(tenantId: string, buildId: string): ContextBuild | null {
    const row = this.get.get(tenantId, buildId) as Row | undefined;
    return row === undefined ? null : buildFromRow(row);
  }

  list(query: BuildQuery): ContextBuild[] {
    const { sql, params } = buildList(query);
    return (this.cached(sql).all(...params) as Row[]).map(buildFromRow);
  }
}
