// Working memory of one session, as stored and as patched.

export interface PlanStep {
  step: string;
  status: 'todo' | 'in_progress' | 'done';
}

export interface ToolEvidence {
  ref: string;
  summary: string;
}

export interface Decision {
  statement: string;
  evidence_id?: string;
  [extra: string]: unknown;
}

export interface Risk {
  risk: string;
  mitigation?: string;
  [extra: string]: unknown;
}

export interface OpenLoop {
  question: string;
  owner?: 'user' | 'agent' | 'system';
  status: 'open' | 'closed';
  evidence_id?: string;
}

/** The working state of a session (MemoryPacket v1 §3.2 plus open loops). */
export interface WorkingState {
  goal: string;
  plan: PlanStep[];
  slots: Record<string, unknown>;
  constraints: Record<string, unknown>;
  tool_evidence: ToolEvidence[];
  decisions: Decision[];
  risks: Risk[];
  open_loops: OpenLoop[];
  state_version: number;
}

/** The list fields of the working state that a patch may append to. */
export type WorkingStateListField = 'plan' | 'tool_evidence' | 'decisions' | 'risks' | 'open_loops';

/**
 * A change to the working state. `set` is a JSON Merge Patch (RFC 7396); `append` adds list items
 * after it. Refused with STATE_VERSION_CONFLICT unless `expected_version` is the stored version.
 */
export interface StatePatch {
  expected_version: number;
  set?: Partial<Record<Exclude<keyof WorkingState, 'state_version'>, unknown>>;
  append?: Partial<Record<WorkingStateListField, unknown[]>>;
}

/** The working state of a session that has none yet. */
export function emptyWorkingState(): WorkingState {
  return {
    goal: '',
    plan: [],
    slots: {},
    constraints: {},
    tool_evidence: [],
    decisions: [],
    risks: [],
    open_loops: [],
    state_version: 0,
  };
}
