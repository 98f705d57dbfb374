import { task } from "hardhat/config";
import { Contract, formatUnits, parseUnits } from "ethers";
import { LOCAL_NETWORKS } from "../deploy/config";
import { BadArgumentError, depositStake, send, withdrawStake, type LedgerContext } from "@augur/agent";
import { guarded } from "./lib/refusal";
import { report } from "./lib/output";
import { agentContext } from "./lib/runtime";
import { assertTaskMaySpend, withSpendGuard, type SpendGuardArgs } from "./lib/spend-guard";

/** "100" or "12.5" USDG → base units, with the token's decimals read on chain. */
async function usdgAmount(
  context: LedgerContext,
  text: string,
): Promise<{ amount: bigint; decimals: number }> {
  const decimals = Number(await context.usdg.getFunction("decimals")());
  if (!/^\d+(\.\d+)?$/.test(text.trim()))
    throw new BadArgumentError("amount", "must be a USDG amount like 100 or 12.5", text);
  try {
    return { amount: parseUnits(text.trim(), decimals), decimals };
  } catch {
    throw new BadArgumentError("amount", `has more than ${decimals} decimals`, text);
  }
}

for (const [name, description, verb] of [
  [
    "stake:deposit",
    "Deposit USDG as the agent's stake (approves the ledger for exactly that amount first)",
    "deposited",
  ],
  [
    "stake:withdraw",
    "Withdraw USDG stake (refused while open calls would fall below the minimum)",
    "withdrew",
  ],
] as const) {
  const definition = task(name, description)
    .addParam("amount", "USDG, in whole units (e.g. 100 or 12.5)")
    .addOptionalParam("account", "local networks only: index of the node account to act as (default 0)")
    .addFlag("json", "print one JSON object instead of the summary");
  // A deposit puts money in; a withdrawal takes it back out, which no mode forbids.
  (name === "stake:deposit" ? withSpendGuard(definition) : definition).setAction(
    async (args: { amount: string; account?: string; json: boolean } & SpendGuardArgs, hre) =>
      guarded(async () => {
        if (name === "stake:deposit") await assertTaskMaySpend(hre, args, "depositing stake");
        const context = await agentContext(hre, args.account);
        const { amount, decimals } = await usdgAmount(context, args.amount);
        const done =
          name === "stake:deposit"
            ? await depositStake(context, amount)
            : await withdrawStake(context, amount);
        return report(args.json, { agent: context.agent, amount, ...done }, () => [
          `${verb} ${formatUnits(amount, decimals)} USDG; stake now ${formatUnits(done.stake, decimals)} USDG (tx ${done.txHash})`,
        ]);
      }),
  );
}

withSpendGuard(
  task(
    "replica:faucet",
    "Local replica only: mint test USDG to the agent (the replica's USDG mints for anyone)",
  )
    .addParam("amount", "USDG, in whole units")
    .addOptionalParam("account", "index of the node account to fund (default 0)")
    .addFlag("json", "print one JSON object instead of the summary"),
).setAction(async (args: { amount: string; account?: string; json: boolean } & SpendGuardArgs, hre) =>
  guarded(async () => {
    if (!LOCAL_NETWORKS.has(hre.network.name)) {
      throw new BadArgumentError("network", `${hre.network.name} has real USDG: there is no faucet`);
    }
    // Test money, but it funds an agent: a replica run with an engine named keeps its mode.
    await assertTaskMaySpend(hre, args, "funding an agent from the faucet");
    const context = await agentContext(hre, args.account);
    const { amount, decimals } = await usdgAmount(context, args.amount);
    const usdg = new Contract(
      String(context.usdg.target),
      ["function mint(address to, uint256 amount)"],
      context.signer,
    );
    const sent = await send(usdg.getFunction("mint"), [context.agent, amount]);
    return report(args.json, { agent: context.agent, amount, ...sent }, () => [
      `minted ${formatUnits(amount, decimals)} test USDG to ${context.agent}`,
    ]);
  }),
);
