// The `engram` command line as a real child process from the repository root: the copy of src/
// this test run transpiled (test/cli-build.ts), or src/cli/main.ts through tsx when there is none.
// Run to its end (`runEngram`), or started with its output as it arrives, a wait for a line of it,
// and a stop by signal (`startEngram`).

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { inject } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

/**
 * The Node arguments that run `engram`, before its own: the transpiled copy of src/ the global
 * setup made for this run, else the TypeScript through tsx.
 *
 * @example
 * spawnSync(process.execPath, [...engramCommand(), '--store', store, 'migrate'], { cwd: ROOT })
 */
export function engramCommand(): string[] {
  const built = join(inject('engramBuild'), 'cli', 'main.js');
  return existsSync(built) ? [built] : ['--import', 'tsx', join(root, 'src', 'cli', 'main.ts')];
}

/** The repository root: the working directory `engram` runs in. */
export const ROOT = root;

/** How a command ended: its exit code and everything it wrote. */
export interface EngramRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Variables set (or, with undefined, removed) for the command, over this process's environment. */
export type EngramEnvironment = Record<string, string | undefined>;

function environment(env: EngramEnvironment): NodeJS.ProcessEnv {
  const merged: NodeJS.ProcessEnv = { ...process.env };
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete merged[name];
    else merged[name] = value;
  }
  return merged;
}

/**
 * Runs `engram <args>` to its end as a user would, with `input` on stdin and `env` over this
 * process's environment. tsx resolves from the working directory, so it runs from the repository
 * root; pass `--store` to keep every file elsewhere. It blocks this process until the command ends:
 * a command that calls a server of this process needs `startEngram`.
 *
 * @example
 * const { code, stdout } = runEngram(['--store', store, '--json', 'events', '--user', 'ada']);
 */
export function runEngram(args: readonly string[], input?: string, env: EngramEnvironment = {}): EngramRun {
  const result = spawnSync(process.execPath, [...engramCommand(), ...args], {
    input,
    encoding: 'utf8',
    cwd: root,
    env: environment(env),
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * A scope as the command line takes it: `--user`, `--agent`, `--session` and `--run`.
 *
 * @example
 * runEngram(['compose', ...scopeFlags({ user_id: 'ada', agent_id: 'helper', session_id: 's1', run_id: 'r1' }), '--query', 'launch'])
 */
export function scopeFlags(scope: { user_id: string; agent_id: string; session_id: string; run_id: string }): string[] {
  return ['--user', scope.user_id, '--agent', scope.agent_id, '--session', scope.session_id, '--run', scope.run_id];
}

export interface EngramProcess {
  readonly child: ChildProcess;
  /** Everything the process wrote to stdout so far. */
  stdout(): string;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  /** Resolves with the first match of `pattern` in stdout; rejects when the process exits first or time runs out. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** The exit code (null when a signal ended it). */
  readonly exited: Promise<number | null>;
  /** Sends SIGTERM (once) and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts `engram <args>` as a user would, with `env` over this process's environment; the caller stops it.
 *
 * @example
 * const server = startEngram(['--store', store, 'serve', '--port', '0', '--quiet']);
 * const [, api] = await server.waitFor(/API\s+(http:\S+)\/v1/);
 */
export function startEngram(args: readonly string[], env: EngramEnvironment = {}): EngramProcess {
  const child = spawn(process.execPath, [...engramCommand(), ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: environment(env),
  });
  let out = '';
  let err = '';
  const listeners = new Set<() => void>();
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
    for (const listener of listeners) listener();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let running = true;
  void exited.then(() => {
    running = false;
    for (const listener of listeners) listener();
  });

  function waitFor(pattern: RegExp, timeoutMs = 60_000): Promise<RegExpMatchArray> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => finish(new Error(`no ${pattern} from engram ${args.join(' ')} after ${timeoutMs} ms:\n${out}\n${err}`)),
        timeoutMs,
      );
      const check = () => {
        const match = pattern.exec(out);
        if (match !== null) finish(match);
        else if (!running)
          finish(new Error(`engram ${args.join(' ')} exited before printing ${pattern}:\n${out}\n${err}`));
      };
      function finish(result: RegExpMatchArray | Error): void {
        clearTimeout(timer);
        listeners.delete(check);
        if (result instanceof Error) reject(result);
        else resolve(result);
      }
      listeners.add(check);
      check();
    });
  }

  let stopping: Promise<number | null> | undefined;
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    waitFor,
    exited,
    stop() {
      if (stopping === undefined) {
        if (running) child.kill('SIGTERM');
        stopping = exited;
      }
      return stopping;
    },
  };
}
