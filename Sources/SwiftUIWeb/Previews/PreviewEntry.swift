import Foundation

/// The layout of a `#Preview` record in the binary's `swift5_tests` section: Swift Testing's test content record
/// (kind, reserved, accessor, context, reserved), with a kind of our own, so Swift Testing passes over it and the
/// gallery finds it. Used by the code `#Preview` expands to; not for use by hand.
public typealias _PreviewRecord = (
    kind: UInt32, reserved1: UInt32,
    accessor: @convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer, UnsafeRawPointer?, UInt) -> Bool,
    context: UInt, reserved2: UInt
)

/// The kind of a `#Preview` record: "prev" as four ASCII bytes (Swift Testing uses "test" and "exit").
let previewRecordKind: UInt32 = 0x7072_6576

/// One `#Preview`, as its record's accessor makes it. Used by the code `#Preview` expands to.
public struct _PreviewEntry: Sendable {
    /// The name given to `#Preview` (`nil`: none).
    let name: String?
    /// Where the `#Preview` is (`Module/File.swift`).
    let fileID: String
    /// Its line.
    let line: Int
    /// Its traits, made when the gallery shows it (a ``PreviewModifier`` is main-actor bound).
    let traits: @MainActor @Sendable () -> [PreviewTrait<Preview.ViewTraits>]
    /// Its content.
    let body: @MainActor @Sendable () -> any View

    /// Writes the entry to `entry`, which the caller allocated for a `_PreviewEntry`, when `type` says so (the
    /// metadata of `_PreviewEntry`); returns whether it wrote one.
    public static func make(
        at entry: UnsafeMutableRawPointer, type: UnsafeRawPointer, name: String?,
        traits: @escaping @MainActor @Sendable () -> [PreviewTrait<Preview.ViewTraits>],
        fileID: String, line: Int, @ViewBuilder body: @escaping @MainActor @Sendable () -> any View
    ) -> Bool {
        RuntimeRecords._UnsafeHandle.store(
            _PreviewEntry(name: name, fileID: fileID, line: line, traits: traits, body: body), at: entry, ifType: type)
    }
}
