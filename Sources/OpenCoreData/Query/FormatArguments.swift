import Foundation

// On Apple platforms any object or bridgeable value can be passed to `NSPredicate(format:_:)` as a `CVarArg`
// (Swift bridges it to an Objective-C object). Linux has no such bridging, so Orchard declares the
// conformances itself: these exist to carry values into predicate format strings (`%@`), where the parser
// reads the Swift value back. Their C encoding is a placeholder and must not be used with C `printf`.

/// Placeholder C encoding for values that only travel to the predicate parser.
private let predicateArgumentEncoding: [Int] = [0]

extension NSObject: @retroactive CVarArg {
    /// The object's address, as Apple's platforms encode objects for `%@`.
    public var _cVarArgEncoding: [Int] { [Int(bitPattern: UInt(bitPattern: ObjectIdentifier(self).hashValue))] }
}
extension Array: @retroactive CVarArg {
    /// Placeholder encoding: arrays are read back by the predicate parser (`IN %@`, `BETWEEN %@`).
    public var _cVarArgEncoding: [Int] { predicateArgumentEncoding }
}
extension Set: @retroactive CVarArg {
    /// Placeholder encoding: sets are read back by the predicate parser (`IN %@`).
    public var _cVarArgEncoding: [Int] { predicateArgumentEncoding }
}
extension Date: @retroactive CVarArg {
    /// Placeholder encoding: dates are read back by the predicate parser.
    public var _cVarArgEncoding: [Int] { predicateArgumentEncoding }
}
extension UUID: @retroactive CVarArg {
    /// Placeholder encoding: UUIDs are read back by the predicate parser.
    public var _cVarArgEncoding: [Int] { predicateArgumentEncoding }
}
extension URL: @retroactive CVarArg {
    /// Placeholder encoding: URLs are read back by the predicate parser.
    public var _cVarArgEncoding: [Int] { predicateArgumentEncoding }
}
extension Data: @retroactive CVarArg {
    /// Placeholder encoding: data values are read back by the predicate parser.
    public var _cVarArgEncoding: [Int] { predicateArgumentEncoding }
}
extension Decimal: @retroactive CVarArg {
    /// Placeholder encoding: decimals are read back by the predicate parser.
    public var _cVarArgEncoding: [Int] { predicateArgumentEncoding }
}
