import { expect } from "chai";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { agentRows, makeSeason } from "./fixture";
import { STYLES } from "./formula";
import { DECIDERS } from "./types";

// The JSON Schema documents what input.ts enforces; this keeps the two from drifting apart.
const schema = JSON.parse(readFileSync(join(__dirname, "../../schema/season.schema.json"), "utf8"));
const rows = agentRows({
  id: "a",
  navs: [1],
  trades: [{ at: "2026-11-01T00:00:00Z", asset: "X", side: "buy", quantity: 1, price: 1 }],
  calls: [{ resolved_at: "2026-11-01T00:00:00Z", confidence: 0.5, outcome: "hit" }],
});

describe("schema/season.schema.json", () => {
  it("requires exactly the fields the validator requires, row by row", () => {
    const season = makeSeason([{ id: "a", navs: [1] }]);
    expect(schema.required).to.have.members(Object.keys(season));
    expect(schema.properties.agents.items.required).to.have.members(Object.keys(season.agents[0]!));
    for (const key of ["snapshots", "decisions", "trades", "calls"] as const)
      expect(schema.properties[key].items.required, key).to.have.members(Object.keys(rows[key][0]!));
    expect(schema.properties.prior_scores.items.required).to.have.members([
      "agent",
      "season_id",
      "performance",
      "seal",
      "sealed_at",
    ]);
  });

  it("lists the same styles and deciders", () => {
    expect(schema.properties.agents.items.properties.style.enum).to.deep.equal([...STYLES]);
    expect(schema.properties.decisions.items.properties.decider.enum).to.deep.equal([...DECIDERS]);
  });
});
