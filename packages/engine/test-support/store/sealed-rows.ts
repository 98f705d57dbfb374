import { sql } from "kysely";
import type { Store } from "../../src/store/open";

export const SEAL = `0x${"ab".repeat(32)}`;

/** The columns every sealed-text table shares (a body, its seal, its leaf). */
const SEALED_TEXT = { body: "{}", seal: SEAL, leaf_index: 0, created_at: 5 } as const;

/** One row in every append-only table (GUARDED_TABLES), so each refusal has something to refuse. */
export async function fillEveryTable(store: Store): Promise<void> {
  const db = store.db;
  await db
    .insertInto("seasons")
    .values({ id: "s1", name: "S1", starts_at: 0, ends_at: 10, closed_at: null, created_at: 0 })
    .execute();
  await db.insertInto("merkle_leaves").values({ leaf_index: 0, seal: SEAL, appended_at: 1 }).execute();
  await db.insertInto("record_formulas").values({ seal: SEAL, text: "{}" }).execute();
  await db.insertInto("merkle_nodes").values({ level: 0, idx: 0, hash: SEAL }).execute();
  await db
    .insertInto("records")
    .values({
      seal: SEAL,
      kind: "registration",
      agent_id: "a1",
      season_id: "s1",
      body: "{}",
      signer: null,
      signature: null,
      cosignature: null,
      leaf_index: 0,
      received_at: 1,
    })
    .execute();
  const addr = `0x${"11".repeat(20)}`;
  await db
    .insertInto("agents")
    .values({
      id: "a1",
      season_id: "s1",
      creator: addr,
      style: "momentum",
      agent_key: addr,
      registration_seal: SEAL,
      registered_at: 1,
    })
    .execute();
  await db
    .insertInto("record_moments")
    .values({ season_id: "s1", agent_id: "a1", kind: "registration", moment: 1, seal: SEAL })
    .execute();
  await db
    .insertInto("anchors")
    .values({
      anchor_index: 0,
      tree_size: 1,
      root: SEAL,
      chain_id: 31337,
      registry: addr,
      tx_hash: SEAL,
      block_number: 5,
      block_hash: SEAL,
      anchored_at: 2,
      recorded_at: 3,
    })
    .execute();
  await db
    .insertInto("keeper_attempts")
    .values({
      tree_size: 1,
      root: SEAL,
      chain_id: 31337,
      registry: addr,
      nonce: 0,
      tx_hash: null,
      max_fee_per_gas: null,
      max_priority_fee_per_gas: null,
      status: "simulated",
      error: null,
      at: 1,
    })
    .execute();
  await db
    .insertInto("scores")
    .values({
      agent_id: "a1",
      season_id: "s1",
      as_of: 5,
      formula: "augur-score/v1",
      score: null,
      reason: "too_few_decisions",
      rank: null,
      terms: "{}",
      seal: SEAL,
      created_at: 5,
    })
    .execute();
  await db
    .insertInto("risk_rows")
    .values({
      season_id: "s1",
      as_of: 5,
      vault_id: "v1",
      score: null,
      reason: "unmeasured",
      measurable_share: 0,
      components: "{}",
      tvl_usd: 0,
      ...SEALED_TEXT,
    })
    .execute();
  await db
    .insertInto("hourly_closes")
    .values({
      asset: addr,
      at: 3600,
      chain_id: 31337,
      oracle: addr,
      price18: "1",
      close: 1,
      ...SEALED_TEXT,
    })
    .execute();
  await db
    .insertInto("stewardship_days")
    .values({
      day: "2026-01-01",
      as_of: 5,
      chain_id: 31337,
      token: addr,
      state: "normal",
      through_block: 1,
      ...SEALED_TEXT,
    })
    .execute();
  await db
    .insertInto("mode_records")
    .values({ seq: 0, kind: "mode", day: "2026-01-01", body: "{}", seal: SEAL, leaf_index: 0, created_at: 5 })
    .execute();
  await db
    .insertInto("referee_boards")
    .values({
      season_id: "s1",
      as_of: 5,
      log_size: 1,
      input_seal: SEAL,
      ...SEALED_TEXT,
    })
    .execute();
  await db
    .insertInto("risk_readings")
    .values({
      season_id: "s1",
      as_of: 5,
      vault_id: "v1",
      component: "exit",
      reading: null,
      reason: "unmeasured",
      ...SEALED_TEXT,
    })
    .execute();
  await db
    .insertInto("agent_retirements")
    .values({
      season_id: "s1",
      agent_id: "a1",
      retired_at: 5,
      body: "{}",
      seal: SEAL,
      signer: addr,
      signature: "0x",
      leaf_index: 0,
      received_at: 5,
    })
    .execute();
  await db
    .insertInto("final_notice")
    .values({
      id: 1,
      body: "{}",
      seal: SEAL,
      chain_id: 31337,
      registry: addr,
      tx_hash: SEAL,
      block_number: 5,
      created_at: 5,
    })
    .execute();
  await db.insertInto("erasures").values({ seal: SEAL, field: "note", erased_at: 5, reason: null }).execute();
  await db
    .insertInto("risk_hours")
    .values({ season_id: "s1", as_of: 5, vaults: 1, all_stored: 1, created_at: 5 })
    .execute();
  await db
    .insertInto("risk_capital")
    .values({ season_id: "s1", vault_id: "v1", as_of: 6, tvl_usd: 1, created_at: 6 })
    .execute();
  const fold = {
    agent_id: "a1",
    season_id: "s1",
    log_size: 1,
    last_leaf_seal: SEAL,
    consumed: "{}",
    state: "{}",
    state_seal: SEAL,
    created_at: 5,
  };
  await db.insertInto("score_states").values(fold).execute();
  await db.insertInto("risk_states").values(fold).execute();
}

/** Runs one raw statement; resolves to the error it failed with, or undefined. */
export async function attempt(store: Store, statement: string): Promise<unknown> {
  return sql
    .raw(statement)
    .execute(store.db)
    .then(
      () => undefined,
      (e: unknown) => e,
    );
}
