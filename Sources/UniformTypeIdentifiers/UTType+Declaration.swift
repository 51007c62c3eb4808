import Foundation

/// What is known of a type: its parents, its tags and its description. System declarations come from
/// ``UTType/systemTable``; an app's come from `UTType(exportedAs:)` / `UTType(importedAs:)`.
final class UTTypeDeclaration: Sendable {
    let identifier: String
    let parents: [String]
    let extensions: [String]
    let mimeTypes: [String]
    let description: String?
    let kind: Kind

    enum Kind: Sendable { case system, exported, imported, dynamic }

    init(
        _ identifier: String, parents: [String], extensions: [String] = [], mimeTypes: [String] = [],
        description: String? = nil, kind: Kind
    ) {
        self.identifier = identifier
        self.parents = parents
        self.extensions = extensions
        self.mimeTypes = mimeTypes
        self.description = description
        self.kind = kind
    }
}

/// Every declaration known to the process: the system's, then the app's, keyed by lowercased identifier.
/// Identifiers are case-insensitive, as on Apple's systems.
final class UTTypeRegistry: @unchecked Sendable {
    static let shared = UTTypeRegistry()

    // Guarded by `lock`: every access takes it.
    private let lock = NSLock()
    private var byIdentifier: [String: UTTypeDeclaration] = [:]

    private init() {
        for entry in UTType.systemTable {
            byIdentifier[entry.identifier.lowercased()] = entry
        }
    }

    func declaration(_ identifier: String) -> UTTypeDeclaration? {
        lock.lock()
        defer { lock.unlock() }
        return byIdentifier[identifier.lowercased()]
    }

    /// Records an app's declaration. A system type keeps its system declaration (an app cannot redefine
    /// `public.png`); a second declaration of an app type replaces the first.
    func declare(_ declaration: UTTypeDeclaration) -> UTTypeDeclaration {
        lock.lock()
        defer { lock.unlock() }
        let key = declaration.identifier.lowercased()
        if let existing = byIdentifier[key], existing.kind == .system { return existing }
        byIdentifier[key] = declaration
        return declaration
    }

    /// Declarations that carry a tag, system types first, then in identifier order.
    func declarations(withTag tag: String, tagClass: UTTagClass) -> [UTTypeDeclaration] {
        lock.lock()
        let all = Array(byIdentifier.values)
        lock.unlock()
        let wanted = tag.lowercased()
        return all.filter { d in
            switch tagClass {
            case .filenameExtension: return d.extensions.contains { $0.lowercased() == wanted }
            case .mimeType: return d.mimeTypes.contains { $0.lowercased() == wanted }
            default: return false
            }
        }
        .sorted { ($0.kind == .system ? 0 : 1, $0.identifier) < ($1.kind == .system ? 0 : 1, $1.identifier) }
    }
}
