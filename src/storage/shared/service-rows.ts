// Rows of the service tables (API keys, jobs, context builds), shared by the SQL adapters.

import type { ApiKeyRecord } from '../../spec/auth.js';
import type { MemoryPacket } from '../../spec/packet.js';
import type { BuildRedaction, ContextBuild, Job } from '../../spec/storage.js';
import type { Row } from './rows.js';

export const KEY_COLUMNS = ['tenant_id', 'id', 'role', 'label', 'hash', 'last4', 'created_at', 'revoked_at'] as const;
export const KEY_SELECT = KEY_COLUMNS.join(', ');

export function keyFromRow(row: Row): ApiKeyRecord {
  return {
    id: row['id'] as string,
    tenant_id: row['tenant_id'] as string,
    role: row['role'] as ApiKeyRecord['role'],
    label: (row['label'] as string | null) ?? null,
    hash: row['hash'] as string,
    last4: row['last4'] as string,
    created_at: row['created_at'] as string,
    revoked_at: (row['revoked_at'] as string | null) ?? null,
  };
}

export const JOB_COLUMNS = [
  'tenant_id',
  'id',
  'kind',
  'payload',
  'status',
  'attempts',
  'lease_until',
  'last_error',
  'created_at',
  'updated_at',
] as const;

/**
 * The jobs a worker may claim at a time (the two `?` are that time): pending ones past any backoff
 * (a pending job's `lease_until` is the time before which it waits), and running ones whose lease ended.
 */
export const JOB_CLAIMABLE =
  "((status = 'pending' AND (lease_until IS NULL OR lease_until <= ?)) OR (status = 'running' AND lease_until < ?))";

/** Finishes a running job: status, lease_until (a pending job's backoff, else null), last_error, updated_at, tenant_id, id. */
export const JOB_FINISH =
  "UPDATE jobs SET status = ?, lease_until = ?, last_error = ?, updated_at = ? WHERE tenant_id = ? AND id = ? AND status = 'running'";

/** The `lease_until` a finished job keeps: the backoff of one put back to pending, else none. */
export function jobNotBefore(status: 'done' | 'failed' | 'pending', retryAt: string | undefined): string | null {
  return status === 'pending' ? (retryAt ?? null) : null;
}

export function jobFromRow(row: Row): Job {
  return {
    tenant_id: row['tenant_id'] as string,
    id: row['id'] as string,
    kind: row['kind'] as Job['kind'],
    payload: JSON.parse(row['payload'] as string) as Record<string, unknown>,
    status: row['status'] as Job['status'],
    attempts: row['attempts'] as number,
    lease_until: (row['lease_until'] as string | null) ?? null,
    last_error: (row['last_error'] as string | null) ?? null,
    created_at: row['created_at'] as string,
    updated_at: row['updated_at'] as string,
  };
}

/** The columns of a context build, in the order of buildValues. */
export const BUILD_COLUMNS = [
  'tenant_id',
  'id',
  'user_id',
  'agent_id',
  'session_id',
  'run_id',
  'purpose',
  'request',
  'as_of',
  'selected',
  'packet_hash',
  'packet',
  'created_at',
  'redactions',
] as const;
/** The columns `buildFromRow` reads. */
export const BUILD_SELECT = BUILD_COLUMNS.join(', ');

/** The values of a context build in the order of BUILD_COLUMNS (`packetJson`: the packet already serialised). */
export function buildValues(b: ContextBuild, packetJson = JSON.stringify(b.packet)): unknown[] {
  return [
    b.tenant_id,
    b.id,
    b.user_id,
    b.agent_id,
    b.session_id,
    b.run_id,
    b.purpose,
    JSON.stringify(b.request),
    b.as_of,
    JSON.stringify(b.selected),
    b.packet_hash,
    packetJson,
    b.created_at,
    b.redactions === undefined ? null : JSON.stringify(b.redactions),
  ];
}

/** A context build from a row of `SELECT *` (extra columns are ignored). */
export function buildFromRow(row: Row): ContextBuild {
  return {
    id: row['id'] as string,
    tenant_id: row['tenant_id'] as string,
    user_id: row['user_id'] as string,
    agent_id: row['agent_id'] as string,
    session_id: row['session_id'] as string,
    run_id: row['run_id'] as string,
    purpose: row['purpose'] as string,
    request: JSON.parse(row['request'] as string) as Record<string, unknown>,
    as_of: row['as_of'] as string,
    selected: JSON.parse(row['selected'] as string) as string[],
    packet_hash: row['packet_hash'] as string,
    packet: JSON.parse(row['packet'] as string) as MemoryPacket,
    created_at: row['created_at'] as string,
    // Only builds an erase redacted carry the field (a column added later: null before).
    ...(typeof row['redactions'] === 'string' ? { redactions: JSON.parse(row['redactions']) as BuildRedaction[] } : {}),
  };
}
