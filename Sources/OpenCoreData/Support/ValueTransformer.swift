import Foundation

/// The name under which a value transformer is registered.
public struct NSValueTransformerName: RawRepresentable, Hashable, Sendable {
    /// The name.
    public let rawValue: String
    /// Creates a name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Creates a name.
    public init(_ rawValue: String) { self.rawValue = rawValue }
}

/// Foundation's ValueTransformer, which Linux's Foundation lacks: converts values for transformable
/// attributes. Subclass it, override `transformedValue(_:)` (value → `Data`) and
/// `reverseTransformedValue(_:)`, and register it with `setValueTransformer(_:forName:)`.
open class ValueTransformer: NSObject, @unchecked Sendable {
    private static let registry = Locked<[NSValueTransformerName: ValueTransformer]>([:])

    /// Creates a transformer.
    public override init() { super.init() }

    /// Registers a transformer under a name (nil removes it).
    open class func setValueTransformer(_ transformer: ValueTransformer?, forName name: NSValueTransformerName) {
        registry.withLock { $0[name] = transformer }
    }

    /// The transformer registered under a name.
    public convenience init?(forName name: NSValueTransformerName) {
        guard ValueTransformer.registry.withLock({ $0[name] }) != nil else { return nil }
        self.init()
        self.lookupName = name
    }

    private var lookupName: NSValueTransformerName?

    static func registered(forName name: NSValueTransformerName) -> ValueTransformer? {
        registry.withLock { $0[name] }
    }

    /// The registered names.
    open class func valueTransformerNames() -> [NSValueTransformerName] {
        registry.withLock { Array($0.keys) }
    }

    /// Whether the transformer can reverse its transformation.
    open class func allowsReverseTransformation() -> Bool { true }

    /// Transforms a value (for a transformable attribute: into `Data`).
    open func transformedValue(_ value: Any?) -> Any? {
        if let name = lookupName, let target = ValueTransformer.registry.withLock({ $0[name] }) {
            return target.transformedValue(value)
        }
        return value
    }

    /// Reverses the transformation.
    open func reverseTransformedValue(_ value: Any?) -> Any? {
        if let name = lookupName, let target = ValueTransformer.registry.withLock({ $0[name] }) {
            return target.reverseTransformedValue(value)
        }
        return value
    }
}
