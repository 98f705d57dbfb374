// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {ICallLedger} from "../interfaces/ICallLedger.sol";

/// @title CallLedgerProbe
/// @notice Reads everything the model-based test checks after each step in one call (tests only).
contract CallLedgerProbe {
    /// @notice The ledger's token balance, the records of `agents`, and the consensus-log length.
    function snapshot(
        ICallLedger ledger,
        address[] calldata agents
    )
        external
        view
        returns (uint256 balance, ICallLedger.AgentRecord[] memory records, uint256 consensusCount)
    {
        balance = IERC20(ledger.usdg()).balanceOf(address(ledger));
        records = new ICallLedger.AgentRecord[](agents.length);
        for (uint256 i = 0; i < agents.length; i++) {
            records[i] = ledger.record(agents[i]);
        }
        consensusCount = ledger.consensusCount();
    }
}
