import Foundation

/// A uniform type identifier: what kind of data a file or a piece of data holds (`public.png`,
/// `public.plain-text`, an app's own `com.example.shapes`), with its filename extensions, MIME types and
/// the types it conforms to.
///
/// On Apple's systems an app's exported and imported types are declared in its Info.plist. Linux has no
/// such registry, so here `UTType(exportedAs:conformingTo:)` and `UTType(importedAs:conformingTo:)`
/// declare the type for the process when they run. A type declared without a filename extension (the
/// Info.plist would have given one) uses the last component of its identifier as its extension
/// (`com.example.ShapeEdit.shapes` → `shapes`), so documents of that type can still be saved as files.
public struct UTType: Hashable, Sendable, Codable, CustomStringConvertible, CustomDebugStringConvertible {
    let declaration: UTTypeDeclaration

    init(declaration: UTTypeDeclaration) { self.declaration = declaration }

    /// The type with this identifier, if the system or the app declared it (`nil` otherwise).
    public init?(_ identifier: String) {
        guard let declaration = UTTypeRegistry.shared.declaration(identifier) else { return nil }
        self.declaration = declaration
    }

    /// Declares a type the app owns (exports), conforming to `parentType` (`.data` when `nil`), and returns it.
    public init(exportedAs identifier: String, conformingTo parentType: UTType? = nil) {
        self.init(declaring: identifier, conformingTo: parentType, kind: .exported)
    }

    /// Declares a type another app owns, which this app reads or writes (imports), and returns it.
    public init(importedAs identifier: String, conformingTo parentType: UTType? = nil) {
        self.init(declaring: identifier, conformingTo: parentType, kind: .imported)
    }

    private init(declaring identifier: String, conformingTo parentType: UTType?, kind: UTTypeDeclaration.Kind) {
        let lastComponent = identifier.split(separator: ".").last.map(String.init)?.lowercased()
        let extensions = lastComponent.map { [$0] } ?? []
        let declaration = UTTypeDeclaration(
            identifier, parents: [(parentType ?? .data).identifier], extensions: extensions, kind: kind)
        self.declaration = UTTypeRegistry.shared.declare(declaration)
    }

    /// The type for a filename extension (without its dot) that conforms to `supertype`. An extension no
    /// declared type has gives a dynamic type; an extension whose types don't conform gives `nil`.
    public init?(filenameExtension: String, conformingTo supertype: UTType = .data) {
        self.init(tag: filenameExtension, tagClass: .filenameExtension, conformingTo: supertype)
    }

    /// The type for a MIME type that conforms to `supertype` (dynamic when no declared type has it).
    public init?(mimeType: String, conformingTo supertype: UTType = .data) {
        self.init(tag: mimeType, tagClass: .mimeType, conformingTo: supertype)
    }

    /// The type for a tag of a tag class that conforms to `supertype`, if any.
    public init?(tag: String, tagClass: UTTagClass, conformingTo supertype: UTType?) {
        let candidates = UTTypeRegistry.shared.declarations(withTag: tag, tagClass: tagClass).map(UTType.init)
        if !candidates.isEmpty {
            guard let match = candidates.first(where: { supertype == nil || $0.conforms(to: supertype!) }) else {
                return nil
            }
            self = match
            return
        }
        guard tagClass == .filenameExtension || tagClass == .mimeType, !tag.isEmpty else { return nil }
        let parent = supertype ?? .data
        // Not Apple's encoded `dyn.a…` form: a readable one, also unique per tag and parent.
        let prefix = tagClass == .filenameExtension ? "dyn.ext." : "dyn.mime."
        let identifier = prefix + tag.lowercased() + "." + parent.identifier
        let declaration = UTTypeDeclaration(
            identifier, parents: [parent.identifier],
            extensions: tagClass == .filenameExtension ? [tag.lowercased()] : [],
            mimeTypes: tagClass == .mimeType ? [tag.lowercased()] : [], kind: .dynamic)
        self.declaration = UTTypeRegistry.shared.declare(declaration)
    }

    /// Every declared type carrying a tag that conforms to `supertype`.
    public static func types(tag: String, tagClass: UTTagClass, conformingTo supertype: UTType?) -> [UTType] {
        UTTypeRegistry.shared.declarations(withTag: tag, tagClass: tagClass).map(UTType.init)
            .filter { supertype == nil || $0.conforms(to: supertype!) }
    }

    /// The identifier, such as `public.png`.
    public var identifier: String { declaration.identifier }
    /// The preferred filename extension, without its dot.
    public var preferredFilenameExtension: String? { declaration.extensions.first }
    /// The preferred MIME type.
    public var preferredMIMEType: String? { declaration.mimeTypes.first }
    /// Every tag of the type, by class.
    public var tags: [UTTagClass: [String]] {
        var tags: [UTTagClass: [String]] = [:]
        if !declaration.extensions.isEmpty { tags[.filenameExtension] = declaration.extensions }
        if !declaration.mimeTypes.isEmpty { tags[.mimeType] = declaration.mimeTypes }
        return tags
    }
    /// A description for people, such as "PNG image" (the identifier for app types without one).
    public var localizedDescription: String? { declaration.description ?? (isDynamic ? nil : identifier) }
    /// The version of the declaration (always `nil`: declarations here carry none).
    public var version: Int? { nil }
    /// Whether the type was declared (by the system or the app) rather than made up for a tag.
    public var isDeclared: Bool { declaration.kind != .dynamic }
    /// Whether the type was made up for a tag no declared type has.
    public var isDynamic: Bool { declaration.kind == .dynamic }
    /// Whether the type is one of the system's.
    public var isSystemDeclared: Bool { declaration.kind == .system }
    /// Whether the identifier is in the reserved `public.` domain.
    public var isPublic: Bool { identifier.lowercased().hasPrefix("public.") }
    /// The reference URL of the type's documentation (never set here).
    public var referenceURL: URL? { nil }

    /// The types this type conforms to, directly or not (not including itself).
    public var supertypes: Set<UTType> {
        var result: Set<UTType> = []
        var queue = declaration.parents
        while let next = queue.popLast() {
            guard let parent = UTType(next), result.insert(parent).inserted else { continue }
            queue += parent.declaration.parents
        }
        return result
    }

    /// Whether the type is `type` or conforms to it.
    public func conforms(to type: UTType) -> Bool { self == type || supertypes.contains(type) }
    /// Whether `type` conforms to this type and is not this type.
    public func isSupertype(of type: UTType) -> Bool { self != type && type.conforms(to: self) }
    /// Whether this type conforms to `type` and is not `type`.
    public func isSubtype(of type: UTType) -> Bool { self != type && conforms(to: type) }

    /// Types are equal when their identifiers are (case-insensitively).
    public static func == (lhs: UTType, rhs: UTType) -> Bool {
        lhs.identifier.lowercased() == rhs.identifier.lowercased()
    }
    /// Hashes the lowercased identifier.
    public func hash(into hasher: inout Hasher) { hasher.combine(identifier.lowercased()) }
    /// The identifier.
    public var description: String { identifier }
    /// The identifier, with its kind.
    public var debugDescription: String { "<UTType \(identifier)\(isDynamic ? " (dynamic)" : "")>" }

    /// Encodes the identifier.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(identifier)
    }

    /// Decodes an identifier; one that no declaration has is an error naming it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let identifier = try container.decode(String.self)
        guard let type = UTType(identifier) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "no type is declared with the identifier \(identifier)")
        }
        self = type
    }
}

extension URL {
    /// Appends a path component, adding the type's preferred filename extension.
    public func appendingPathComponent(_ partialName: String, conformingTo contentType: UTType) -> URL {
        let url = appendingPathComponent(partialName)
        guard let ext = contentType.preferredFilenameExtension else { return url }
        return url.appendingPathExtension(ext)
    }

    /// Appends the type's preferred filename extension.
    public func appendingPathExtension(for contentType: UTType) -> URL {
        guard let ext = contentType.preferredFilenameExtension else { return self }
        return appendingPathExtension(ext)
    }
}
