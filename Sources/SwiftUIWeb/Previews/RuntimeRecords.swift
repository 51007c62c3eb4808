import Foundation
import SwiftShims
import Synchronization

/// Finds what the compiler recorded in the app's binary: `#Preview` records (in `swift5_tests`) and the types
/// that conform to a protocol (in `swift5_protocol_conformances`), through the Swift runtime's list of every
/// loaded image's metadata sections. The reading of raw memory is all in ``_UnsafeHandle``.
enum RuntimeRecords {
    /// Every `#Preview` in the loaded images.
    static func previewEntries() -> [_PreviewEntry] {
        var entries: [_PreviewEntry] = []
        for sections in _UnsafeHandle.allSections() where sections.version >= 5 {
            let range = sections.swift5_tests
            entries += _UnsafeHandle.previewEntries(start: range.start, length: range.length)
        }
        return entries
    }

    /// The non-generic types, in any loaded image, that conform to the protocol `name` declared in `module`.
    static func types(conformingTo name: String, inModule module: String) -> [Any.Type] {
        var types: [Any.Type] = []
        for sections in _UnsafeHandle.allSections() {
            let range = sections.swift5_protocol_conformances
            types += _UnsafeHandle.conformingTypes(
                start: range.start, length: range.length, protocolName: name, module: module)
        }
        return types
    }

    /// Reads the runtime's records. Every read follows the layouts of the Swift ABI (docs/ABI/TypeMetadata.rst
    /// and the runtime's MetadataSections.h); the addresses come from the runtime itself, never from input.
    struct _UnsafeHandle {
        let base: UnsafeRawPointer

        /// The address of a type's metadata, as a record's accessor receives it.
        static func metadataPointer(of type: Any.Type) -> UnsafeRawPointer {
            // Safe because a metatype's bits are its metadata's address (the runtime's own representation).
            unsafeBitCast(type, to: UnsafeRawPointer.self)
        }

        /// Writes `entry` to `slot` when `type` is `_PreviewEntry`'s metadata (the reader's way of saying what the
        /// slot is for); returns whether it wrote.
        static func store(
            _ entry: _PreviewEntry, at slot: UnsafeMutableRawPointer, ifType type: UnsafeRawPointer
        ) -> Bool {
            guard type == metadataPointer(of: _PreviewEntry.self) else { return false }
            // Safe because the reader allocated `slot` for one uninitialized `_PreviewEntry`, as `type` says.
            slot.initializeMemory(as: _PreviewEntry.self, repeating: entry, count: 1)
            return true
        }

        /// The metadata sections of every image the runtime knows.
        static func allSections() -> [MetadataSections] {
            var found: [MetadataSections] = []
            withUnsafeMutablePointer(to: &found) { list in
                swift_enumerateAllMetadataSections(
                    { sections, context in
                        // Safe because the runtime passes a valid MetadataSections for the call's duration, and
                        // `context` is the array above, alive for the whole enumeration.
                        context!.assumingMemoryBound(to: [MetadataSections].self).pointee.append(
                            sections.assumingMemoryBound(to: MetadataSections.self).pointee)
                        return true
                    }, list)
            }
            return found
        }

        /// The target of the 32-bit relative pointer at `offset`.
        func relative(_ offset: Int) -> UnsafeRawPointer {
            // Safe because the field lies inside a record the compiler emitted; its value is an offset from itself.
            let field = base + offset
            return field + Int(field.loadUnaligned(as: Int32.self))
        }

        /// The target of the relative pointer at `offset` that may be indirect (its low bit set: it points to a
        /// pointer to the target); `nil` when null.
        func indirectable(_ offset: Int) -> UnsafeRawPointer? {
            // Safe because the field lies inside a record the compiler emitted.
            let value = Int(base.loadUnaligned(fromByteOffset: offset, as: Int32.self))
            guard value != 0 else { return nil }
            let target = base + offset + (value & ~1)
            // Safe because an indirect target is a pointer-sized slot the dynamic linker filled in.
            return value & 1 == 1 ? target.load(as: UnsafeRawPointer?.self) : target
        }

        /// A context descriptor's name (flags, parent, then the name's relative pointer).
        var contextName: String {
            // Safe because every context descriptor stores a relative pointer to a NUL-terminated name at 8.
            String(cString: relative(8).assumingMemoryBound(to: CChar.self))
        }

        /// A context descriptor's parent (a module, for a top-level declaration).
        var parent: _UnsafeHandle? { indirectable(4).map(_UnsafeHandle.init) }

        /// The `#Preview` records among `length` bytes of Swift Testing records at `start`.
        static func previewEntries(start: UInt, length: Int) -> [_PreviewEntry] {
            guard let first = UnsafeRawPointer(bitPattern: start) else { return [] }
            let size = MemoryLayout<_PreviewRecord>.stride
            var entries: [_PreviewEntry] = []
            let type = metadataPointer(of: _PreviewEntry.self)
            for offset in stride(from: 0, to: length - size + 1, by: size) {
                // Safe because the section is an array of records of this layout (Swift Testing's, which
                // `#Preview` writes too), and `offset` stays inside it.
                let record = (first + offset).load(as: _PreviewRecord.self)
                guard record.kind == previewRecordKind else { continue }
                // Safe because the accessor initializes this memory (or reports that it did not), and it is
                // moved out or freed below either way.
                let slot = UnsafeMutablePointer<_PreviewEntry>.allocate(capacity: 1)
                slotsAllocated.add(1, ordering: .relaxed)
                if record.accessor(UnsafeMutableRawPointer(slot), type, nil, 0) {
                    entries.append(slot.move())  // Safe because the accessor said it initialized the slot.
                }
                slot.deallocate()  // Safe because the slot holds no value now (moved out, or never written).
                slotsFreed.add(1, ordering: .relaxed)
            }
            return entries
        }

        /// Slots `previewEntries` allocated (for the lifetime test).
        static let slotsAllocated = Atomic<Int>(0)
        /// Slots `previewEntries` freed (for the lifetime test).
        static let slotsFreed = Atomic<Int>(0)

        /// The non-generic types whose conformance records among `length` bytes at `start` name the protocol.
        static func conformingTypes(start: UInt, length: Int, protocolName: String, module: String) -> [Any.Type] {
            guard let first = UnsafeRawPointer(bitPattern: start) else { return [] }
            var types: [Any.Type] = []
            for offset in stride(from: 0, to: length, by: 4) {
                // Safe because the section is an array of 32-bit relative pointers to conformance descriptors.
                let conformance = _UnsafeHandle(base: first).relative(offset)
                let descriptor = _UnsafeHandle(base: conformance)
                guard let proto = descriptor.indirectable(0).map(_UnsafeHandle.init),
                    proto.contextName == protocolName, proto.parent?.contextName == module
                else { continue }
                // Safe because a conformance descriptor's flags are at 12: the type reference's kind in bits 3-5.
                let flags = conformance.loadUnaligned(fromByteOffset: 12, as: UInt32.self)
                let typeDescriptor: UnsafeRawPointer?
                switch (flags >> 3) & 7 {
                case 0: typeDescriptor = descriptor.relative(4)  // a direct type descriptor
                // Safe because an indirect reference points to a pointer-sized slot holding the descriptor.
                case 1: typeDescriptor = descriptor.relative(4).load(as: UnsafeRawPointer?.self)
                default: continue  // an Objective-C class: none on Linux
                }
                guard let typeDescriptor, let type = metadata(of: typeDescriptor) else { continue }
                types.append(type)
            }
            return types
        }

        /// The metadata of a non-generic type, from its descriptor's access function (`nil` for a generic type).
        static func metadata(of typeDescriptor: UnsafeRawPointer) -> Any.Type? {
            // Safe because a type context descriptor starts with its flags; 0x80 marks a generic type.
            let flags = typeDescriptor.loadUnaligned(as: UInt32.self)
            guard flags & 0x80 == 0, (16...18).contains(flags & 0x1F) else { return nil }  // class, struct, enum
            typealias Accessor = @convention(c) (Int) -> UnsafeRawPointer?
            // Safe because a non-generic type's access function takes a metadata request (0: complete, blocking)
            // in the first argument register and returns the metadata in the first result register, as a C
            // function with this signature does on the platforms Swift supports on Linux (x86-64, arm64).
            let access = unsafeBitCast(_UnsafeHandle(base: typeDescriptor).relative(12), to: Accessor.self)
            // Safe because the access function returns the type's metadata, which is an `Any.Type`'s bits.
            return access(0).map { unsafeBitCast($0, to: Any.Type.self) }
        }
    }
}

/// The runtime's list of loaded images' metadata sections (exported by libswiftCore, declared in its
/// MetadataSections.h). Only `RuntimeRecords._UnsafeHandle.allSections()` calls it.
@_silgen_name("swift_enumerateAllMetadataSections")
private func swift_enumerateAllMetadataSections(
    _ body: @convention(c) (UnsafeRawPointer, UnsafeMutableRawPointer?) -> Bool,
    _ context: UnsafeMutableRawPointer?
)
