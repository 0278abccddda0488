// Shared pieces of the CLI commands: the global options, opening and closing Engram around a
// command (with the model settings of model-options.ts), reading JSON input, and parsing numbers and
// lists from flags.

import { readFile } from 'node:fs/promises';
import { text as streamText } from 'node:stream/consumers';
import type { Command } from 'commander';

import { createEngram, ValidationError, type Engram, type EngramConfig } from '../index.js';
import { modelConfig } from './model-options.js';
import { exitCodeOf, printError } from './output.js';

export interface GlobalOptions {
  store: string;
  json?: boolean;
}

let root: Command | undefined;

/** Registers the root command whose global options (--store, --json, the model's) every command reads. */
export function setRoot(command: Command): void {
  root = command;
}

export function globals(): GlobalOptions {
  return root!.opts<GlobalOptions>();
}

/**
 * The configuration of the Engram a command opens: the store and the model settings (model-options.ts).
 *
 * @example
 * const engram = await createEngram(engramConfig());
 */
export function engramConfig(): EngramConfig {
  return { store: globals().store, ...modelConfig(root!) };
}

/** Opens the store, runs the command, closes the store, and maps errors to output and exit codes. */
export async function withEngram(action: (engram: Engram, options: GlobalOptions) => Promise<void>): Promise<void> {
  const options = globals();
  let engram: Engram | undefined;
  try {
    engram = await createEngram(engramConfig());
    await action(engram, options);
  } catch (error) {
    printError(error, options.json === true);
    process.exitCode = exitCodeOf(error);
  } finally {
    await engram?.close();
  }
}

/**
 * The JSON in `file`, or on stdin for `-` or none. Stdin is read as a stream: a synchronous read of
 * a pipe fails with EAGAIN when the writer has not sent everything yet (a large file piped in).
 */
export async function readJson(file: string | undefined): Promise<unknown> {
  const fromStdin = file === undefined || file === '-';
  const source = fromStdin ? 'stdin' : file;
  let text: string;
  try {
    text = fromStdin ? await streamText(process.stdin) : await readFile(file, 'utf8');
  } catch (error) {
    throw new ValidationError(
      [{ field: 'file', rule: 'readable', message: `cannot read ${source}: ${(error as Error).message}` }],
      { cause: error },
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ValidationError(
      [{ field: 'file', rule: 'json', message: `${source} is not valid JSON: ${(error as Error).message}` }],
      { cause: error },
    );
  }
}

export function positiveInteger(name: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value))
      throw new ValidationError([
        { field: name, rule: 'integer', message: `must be a whole number, got ${JSON.stringify(value)}` },
      ]);
    return Number(value);
  };
}

export function list(value: string): string[] {
  return value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}
