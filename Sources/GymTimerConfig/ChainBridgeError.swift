/// An input a chain's bridge (`ChainBridge`) or its central ACL (`ChainCentreACL`) cannot be
/// written from: which one, and what to give instead.
public struct ChainBridgeError: Error, Hashable, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}
