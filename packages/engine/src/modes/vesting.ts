import { Contract, getAddress, type Signer } from "ethers";
import { VestingBurnError } from "./errors";

const VESTING_ABI = [
  "function owner() view returns (address)",
  "function burnUnvested(address token)",
  "function burned(address token) view returns (bool)",
  "function windDownAt() view returns (uint64)",
  "event UnvestedBurned(address indexed token, uint256 amount, uint64 windDownAt)",
];

/** How long one call waits for its burn to be mined before leaving it to the next call. */
const WAIT_MS = 120_000;

/** What a call did: burned now, found it burned already, or found the operator's transaction pending. */
export type UnvestedBurn =
  | {
      readonly status: "burned";
      readonly amount: bigint;
      readonly windDownAt: number;
      readonly tx: string;
      readonly block: number;
    }
  | { readonly status: "already"; readonly windDownAt: number }
  | { readonly status: "pending"; readonly tx?: string };

/** The operator allocation the wind-down burns: its OperatorVesting contract and the token it vests. */
export interface VestingAllocation {
  readonly vesting: string;
  readonly token: string;
}

/** The vesting contract, connected to `signer`, once checked: a contract is there and the signer owns it. */
async function ownedVesting(signer: Signer, allocation: VestingAllocation) {
  const provider = signer.provider;
  if (!provider) throw new TypeError("the operator's signer needs a provider");
  const address = getAddress(allocation.vesting);
  if ((await provider.getCode(address)) === "0x") {
    throw new VestingBurnError("VESTING_CONFIG", `no contract at the vesting address ${address}`, {
      vesting: address,
    });
  }
  const vesting = new Contract(address, VESTING_ABI, signer);
  const operator = getAddress(await signer.getAddress());
  const owner = getAddress((await vesting.getFunction("owner")()) as string);
  if (owner !== operator) {
    throw new VestingBurnError(
      "NOT_OPERATOR",
      `${operator} does not own the vesting contract (${owner} does): sign with OPERATOR_PRIVATE_KEY`,
      { operator, owner },
    );
  }
  return { provider, vesting, operator, token: getAddress(allocation.token) };
}

/**
 * Seed 002, "Any unvested operator allocation is burned": `OperatorVesting.burnUnvested(token)`
 * signed by the vesting contract's owner, at most once. Safe to repeat (every wind-down cycle, a
 * restart, the task): the contract says whether the token was burned, and while an operator
 * transaction is still pending nothing new is sent (a second burn could only revert). Refuses a
 * signer that does not own the contract (`NOT_OPERATOR`).
 */
export async function burnUnvestedOnce(signer: Signer, allocation: VestingAllocation): Promise<UnvestedBurn> {
  const { provider, vesting, operator, token } = await ownedVesting(signer, allocation);
  if ((await vesting.getFunction("burned")(token)) as boolean) {
    return { status: "already", windDownAt: Number((await vesting.getFunction("windDownAt")()) as bigint) };
  }
  const [pending, mined] = await Promise.all([
    provider.getTransactionCount(operator, "pending"),
    provider.getTransactionCount(operator, "latest"),
  ]);
  if (pending > mined) return { status: "pending" };
  const sent = await vesting.getFunction("burnUnvested").send(token);
  const receipt = await sent.wait(1, WAIT_MS).catch((error: unknown) => {
    if ((error as { code?: string }).code === "TIMEOUT") return null;
    throw error;
  });
  if (!receipt) return { status: "pending", tx: sent.hash };
  const event = receipt.logs
    .map((log) => vesting.interface.parseLog(log))
    .find((parsed) => parsed?.name === "UnvestedBurned")!;
  return {
    status: "burned",
    amount: event.args.getValue("amount") as bigint,
    windDownAt: Number(event.args.getValue("windDownAt") as bigint),
    tx: receipt.hash,
    block: receipt.blockNumber,
  };
}

/** One line saying what `burnUnvestedOnce` did, for the cycle's progress and the task. */
export function describeBurn(burn: UnvestedBurn, allocation: VestingAllocation): string {
  const at = (t: number) => new Date(t * 1000).toISOString();
  switch (burn.status) {
    case "burned":
      return `burned the unvested ${burn.amount} base units of ${allocation.token} held by ${allocation.vesting} (unvested at ${at(burn.windDownAt)}), tx ${burn.tx} in block ${burn.block}`;
    case "already":
      return `the unvested ${allocation.token} of ${allocation.vesting} was burned already (at ${at(burn.windDownAt)})`;
    case "pending":
      return `the burn of the unvested ${allocation.token} is not mined yet${burn.tx ? ` (tx ${burn.tx})` : " (an operator transaction is pending)"}`;
  }
}

/** The wind-down's burn as the cycle's mode step runs it (a seam: tests pass their own). */
export interface UnvestedBurner {
  readonly allocation: VestingAllocation;
  /** Refuses what would make the burn fail: no contract at the address, a signer that does not own it. */
  check(): Promise<void>;
  burn(): Promise<UnvestedBurn>;
}

export function vestingBurner(signer: Signer, allocation: VestingAllocation): UnvestedBurner {
  return {
    allocation,
    check: async () => void (await ownedVesting(signer, allocation)),
    burn: () => burnUnvestedOnce(signer, allocation),
  };
}
