/**
 * Test helper run as a separate process by concurrency.test.ts: appends `count` engine records
 * to the store at `file`, one transaction each, as a second engine process would. It prints
 * "ready" once the store is open and starts on the first line of stdin, so the test can start
 * every worker at the same moment.
 */
import { appendEngineRecords } from "../../src/store/append";
import { openStore } from "../../src/store/open";

async function main(): Promise<void> {
  const [file, label, count] = process.argv.slice(2);
  const store = await openStore({ kind: "sqlite", file: file! });
  try {
    process.stdout.write("ready\n");
    await new Promise((resolve) => process.stdin.once("data", resolve));
    process.stdin.pause();
    for (let i = 0; i < Number(count); i++) {
      await store.db
        .transaction()
        .execute((trx) =>
          appendEngineRecords(
            trx,
            [{ kind: "call", agentId: label!, seasonId: "s1", body: { label, i } }],
            i,
          ),
        );
      // A short pause between transactions, as between real requests, lets waiting writers in.
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  } finally {
    await store.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
