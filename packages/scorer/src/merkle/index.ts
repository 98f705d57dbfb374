export { EMPTY_ROOT, leafHash, nodeHash } from "./hashing";
export { MerkleRootBuilder, merkleRoot } from "./root";
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
