import Foundation

/// Casts between two generic types that are the same type: the one place `@Managed`'s typed accessors
/// and typed fetches reinterpret a value. The type test folds away when the caller is specialized, so a
/// read of a `String` property as `String` costs no dynamic cast.
@usableFromInline
enum TypeIdentity {
    /// `value` as a `T` when `T` is exactly `V`; nil otherwise.
    @inlinable @inline(__always)
    static func cast<V, T>(_ value: V, to: T.Type) -> T? {
        guard T.self == V.self else { return nil }
        // Safe because T and V were just checked to be the same type: the bits are a T's.
        return unsafeBitCast(value, to: T.self)
    }
}

/// What the standard library's `String` layout says about a string's storage: one fact, read from the
/// string's own bits, that lets a row block skip destroying strings that hold no reference.
@usableFromInline
enum StringLayout {
    /// Whether `string` is one the runtime keeps no reference count for (a small string, held in its own
    /// bits, or a literal), so that destroying it does nothing. On 64-bit platforms that is bit 63 of the
    /// string's object word ("isImmortal" in the standard library's `_StringObject`); elsewhere this
    /// answers false, and such strings are destroyed as any other.
    @inline(__always)
    static func isImmortal(_ string: String) -> Bool {
        #if _pointerBitWidth(_64)
            // Safe because a String is two words on 64-bit platforms (its size is checked by StringLayoutTests);
            // the bits are only read, never used as a pointer.
            return unsafeBitCast(string, to: (UInt64, UInt64).self).1 & (1 << 63) != 0
        #else
            return false
        #endif
    }
}
