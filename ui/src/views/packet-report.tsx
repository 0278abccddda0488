// Everything a packet explains about itself, in tabs so it stays within a screen or two: the budget
// as a bar per section with degradations and conflicts; what was selected and omitted, each as the
// text the packet holds with its rule or reason and a "why?" that explains it; citations; the prompt
// text; the JSON; and, for a stored build, why any event or item is or is not in it.

import type { JSX } from 'preact';
import { useState } from 'preact/hooks';

import { Pager, pageSize, Tabs, usePaged } from '../layout.js';
import { explainLine, packetTexts } from '../packet-text.js';
import type { MemoryPacket } from '../../../src/client/index.js';
import { Badge, href, Json, TableHead } from '../ui.js';
import { WhyPanel } from './why.js';

/** A bar of tokens used against tokens allowed. */
export function BudgetBar({
  name,
  used,
  allowed,
}: {
  name: string;
  used: number;
  allowed: number | undefined;
}): JSX.Element {
  const share = allowed === undefined || allowed === 0 ? (used > 0 ? 1 : 0) : Math.min(1, used / allowed);
  const over = allowed !== undefined && used > allowed;
  return (
    <div class="bar-row" data-section={name}>
      <span class="bar-name">{name}</span>
      <div
        class="bar"
        role="meter"
        aria-label={`${name} tokens`}
        aria-valuemin={0}
        aria-valuemax={allowed ?? used}
        aria-valuenow={used}
      >
        <div class={over ? 'bar-fill over' : 'bar-fill'} style={{ width: `${(share * 100).toFixed(1)}%` }} />
      </div>
      <span class="bar-figure">
        {used} / {allowed === undefined ? '—' : allowed}
      </span>
    </div>
  );
}

function Budget({ packet }: { packet: MemoryPacket }): JSX.Element {
  const report = packet.budget_report;
  // Read by any section name: the two lists may name different sections.
  const perSection: Partial<Record<string, number>> = packet.meta.budget.per_section;
  const usage: Partial<Record<string, number>> = report.section_usage;
  const sections = [...new Set([...Object.keys(perSection), ...Object.keys(report.section_usage)])];
  return (
    <>
      <div class="bars" aria-label="Tokens per section">
        <BudgetBar name="total" used={report.used_tokens_est} allowed={report.max_tokens} />
        {sections.map((name) => (
          <BudgetBar key={name} name={name} used={usage[name] ?? 0} allowed={perSection[name]} />
        ))}
      </div>
      <h3>Degradations ({report.degradations.length})</h3>
      {report.degradations.length === 0 ? (
        <p class="muted">Nothing had to be shortened.</p>
      ) : (
        <ul class="explain">
          {report.degradations.map((step, index) => (
            <li key={index}>
              {step.section}: {step.action} <span class="muted">({step.reason})</span>
            </li>
          ))}
        </ul>
      )}
      <h3>Conflicts ({packet.explain.conflicts.length})</h3>
      {packet.explain.conflicts.length === 0 ? (
        <p class="muted">No disputed facts.</p>
      ) : (
        <ul class="explain">
          {packet.explain.conflicts.map((conflict, index) => (
            <li key={index}>
              <Badge tone="bad">{conflict.type}</Badge> {conflict.detail}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** A button that asks why a record is (or is not) in the packet. */
function WhyButton({
  id,
  onWhy,
}: {
  id: string | null;
  onWhy: ((id: string) => void) | undefined;
}): JSX.Element | null {
  if (id === null || onWhy === undefined) return null;
  return (
    <button type="button" class="small" onClick={() => onWhy(id)} aria-label={`Why: ${id}`}>
      why?
    </button>
  );
}

function Selected({
  packet,
  texts,
  onWhy,
}: {
  packet: MemoryPacket;
  texts: Map<string, string>;
  onWhy: ((id: string) => void) | undefined;
}): JSX.Element {
  const paged = usePaged(packet.explain.selected, pageSize(12, 8), packet);
  return (
    <>
      <table class="explain-table" aria-label="Selected items">
        <TableHead columns={['Section', 'What the packet holds', 'Rule', '']} />
        <tbody>
          {paged.items.map((line) => {
            const read = explainLine(line);
            const text =
              read.id === null
                ? read.section === 'rolling_summary'
                  ? packet.short_term?.rolling_summary
                  : undefined
                : texts.get(read.id);
            return (
              <tr key={line}>
                <td data-label="Section">{read.section}</td>
                <td data-label="Text">
                  {text === undefined ? <span class="muted">{read.id ?? '—'}</span> : <q>{text}</q>}
                  {read.id === null ? null : <div class="key">{read.id}</div>}
                </td>
                <td data-label="Rule">{read.rule}</td>
                <td>
                  <WhyButton id={read.id} onWhy={onWhy} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <Pager paged={paged} label="Selected pages" total={packet.explain.selected.length} />
    </>
  );
}

function Omitted({
  packet,
  texts,
  onWhy,
}: {
  packet: MemoryPacket;
  texts: Map<string, string>;
  onWhy: ((id: string) => void) | undefined;
}): JSX.Element {
  const paged = usePaged(packet.explain.omitted, pageSize(12, 8), packet);
  if (packet.explain.omitted.length === 0) return <p class="muted">Nothing was left out.</p>;
  return (
    <>
      <ul class="explain" aria-label="Omitted items">
        {paged.items.map((entry, index) => {
          const read = explainLine(entry.item);
          const text = read.id === null ? undefined : texts.get(read.id);
          return (
            <li key={index}>
              {entry.item} <Badge tone="warn">{entry.reason}</Badge> {text === undefined ? null : <q>{text}</q>}
              {entry.detail === undefined ? null : <span class="muted"> {entry.detail}</span>}{' '}
              <WhyButton id={read.id} onWhy={onWhy} />
            </li>
          );
        })}
      </ul>
      <Pager paged={paged} label="Omitted pages" total={packet.explain.omitted.length} />
    </>
  );
}

function Citations({ packet }: { packet: MemoryPacket }): JSX.Element {
  const paged = usePaged(packet.citations, pageSize(15, 8), packet);
  return (
    <>
      <ul class="citations">
        {paged.items.map((citation) => (
          <li key={citation.id}>
            {citation.type === 'event' ? <a href={href('event', { id: citation.id })}>{citation.id}</a> : citation.id}{' '}
            <Badge>{citation.type}</Badge>
            {citation.summary === undefined ? null : <span class="muted"> {citation.summary}</span>}
          </li>
        ))}
      </ul>
      <Pager paged={paged} label="Citation pages" total={packet.citations.length} />
    </>
  );
}

/** The report of a packet; with its build id, also "why is X (not) in it". */
export function PacketReport({ packet, text }: { packet: MemoryPacket; text: string | undefined }): JSX.Element {
  const report = packet.budget_report;
  const buildId = packet.explain.determinism?.['context_build_id'];
  const build = typeof buildId === 'string' ? buildId : undefined;
  const [tab, setTab] = useState('budget');
  const [asked, setAsked] = useState<{ id: string; n: number } | undefined>(undefined);
  const texts = packetTexts(packet);
  const why =
    build === undefined
      ? undefined
      : (id: string) => {
          setAsked({ id, n: (asked?.n ?? 0) + 1 });
          setTab('why');
        };
  const tabs = [
    { id: 'budget', label: 'Budget', show: () => <Budget packet={packet} /> },
    {
      id: 'selected',
      label: `Selected (${packet.explain.selected.length})`,
      show: () => <Selected packet={packet} texts={texts} onWhy={why} />,
    },
    {
      id: 'omitted',
      label: `Omitted (${packet.explain.omitted.length})`,
      show: () => <Omitted packet={packet} texts={texts} onWhy={why} />,
    },
    ...(build === undefined
      ? []
      : [
          {
            id: 'why',
            label: 'Why (not)?',
            show: () => <WhyPanel build={build} scope={packet.meta.scope} asked={asked} />,
          },
        ]),
    { id: 'citations', label: `Citations (${packet.citations.length})`, show: () => <Citations packet={packet} /> },
    ...(text === undefined
      ? []
      : [
          {
            id: 'text',
            label: 'Prompt text',
            show: () => (
              <pre class="prompt" tabIndex={0} aria-label="Rendered prompt text">
                {text}
              </pre>
            ),
          },
        ]),
    { id: 'json', label: 'JSON', show: () => <Json value={packet} label="Packet" /> },
  ];
  return (
    <div class="packet">
      <p>
        <strong>{report.used_tokens_est}</strong> of {report.max_tokens} tokens used · purpose{' '}
        <Badge tone="info">{packet.meta.purpose}</Badge>
        {packet.meta.policy_id === undefined ? null : <> · policy {packet.meta.policy_id}</>}
        {build === undefined ? null : (
          <>
            {' '}
            · build <a href={href('builds', { user_id: packet.meta.scope['user_id'], build })}>{build}</a>
          </>
        )}
      </p>
      <Tabs tabs={tabs} label="Packet report" current={tab} onChange={setTab} />
    </div>
  );
}
