// The nine MCP tools over the public library API: what each is for (written for the model that
// picks it), its schemas and hints, and the call it makes. The tenant is already bound to the
// caller's key when `run` is called; the library validates everything else.

import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';

import {
  citedIds,
  renderPacket,
  ValidationError,
  type ApproveRequest,
  type CommitTurnRequest,
  type ComposeRequest,
  type Engram,
  type ForgetRequest,
  type KeyPrincipal,
  type ListCandidatesRequest,
  type RejectRequest,
  type RememberRequest,
  type SearchMemoryRequest,
  type SessionScopeInput,
  type UpdateWorkingStateRequest,
} from '../index.js';
import type { SchemaNode } from './inline-schema.js';
import {
  candidatesSummary,
  changesSummary,
  commitSummary,
  decisionSummary,
  searchSummary,
  stateSummary,
} from './summaries.js';
import { inputSchemas, keyAndValueGuide, outputSchemas } from './tool-schemas.js';
import { leanInputSchemas } from './lean-schemas.js';

export type ToolName = keyof typeof inputSchemas;

/** What a tool returns on success: the structured result and its short text. */
export interface ToolOutput {
  structured: Record<string, unknown>;
  text: string;
}

/** One MCP tool of Engram. */
export interface EngramTool {
  name: ToolName;
  title: string;
  description: string;
  /** `write` tools need a key with the `write` or `admin` role. */
  access: 'read' | 'write';
  /** Where the tenant goes in the library request: in `scope`, or top-level `tenant_id`. */
  tenantAt: 'scope' | 'top';
  /** The full input schema: every argument the tool takes. */
  inputSchema: SchemaNode;
  /** The common shape of its input, as the default (lean) tool list shows it. */
  leanInputSchema: SchemaNode;
  outputSchema: SchemaNode;
  annotations: ToolAnnotations;
  run(engram: Engram, args: Record<string, unknown>, principal: KeyPrincipal): Promise<ToolOutput>;
}

type Args = Record<string, unknown>;

const READ: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
const write = (hints: { destructive: boolean; idempotent: boolean }): ToolAnnotations => ({
  readOnlyHint: false,
  destructiveHint: hints.destructive,
  idempotentHint: hints.idempotent,
  openWorldHint: false,
});

/** Library requests are typed; MCP arguments are data the library validates before using them. */
const asRequest = <T>(args: Args): T => args as unknown as T;

function without(args: Args, ...names: string[]): Args {
  return Object.fromEntries(Object.entries(args).filter(([name]) => !names.includes(name)));
}

const commitTurn: EngramTool = {
  name: 'commit_turn',
  title: 'Commit a turn to memory',
  description:
    "Records one turn of the conversation or agent run in Engram: the messages, tool results, a working-state patch and step markers, in one transaction. Call it after every turn so memory stays current; facts, preferences and decisions worth keeping are extracted into long-term memory automatically. Give each turn a unique turn_id: repeating one writes nothing and returns the first result, so a retry is safe. Mark secrets with sensitivity 'secret' (stored, never shown in packets or search).",
  access: 'write',
  tenantAt: 'scope',
  inputSchema: inputSchemas.commit_turn,
  leanInputSchema: leanInputSchemas.commit_turn,
  outputSchema: outputSchemas.commit_turn,
  annotations: write({ destructive: false, idempotent: true }),
  async run(engram, args) {
    const result = await engram.commitTurn(asRequest<CommitTurnRequest>(args));
    return { structured: { ...result }, text: commitSummary(result) };
  },
};

const composeContext: EngramTool = {
  name: 'compose_context',
  title: 'Compose memory context',
  description:
    "Builds the memory context for your next step: prompt-ready text (Markdown, or XML with render) with the session's working state, summary and open loops, what is upcoming, the relevant long-term facts and preferences, and passages of the user's history, each citing its source. Call it before answering or planning, with cues.query saying what the next step is about. purpose: 'responder' to answer the user, 'planner' to decide next steps, 'tool' before a tool call. The result holds the text, the build id and the ids it cites; full_packet adds the whole MemoryPacket.",
  access: 'read',
  tenantAt: 'scope',
  inputSchema: inputSchemas.compose_context,
  leanInputSchema: leanInputSchemas.compose_context,
  outputSchema: outputSchemas.compose_context,
  annotations: READ,
  async run(engram, args) {
    const { render = 'markdown', full_packet: fullPacket = false } = args;
    if (render !== 'markdown' && render !== 'xml')
      throw ValidationError.of('render', 'enum', 'must be one of ["markdown","xml"]');
    if (typeof fullPacket !== 'boolean') throw ValidationError.of('full_packet', 'type', 'must be true or false');
    const packet = await engram.compose(asRequest<ComposeRequest>(without(args, 'render', 'full_packet')));
    const text = renderPacket(packet, { format: render });
    const structured = {
      text,
      build_id: String(packet.explain.determinism?.['context_build_id'] ?? ''),
      cited: citedIds(packet),
      used_tokens: packet.budget_report.used_tokens_est,
      max_tokens: packet.budget_report.max_tokens,
      ...(fullPacket ? { packet } : {}),
    };
    return { structured, text };
  },
};

const searchMemory: EngramTool = {
  name: 'search_memory',
  title: 'Search long-term memory items',
  description:
    "Searches a user's long-term memory items (profile, preferences, goals, tasks, decisions, entities, dated events, cases, patterns, procedures) by keywords and meaning; returns items best first with their keys, values and per-signal scores. Use it to look up something specific, e.g. before answering a question about the user's past choices. It does not search the conversation's past messages: compose_context with a query brings the passages of the user's history that match it, with a ready-made context. Items of the user, of the agent (when scope.agent_id is given) and of the whole tenant are visible.",
  access: 'read',
  tenantAt: 'scope',
  inputSchema: inputSchemas.search_memory,
  leanInputSchema: leanInputSchemas.search_memory,
  outputSchema: outputSchemas.search_memory,
  annotations: READ,
  async run(engram, args) {
    const request = asRequest<SearchMemoryRequest>(args);
    const hits = await engram.items.search(request);
    return { structured: { hits }, text: searchSummary(request.query, hits) };
  },
};

const remember: EngramTool = {
  name: 'remember',
  title: 'Remember a fact',
  description: `Writes one long-term memory item explicitly, for example when the user says "remember that…". type picks the kind of memory and how a new value for the same key merges with the current one; key names what it is about, so writing the same key again updates it (the old version stays in history). Returns what changed. Keys and values by type:\n${keyAndValueGuide()}`,
  access: 'write',
  tenantAt: 'scope',
  inputSchema: inputSchemas.remember,
  leanInputSchema: leanInputSchemas.remember,
  outputSchema: outputSchemas.remember,
  annotations: write({ destructive: false, idempotent: true }),
  async run(engram, args) {
    const items = await engram.items.remember(asRequest<RememberRequest>(args));
    return { structured: { items }, text: changesSummary('Remembered', items) };
  },
};

const forget: EngramTool = {
  name: 'forget',
  title: 'Forget a memory',
  description:
    "Retracts a long-term memory item, by key (every current version) or by item_id (one version), for example when the user says something is no longer true or asks to forget it. The default mode 'retract' keeps the history; mode 'delete' removes every version, chunk and vector for good (use it only when the user asks for deletion). Returns what changed.",
  access: 'write',
  tenantAt: 'scope',
  inputSchema: inputSchemas.forget,
  leanInputSchema: leanInputSchemas.forget,
  outputSchema: outputSchemas.forget,
  annotations: write({ destructive: true, idempotent: true }),
  async run(engram, args) {
    const items = await engram.items.forget(asRequest<ForgetRequest>(args));
    return { structured: { items }, text: changesSummary('Forgot', items) };
  },
};

const getWorkingState: EngramTool = {
  name: 'get_working_state',
  title: 'Get the working state',
  description:
    'Reads the working state of a session: goal, plan, slots, constraints, tool evidence, decisions, risks, open loops, and its state_version (0 and empty when the session has none yet). Read it before update_working_state, whose expected_version must be this state_version.',
  access: 'read',
  tenantAt: 'scope',
  inputSchema: inputSchemas.get_working_state,
  leanInputSchema: leanInputSchemas.get_working_state,
  outputSchema: outputSchemas.get_working_state,
  annotations: READ,
  async run(engram, args) {
    const state = await engram.sessions.workingState(asRequest<{ scope: SessionScopeInput }>(args).scope);
    return { structured: { ...state }, text: stateSummary(state) };
  },
};

const updateWorkingState: EngramTool = {
  name: 'update_working_state',
  title: 'Update the working state',
  description:
    'Changes the working state of a session: set is a JSON Merge Patch (objects merge, null removes a field, arrays replace), append adds items to the lists (plan, tool_evidence, decisions, risks, open_loops) after set. expected_version must be the state_version you read; if someone changed the state since, it fails with STATE_VERSION_CONFLICT: read it again and retry. Returns the new state. Sending the same update again with its turn_id writes nothing and returns the state it recorded with replayed: true (a safe retry); a different update under a used turn_id fails with DUPLICATE_TURN.',
  access: 'write',
  tenantAt: 'scope',
  inputSchema: inputSchemas.update_working_state,
  leanInputSchema: leanInputSchemas.update_working_state,
  outputSchema: outputSchemas.update_working_state,
  annotations: write({ destructive: false, idempotent: false }),
  async run(engram, args) {
    const { replayed, ...state } = await engram.sessions.updateWorkingState(asRequest<UpdateWorkingStateRequest>(args));
    return {
      structured: { ...state, replayed },
      text: `${replayed ? 'Already recorded (nothing written). ' : ''}${stateSummary(state)}`,
    };
  },
};

const listCandidates: EngramTool = {
  name: 'list_candidates',
  title: 'List review candidates',
  description:
    "Lists what reflection proposed for long-term memory and is waiting for review (or was decided): episodes, memories, contradictions and doctrine, oldest first, each with its claim, confidence, evidence and what approving would write. Filter by status (e.g. ['pending']), kind, run or session. Then decide each with review_candidate.",
  access: 'read',
  tenantAt: 'scope',
  inputSchema: inputSchemas.list_candidates,
  leanInputSchema: leanInputSchemas.list_candidates,
  outputSchema: outputSchemas.list_candidates,
  annotations: READ,
  async run(engram, args) {
    const request = asRequest<ListCandidatesRequest>(args);
    const candidates = await engram.review.list(request);
    const limit = request.limit ?? 100;
    const nextCursor = candidates.length === limit ? candidates.at(-1)!.id : null;
    return { structured: { candidates, next_cursor: nextCursor }, text: candidatesSummary(candidates, nextCursor) };
  },
};

const reviewCandidate: EngramTool = {
  name: 'review_candidate',
  title: 'Approve or reject a candidate',
  description:
    'Decides a pending review candidate: approve writes what it proposes to long-term memory (or, with edit, what you write instead); reject discards it and needs a reason. Decide only what the user confirmed or clearly asked for. A candidate is decided once: deciding it again fails.',
  access: 'write',
  tenantAt: 'top',
  inputSchema: inputSchemas.review_candidate,
  leanInputSchema: leanInputSchemas.review_candidate,
  outputSchema: outputSchemas.review_candidate,
  annotations: write({ destructive: true, idempotent: false }),
  async run(engram, args, principal) {
    const { tenant_id: tenantId, candidate_id: candidateId, decision, reason, edit } = args;
    const base = { tenant_id: tenantId, candidate_id: candidateId, by: principal.key_id };
    let result;
    if (decision === 'approve') {
      if (reason !== undefined) throw ValidationError.of('reason', 'not', 'only a rejection takes a reason');
      result = await engram.review.approve(
        asRequest<ApproveRequest>({ ...base, ...(edit === undefined ? {} : { edit }) }),
      );
    } else if (decision === 'reject') {
      if (edit !== undefined) throw ValidationError.of('edit', 'not', 'only an approval takes an edit');
      result = await engram.review.reject(
        asRequest<RejectRequest>({ ...base, ...(reason === undefined ? {} : { reason }) }),
      );
    } else {
      throw ValidationError.of(
        'decision',
        decision === undefined ? 'required' : 'enum',
        decision === undefined ? 'is required' : 'must be one of ["approve","reject"]',
      );
    }
    return { structured: { ...result }, text: decisionSummary(result) };
  },
};

/**
 * Every tool, in the order clients list them.
 *
 * @example
 * TOOLS.filter((tool) => tool.access === 'read').map((tool) => tool.name) // ['compose_context', 'search_memory', …]
 */
export const TOOLS: readonly EngramTool[] = [
  commitTurn,
  composeContext,
  searchMemory,
  remember,
  forget,
  getWorkingState,
  updateWorkingState,
  listCandidates,
  reviewCandidate,
];
