import { deployOnce } from "./contract";
import type { DeployStep } from "./context";

/** AnchorRegistry(admin, keeper): the admin role manages keepers, the keeper posts heads. */
export const anchorRegistryStep: DeployStep = {
  name: "03_anchor_registry",
  async run(context) {
    await deployOnce(context, "AnchorRegistry", [context.config.admin, context.config.keeper]);
  },
};
