// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

// The receiving address of one invoice on an EVM network: a Forwarder at a CREATE2 address of the ForwarderFactory,
// known before anything is deployed (from the shop's payTo and the invoice's salt). A payer sends ether or a token
// there as to any address; once the shop counts the payment, its gas wallet calls the factory's `flush`, which deploys
// the forwarder if it is not there yet and moves everything it holds to payTo. Whatever reaches the address can only
// ever go to payTo (fixed in the forwarder and in its address): anyone may call `flush`, no key is held per invoice,
// and no funds rest on the server.

interface IERC20Balance {
    function balanceOf(address owner) external view returns (uint256);
}

contract Forwarder {
    /// Where everything this forwarder holds goes.
    address payable public immutable payTo;
    /// What has been flushed to payTo so far, per asset (address(0): ether): what it holds plus this is what it received.
    mapping(address => uint256) public flushed;

    event Flushed(address indexed asset, uint256 amount);

    constructor(address payable payTo_) {
        payTo = payTo_;
    }

    /// Ether arrives by any means (a plain transfer, a contract's call or `transfer` with its 2,300 gas).
    receive() external payable {}

    /// Moves all of each asset (address(0): ether) to payTo. Callable by anyone: the destination is fixed.
    function flush(address[] calldata assets) external {
        for (uint256 i = 0; i < assets.length; i++) {
            address asset = assets[i];
            if (asset == address(0)) {
                uint256 amount = address(this).balance;
                if (amount == 0) continue;
                flushed[asset] += amount;
                (bool ok, ) = payTo.call{value: amount}("");
                require(ok, "ether transfer to payTo failed");
                emit Flushed(asset, amount);
            } else {
                uint256 amount = IERC20Balance(asset).balanceOf(address(this));
                if (amount == 0) continue;
                flushed[asset] += amount;
                // transfer(address,uint256), accepting tokens that return nothing as those that return true.
                (bool ok, bytes memory data) = asset.call(abi.encodeWithSelector(0xa9059cbb, payTo, amount));
                require(ok && (data.length == 0 || abi.decode(data, (bool))), "token transfer to payTo failed");
                emit Flushed(asset, amount);
            }
        }
    }
}

contract ForwarderFactory {
    event Deployed(address indexed forwarder, address indexed payTo, bytes32 salt);

    /// The address of the forwarder to `payTo` under `salt`, deployed or not.
    function forwarderAddress(address payTo, bytes32 salt) public view returns (address) {
        bytes32 codeHash = keccak256(abi.encodePacked(type(Forwarder).creationCode, abi.encode(payTo)));
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), salt, codeHash)))));
    }

    /// Deploys the forwarder if it is not there yet, then moves all it holds of `assets` to payTo.
    function flush(address payable payTo, bytes32 salt, address[] calldata assets) external returns (address forwarder) {
        forwarder = forwarderAddress(payTo, salt);
        if (forwarder.code.length == 0) {
            new Forwarder{salt: salt}(payTo);
            emit Deployed(forwarder, payTo, salt);
        }
        Forwarder(payable(forwarder)).flush(assets);
    }

    /// What each forwarder holds of `asset` (address(0): ether) and what it has flushed to payTo (their sum is what it
    /// received), at the block of the call: one call reads many addresses.
    function holdings(address[] calldata forwarders, address asset) external view returns (uint256[] memory held, uint256[] memory flushed) {
        held = new uint256[](forwarders.length);
        flushed = new uint256[](forwarders.length);
        for (uint256 i = 0; i < forwarders.length; i++) {
            address f = forwarders[i];
            held[i] = asset == address(0) ? f.balance : IERC20Balance(asset).balanceOf(f);
            flushed[i] = f.code.length == 0 ? 0 : Forwarder(payable(f)).flushed(asset);
        }
    }
}
