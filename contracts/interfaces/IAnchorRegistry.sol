// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title IAnchorRegistry
/// @notice An append-only log of Merkle tree heads (size, root) of Augur's seal log, posted by the
/// keeper. Every head after the first is proven on chain, by an RFC 9162 consistency proof, to
/// extend the latest one, so no posted history can be rewritten; any seal can then be checked
/// against a posted head with an inclusion proof.
/// @dev Hashing is RFC 6962 over sha256 (see MerkleLog and docs/merkle-log.md).
interface IAnchorRegistry {
    /// @notice A posted head as stored: the tree size, its root, and when it was mined.
    /// @dev `blockNumber` is `block.number` of the posting transaction (the L1 height on Arbitrum).
    struct Anchor {
        uint64 treeSize;
        bytes32 root;
        uint64 timestamp;
        uint64 blockNumber;
    }

    /// @notice The admin or keeper passed to the constructor is the zero address.
    error AnchorRegistryZeroAddress();
    /// @notice A head of zero leaves was posted; there is nothing to anchor.
    error AnchorRegistryEmptyTree();
    /// @notice The zero root was posted; no sha256 output is zero, and zero marks "no head" here.
    error AnchorRegistryZeroRoot();
    /// @notice The head posted is the latest one already; nothing is appended.
    error AnchorRegistryAlreadyPosted(uint256 index, uint64 treeSize, bytes32 root);
    /// @notice The head posted has the latest head's size and another root: a fork of the log.
    error AnchorRegistryConflictingRoot(uint64 treeSize, bytes32 root, bytes32 postedRoot);
    /// @notice The head posted is smaller than the latest one; the log only grows.
    error AnchorRegistryTreeSizeDecreased(uint64 treeSize, uint64 latestTreeSize);
    /// @notice The consistency proof does not show the posted head extending the latest one
    /// (`fromSize` is 0 for the first head, whose proof must be empty).
    error AnchorRegistryInconsistentHead(uint64 fromSize, uint64 treeSize, bytes32 root);
    /// @notice No head of that tree size was ever posted.
    error AnchorRegistryUnknownTreeSize(uint64 treeSize);
    /// @notice `anchorAt` was asked for an index at or beyond `anchorCount()`.
    error AnchorRegistryIndexOutOfRange(uint256 index, uint256 count);

    /// @notice The zero seal was given as the final notice; no sha256 output is zero.
    error AnchorRegistryZeroSeal();
    /// @notice A final notice was asked for before any head was posted: it must follow the final anchor.
    error AnchorRegistryNothingAnchored();
    /// @notice The registry is closed: its final notice `finalSeal` was posted, nothing follows it.
    error AnchorRegistryClosed(bytes32 finalSeal);

    /// @notice A head was appended to the registry.
    /// @param index Its position, 0 for the first head.
    /// @param treeSize The number of seals in the log at this head.
    /// @param root The RFC 6962 root of those seals.
    event Anchored(uint256 indexed index, uint64 treeSize, bytes32 root);

    /// @notice The project's final notice was posted: the registry is closed to every later post.
    /// @param seal The final notice record's seal (sha256 of its RFC 8785 canonical JSON).
    /// @param lastIndex The index of the last head, the final anchor the notice names.
    /// @param treeSize That head's tree size.
    event FinalNotice(bytes32 indexed seal, uint256 lastIndex, uint64 treeSize);

    /// @notice Appends a head, after checking on chain that it extends the latest one.
    /// @dev Keeper role only. The first head needs no proof (its proof must be empty); each later
    /// head needs the RFC 9162 consistency proof from the latest head's size to `treeSize`.
    /// Reverts with AnchorRegistryAlreadyPosted when (treeSize, root) is the latest head,
    /// AnchorRegistryConflictingRoot for the latest size with another root,
    /// AnchorRegistryTreeSizeDecreased for a smaller size, AnchorRegistryInconsistentHead when the
    /// proof fails, AnchorRegistryClosed once the final notice is posted.
    /// @param treeSize The number of seals in the log at the new head.
    /// @param root The RFC 6962 root of those seals.
    /// @param consistencyProof The consistency proof from the latest head to the new one.
    /// @return index The new head's index.
    function post(
        uint64 treeSize,
        bytes32 root,
        bytes32[] calldata consistencyProof
    ) external returns (uint256 index);

    /// @notice Posts the seal of the project's final notice ("the accounts post one final message
    /// and stop") and closes the registry: every later `post` and final notice reverts with
    /// AnchorRegistryClosed. Heads already posted stay readable and provable.
    /// @dev Keeper role only. Reverts with AnchorRegistryZeroSeal for a zero seal and
    /// AnchorRegistryNothingAnchored before the first head (the notice names the final anchor).
    /// @param seal The final notice record's seal.
    function postFinalNotice(bytes32 seal) external;

    /// @notice The final notice's seal, or zero while the registry is open.
    function finalNotice() external view returns (bytes32 seal);

    /// @notice The most recently posted head.
    /// @dev Reverts with AnchorRegistryIndexOutOfRange(0, 0) before the first post.
    function latest() external view returns (Anchor memory anchor);

    /// @notice The number of heads posted.
    function anchorCount() external view returns (uint256 count);

    /// @notice The head at `index` (0 = first posted).
    /// @dev Reverts with AnchorRegistryIndexOutOfRange when `index >= anchorCount()`.
    function anchorAt(uint256 index) external view returns (Anchor memory anchor);

    /// @notice The root posted for a tree of `treeSize` leaves, or zero if none was.
    function rootOf(uint64 treeSize) external view returns (bytes32 root);

    /// @notice The index of the posted head of `treeSize` leaves.
    /// @dev A binary search over the heads (their sizes strictly increase), meant for off-chain
    /// readers mapping a proof's tree size to its anchor. Reverts with
    /// AnchorRegistryUnknownTreeSize when no head of that size was posted.
    function indexOf(uint64 treeSize) external view returns (uint256 index);

    /// @notice Whether `seal` is leaf `leafIndex` of the posted head of `treeSize` leaves.
    /// @dev Reverts with AnchorRegistryUnknownTreeSize when no head of that size was posted, so a
    /// "no" always means a wrong proof or seal, never "not anchored yet". The seal is hashed as a
    /// leaf (sha256(0x00 ‖ seal)) before the walk, so an interior node cannot pose as a seal.
    /// @param seal The record's seal (sha256 of its RFC 8785 canonical JSON).
    /// @param leafIndex The seal's position in the log.
    /// @param treeSize The size of a posted head.
    /// @param proof The RFC 9162 inclusion proof, leaf-side sibling first.
    /// @return included True when the proof links the seal to the head's root.
    function verifyInclusion(
        bytes32 seal,
        uint64 leafIndex,
        uint64 treeSize,
        bytes32[] calldata proof
    ) external view returns (bool included);
}
