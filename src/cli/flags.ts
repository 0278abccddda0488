// Flags and lines the CLI's commands share: the scope flags of a user (and agent, session, run),
// JSON given inline or as a file, numbers and repeated values, and one-line renderings.

import type { Command } from 'commander';

import { ValidationError, type ItemDiff } from '../index.js';
import { readJson } from './runner.js';

export interface ScopeFlags {
  tenant: string;
  user: string;
  agent?: string;
  session?: string;
  run?: string;
}

export const optional = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } =>
  (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };

export function scopeOf(flags: ScopeFlags) {
  return {
    tenant_id: flags.tenant,
    user_id: flags.user,
    ...optional('agent_id', flags.agent),
    ...optional('session_id', flags.session),
    ...optional('run_id', flags.run),
  };
}

export function runScope(flags: ScopeFlags & { agent: string; run: string }) {
  return { ...scopeOf(flags), agent_id: flags.agent, run_id: flags.run };
}

/** Adds --user (required), --tenant (default `default`) and --agent (required or not; `agentHelp` says what it does). */
export function scoped(command: Command, agentRequired: boolean, agentHelp = 'agent id'): Command {
  command.requiredOption('--user <id>', 'user id').option('--tenant <id>', 'tenant id', 'default');
  return agentRequired ? command.requiredOption('--agent <id>', 'agent id') : command.option('--agent <id>', agentHelp);
}

/** A JSON object from an inline flag or a file (`-` reads stdin); at most one of the two. */
export async function jsonFlag(name: string, inline: string | undefined, file: string | undefined): Promise<unknown> {
  if (inline !== undefined && file !== undefined)
    throw ValidationError.of(name, 'exclusive', `give --${name} or --${name}-file, not both`);
  if (file !== undefined) return readJson(file);
  if (inline === undefined) return undefined;
  try {
    return JSON.parse(inline) as unknown;
  } catch (error) {
    throw new ValidationError(
      [{ field: name, rule: 'json', message: `--${name} is not valid JSON: ${(error as Error).message}` }],
      { cause: error },
    );
  }
}

export function unitNumber(name: string) {
  return (value: string): number => {
    const number = Number(value);
    if (value.trim() === '' || !Number.isFinite(number))
      throw ValidationError.of(name, 'number', `must be a number from 0 to 1, got ${JSON.stringify(value)}`);
    return number;
  };
}

export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];
export const oneLine = (text: string, max = 160): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

export function diffLines(diffs: readonly ItemDiff[]): string[] {
  return diffs.map((diff) => `${diff.action.padEnd(10)} ${diff.key} v${diff.version} (${diff.item_id})`);
}

/** The one line a candidate proposes: the claim, episode summary, contradiction question or doctrine statement. */
