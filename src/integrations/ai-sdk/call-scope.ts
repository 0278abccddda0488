// Whose memory a model call reads and writes: the middleware's scope, overridden per call by
// `providerOptions.engram`, which is checked here because it arrives as untyped JSON.

import { ValidationError, type Purpose, type ScopeInput } from '../../index.js';
import type { CallParams } from './sdk-types.js';

/** Engram's settings for one call, under `providerOptions.engram`. */
export interface EngramCallOptions {
  tenant_id?: string;
  user_id?: string;
  agent_id?: string;
  session_id?: string;
  /** Defaults to the session id: one conversation, one run. */
  run_id?: string;
  purpose?: Purpose;
  /** The call's turn id, instead of the one derived from its conversation. */
  turn_id?: string;
}

/** Scope, purpose and turn id of one call, resolved. */
export interface ResolvedCall {
  scope: ScopeInput;
  purpose: Purpose;
  turnId: string | undefined;
}

const FIELD = 'providerOptions.engram';
const NAMES = ['tenant_id', 'user_id', 'agent_id', 'session_id', 'run_id', 'purpose', 'turn_id'] as const;
const PURPOSES: readonly Purpose[] = ['responder', 'planner', 'tool'];

/**
 * The scope, purpose and turn id of a call: its `providerOptions.engram` over the defaults.
 * Throws ValidationError naming the option when one is not a string, a purpose is unknown, or
 * user_id, agent_id or session_id is set nowhere.
 *
 * @example
 * resolveCall({ scope: { user_id: 'mira', agent_id: 'chat' }, purpose: 'responder' }, { prompt, providerOptions: { engram: { session_id: 's1' } } })
 * // { scope: { user_id: 'mira', agent_id: 'chat', session_id: 's1', run_id: 's1' }, purpose: 'responder', turnId: undefined }
 */
export function resolveCall(
  defaults: { scope: Partial<ScopeInput>; purpose: Purpose },
  params: Pick<CallParams, 'providerOptions'>,
): ResolvedCall {
  const { purpose = defaults.purpose, turn_id: turnId, ...overrides } = callOptions(params.providerOptions?.['engram']);
  if (!PURPOSES.includes(purpose))
    throw ValidationError.of(`${FIELD}.purpose`, 'enum', `must be one of ${PURPOSES.join(', ')}`);
  const {
    tenant_id: tenant,
    user_id: user,
    agent_id: agent,
    session_id: session,
    run_id: run,
  } = { ...defaults.scope, ...overrides };
  const missing = [
    ['user_id', user],
    ['agent_id', agent],
    ['session_id', session],
  ].find(([, value]) => value === undefined);
  if (missing !== undefined)
    throw ValidationError.of(
      `${FIELD}.${missing[0]!}`,
      'required',
      'is required: set it in engramMiddleware({ scope }) or per call in providerOptions.engram',
    );
  const scope: ScopeInput = {
    user_id: user!,
    agent_id: agent!,
    session_id: session!,
    run_id: run ?? session!,
    ...(tenant === undefined ? {} : { tenant_id: tenant }),
  };
  return { scope, purpose, turnId };
}

function callOptions(value: unknown): EngramCallOptions {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw ValidationError.of(FIELD, 'type', 'must be an object');
  const options: Record<string, string> = {};
  for (const [name, option] of Object.entries(value)) {
    if (!(NAMES as readonly string[]).includes(name))
      throw ValidationError.of(
        `${FIELD}.${name}`,
        'additional_properties',
        `is not an option; the options are ${NAMES.join(', ')}`,
      );
    if (option === undefined) continue;
    if (typeof option !== 'string' || option === '')
      throw ValidationError.of(`${FIELD}.${name}`, 'type', 'must be a non-empty string');
    options[name] = option;
  }
  return options as EngramCallOptions;
}
