import type { ConfigurableTaskDefinition, HardhatRuntimeEnvironment } from "hardhat/types";
import { BadArgumentError } from "@augur/agent";
import { LOCAL_NETWORKS } from "../../deploy/config";

/** The options every spend task takes (see `withSpendGuard`). */
export interface SpendGuardArgs {
  readonly api?: string;
  readonly outsideAgent: boolean;
}

/** Adds `--api` and `--outside-agent` to a task that moves money. */
export function withSpendGuard(definition: ConfigurableTaskDefinition): ConfigurableTaskDefinition {
  return definition
    .addOptionalParam(
      "api",
      "origin of the engine whose mode governs spend (default AUGUR_API); required on a live network, unchecked without it on hardhat/localhost",
    )
    .addFlag(
      "outsideAgent",
      "not one of the operator's house agents: maintenance does not refuse it (wind-down still does)",
    );
}

/**
 * The one mode guard of operator spend outside the engine: reads the named engine's
 * `GET /api/v1/mode` and refuses as `augur season add` does. On a live network a spend task must
 * name its engine (it fails closed); on a local node with none named there is no mode to keep.
 */
export async function assertTaskMaySpend(
  hre: HardhatRuntimeEnvironment,
  args: SpendGuardArgs,
  action: string,
): Promise<void> {
  const origin = args.api ?? process.env.AUGUR_API;
  if (origin === undefined || origin.trim() === "") {
    if (LOCAL_NETWORKS.has(hre.network.name)) return;
    throw new BadArgumentError(
      "api",
      `is needed: ${action} on ${hre.network.name} is spend, which the engine's mode governs (pass --api <origin> or set AUGUR_API)`,
    );
  }
  // Loaded here, not at the top: every hardhat command (compile included) loads the tasks.
  const { assertMaySpendAt } = await import("@augur/engine");
  await assertMaySpendAt(origin, action, args.outsideAgent ? "any" : "operator");
}
