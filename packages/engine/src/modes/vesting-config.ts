import { getAddress, JsonRpcProvider, Wallet } from "ethers";
import { rpcOption, type Env } from "../config/env";
import { stewardshipConfigured, stewardshipSettings, type StewardshipFlags } from "../stewardship/config";
import { VestingBurnError } from "./errors";
import { vestingBurner, type UnvestedBurner } from "./vesting";

/** parseArgs options of the operator allocation the wind-down burns (`augur cycle`). */
export const VESTING_OPTIONS = {
  vesting: { type: "string" },
  "vesting-token": { type: "string" },
} as const;

export const VESTING_HELP = `Operator allocation (the wind-down burns its unvested part before the archive):
  --vesting <address>        the OperatorVesting contract (env AUGUR_VESTING); needs --rpc
  --vesting-token <address>  the token it vests (env AUGUR_VESTING_TOKEN; default: the
                             stewardship monitor's token)
  OPERATOR_PRIVATE_KEY       the operator's key, owner of the vesting contract (environment only)`;

export type VestingFlags = { readonly [K in keyof typeof VESTING_OPTIONS]?: string } & StewardshipFlags & {
    readonly rpc?: string;
  };

/** Whether an operator allocation is configured at all. */
export function vestingConfigured(flags: VestingFlags, env: Env): boolean {
  return Boolean((flags.vesting ?? env.AUGUR_VESTING ?? "").trim());
}

function address(name: string, value: string): string {
  try {
    return getAddress(value.trim()).toLowerCase();
  } catch {
    throw new VestingBurnError("VESTING_CONFIG", `${name} must be a 20-byte 0x address, not '${value}'`);
  }
}

/**
 * The wind-down's burner from flags and environment: the vesting contract, its token, the
 * operator's key from OPERATOR_PRIVATE_KEY, the chain from --rpc. Checked on open (the contract
 * is there and the key owns it), so a wrong setting stops `augur cycle` at start, not at wind-down.
 */
export async function openVestingBurner(
  flags: VestingFlags,
  env: Env,
): Promise<{ readonly burner: UnvestedBurner; close(): void }> {
  const vesting = address("--vesting", flags.vesting ?? env.AUGUR_VESTING ?? "");
  const tokenText = (flags["vesting-token"] ?? env.AUGUR_VESTING_TOKEN ?? "").trim();
  if (!tokenText && !stewardshipConfigured(flags, env)) {
    throw new VestingBurnError("VESTING_CONFIG", "--vesting needs --vesting-token (or a stewardship token)");
  }
  const token = tokenText ? address("--vesting-token", tokenText) : stewardshipSettings(flags, env).token;
  const key = (env.OPERATOR_PRIVATE_KEY ?? "").trim();
  if (!/^0x[0-9a-fA-F]{64}$/.test(key)) {
    throw new VestingBurnError("VESTING_CONFIG", "--vesting needs OPERATOR_PRIVATE_KEY (0x + 64 hex digits)");
  }
  const rpc = rpcOption(flags, env);
  if (!/^https?:\/\/[^\s]+$/.test(rpc)) {
    throw new VestingBurnError("VESTING_CONFIG", "--vesting needs --rpc (an http(s):// URL)");
  }
  const provider = new JsonRpcProvider(rpc, undefined, { staticNetwork: true, cacheTimeout: -1 });
  try {
    const burner = vestingBurner(new Wallet(key, provider), { vesting, token });
    await burner.check();
    return { burner, close: () => provider.destroy() };
  } catch (error) {
    provider.destroy();
    throw error;
  }
}
