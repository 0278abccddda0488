// API keys of the key's own tenant (engram.keys; admin keys only): list, create (the secret is
// shown once) and revoke. A key of one tenant never sees or revokes another tenant's keys. Any key
// may ask what it is.

import { isId, KEY_ROLES, ValidationError, type ApiKeyInfo, type KeyRole } from '../index.js';
import { identify } from './attribution.js';
import { type RouteCall, type RouteSpec } from './route-kit.js';
import { limitOf, PAGE_PARAMS, page } from './route-query.js';
import { objectOf, OWN_TENANT, pageOf } from './schema-refs.js';
import { allowOnly, bindTenant, type JsonObject } from './tenancy.js';

const KEY_INFO = objectOf(
  {
    id: { type: 'string', pattern: '^key_[0-9A-HJKMNP-TV-Z]{26}$' },
    tenant_id: { type: 'string' },
    role: { type: 'string', enum: [...KEY_ROLES] },
    label: { type: ['string', 'null'] },
    last4: { type: 'string', description: "The secret's last four characters." },
    created_at: { type: 'string', format: 'date-time' },
    revoked_at: { type: ['string', 'null'], format: 'date-time' },
  },
  ['id', 'tenant_id', 'role', 'label', 'last4', 'created_at', 'revoked_at'],
);

/** The keys of the tenant after the cursor (keys are listed oldest first, so ids ascend). */
async function listKeys({ engram, tenant, query }: RouteCall): Promise<unknown> {
  const limit = limitOf(query);
  if (limit < 1 || limit > 1000) throw ValidationError.of('limit', 'range', 'must be a whole number from 1 to 1000');
  const cursor = query['cursor'] as string | undefined;
  if (cursor !== undefined && !isId('key', cursor)) throw ValidationError.of('cursor', 'pattern', 'must be a key_ id');
  const keys = await engram.keys.list(tenant);
  const after = cursor === undefined ? keys : keys.filter((key: ApiKeyInfo) => key.id > cursor);
  return page(after.slice(0, limit), limit, (key) => key.id);
}

async function createKey({ engram, tenant, body }: RouteCall): Promise<unknown> {
  allowOnly(body, ['role', 'label', 'tenant_id']);
  if (body === undefined) throw ValidationError.of('role', 'required', 'is required');
  const request = bindTenant(body, tenant, { top: true }) as JsonObject;
  if (request['role'] === undefined) throw ValidationError.of('role', 'required', 'is required');
  return engram.keys.create(request as { tenant_id: string; role: KeyRole; label?: string });
}

/** Key management. */
export const keyRoutes: readonly RouteSpec[] = [
  {
    method: 'GET',
    url: '/v1/whoami',
    operationId: 'whoami',
    wire: { response: 'KeyIdentity' },
    role: 'read',
    tag: 'keys',
    summary: 'The key this request was sent with: its id, tenant, role and label (the id when it has none)',
    response: {
      status: 200,
      description: 'The key.',
      schema: objectOf(
        {
          key_id: { type: 'string' },
          tenant_id: { type: 'string' },
          role: { type: 'string', enum: [...KEY_ROLES] },
          label: { type: 'string' },
        },
        ['key_id', 'tenant_id', 'role', 'label'],
      ),
    },
    handle: ({ engram, principal }) => identify(engram, principal),
  },
  {
    method: 'GET',
    url: '/v1/keys',
    operationId: 'listKeys',
    wire: { response: 'Page<ApiKeyInfo>' },
    role: 'admin',
    tag: 'keys',
    summary: "The tenant's API keys (revoked ones included), oldest first, without secrets",
    query: PAGE_PARAMS,
    response: { status: 200, description: 'A page of keys.', schema: pageOf(KEY_INFO) },
    handle: listKeys,
  },
  {
    method: 'POST',
    url: '/v1/keys',
    operationId: 'createKey',
    wire: { body: 'CreateKeyRequest', response: 'CreatedKey' },
    role: 'admin',
    tag: 'keys',
    summary: 'Create a key of the tenant; the secret is in this response only',
    body: {
      required: true,
      schema: objectOf(
        {
          role: { type: 'string', enum: [...KEY_ROLES] },
          label: { type: 'string', maxLength: 200 },
          tenant_id: OWN_TENANT,
        },
        ['role'],
      ),
    },
    response: {
      status: 201,
      description: 'The key and its secret.',
      schema: objectOf({ info: KEY_INFO, key: { type: 'string', description: 'The secret (egk_…); store it now.' } }, [
        'info',
        'key',
      ]),
    },
    errors: [413, 415],
    handle: createKey,
  },
  {
    method: 'DELETE',
    url: '/v1/keys/:id',
    operationId: 'revokeKey',
    wire: { response: 'null' },
    role: 'admin',
    tag: 'keys',
    summary: 'Revoke a key of the tenant',
    response: { status: 204, description: 'Revoked.' },
    errors: [404],
    handle: ({ engram, tenant, params }) => engram.keys.revoke(params['id']!, tenant),
  },
];
