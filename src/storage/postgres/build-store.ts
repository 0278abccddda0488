// Context builds on PostgreSQL: every composed packet with its request, as-of time, selected ids and
// hash, so a packet can be listed, replayed and compared later.

import type { BuildQuery, ContextBuild, PutContextBuildOp } from '../../spec/storage.js';
import { buildList } from '../shared/list-queries.js';
import { buildFromRow, buildValues } from '../shared/service-rows.js';
import { BUILD_SQL } from '../shared/service-sql.js';
import type { Sql } from './client.js';

export class PgBuildStore {
  constructor(private readonly sql: Sql) {}

  async putBuild(tx: Sql, op: PutContextBuildOp): Promise<void> {
    await tx.run(BUILD_SQL.insert, buildValues(op.build, op.packet_json));
  }

  async findBuild(tenantId: string, buildId: string): Promise<ContextBuild | null> {
    const rows = await this.sql.rows(BUILD_SQL.get, [tenantId, buildId]);
    return rows.length === 0 ? null : buildFromRow(rows[0]!);
  }

  async listBuilds(query: BuildQuery): Promise<ContextBuild[]> {
    const { sql, params } = buildList(query);
    return (await this.sql.rows(sql, params)).map(buildFromRow);
  }
}
