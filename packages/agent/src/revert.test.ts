import { expect } from "chai";
import { Interface } from "ethers";
import { CALL_LEDGER_ABI } from "./abi";
import {
  AgentError,
  NotClosedError,
  RevealTimedOutError,
  RevealTooEarlyError,
  StakeLockedError,
  WrongCallStatusError,
} from "./errors";
import { decodeRevert, toAgentError } from "./revert";

const ledger = new Interface(CALL_LEDGER_ABI);

/** The shape ethers gives a failed estimateGas: the revert data some levels down. */
function reverted(name: string, args: unknown[]) {
  return { code: "CALL_EXCEPTION", info: { error: { data: ledger.encodeErrorResult(name, args) } } };
}

describe("toAgentError", () => {
  it("RevealTooEarly says to reveal in a later block and names the commit's block", () => {
    const error = toAgentError(reverted("CallLedgerRevealTooEarly", [7n, 1_700_000_000n]), {
      committedBlock: 123,
    });
    expect(error).to.be.instanceOf(RevealTooEarlyError);
    expect((error as Error).message).to.equal(
      "reveal in a later block than the commit (committed in block 123 at 1700000000): wait for the next block",
    );
    expect((error as AgentError).details).to.include({ committedBlock: 123, committedAt: 1_700_000_000 });
  });

  it("maps the ledger's errors to the typed errors with their values", () => {
    const timedOut = toAgentError(
      reverted("CallLedgerRevealTimedOut", [1n, 1000n, 2000n]),
    ) as RevealTimedOutError;
    expect(timedOut).to.be.instanceOf(RevealTimedOutError);
    expect(timedOut.details.deadline).to.equal(1000);
    expect(toAgentError(reverted("CallLedgerNotClosed", [1n, 5000n, 4000n]))).to.be.instanceOf(
      NotClosedError,
    );
    expect(toAgentError(reverted("CallLedgerStakeLocked", [1n, 100n, 2n]))).to.be.instanceOf(
      StakeLockedError,
    );
    const status = toAgentError(reverted("CallLedgerNotRevealed", [9n, 3])) as WrongCallStatusError;
    expect(status.message).to.match(/call 9 is settled, not revealed/);
  });

  it("an error it does not know keeps its name and arguments; a non-revert passes through unchanged", () => {
    const generic = toAgentError(reverted("CallLedgerZeroAmount", [])) as AgentError;
    expect(generic.code).to.equal("CONTRACT_REVERT");
    expect(generic.message).to.equal("the contract refused: CallLedgerZeroAmount()");
    const network = new Error("socket hang up");
    expect(toAgentError(network)).to.equal(network);
    expect(decodeRevert({ data: "0x" })).to.equal(undefined);
  });
});
