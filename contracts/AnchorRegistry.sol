// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {IAnchorRegistry} from "./interfaces/IAnchorRegistry.sol";
import {MerkleLog} from "./libraries/MerkleLog.sol";

/// @title AnchorRegistry
/// @notice See IAnchorRegistry.
/// @dev Invariants (tested in test/AnchorRegistry.test.ts, model-based):
///  I1 tree sizes strictly increase with the index, and `_rootOf[size]` is non-zero exactly for
///     posted sizes;
///  I2 every head after the first was accepted only with a valid consistency proof from the head
///     before it, so by transitivity every posted root extends every earlier one;
///  I3 nothing posted is ever overwritten or removed (the final notice only marks the last head
///     closed);
///  I4 once the final notice is posted, nothing else is (no head, no second notice).
/// Storage: one slot of metadata per head (size, timestamp, block number, closed packed) plus one slot for
/// its root keyed by size, which is also the size → head lookup `verifyInclusion` needs. Two fresh
/// slots per post is the floor for 256 + 192 bits of new data.
contract AnchorRegistry is IAnchorRegistry, AccessControl {
    /// @notice The role allowed to post heads.
    bytes32 public constant KEEPER_ROLE = keccak256("KEEPER_ROLE");

    struct Head {
        uint64 treeSize;
        uint64 timestamp;
        uint64 blockNumber;
        // Set on the last head by the final notice: in the slot `post` reads anyway, so closing
        // costs later posts nothing (a separate flag would be a cold read on every post).
        bool closed;
    }

    Head[] private _heads;
    mapping(uint64 treeSize => bytes32 root) private _rootOf;
    /// @inheritdoc IAnchorRegistry
    bytes32 public finalNotice;

    constructor(address admin, address keeper) {
        if (admin == address(0) || keeper == address(0)) revert AnchorRegistryZeroAddress();
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(KEEPER_ROLE, keeper);
    }

    /// @inheritdoc IAnchorRegistry
    function post(
        uint64 treeSize,
        bytes32 root,
        bytes32[] calldata consistencyProof
    ) external onlyRole(KEEPER_ROLE) returns (uint256 index) {
        if (treeSize == 0) revert AnchorRegistryEmptyTree();
        if (root == bytes32(0)) revert AnchorRegistryZeroRoot();
        index = _heads.length;
        if (index == 0) {
            // From the empty tree every tree is consistent, and the proof is empty (RFC 9162).
            if (consistencyProof.length != 0) revert AnchorRegistryInconsistentHead(0, treeSize, root);
        } else {
            Head storage latestHead = _heads[index - 1];
            if (latestHead.closed) revert AnchorRegistryClosed(finalNotice);
            uint64 latestSize = latestHead.treeSize;
            bytes32 latestRoot = _rootOf[latestSize];
            if (treeSize == latestSize) {
                if (root == latestRoot) revert AnchorRegistryAlreadyPosted(index - 1, treeSize, root);
                revert AnchorRegistryConflictingRoot(treeSize, root, latestRoot);
            }
            if (treeSize < latestSize) revert AnchorRegistryTreeSizeDecreased(treeSize, latestSize);
            // The one check that makes the registry append-only: the new root must rebuild the
            // latest root from the proof, i.e. contain the latest tree as its prefix.
            if (!MerkleLog.verifyConsistency(latestSize, treeSize, latestRoot, root, consistencyProof)) {
                revert AnchorRegistryInconsistentHead(latestSize, treeSize, root);
            }
        }
        _heads.push(Head(treeSize, uint64(block.timestamp), uint64(block.number), false));
        _rootOf[treeSize] = root;
        emit Anchored(index, treeSize, root);
    }

    /// @inheritdoc IAnchorRegistry
    function postFinalNotice(bytes32 seal) external onlyRole(KEEPER_ROLE) {
        bytes32 posted = finalNotice;
        if (posted != bytes32(0)) revert AnchorRegistryClosed(posted);
        if (seal == bytes32(0)) revert AnchorRegistryZeroSeal();
        uint256 count = _heads.length;
        if (count == 0) revert AnchorRegistryNothingAnchored();
        finalNotice = seal;
        Head storage last = _heads[count - 1];
        last.closed = true;
        emit FinalNotice(seal, count - 1, last.treeSize);
    }

    /// @inheritdoc IAnchorRegistry
    function latest() external view returns (Anchor memory) {
        uint256 count = _heads.length;
        if (count == 0) revert AnchorRegistryIndexOutOfRange(0, 0);
        return _anchor(count - 1);
    }

    /// @inheritdoc IAnchorRegistry
    function anchorCount() external view returns (uint256) {
        return _heads.length;
    }

    /// @inheritdoc IAnchorRegistry
    function anchorAt(uint256 index) external view returns (Anchor memory) {
        uint256 count = _heads.length;
        if (index >= count) revert AnchorRegistryIndexOutOfRange(index, count);
        return _anchor(index);
    }

    /// @inheritdoc IAnchorRegistry
    function rootOf(uint64 treeSize) external view returns (bytes32) {
        return _rootOf[treeSize];
    }

    /// @inheritdoc IAnchorRegistry
    function indexOf(uint64 treeSize) external view returns (uint256) {
        if (_rootOf[treeSize] == bytes32(0)) revert AnchorRegistryUnknownTreeSize(treeSize);
        // Invariant I1 (sizes strictly increase) makes the heads sorted by size.
        uint256 low = 0;
        uint256 high = _heads.length - 1;
        while (low < high) {
            uint256 mid = (low + high) / 2;
            if (_heads[mid].treeSize < treeSize) low = mid + 1;
            else high = mid;
        }
        return low;
    }

    /// @inheritdoc IAnchorRegistry
    function verifyInclusion(
        bytes32 seal,
        uint64 leafIndex,
        uint64 treeSize,
        bytes32[] calldata proof
    ) external view returns (bool) {
        bytes32 root = _rootOf[treeSize];
        if (root == bytes32(0)) revert AnchorRegistryUnknownTreeSize(treeSize);
        return MerkleLog.verifyInclusion(seal, leafIndex, treeSize, proof, root);
    }

    function _anchor(uint256 index) private view returns (Anchor memory) {
        Head memory head = _heads[index];
        return Anchor(head.treeSize, _rootOf[head.treeSize], head.timestamp, head.blockNumber);
    }
}
