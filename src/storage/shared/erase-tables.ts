// The tables an erase empties beside events and items, shared by the SQL adapters.

/** Tables with a user_id column whose rows go with a user (with a session: only the ones that name it). */
export const USER_TABLES = [
  'turns',
  'working_state',
  'stm_summary',
  'context_builds',
  'reflections',
  'candidates',
  'insights',
  'run_states',
  'evidence_ledger',
  'snapshots',
] as const;

/** The tables of USER_TABLES a session erase covers. */
export const SESSION_TABLES = ['turns', 'working_state', 'stm_summary', 'context_builds', 'candidates'] as const;

/**
 * Tables keyed by (tenant, user, agent, run) whose rows summarise a whole run: a session erase
 * takes the rows of every run the session's events belonged to, whichever session wrote them.
 */
export const RUN_TABLES = [
  'reflections',
  'candidates',
  'insights',
  'run_states',
  'evidence_ledger',
  'snapshots',
  'context_builds',
] as const;
