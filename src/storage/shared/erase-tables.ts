// The tables an erase empties beside events and items, shared by the SQL adapters.

/** Tables with a user_id column whose rows go with a user (with a session: only the ones that name it). */
export const USER_TABLES = [
  'turns', 'working_state', 'stm_summary', 'context_builds', 'reflections', 'candidates', 'insights', 'run_states',
  'evidence_ledger', 'snapshots',
] as const;

/** The tables of USER_TABLES a session erase covers. */
export const SESSION_TABLES = ['turns', 'working_state', 'stm_summary', 'context_builds', 'candidates'] as const;
