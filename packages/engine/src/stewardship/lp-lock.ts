import type { LpLockReading } from "@augur/scorer";
import { liquidityLock, positionManager } from "../chain/abi/stewardship";
import { IndexerConfigError } from "../indexer/errors";
import type { StewardshipChain } from "./monitor";

/** Reads the LP timelock's expiry and the holder and liquidity of its position at `block`. */
export async function readLpLock(
  provider: Pick<StewardshipChain, "call">,
  config: { readonly lock: string; readonly position: string },
  block: number,
): Promise<LpLockReading> {
  const read = async (to: string, iface: typeof liquidityLock, name: string, args: unknown[] = []) => {
    let data: string;
    try {
      data = await provider.call({ to, data: iface.encodeFunctionData(name, args), blockTag: block });
    } catch (error) {
      throw new IndexerConfigError(`${to}: ${name}() failed: ${(error as Error).message.split("\n")[0]}`);
    }
    if (data === "0x") throw new IndexerConfigError(`${to} has no ${name}() (not a LiquidityLock?)`);
    return iface.decodeFunctionResult(name, data);
  };
  const manager = String((await read(config.lock, liquidityLock, "positionManager"))[0]).toLowerCase();
  const unlockAt = Number((await read(config.lock, liquidityLock, "unlockAt"))[0] as bigint);
  const holder = String(
    (await read(manager, positionManager, "ownerOf", [config.position]))[0],
  ).toLowerCase();
  const position = await read(manager, positionManager, "positions", [config.position]);
  return {
    lock: config.lock,
    positionManager: manager,
    position: config.position,
    unlockAt,
    holder,
    liquidity: (position.getValue("liquidity") as bigint).toString(),
    block,
  };
}
