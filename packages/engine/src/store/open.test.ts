import { join } from "node:path";
import { expect } from "chai";
import { StoreOpenError } from "./errors";
import { describeLocation, storeLocation } from "./location";
import { openStore } from "./open";

describe("store location and opening", () => {
  it("uses DATABASE_URL when set, else <data dir>/augur.sqlite relative to the working directory", () => {
    expect(storeLocation({ databaseUrl: "postgres://u:p@h/db", dataDir: "x" })).to.deep.equal({
      kind: "postgres",
      url: "postgres://u:p@h/db",
    });
    const sqlite = storeLocation({});
    expect(sqlite).to.deep.equal({ kind: "sqlite", file: join(process.cwd(), ".data", "augur.sqlite") });
  });

  it("never prints a PostgreSQL password", () => {
    expect(describeLocation({ kind: "postgres", url: "postgres://augur:s3cret@db:5432/augur" })).to.equal(
      "postgres://augur:***@db:5432/augur",
    );
  });

  it("refuses an unreachable PostgreSQL with a typed error naming the redacted location", async () => {
    const error = await openStore({ kind: "postgres", url: "postgres://augur:s3cret@127.0.0.1:1/none" }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(StoreOpenError);
    expect((error as StoreOpenError).shortMessage).to.match(
      /^cannot open store postgres:\/\/augur:\*\*\*@127\.0\.0\.1:1\/none: /,
    );
    expect(String((error as Error).message)).not.to.contain("s3cret");
  });
});
