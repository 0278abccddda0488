// Binds a tool call's arguments to the caller's key before the library sees them: the tenant is the
// key's (a different one named in the arguments is FORBIDDEN, never silently replaced), and an
// argument the tool does not take is refused by name rather than ignored.

import { inputIssues, type KeyPrincipal } from '../index.js';
import { forbidden, invalid, type ToolFailure } from './tool-result.js';
import type { EngramTool } from './tools.js';

type Args = Record<string, unknown>;

/** The arguments ready for the library, or why the call is refused. */
export type BoundArguments = { ok: true; args: Args } | { ok: false; failure: ToolFailure };

function isObject(value: unknown): value is Args {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function otherTenant(value: unknown, principal: KeyPrincipal): boolean {
  return value !== undefined && value !== principal.tenant_id;
}

function refuseTenant(field: string, principal: KeyPrincipal): BoundArguments {
  return {
    ok: false,
    failure: forbidden(
      field,
      `this key belongs to tenant ${JSON.stringify(principal.tenant_id)} and can reach no other; leave tenant_id out`,
    ),
  };
}

/**
 * The arguments of a call with the tenant set from the key, or the failure that refuses it.
 *
 * @example
 * bindArguments(tool, { scope: { user_id: 'u1', agent_id: 'a1' }, query: 'tone' }, principal)
 * // { ok: true, args: { scope: { user_id: 'u1', agent_id: 'a1', tenant_id: 'acme' }, query: 'tone' } }
 */
export function bindArguments(tool: EngramTool, input: Args | undefined, principal: KeyPrincipal): BoundArguments {
  const args = input ?? {};
  // Well-formed text without U+0000 first, as at every boundary (depth is left to the library).
  const [text] = inputIssues(args).filter((issue) => issue.rule !== 'max_depth');
  if (text !== undefined) return { ok: false, failure: invalid(text.field, text.rule, text.message) };
  const allowed = Object.keys((tool.inputSchema['properties'] as Args | undefined) ?? {});
  for (const name of Object.keys(args)) {
    if (name !== 'tenant_id' && !allowed.includes(name))
      return { ok: false, failure: invalid(name, 'additionalProperties', 'is not an allowed property') };
  }
  if (otherTenant(args['tenant_id'], principal)) return refuseTenant('tenant_id', principal);
  const { tenant_id: _named, ...rest } = args;
  if (tool.tenantAt === 'top') return { ok: true, args: { ...rest, tenant_id: principal.tenant_id } };
  const scope = rest['scope'];
  // A missing or malformed scope is left for the library to name precisely.
  if (!isObject(scope)) return { ok: true, args: rest };
  if (otherTenant(scope['tenant_id'], principal)) return refuseTenant('scope.tenant_id', principal);
  return { ok: true, args: { ...rest, scope: { ...scope, tenant_id: principal.tenant_id } } };
}
