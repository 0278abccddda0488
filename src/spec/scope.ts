// Scope: who a record belongs to. Every read and write is scoped by tenant first, so one tenant
// never sees another's data, and tables can be distributed by tenant.

/** The scope of a call as the caller gives it; `tenant_id` defaults to `"default"`. */
export interface ScopeInput {
  tenant_id?: string;
  user_id: string;
  agent_id: string;
  session_id: string;
  run_id: string;
}

/** A scope with every field resolved. */
export interface Scope {
  tenant_id: string;
  user_id: string;
  agent_id: string;
  session_id: string;
  run_id: string;
}

/** The key of one session's state (working memory, rolling summary, turns). */
export interface SessionKey {
  tenant_id: string;
  user_id: string;
  agent_id: string;
  session_id: string;
}

/** The tenant used when a scope names none. */
export const DEFAULT_TENANT = 'default';

/**
 * Fills the defaults of a scope.
 *
 * @example
 * resolveScope({ user_id: 'u1', agent_id: 'a1', session_id: 's1', run_id: 'r1' }).tenant_id // 'default'
 */
export function resolveScope(scope: ScopeInput): Scope {
  return {
    tenant_id: scope.tenant_id ?? DEFAULT_TENANT,
    user_id: scope.user_id,
    agent_id: scope.agent_id,
    session_id: scope.session_id,
    run_id: scope.run_id,
  };
}

/**
 * The session part of a scope.
 *
 * @example
 * sessionKeyOf(scope) // { tenant_id, user_id, agent_id, session_id }
 */
export function sessionKeyOf(scope: Scope): SessionKey {
  return {
    tenant_id: scope.tenant_id,
    user_id: scope.user_id,
    agent_id: scope.agent_id,
    session_id: scope.session_id,
  };
}
