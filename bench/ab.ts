// Entry point of `npm run bench:ab -- --base REV`: compose of two versions of the code in one
// process, the git revision REV and the working tree, each on its own copy of one compose-shapes
// store. Every request goes to both, alternating which goes first, so a machine whose speed swings
// from minute to minute (the shared 2-core VMs) slows both alike: the ratio of their p50s holds
// where separate runs of the benchmark differ by more than the change being measured.

import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import type { Engram } from '../src/index.js';
import { createEngram } from '../src/index.js';
import {
  fillShape,
  measuredSamples,
  mergeAll,
  requestOf,
  SHAPES_FULL,
  SHAPES_QUICK,
  warmupSamples,
  type Sample,
  type ShapeSizes,
} from './compose-shapes-bench.js';
import { withStoreWithoutEmbeddings } from './compose-shapes-data.js';
import type { SessionPlan } from './corpus.js';
import { machine, machineLine, table, writeResults } from './report.js';
import { median, nowMs, round, summarize } from './stats.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

interface Options {
  base: string;
  quick: boolean;
}

/** A command line this script cannot run: printed as one line, without a stack. */
class UsageError extends Error {}

function parseOptions(args: readonly string[]): Options {
  const at = args.indexOf('--base');
  const base = at >= 0 ? args[at + 1] : args.find((arg) => arg.startsWith('--base='))?.slice('--base='.length);
  if (base === undefined || base === '' || base.startsWith('--')) {
    throw new UsageError('usage: npm run bench:ab -- --base <git revision> [--quick]');
  }
  return { base, quick: args.includes('--quick') };
}

/**
 * The base revision's `src` under node_modules/.cache/engram-ab/<commit>/, where git, the linter and
 * the test runner do not look; its imports resolve to this checkout's node_modules.
 */
function checkOut(revision: string): { commit: string; folder: string } {
  let commit: string;
  try {
    commit = execFileSync('git', ['rev-parse', '--verify', '--quiet', `${revision}^{commit}`], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    throw new UsageError(`--base ${revision}: not a commit of this repository`);
  }
  const folder = join(ROOT, 'node_modules', '.cache', 'engram-ab', commit);
  if (!existsSync(join(folder, 'src', 'index.ts'))) {
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    const archive = execFileSync('git', ['archive', '--format=tar', commit, 'src'], { cwd: ROOT, maxBuffer: 1 << 30 });
    execFileSync('tar', ['-x', '-C', folder], { input: archive });
  }
  return { commit, folder };
}

/** An Engram of the base revision's code on a store file, through its public createEngram. */
async function baseEngram(folder: string, path: string): Promise<Engram> {
  const base = (await import(pathToFileURL(join(folder, 'src', 'index.ts')).href)) as {
    createEngram: typeof createEngram;
  };
  return base.createEngram({ store: `sqlite:${path}`, embeddings: { provider: 'none' } });
}

/** The requests of one comparison: a random session each (the benchmark's), or three in a row per session (an agent's turn). */
function requests(sessions: readonly SessionPlan[], sizes: ShapeSizes, turns: boolean): Sample[] {
  const samples = measuredSamples(sessions, sizes);
  if (!turns) return samples;
  return samples.map((sample, index) => ({ ...sample, scope: samples[index - (index % 3)]!.scope }));
}

interface Side {
  p50_ms: number;
  p95_ms: number;
}

interface Comparison {
  shape: string;
  requests: 'random sessions' | 'turns (planner, tool, responder per session)';
  samples: number;
  base: Side;
  working_tree: Side;
  /** Working tree p50 over base p50: below 1 is faster. */
  ratio: number;
}

/** Warm-up through both, then every request through both, alternating which goes first. */
async function compare(
  base: Engram,
  current: Engram,
  warmup: readonly Sample[],
  samples: readonly Sample[],
): Promise<{ base: number[]; current: number[] }> {
  for (const sample of warmup) {
    await base.compose(requestOf(sample));
    await current.compose(requestOf(sample));
  }
  const times = { base: [] as number[], current: [] as number[] };
  const timed = async (engram: Engram, sample: Sample, into: number[]) => {
    const start = nowMs();
    await engram.compose(requestOf(sample));
    into.push(nowMs() - start);
  };
  for (const [index, sample] of samples.entries()) {
    if (index % 2 === 0) {
      await timed(base, sample, times.base);
      await timed(current, sample, times.current);
    } else {
      await timed(current, sample, times.current);
      await timed(base, sample, times.base);
    }
  }
  return times;
}

const side = (times: readonly number[]): Side => {
  const summary = summarize(times);
  return { p50_ms: round(summary.p50_ms, 2), p95_ms: round(summary.p95_ms, 2) };
};

async function compareShape(sizes: ShapeSizes, folder: string, log: (message: string) => void): Promise<Comparison[]> {
  return withStoreWithoutEmbeddings(async (engram, path) => {
    const { sessions } = await fillShape(engram, path, sizes, log);
    await mergeAll(engram);
    // Closed, the store's write-ahead log is checkpointed into the file, so a copy of it holds everything.
    await engram.close();
    // Each version on its own file: two connections to one file would see each other's build
    // writes (PRAGMA data_version) and drop what they keep between reads.
    const basePath = `${path}.base`;
    copyFileSync(path, basePath);
    const out: Comparison[] = [];
    try {
      for (const turns of [false, true]) {
        const base = await baseEngram(folder, basePath);
        const current = await createEngram({ store: `sqlite:${path}`, embeddings: { provider: 'none' } });
        try {
          const warmup = warmupSamples(sessions, sizes);
          const times = await compare(base, current, warmup, requests(sessions, sizes, turns));
          const result: Comparison = {
            shape: sizes.name,
            requests: turns ? 'turns (planner, tool, responder per session)' : 'random sessions',
            samples: sizes.samples,
            base: side(times.base),
            working_tree: side(times.current),
            ratio: round(median(times.current) / median(times.base), 3),
          };
          log(`ab ${sizes.name}, ${result.requests}: ratio ${result.ratio}`);
          out.push(result);
        } finally {
          await base.close();
          await current.close();
        }
      }
    } finally {
      rmSync(basePath, { force: true });
      for (const suffix of ['-wal', '-shm']) rmSync(`${basePath}${suffix}`, { force: true });
    }
    return out;
  });
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const log = (message: string) => process.stderr.write(`[bench:ab] ${message}\n`);
  const { commit, folder } = checkOut(options.base);
  log(`${options.quick ? 'quick' : 'full'} run on ${machineLine()}; base ${commit.slice(0, 7)}`);
  const comparisons: Comparison[] = [];
  for (const sizes of options.quick ? SHAPES_QUICK : SHAPES_FULL)
    comparisons.push(...(await compareShape(sizes, folder, log)));
  const lines = [
    `Compose, base \`${commit.slice(0, 7)}\` against the working tree, interleaved in one process (p50 / p95 ms; ratio below 1: the working tree is faster):`,
    '',
    table(
      ['shape', 'requests', 'base', 'working tree', 'ratio'],
      comparisons.map((row) => [
        row.shape,
        row.requests,
        `${row.base.p50_ms} / ${row.base.p95_ms}`,
        `${row.working_tree.p50_ms} / ${row.working_tree.p95_ms}`,
        String(row.ratio),
      ]),
    ),
  ];
  process.stdout.write(`\n${lines.join('\n')}\n`);
  writeResults('ab', { machine: machine(), quick: options.quick, base: commit, comparisons });
}

try {
  await main();
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  process.stderr.write(`bench:ab: ${error.message}\n`);
  process.exitCode = 2;
}
