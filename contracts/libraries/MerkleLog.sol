// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title MerkleLog
/// @notice RFC 6962 / RFC 9162 Merkle log proofs over sha256, bit for bit the same as the TypeScript
/// verifiers of the scorer package (packages/scorer/src/merkle/verify.ts): leaf hash =
/// sha256(0x00 ‖ seal), node hash = sha256(0x01 ‖ left ‖ right), trees split at the largest power
/// of two below their size, the empty tree hashes to sha256("").
/// @dev The `root*` functions revert with a typed error naming what is wrong; the `verify*`
/// functions never revert on a bad proof and return false instead. Hashing goes through the
/// sha256 precompile on scratch memory past the free-memory pointer, so a proof of depth d costs
/// d (inclusion) or at most 2d (consistency) precompile calls and no memory growth.
library MerkleLog {
    /// @notice The leaf index is not below the tree size.
    error MerkleLogLeafIndexOutOfRange(uint256 leafIndex, uint256 treeSize);
    /// @notice A consistency proof was asked for with `fromSize` zero or above `toSize`.
    error MerkleLogSizesOutOfOrder(uint256 fromSize, uint256 toSize);
    /// @notice The proof has more elements than the path from the leaf (or old tree) to the root.
    error MerkleLogProofTooLong(uint256 length);
    /// @notice The proof has fewer elements than the path from the leaf (or old tree) to the root.
    error MerkleLogProofTooShort(uint256 length);
    /// @notice A consistency proof between trees of equal size carries elements; it must be empty.
    error MerkleLogProofNotEmpty(uint256 length);
    /// @notice The consistency proof rebuilds another old root than the one given.
    error MerkleLogOldRootMismatch(bytes32 rebuilt, bytes32 fromRoot);

    /// @notice Root of the empty tree: sha256("").
    bytes32 internal constant EMPTY_ROOT = 0xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855;

    // Outcomes of the shared walks; the wrappers turn them into a revert or a false.
    uint256 private constant OK = 0;
    uint256 private constant OUT_OF_RANGE = 1;
    uint256 private constant TOO_LONG = 2;
    uint256 private constant TOO_SHORT = 3;
    uint256 private constant NOT_EMPTY = 4;
    uint256 private constant OLD_ROOT_MISMATCH = 5;

    /// @notice sha256(0x00 ‖ seal): the leaf hash of a seal.
    function hashLeaf(bytes32 seal) internal view returns (bytes32 digest) {
        assembly ("memory-safe") {
            let p := mload(0x40)
            mstore8(p, 0x00)
            mstore(add(p, 1), seal)
            if iszero(staticcall(gas(), 0x02, p, 33, 0x00, 0x20)) {
                revert(0, 0)
            }
            digest := mload(0x00)
        }
    }

    /// @notice sha256(0x01 ‖ left ‖ right): the hash of an interior node.
    function hashNode(bytes32 left, bytes32 right) internal view returns (bytes32 digest) {
        assembly ("memory-safe") {
            let p := mload(0x40)
            mstore8(p, 0x01)
            mstore(add(p, 1), left)
            mstore(add(p, 33), right)
            if iszero(staticcall(gas(), 0x02, p, 65, 0x00, 0x20)) {
                revert(0, 0)
            }
            digest := mload(0x00)
        }
    }

    /// @notice The root an inclusion proof leads to from a leaf hash (RFC 9162 §2.1.3.2).
    /// @dev Reverts when `leafIndex >= treeSize` or the proof length does not fit the path.
    function rootFromInclusionProof(
        bytes32 leafHash,
        uint256 leafIndex,
        uint256 treeSize,
        bytes32[] calldata proof
    ) internal view returns (bytes32 root) {
        uint256 status;
        (status, root) = _inclusionRoot(leafHash, leafIndex, treeSize, proof);
        if (status == OUT_OF_RANGE) revert MerkleLogLeafIndexOutOfRange(leafIndex, treeSize);
        if (status == TOO_LONG) revert MerkleLogProofTooLong(proof.length);
        if (status == TOO_SHORT) revert MerkleLogProofTooShort(proof.length);
    }

    /// @notice Whether `seal` sits at `leafIndex` of the tree of `treeSize` leaves whose root is `root`.
    /// @dev The seal is hashed with the leaf prefix here, so an interior node can never pass as a seal.
    function verifyInclusion(
        bytes32 seal,
        uint256 leafIndex,
        uint256 treeSize,
        bytes32[] calldata proof,
        bytes32 root
    ) internal view returns (bool) {
        (uint256 status, bytes32 computed) = _inclusionRoot(hashLeaf(seal), leafIndex, treeSize, proof);
        return status == OK && computed == root;
    }

    /// @notice The new root a consistency proof leads to, once it has rebuilt `fromRoot`
    /// (RFC 9162 §2.1.4.2).
    /// @dev Needs 0 < fromSize <= toSize: from the empty tree the proof is empty and carries nothing
    /// to compute the new root from.
    function rootFromConsistencyProof(
        uint256 fromSize,
        uint256 toSize,
        bytes32 fromRoot,
        bytes32[] calldata proof
    ) internal view returns (bytes32 toRoot) {
        uint256 status;
        bytes32 rebuilt;
        (status, rebuilt, toRoot) = _consistencyRoots(fromSize, toSize, fromRoot, proof);
        if (status == OUT_OF_RANGE) revert MerkleLogSizesOutOfOrder(fromSize, toSize);
        if (status == NOT_EMPTY) revert MerkleLogProofNotEmpty(proof.length);
        if (status == TOO_LONG) revert MerkleLogProofTooLong(proof.length);
        if (status == TOO_SHORT) revert MerkleLogProofTooShort(proof.length);
        if (status == OLD_ROOT_MISMATCH) revert MerkleLogOldRootMismatch(rebuilt, fromRoot);
    }

    /// @notice Whether the tree of `toSize` leaves with root `toRoot` extends, append-only, the tree of
    /// `fromSize` leaves with root `fromRoot`.
    /// @dev Equal sizes need equal roots and an empty proof, and at size zero that root must be the
    /// empty root (as in the TypeScript verifier: 0 → 0 holds only between empty roots); size zero
    /// needs the empty root and an empty proof, and is extended by every tree.
    function verifyConsistency(
        uint256 fromSize,
        uint256 toSize,
        bytes32 fromRoot,
        bytes32 toRoot,
        bytes32[] calldata proof
    ) internal view returns (bool) {
        if (fromSize > toSize) return false;
        if (fromSize == toSize) {
            return fromRoot == toRoot && proof.length == 0 && (fromSize != 0 || fromRoot == EMPTY_ROOT);
        }
        if (fromSize == 0) return fromRoot == EMPTY_ROOT && proof.length == 0;
        (uint256 status, , bytes32 computed) = _consistencyRoots(fromSize, toSize, fromRoot, proof);
        return status == OK && computed == toRoot;
    }

    /// @dev The RFC 9162 §2.1.3.2 walk: `fn` is the node's index and `sn` the last index at the
    /// current level; a right child (odd fn) or the last, unpaired node (fn == sn) takes its
    /// sibling on the left, and an unpaired node climbs without hashing until it is a right child.
    function _inclusionRoot(
        bytes32 leafHash,
        uint256 leafIndex,
        uint256 treeSize,
        bytes32[] calldata proof
    ) private view returns (uint256 status, bytes32 r) {
        if (leafIndex >= treeSize) return (OUT_OF_RANGE, bytes32(0));
        uint256 fn = leafIndex;
        uint256 sn = treeSize - 1;
        r = leafHash;
        uint256 length = proof.length;
        for (uint256 i; i < length; ++i) {
            if (sn == 0) return (TOO_LONG, bytes32(0));
            if (fn & 1 == 1 || fn == sn) {
                r = hashNode(proof[i], r);
                while (fn & 1 == 0 && fn != 0) {
                    fn >>= 1;
                    sn >>= 1;
                }
            } else {
                r = hashNode(r, proof[i]);
            }
            fn >>= 1;
            sn >>= 1;
        }
        if (sn != 0) return (TOO_SHORT, bytes32(0));
    }

    /// @dev The RFC 9162 §2.1.4.2 walk, computing the old root `fr` and the new root `sr` together.
    /// When the old tree is a complete subtree (fromSize a power of two) the proof omits its root,
    /// which is then the walk's starting node.
    function _consistencyRoots(
        uint256 fromSize,
        uint256 toSize,
        bytes32 fromRoot,
        bytes32[] calldata proof
    ) private view returns (uint256 status, bytes32 fr, bytes32 sr) {
        if (fromSize == 0 || fromSize > toSize) return (OUT_OF_RANGE, 0, 0);
        uint256 length = proof.length;
        if (fromSize == toSize) return (length == 0 ? OK : NOT_EMPTY, fromRoot, fromRoot);
        uint256 i;
        if (fromSize & (fromSize - 1) == 0) {
            fr = fromRoot;
        } else {
            if (length == 0) return (TOO_SHORT, 0, 0);
            fr = proof[0];
            i = 1;
        }
        sr = fr;
        uint256 fn = fromSize - 1;
        uint256 sn = toSize - 1;
        while (fn & 1 == 1) {
            fn >>= 1;
            sn >>= 1;
        }
        for (; i < length; ++i) {
            if (sn == 0) return (TOO_LONG, 0, 0);
            bytes32 c = proof[i];
            if (fn & 1 == 1 || fn == sn) {
                fr = hashNode(c, fr);
                sr = hashNode(c, sr);
                while (fn & 1 == 0 && fn != 0) {
                    fn >>= 1;
                    sn >>= 1;
                }
            } else {
                sr = hashNode(sr, c);
            }
            fn >>= 1;
            sn >>= 1;
        }
        if (sn != 0) return (TOO_SHORT, 0, 0);
        if (fr != fromRoot) return (OLD_ROOT_MISMATCH, fr, 0);
    }
}
