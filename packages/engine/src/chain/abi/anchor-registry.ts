import { Interface } from "ethers";

/**
 * The slice of AnchorRegistry the keeper and the indexer use (contracts/interfaces/
 * IAnchorRegistry.sol). Written out rather than loaded from typechain-types/, which is generated
 * at compile time and absent from a plain install of the engine.
 */
export const ANCHOR_REGISTRY_ABI = [
  "function post(uint64 treeSize, bytes32 root, bytes32[] consistencyProof) returns (uint256 index)",
  "function latest() view returns (tuple(uint64 treeSize, bytes32 root, uint64 timestamp, uint64 blockNumber))",
  "function anchorCount() view returns (uint256)",
  "function anchorAt(uint256 index) view returns (tuple(uint64 treeSize, bytes32 root, uint64 timestamp, uint64 blockNumber))",
  "function rootOf(uint64 treeSize) view returns (bytes32)",
  "function indexOf(uint64 treeSize) view returns (uint256)",
  "event Anchored(uint256 indexed index, uint64 treeSize, bytes32 root)",
  "function postFinalNotice(bytes32 seal)",
  "function finalNotice() view returns (bytes32)",
  "event FinalNotice(bytes32 indexed seal, uint256 lastIndex, uint64 treeSize)",
  "function verifyInclusion(bytes32 seal, uint64 leafIndex, uint64 treeSize, bytes32[] proof) view returns (bool)",
  "error AnchorRegistryEmptyTree()",
  "error AnchorRegistryZeroRoot()",
  "error AnchorRegistryAlreadyPosted(uint256 index, uint64 treeSize, bytes32 root)",
  "error AnchorRegistryConflictingRoot(uint64 treeSize, bytes32 root, bytes32 postedRoot)",
  "error AnchorRegistryTreeSizeDecreased(uint64 treeSize, uint64 latestTreeSize)",
  "error AnchorRegistryInconsistentHead(uint64 fromSize, uint64 treeSize, bytes32 root)",
  "error AnchorRegistryUnknownTreeSize(uint64 treeSize)",
  "error AnchorRegistryIndexOutOfRange(uint256 index, uint256 count)",
  "error AnchorRegistryZeroSeal()",
  "error AnchorRegistryNothingAnchored()",
  "error AnchorRegistryClosed(bytes32 finalSeal)",
  "error AccessControlUnauthorizedAccount(address account, bytes32 neededRole)",
] as const;

export const anchorRegistry = new Interface(ANCHOR_REGISTRY_ABI);

export const ANCHORED_TOPIC = anchorRegistry.getEvent("Anchored")!.topicHash;
