// One well-formed request per route of the table, for a user and a set of record ids: the bad-input
// tests break them one way at a time, the tenancy matrix sends them with another tenant's ids.

export interface RecordIds {
  event: string;
  item: string;
  candidate: string;
  candidate2: string;
  insight: string;
  snapshot: string;
  build: string;
  build2: string;
  key: string;
}

export interface SampleRequest {
  path: string;
  body?: Record<string, unknown>;
}

const AGENT = 'assistant';

/** Ids of the right shape that name nothing. */
export const UNKNOWN_IDS: RecordIds = {
  event: 'evt_01J0000000000000000000000A',
  item: 'mem_01J0000000000000000000000A',
  candidate: 'cand_01J0000000000000000000000A',
  candidate2: 'cand_01J0000000000000000000000B',
  insight: 'ins_01J0000000000000000000000A',
  snapshot: 'snp_01J0000000000000000000000A',
  build: 'ctx_01J0000000000000000000000A',
  build2: 'ctx_01J0000000000000000000000B',
  key: 'key_01J0000000000000000000000A',
};

/**
 * The sample request of each route (by operationId), for `user`'s records.
 *
 * @example
 * samples('mira', ids).getEvent // { path: '/v1/events/evt_…' }
 */
export function samples(user: string, ids: RecordIds): Record<string, SampleRequest> {
  const scope = { user_id: user, agent_id: AGENT, session_id: 's1', run_id: 'r1' };
  const who = `user_id=${user}&agent_id=${AGENT}`;
  return {
    commitTurn: {
      path: '/v1/turns',
      body: { scope, turn_id: 'probe', messages: [{ role: 'user', content: 'probe' }] },
    },
    compose: { path: '/v1/compose', body: { scope, purpose: 'responder' } },
    listEvents: { path: `/v1/events?${who}` },
    getEvent: { path: `/v1/events/${ids.event}` },
    searchEvents: { path: '/v1/events/search', body: { scope: { user_id: user }, query: 'deploy' } },
    listItems: { path: `/v1/items?${who}` },
    itemHistory: { path: `/v1/items/history?${who}&key=pref:writing:tone` },
    getItem: { path: `/v1/items/${ids.item}` },
    remember: {
      path: '/v1/items',
      body: {
        scope: { user_id: user, agent_id: AGENT },
        type: 'preferences',
        key: 'pref:writing:tone',
        value: { scope: 'writing', name: 'tone', value: 'formal' },
      },
    },
    forget: { path: '/v1/items/forget', body: { scope: { user_id: user, agent_id: AGENT }, key: 'pref:writing:tone' } },
    restore: { path: '/v1/items/restore', body: { scope: { user_id: user, agent_id: AGENT }, item_id: ids.item } },
    reextract: { path: '/v1/items/reextract', body: { user_id: user, dry_run: true } },
    searchItems: { path: '/v1/items/search', body: { scope: { user_id: user, agent_id: AGENT }, query: 'tone' } },
    searchMemory: { path: '/v1/memory/search', body: { scope: { user_id: user, agent_id: AGENT }, query: 'tone' } },
    getWorkingState: { path: `/v1/working-state?${who}&session_id=s1` },
    patchWorkingState: { path: '/v1/working-state', body: { scope, expected_version: 0, set: { goal: 'probe' } } },
    reflect: { path: '/v1/reflections', body: { scope: { user_id: user, agent_id: AGENT, run_id: 'r1' } } },
    listCandidates: { path: `/v1/review?user_id=${user}` },
    getCandidate: { path: `/v1/review/${ids.candidate}` },
    approveCandidate: { path: `/v1/review/${ids.candidate}/approve`, body: { by: 'probe' } },
    rejectCandidate: { path: `/v1/review/${ids.candidate2}/reject`, body: { reason: 'probe' } },
    listInsights: { path: `/v1/insights?user_id=${user}` },
    addInsight: {
      path: '/v1/insights',
      body: { scope: { user_id: user, agent_id: AGENT, run_id: 'r1' }, type: 'hypothesis', statement: 'probe' },
    },
    getInsight: { path: `/v1/insights/${ids.insight}` },
    updateInsight: { path: `/v1/insights/${ids.insight}/state`, body: { state: 'testing' } },
    promoteInsight: {
      path: `/v1/insights/${ids.insight}/promote`,
      body: {
        type: 'procedure',
        key: 'procedure:deploy:probe',
        value: { task_type: 'deploy', name: 'probe', steps: ['a'] },
      },
    },
    getRun: { path: `/v1/runs?${who}&run_id=r1` },
    resumeRun: { path: '/v1/runs/resume', body: { scope: { user_id: user, agent_id: AGENT, run_id: 'r1' } } },
    listSnapshots: { path: `/v1/snapshots?user_id=${user}` },
    getSnapshot: { path: `/v1/snapshots/${ids.snapshot}` },
    getSnapshotNarrative: { path: `/v1/snapshots/${ids.snapshot}/narrative` },
    listScopes: { path: '/v1/scopes' },
    whoami: { path: '/v1/whoami' },
    listBuilds: { path: `/v1/builds?user_id=${user}` },
    diffBuilds: { path: `/v1/builds/diff?a=${ids.build}&b=${ids.build2}` },
    getBuild: { path: `/v1/builds/${ids.build}` },
    replayBuild: { path: `/v1/builds/${ids.build}/replay` },
    explainBuild: { path: `/v1/builds/${ids.build}/explain`, body: { id: ids.event } },
    listKeys: { path: '/v1/keys' },
    createKey: { path: '/v1/keys', body: { role: 'read' } },
    revokeKey: { path: `/v1/keys/${ids.key}` },
  };
}
