// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

// TestSmartWallet: a minimal EIP-1271 smart-contract wallet FOR TESTS ONLY (never deploy it anywhere that matters).
// It holds nothing and executes nothing; it only answers isValidSignature for one owner key, so that sign-in with
// a contract wallet (viem publicClient.verifyMessage -> ERC-6492 validator -> isValidSignature) can be exercised
// against a real chain.
//
// The runtime code has no constructor and no immutables, so it can be placed anywhere with anvil_setCode.
//
// Storage layout:
//   slot 0: owner  address; set it with anvil_setStorageAt(wallet, 0x0, <owner left-padded to 32 bytes>)
contract TestSmartWallet {
    address public owner;

    // bytes4(keccak256("isValidSignature(bytes32,bytes)"))
    bytes4 internal constant MAGIC_VALUE = 0x1626ba7e;
    bytes4 internal constant INVALID = 0xffffffff;

    // EIP-1271: MAGIC_VALUE when `signature` is the owner's 65-byte (r, s, v) ECDSA signature of `hash`, else
    // 0xffffffff. v may be 27/28 or 0/1. No EIP-2 low-s check (ecrecover accepts both forms; fine for tests).
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return INVALID;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (v < 27) v += 27;
        address signer = ecrecover(hash, v, r, s);
        // ecrecover answers address(0) for a malformed signature: never let that match an unset owner.
        if (signer == address(0) || signer != owner) return INVALID;
        return MAGIC_VALUE;
    }
}
