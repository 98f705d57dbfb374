import { isAddress, JsonRpcProvider } from "ethers";
import { rpcOption, storeFrom } from "../config/env";
import { registryFinalPoster } from "../keeper/final-notice";
import { loadSigner } from "../keeper/signer";
import { sealFinalNotice } from "../modes/final";
import { checkedReason } from "../modes/records";
import { openStore } from "../store/open";
import { UsageError, type CommandIo } from "./command";

export const FINAL_USAGE = `final    the archive's last step: seals the final notice (--words, the saved
         receipt's seal, the archived record and the final anchor), posts its
         seal with AnchorRegistry.postFinalNotice from the keeper's account
         (--rpc, --registry, KEEPER_PRIVATE_KEY or --keystore, as augur keeper),
         and closes the registry. Nothing is sealed after it: the cycle and
         every write refuse (FINAL_NOTICE_SEALED). Refused before the archive,
         without a saved receipt (augur receipt … --save), or a second time.`;

/** `augur mode final`: every flag checked before the store or the chain is touched. */
export async function runFinal(
  values: { words?: string; rpc?: string; registry?: string; keystore?: string; "data-dir"?: string },
  io: CommandIo,
): Promise<number> {
  if (values.words === undefined) throw new UsageError("--words is required (the last message, one line)");
  const words = checkedReason(values.words, "words");
  const rpc = rpcOption(values, process.env);
  if (!/^https?:\/\/[^\s]+$/.test(rpc)) throw new UsageError("--rpc must be an http(s):// URL");
  const registry = (values.registry ?? process.env.AUGUR_REGISTRY ?? "").trim();
  if (!isAddress(registry)) throw new UsageError(`--registry must be a 0x address, not '${registry}'`);
  const signer = await loadSigner({
    privateKey: process.env.KEEPER_PRIVATE_KEY || undefined,
    keystore: values.keystore ?? (process.env.AUGUR_KEYSTORE || undefined),
    password: process.env.KEEPER_KEYSTORE_PASSWORD,
  });
  const provider = new JsonRpcProvider(rpc, undefined, { staticNetwork: true, cacheTimeout: -1 });
  const store = await openStore(storeFrom(values, process.env), { mustExist: true });
  try {
    const now = Math.floor(Date.now() / 1000);
    const post = registryFinalPoster(signer.connect(provider), registry.toLowerCase());
    const { seal, body } = await sealFinalNotice(store, { words, now, post });
    io.stdout.write(
      `final notice ${seal} sealed and posted: receipt ${body.receipt}, final anchor ${body.finalAnchor.anchorIndex} (${body.finalAnchor.treeSize} leaves)\n`,
    );
    return 0;
  } finally {
    await store.close();
    provider.destroy();
  }
}
