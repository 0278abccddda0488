// How the CLI prints: JSON for scripts (--json), readable text for people, and errors that name
// the field and the rule, with an exit code per kind of failure.

import { EngramError, ValidationError } from '../index.js';

/** Exit codes: 1 for failures of Engram or the store, 2 for bad input, 3 for a conflict (a version, a record held with other content), 4 for a stopped run. */
export function exitCodeOf(error: unknown): number {
  if (!EngramError.isInstance(error)) return 1;
  if (error.code === 'VALIDATION_FAILED') return 2;
  if (error.code === 'STATE_VERSION_CONFLICT' || error.code === 'RECORD_CONFLICT') return 3;
  if (error.code === 'RUN_STOPPED') return 4;
  return 1;
}

/** Prints an error to stderr: one JSON line with --json, readable lines otherwise. */
export function printError(error: unknown, json: boolean): void {
  if (json) {
    const body = EngramError.isInstance(error)
      ? error.toJSON()
      : { name: 'Error', code: 'INTERNAL', message: String(error) };
    process.stderr.write(`${JSON.stringify({ error: body })}\n`);
    return;
  }
  if (ValidationError.isInstance(error)) {
    process.stderr.write(`error [${error.code}] ${error.message}\n`);
    for (const issue of error.issues.slice(1, 10))
      process.stderr.write(`  also: ${issue.field || '(input)'}: ${issue.message} [rule: ${issue.rule}]\n`);
    return;
  }
  if (EngramError.isInstance(error)) {
    process.stderr.write(`error [${error.code}] ${error.message}\n`);
    return;
  }
  process.stderr.write(`error [INTERNAL] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
}

/** Prints a value as pretty JSON on stdout. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Prints lines of text on stdout. */
export function printLines(lines: readonly string[]): void {
  process.stdout.write(`${lines.join('\n')}\n`);
}
