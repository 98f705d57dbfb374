import { expect } from "chai";
import {
  MeasuredByEngineError,
  WalletInUseError,
  WalletNotProvenError,
  WalletRequiredError,
} from "@augur/records";
import type { Store } from "../store/open";
import { findRecord } from "../store/queries/records";
import { testBackends } from "../../test-support/store/testing";
import { ingestRecord, type IngestContext, type Submission } from "./ingest";
import {
  addTestSeason,
  expectRefused,
  registration,
  registrationV2,
  sign,
  signV2,
  snapshot,
  testWallet,
  trade,
  TEST_CHAIN_ID,
  TEST_NOW,
} from "../../test-support/records/testing";
import type { ContractWalletCheck } from "./wallet";

for (const backend of testBackends()) {
  describe(`wallet binding and measured seasons on ${backend.name}`, () => {
    let store: Store;
    let contractWallets: ContractWalletCheck | undefined;
    const ctx = (): IngestContext => ({
      chainId: TEST_CHAIN_ID,
      now: () => TEST_NOW,
      recordGrace: Infinity,
      contractWallets,
    });
    const ingest = (s: Submission) => ingestRecord(store, s, ctx());
    const agent = testWallet("agent alpha");
    const creator = testWallet("creator of alpha");

    const refused = <E extends Error>(submission: Submission, type: abstract new (...args: never[]) => E) =>
      expectRefused(store, ingest, submission, type);

    beforeEach(async () => {
      contractWallets = undefined;
      store = await backend.open();
      await addTestSeason(store, "s1", null, "measured");
      await addTestSeason(store, "old", null, "declared");
    });
    afterEach(async () => store.close());

    it("binds an EOA wallet proven by its own signature, sealed in the registration", async () => {
      const wallet = testWallet("alpha's trading account");
      const message = registrationV2("alpha", agent, creator, wallet.address);
      const result = await ingest(await signV2(message, agent, creator, wallet));
      expect(result).to.include({ kind: "registration", created: true });
      const body = JSON.parse((await findRecord(store.db, result.seal))!.body);
      expect(body).to.deep.include({ type: "RegistrationV2" });
      expect(body.message.wallet).to.equal(wallet.address.toLowerCase());
      const row = await store.db.selectFrom("agents").selectAll().executeTakeFirstOrThrow();
      expect(row).to.include({ wallet: wallet.address.toLowerCase(), wallet_proof: "eoa" });
    });

    it("refuses a wallet signature by another key unless the wallet contract accepts it (EIP-1271)", async () => {
      const contract = "0x" + "12".repeat(20);
      const message = registrationV2("alpha", agent, creator, contract);
      const submission = await signV2(message, agent, creator, testWallet("someone else"));
      const error = await refused(submission, WalletNotProvenError);
      expect(error.status).to.equal(403);
      expect(error.message).to.include(contract);

      const asked: string[] = [];
      contractWallets = async (wallet, digest, signature) => {
        asked.push(wallet);
        return (
          wallet === contract && /^0x[0-9a-f]{64}$/.test(digest) && signature === submission.walletSignature
        );
      };
      await ingest(submission);
      expect(asked).to.deep.equal([contract]);
      const row = await store.db.selectFrom("agents").selectAll().executeTakeFirstOrThrow();
      expect(row).to.include({ wallet: contract, wallet_proof: "eip1271" });
    });

    it("one wallet holds the book of one agent per season (409), and may serve in another season", async () => {
      const wallet = testWallet("shared account");
      await ingest(
        await signV2(registrationV2("alpha", agent, creator, wallet.address), agent, creator, wallet),
      );
      const beta = testWallet("agent beta");
      const second = registrationV2("beta", beta, creator, wallet.address);
      const error = await refused(await signV2(second, beta, creator, wallet), WalletInUseError);
      expect(error).to.include({ status: 409, code: "WALLET_IN_USE" });
      const elsewhere = registrationV2("beta", beta, creator, wallet.address, "old");
      expect((await ingest(await signV2(elsewhere, beta, creator, wallet))).created).to.equal(true);
    });

    it("a measured season refuses a v1 registration without a wallet (422)", async () => {
      const error = await refused(
        await sign("Registration", registration("alpha", agent, creator), agent, creator),
        WalletRequiredError,
      );
      expect(error).to.include({ status: 422, code: "WALLET_REQUIRED" });
    });

    it("a measured season refuses posted snapshots and trades with 409 MEASURED_BY_ENGINE", async () => {
      await ingest(await signV2(registrationV2("alpha", agent, creator), agent, creator));
      for (const [type, message] of [
        ["Snapshot", snapshot("alpha", TEST_NOW - 60)],
        ["Trade", trade("alpha", TEST_NOW - 60)],
      ] as const) {
        const error = await refused(await sign(type, message, agent), MeasuredByEngineError);
        expect(error).to.include({ status: 409, code: "MEASURED_BY_ENGINE" });
        expect(error.message).to.match(/now measured by the engine/);
      }
    });

    it("a declared season still takes v1 registrations and posted snapshots", async () => {
      const old = await ingest(
        await sign("Registration", registration("gamma", agent, creator, "old"), agent, creator),
      );
      expect(old.created).to.equal(true);
      const snap = await ingest(
        await sign("Snapshot", snapshot("gamma", TEST_NOW - 60, "1000000000", "old"), agent),
      );
      expect(snap).to.include({ kind: "snapshot", created: true });
    });

    it("walletSignature is refused on anything but a RegistrationV2", async () => {
      const submission = await sign(
        "Registration",
        registration("alpha", agent, creator, "old"),
        agent,
        creator,
      );
      const error = await refused({ ...submission, walletSignature: submission.signature }, Error);
      expect(error.message).to.include("walletSignature");
    });
  });
}
