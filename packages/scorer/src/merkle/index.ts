export { EMPTY_ROOT, leafHash, nodeHash } from "./hashing";
export { EMPTY_FRONTIER, MerkleRootBuilder, merkleRoot, type MerkleFrontier } from "./root";
export { MerkleLog } from "./log";
export { MerkleProofError, MerkleRangeError } from "./errors";
export {
  rootFromConsistencyProof,
  rootFromInclusionProof,
  verifyConsistency,
  verifyInclusion,
  verifyLeafHashInclusion,
  type ConsistencyProof,
  type InclusionProof,
} from "./verify";
