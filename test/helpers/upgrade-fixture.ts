// What the upgrade fixtures hold (fixtures/upgrade/*.sql, written by test/tools/upgrade-fixtures.ts)
// and what each of their orders must become once the database is upgraded and `codrail serve` has
// run against the simulator (test/db/upgrade.test.ts): one place for both.

export type JobState = 'queued' | 'held' | 'in_flight' | 'failed' | 'dead' | 'done';

export interface FixtureOrder {
  id: string;
  store: string;
  status: 'pending' | 'cancelled';
  sandbox?: boolean;
  /** Its push job as the release left it. */
  job?: JobState;
  attempts?: number;
  /** The last try lost its answer (recorded as an unknown outcome from level 0008 on). */
  lostAnswer?: boolean;
  /** The platform already holds this order (made before the upgrade): its platform id. */
  remote?: string;
  /** A cancel job waits for it (a pushed order the buyer cancelled). */
  cancel?: boolean;
  /** The first level whose schema can hold it. */
  from?: string;
  /** After the upgrade and a run of serve. */
  expect: {
    push: 'done' | 'dead' | 'held' | 'none';
    /** Created on the platform by the upgraded serve (false: already there before, or never pushed). */
    created: boolean;
    platformStatus?: string;
  };
}

const id = (n: number) => `01900000-0000-7000-8000-${String(n).padStart(12, '0')}`;

const STORE = id(10);
const OWN_STORE = id(11);

export const UPGRADE_FIXTURE = {
  at: '2026-01-01T00:00:00.000Z',
  /** The sealing key of the fixtures' stored secrets (CODRAIL_SECRET_KEY of the upgraded server). */
  secretKeyBase64: Buffer.alloc(32, 7).toString('base64'),
  accountId: id(1),
  userId: id(2),
  userEmail: 'owner@fixture.example',
  userPassword: 'fixture-password-1',
  storeId: STORE,
  ownStoreId: OWN_STORE,
  productId: id(20),
  ownProductId: id(21),
  liveKeyId: id(30),
  testKeyId: id(31),
  secretKeyId: id(32),
  liveKey: 'svc_live_pub_FixtureLiveKeyFixtureLiveKey0001',
  testKey: 'svc_test_pub_FixtureTestKeyFixtureTestKey0001',
  secretKey: 'svc_live_secret_FixtureSecretKeyFixtureSecretKey00000001',
  clientId: 'mcp_FixtureClientFixtureClient000001',
  familyId: id(40),
  refreshToken: 'svc_refresh_FixtureRefreshTokenFixtureRefreshTokenFixture001',
  resource: 'http://127.0.0.1:3000/api/mcp',
  ownPlatformToken: 'own-platform-token-fixture-7781',
  phoneNumberId: '106540352242922',
  messageId: id(50),
  orders: [
    { id: id(101), store: STORE, status: 'pending', job: 'queued', expect: { push: 'done', created: true } },
    { id: id(102), store: STORE, status: 'pending', job: 'held', expect: { push: 'held', created: false } },
    // Crashed mid-push after the platform created it: found by reference, never created again.
    { id: id(103), store: STORE, status: 'pending', job: 'in_flight', attempts: 1, remote: 'P-PRE-0001', expect: { push: 'done', created: false } },
    // Crashed mid-push before the request left.
    { id: id(104), store: STORE, status: 'pending', job: 'in_flight', attempts: 1, expect: { push: 'done', created: true } },
    { id: id(105), store: STORE, status: 'pending', job: 'failed', attempts: 2, lostAnswer: true, remote: 'P-PRE-0002', expect: { push: 'done', created: false } },
    { id: id(106), store: STORE, status: 'pending', job: 'failed', attempts: 1, expect: { push: 'done', created: true } },
    { id: id(107), store: STORE, status: 'pending', job: 'dead', attempts: 10, expect: { push: 'dead', created: false } },
    { id: id(108), store: STORE, status: 'pending', job: 'done', attempts: 1, remote: 'P-PRE-0003', expect: { push: 'done', created: false } },
    { id: id(109), store: STORE, status: 'pending', sandbox: true, expect: { push: 'none', created: false } },
    { id: id(110), store: OWN_STORE, status: 'pending', job: 'queued', from: '0007-order-life', expect: { push: 'done', created: true } },
    { id: id(111), store: STORE, status: 'cancelled', job: 'done', attempts: 1, remote: 'P-PRE-0004', cancel: true, from: '0007-order-life', expect: { push: 'done', created: false, platformStatus: 'CANCELADO' } },
  ] satisfies FixtureOrder[] as FixtureOrder[],
} as const;

/** The orders a fixture of this level holds. */
export const ordersAt = (level: string): FixtureOrder[] => UPGRADE_FIXTURE.orders.filter((o) => !o.from || o.from <= level);
