import { expect } from "chai";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { InvalidInputError } from "../errors";
import { parseVaultsFile, VAULT_FIELDS } from "./validate";

const good = () => ({
  id: "agent-7",
  tvl_usd: 125000,
  holder_index: [
    { at: 1767225600, index: 1 },
    { at: "2026-01-02T00:00:00Z", index: 0.98 },
  ],
  holdings: [{ instrument: "TSLA", side: "long", usd: 50000 }],
  liquidation_cushion: 1,
  free_share: null,
  largest_depositor_share: 0.4,
  days_observed: 30,
  days_traded: 21,
});

function failure(vaults: unknown[]): string {
  try {
    parseVaultsFile({ vaults });
  } catch (error) {
    expect(error).to.be.instanceOf(InvalidInputError);
    return (error as InvalidInputError).shortMessage;
  }
  throw new Error("expected the file to be refused");
}

describe("vaults.json validation", () => {
  it("accepts a well-formed file and returns it unchanged", () => {
    const vault = good();
    expect(parseVaultsFile({ vaults: [vault, { ...good(), id: "agent-8" }] }).vaults[0]).to.deep.equal(vault);
  });

  const cases: Array<[string, (v: Record<string, unknown>) => unknown, string]> = [
    [
      "a share out of range",
      (v) => ({ ...v, free_share: 1.5 }),
      "vaults[1].free_share: must be a number in [0, 1] or null",
    ],
    [
      "a share as text",
      (v) => ({ ...v, largest_depositor_share: "0.3" }),
      "vaults[1].largest_depositor_share: must be a number in [0, 1] or null",
    ],
    [
      "a missing field",
      ({ free_share: _, ...v }) => v,
      "vaults[1].free_share: is required (null where unknown)",
    ],
    ["an unknown field", (v) => ({ ...v, free_shares: 0.2 }), "vaults[1].free_shares: is not a known field"],
    ["an empty id", (v) => ({ ...v, id: "" }), "vaults[1].id: must be a non-empty string"],
    ["a negative TVL", (v) => ({ ...v, tvl_usd: -1 }), "vaults[1].tvl_usd: must be a number ≥ 0"],
    ["a null TVL", (v) => ({ ...v, tvl_usd: null }), "vaults[1].tvl_usd: must be a number ≥ 0"],
    [
      "a negative cushion",
      (v) => ({ ...v, liquidation_cushion: -0.1 }),
      "vaults[1].liquidation_cushion: must be a number ≥ 0 or null",
    ],
    [
      "a bad side",
      (v) => ({ ...v, holdings: [{ instrument: "X", side: "buy", usd: 1 }] }),
      'vaults[1].holdings[0].side: must be "long" or "short"',
    ],
    [
      "a negative holding",
      (v) => ({ ...v, holdings: [{ instrument: "X", side: "long", usd: -5 }] }),
      "vaults[1].holdings[0].usd: must be a number ≥ 0",
    ],
    [
      "holdings as an object",
      (v) => ({ ...v, holdings: {} }),
      "vaults[1].holdings: must be an array or null",
    ],
    [
      "an index going back in time",
      (v) => ({
        ...v,
        holder_index: [
          { at: 10, index: 1 },
          { at: 10, index: 1 },
        ],
      }),
      "vaults[1].holder_index[1].at: must be later than the point before it",
    ],
    [
      "a date without a zone",
      (v) => ({ ...v, holder_index: [{ at: "2026-01-01T00:00:00", index: 1 }] }),
      "vaults[1].holder_index[0].at: must be Unix seconds or an RFC 3339 date-time with a zone",
    ],
    [
      "a date that does not exist",
      (v) => ({
        ...v,
        holder_index: [
          { at: 1, index: 1 },
          { at: "2026-13-01T00:00:00Z", index: 1 },
        ],
      }),
      "vaults[1].holder_index[1].at: must be Unix seconds or an RFC 3339 date-time with a zone",
    ],
    [
      "a negative index",
      (v) => ({ ...v, holder_index: [{ at: 1, index: -1 }] }),
      "vaults[1].holder_index[0].index: must be a number ≥ 0",
    ],
    [
      "more days traded than observed",
      (v) => ({ ...v, days_traded: 31 }),
      "vaults[1].days_traded: must not exceed days_observed",
    ],
    ["a duplicate id", (v) => ({ ...v, id: "first" }), "vaults[1].id: repeats vaults[0].id"],
    ["a vault that is not an object", () => 7, "vaults[1]: must be an object"],
  ];
  for (const [label, edit, message] of cases) {
    it(`refuses ${label}, naming the field and the row`, () => {
      expect(failure([{ ...good(), id: "first" }, edit(good())])).to.contain(message);
    });
  }

  it("refuses a file that is not { vaults: [...] }", () => {
    expect(() => parseVaultsFile([])).to.throw(InvalidInputError, "$: must be an object");
    expect(() => parseVaultsFile({})).to.throw(InvalidInputError, "vaults: is required");
    expect(() => parseVaultsFile({ vaults: {} })).to.throw(InvalidInputError, "vaults: must be an array");
    expect(() => parseVaultsFile({ vaults: [], extra: 1 })).to.throw(
      InvalidInputError,
      "extra: is not a known field",
    );
  });

  it("matches the published JSON Schema: same fields, all required, no others", () => {
    const schema = JSON.parse(readFileSync(join(__dirname, "../../schema/vaults.schema.json"), "utf8"));
    const vault = schema.$defs.vault;
    expect(Object.keys(vault.properties)).to.deep.equal([...VAULT_FIELDS]);
    expect(vault.required).to.deep.equal([...VAULT_FIELDS]);
    expect(vault.additionalProperties).to.equal(false);
    expect(schema.required).to.deep.equal(["vaults"]);
  });
});

describe("vaults.json validation at the edges (the fast check and the naming check agree)", () => {
  const accepts = (edit: (v: Record<string, unknown>) => unknown) => {
    const vault = edit(good());
    expect(parseVaultsFile({ vaults: [vault] }).vaults[0]).to.deep.equal(vault);
  };
  const refuses = (edit: (v: Record<string, unknown>) => unknown) => failure([edit(good())]);
  const points =
    (...list: unknown[]) =>
    (v: Record<string, unknown>) => ({ ...v, holder_index: list });
  const holdings =
    (...list: unknown[]) =>
    (v: Record<string, unknown>) => ({ ...v, holdings: list });

  it("accepts every bound and both sides: index 0, a holding of 0, a short, shares of 0 and 1, days traded = observed", () => {
    accepts(points({ at: 1, index: 0 }, { at: "2026-01-01T00:00:00.5Z", index: 0 }));
    accepts(holdings({ instrument: "A", side: "short", usd: 0 }, { instrument: "B", side: "long", usd: 1 }));
    accepts((v) => ({ ...v, free_share: 0, largest_depositor_share: 1, liquidation_cushion: 0, tvl_usd: 0 }));
    accepts((v) => ({ ...v, days_observed: 5, days_traded: 5 }));
    accepts((v) => ({ ...v, days_observed: null, days_traded: 5 }));
    accepts((v) => ({ ...v, holder_index: null, holdings: null, days_observed: 0, days_traded: 0 }));
    expect(parseVaultsFile({ $schema: "x", vaults: [] })).to.deep.equal({ vaults: [] });
  });

  it("refuses a point or a holding the fast check must not let through, naming its field", () => {
    expect(refuses(points({ at: 1, index: 1, extra: 0 }))).to.equal(
      "vaults[0].holder_index[0].extra: is not a known field (expected at, index)",
    );
    expect(refuses(points({ at: 1 }))).to.equal(
      "vaults[0].holder_index[0].index: is required (null where unknown)",
    );
    expect(refuses(points(null))).to.equal("vaults[0].holder_index[0]: must be an object");
    expect(refuses(points([1, 2]))).to.equal("vaults[0].holder_index[0]: must be an object");
    // Not JSON, but the validator takes any value: an array with the right keys, or inherited ones.
    expect(refuses(points(Object.assign([], { at: 1, index: 1 })))).to.equal(
      "vaults[0].holder_index[0]: must be an object",
    );
    const inherited = Object.assign(Object.create({ at: 1, index: 1 }), { a: 1, b: 2 });
    expect(refuses(points(inherited))).to.equal(
      "vaults[0].holder_index[0].a: is not a known field (expected at, index)",
    );
    expect(refuses(points({ at: Infinity, index: 1 }))).to.equal(
      "vaults[0].holder_index[0].at: must be Unix seconds or an RFC 3339 date-time with a zone",
    );
    expect(refuses(points({ at: { toString: () => "2026-01-01T00:00:00Z" }, index: 1 }))).to.equal(
      "vaults[0].holder_index[0].at: must be Unix seconds or an RFC 3339 date-time with a zone",
    );
    expect(refuses(points({ at: 1, index: Infinity }))).to.equal(
      "vaults[0].holder_index[0].index: must be a number ≥ 0",
    );
    expect(refuses(points({ at: 1, index: "1" }))).to.equal(
      "vaults[0].holder_index[0].index: must be a number ≥ 0",
    );
    // 2026-01-02 is a day before the Unix-seconds point; the string is read as seconds, not milliseconds.
    expect(refuses(points({ at: 1767398400, index: 1 }, { at: "2026-01-02T00:00:00Z", index: 1 }))).to.equal(
      "vaults[0].holder_index[1].at: must be later than the point before it",
    );
    expect(refuses(holdings({ instrument: "", side: "long", usd: 1 }))).to.equal(
      "vaults[0].holdings[0].instrument: must be a non-empty string",
    );
    expect(refuses(holdings({ instrument: ["X"], side: "long", usd: 1 }))).to.equal(
      "vaults[0].holdings[0].instrument: must be a non-empty string",
    );
    expect(refuses(holdings({ instrument: "X", side: "short", usd: Infinity }))).to.equal(
      "vaults[0].holdings[0].usd: must be a number ≥ 0",
    );
    expect(refuses(holdings({ instrument: "X", side: "long", usd: 1, note: "" }))).to.equal(
      "vaults[0].holdings[0].note: is not a known field (expected instrument, side, usd)",
    );
    expect(refuses(holdings(null))).to.equal("vaults[0].holdings[0]: must be an object");
    expect(refuses((v) => ({ ...v, holder_index: "[]" }))).to.equal(
      "vaults[0].holder_index: must be an array or null",
    );
  });

  it("names every field of a vault in its refusal", () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ id: 5 }, "vaults[0].id: must be a non-empty string"],
      [{ days_observed: -1 }, "vaults[0].days_observed: must be a number ≥ 0 or null"],
      [{ days_traded: -1 }, "vaults[0].days_traded: must be a number ≥ 0 or null"],
      [{ days_observed: 3, days_traded: 4 }, "vaults[0].days_traded: must not exceed days_observed"],
      [{ free_share: -0.1 }, "vaults[0].free_share: must be a number in [0, 1] or null"],
      [
        { largest_depositor_share: 1.1 },
        "vaults[0].largest_depositor_share: must be a number in [0, 1] or null",
      ],
      [{ liquidation_cushion: "1" }, "vaults[0].liquidation_cushion: must be a number ≥ 0 or null"],
      [{ tvl_usd: Infinity }, "vaults[0].tvl_usd: must be a number ≥ 0"],
      [{ extra: 1 }, `vaults[0].extra: is not a known field (expected ${VAULT_FIELDS.join(", ")})`],
    ];
    for (const [edit, message] of cases) expect(refuses((v) => ({ ...v, ...edit }))).to.equal(message);
    expect(() => parseVaultsFile({ vaults: [], extra: 1 })).to.throw(
      InvalidInputError,
      /^extra: is not a known field \(expected vaults\)$/,
    );
    expect(() => parseVaultsFile({ vault: [] })).to.throw(InvalidInputError, /^vault: is not a known field/);
  });
});
