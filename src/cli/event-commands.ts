// CLI commands over the episodic log: `events` lists a session's (or user's) events in log order,
// `events search` searches a user's events by their words a page at a time. Long-term memory items
// are searched with `engram search`.

import type { Command } from 'commander';

import { ValidationError, type EventKind, type EventRecord } from '../index.js';
import { printJson, printLines } from './output.js';
import { list, positiveInteger, withEngram } from './runner.js';

interface EventFlags {
  tenant: string;
  user?: string;
  agent?: string;
  session?: string;
  query?: string;
  kinds?: string[];
  limit?: number;
  cursor?: string;
}

function scopeOf(flags: EventFlags) {
  // Not a required option of `events`: commander would then ask it of `events search` before reading its flags.
  if (flags.user === undefined)
    throw ValidationError.of('user', 'required', "required option '--user <id>' not specified");
  return {
    tenant_id: flags.tenant,
    user_id: flags.user,
    ...(flags.agent === undefined ? {} : { agent_id: flags.agent }),
    ...(flags.session === undefined ? {} : { session_id: flags.session }),
  };
}

function eventLine(event: EventRecord): string {
  const content = typeof event.content === 'string' ? event.content : JSON.stringify(event.content);
  const badge = event.sensitivity === 'normal' ? '' : ` [${event.sensitivity}]`;
  return `${event.ts}  ${event.id}  ${event.kind.padEnd(11)} ${event.role.padEnd(6)}${badge} ${event.marker ?? content.replace(/\s+/g, ' ').slice(0, 160)}`;
}

/** Adds `events` and `events search` to the program. */
export function registerEventCommands(program: Command): void {
  const events = program
    .command('events')
    .description(
      "list a session's (or user's) events in log order; `events search` searches a user's events by their words",
    )
    .option('--user <id>', 'user id (required)')
    .option('--agent <id>', 'agent id')
    .option('--session <id>', 'session id')
    .option('--tenant <id>', 'tenant id', 'default')
    .option('--query <text>', 'search instead of listing (as `events search`, one page)')
    .option('--kinds <list>', 'comma-separated kinds: message,tool_result,state_patch,marker', list)
    .option('--limit <n>', 'page size', positiveInteger('limit'))
    .option('--cursor <cursor>', 'continue a listing after this event id, or a search at its next cursor')
    .action((flags: EventFlags) =>
      withEngram(async (engram, global) => {
        const scope = scopeOf(flags);
        const found =
          flags.query === undefined
            ? await engram.events.list({
                scope,
                ...(flags.limit === undefined ? {} : { limit: flags.limit }),
                ...(flags.kinds === undefined ? {} : { kinds: flags.kinds as EventKind[] }),
                ...(flags.cursor === undefined ? {} : { cursor: flags.cursor }),
              })
            : (
                await engram.events.search({
                  scope,
                  query: flags.query,
                  ...(flags.limit === undefined ? {} : { limit: flags.limit }),
                })
              ).map((hit) => hit.event);
        if (global.json === true) return printJson(found);
        printLines(found.length === 0 ? ['no events'] : found.map(eventLine));
      }),
    );

  // The flags are the parent's (commander reads them wherever they stand on the line).
  events
    .command('search')
    .description(
      "search a user's events, the conversation's log, by their words, best first, a page at a time (--user, --query; --agent, --session, --limit, --cursor); long-term memory items: engram search",
    )
    .action(() =>
      withEngram(async (engram, global) => {
        const flags = events.opts<EventFlags>();
        if (flags.query === undefined)
          throw ValidationError.of('query', 'required', "required option '--query <text>' not specified");
        const page = await engram.events.searchPage({
          scope: scopeOf(flags),
          query: flags.query,
          ...(flags.limit === undefined ? {} : { limit: flags.limit }),
          ...(flags.cursor === undefined ? {} : { cursor: flags.cursor }),
        });
        if (global.json === true) return printJson(page);
        printLines([
          ...(page.hits.length === 0
            ? ['no events']
            : page.hits.map((hit) => `${eventLine(hit.event)}  (score ${hit.score})`)),
          ...(page.next_cursor === null ? [] : [`more: --cursor ${page.next_cursor}`]),
        ]);
      }),
    );
}
