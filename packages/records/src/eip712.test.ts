import { expect } from "chai";
import { allTypedDataTypes, augurDomain, typedDataTypes } from "./eip712";
import { isRegistration, LIFECYCLE_TYPE_NAMES, RECORD_TYPE_NAMES, SIGNED_FIELDS } from "./fields";

describe("@augur/records: the EIP-712 types and domain every record is signed under", () => {
  it("publishes every record and lifecycle type, each as its own fields in order", () => {
    const all = allTypedDataTypes();
    expect(Object.keys(all)).to.deep.equal([...RECORD_TYPE_NAMES, ...LIFECYCLE_TYPE_NAMES]);
    for (const type of [...RECORD_TYPE_NAMES, ...LIFECYCLE_TYPE_NAMES]) {
      expect(all[type]).to.deep.equal(typedDataTypes(type)[type]);
      expect(all[type]!.map((f) => f.name)).to.deep.equal(SIGNED_FIELDS[type].map((f) => f.name));
    }
    expect(all.Retirement).to.deep.equal([
      { name: "agentId", type: "string" },
      { name: "seasonId", type: "string" },
      { name: "retiredAt", type: "uint64" },
    ]);
    expect(augurDomain(4663)).to.deep.equal({ name: "Augur ledger", version: "1", chainId: 4663 });
  });

  it("counts both registration versions, and nothing else, as a registration", () => {
    expect(RECORD_TYPE_NAMES.filter(isRegistration)).to.deep.equal(["Registration", "RegistrationV2"]);
  });
});
