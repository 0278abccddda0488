// SVG charts of benchmark results, rendered offline with Vega-Lite (no browser, no network): LoCoMo
// evidence recall against budget, and compose latency against store size (docs/charts/ after a full run).

import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';

import type { LocomoResult } from './locomo-bench.js';
import { SYSTEM_LABEL } from './locomo-score.js';

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const FONT = 'Helvetica, Arial, sans-serif';
const CONFIG = {
  font: FONT,
  view: { stroke: null },
  axis: { labelFontSize: 11, titleFontSize: 12, grid: true, gridOpacity: 0.5 },
  legend: { labelFontSize: 11, labelLimit: 400, orient: 'bottom', direction: 'horizontal' },
} as const;
/** One colour per system, the same in every chart. */
const SYSTEM_COLOURS = { engram: '#2f6db5', bm25: '#d1495b', recent: '#edae49' } as const;

/** A Vega-Lite spec as an SVG document. */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return `${svg}\n`;
}

/** Evidence recall (categories 1–4) against budget for Engram and each baseline, with the target at each budget. */
export function recallChartSpec(result: LocomoResult): TopLevelSpec {
  const values = result.scores.map((score) => ({
    system: SYSTEM_LABEL[score.system],
    budget: score.budget,
    recall: score.overall_1_4,
  }));
  const targets = result.budgets.map((budget) => ({
    budget,
    recall: result.targets.recall[budget]!,
    label: `target ${result.targets.recall[budget]!}`,
  }));
  const budgets = [...result.budgets];
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: {
      text: 'LoCoMo evidence recall against budget (categories 1–4)',
      subtitle: `${result.dataset.conversations} conversations; the whole conversation holds ${integer.format(result.full_conversation.mean_tokens)} tokens on average (recall 1)`,
      font: FONT,
    },
    width: 520,
    height: 300,
    config: CONFIG,
    layer: [
      {
        data: { values },
        mark: { type: 'line', point: { size: 60, filled: true }, strokeWidth: 2.5 },
        encoding: {
          x: {
            field: 'budget',
            type: 'quantitative',
            title: 'budget (o200k tokens)',
            scale: { type: 'log', domain: [220, 2300], nice: false },
            axis: { values: budgets, format: ',d' },
          },
          y: { field: 'recall', type: 'quantitative', title: 'evidence recall', scale: { domain: [0, 1] } },
          color: {
            field: 'system',
            type: 'nominal',
            title: null,
            scale: {
              domain: (['engram', 'bm25', 'recent'] as const).map((system) => SYSTEM_LABEL[system]),
              range: [SYSTEM_COLOURS.engram, SYSTEM_COLOURS.bm25, SYSTEM_COLOURS.recent],
            },
          },
        },
      },
      {
        data: { values: targets },
        mark: { type: 'point', shape: 'diamond', size: 140, filled: false, strokeWidth: 2, color: '#444' },
        encoding: { x: { field: 'budget', type: 'quantitative' }, y: { field: 'recall', type: 'quantitative' } },
      },
      {
        data: { values: targets },
        mark: { type: 'text', align: 'left', dx: 10, dy: -10, fontSize: 11, color: '#444' },
        encoding: {
          x: { field: 'budget', type: 'quantitative' },
          y: { field: 'recall', type: 'quantitative' },
          text: { field: 'label' },
        },
      },
    ],
  };
}

/** Compose latency (p50 and p95) against the number of events in the store. */
export function latencyChartSpec(result: LocomoResult): TopLevelSpec {
  const values = result.latency_by_store_size.flatMap((point) => [
    { events: point.store_events, ms: point.compose.p50_ms, statistic: 'p50' },
    { events: point.store_events, ms: point.compose.p95_ms, statistic: 'p95' },
  ]);
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: {
      text: 'Compose latency against store size',
      subtitle: 'LoCoMo conversations added one by one to one SQLite store; responder packets at 256–2,000 tokens',
      font: FONT,
    },
    width: 520,
    height: 260,
    config: CONFIG,
    data: { values },
    mark: { type: 'line', point: { size: 50, filled: true }, strokeWidth: 2.5 },
    encoding: {
      x: { field: 'events', type: 'quantitative', title: 'events in the store', axis: { format: ',d' } },
      y: { field: 'ms', type: 'quantitative', title: 'compose latency (ms)', scale: { zero: true } },
      color: { field: 'statistic', type: 'nominal', title: null, scale: { range: [SYSTEM_COLOURS.engram, '#8fb3de'] } },
    },
  };
}

/** Where the charts go: docs/charts/ after a full run; bench/results/charts/ after a quick one, so a smoke run leaves the published charts alone. */
export function chartsDir(quick: boolean): string {
  return fileURLToPath(new URL(quick ? './results/charts/' : '../docs/charts/', import.meta.url));
}

/** Writes locomo-recall.svg and compose-latency.svg into `dir`; returns their paths. */
export async function writeLocomoCharts(result: LocomoResult, dir: string): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const charts: Array<[string, TopLevelSpec]> = [
    ['locomo-recall.svg', recallChartSpec(result)],
    ['compose-latency.svg', latencyChartSpec(result)],
  ];
  const written: string[] = [];
  for (const [name, spec] of charts) {
    writeFileSync(join(dir, name), await renderSvg(spec));
    written.push(relative(process.cwd(), join(dir, name)));
  }
  return written;
}
