import Foundation

/// Every preview in the app: its `#Preview`s and its ``PreviewProvider`` types, found once.
@MainActor
enum PreviewCatalog {
    /// One preview in the gallery.
    struct Item: Identifiable {
        /// `File.swift:line` for a `#Preview`, the type's name for a provider.
        let id: String
        /// The name shown in the list.
        let title: String
        /// Where it is declared (`Module/File.swift:12`, or `Module.TypeName`).
        let location: String
        let traits: @MainActor () -> [PreviewTrait<Preview.ViewTraits>]
        let body: @MainActor () -> any View
    }

    /// The app's previews, by where they are declared.
    static let items: [Item] = {
        var items: [Item] = []
        var unnamed: [String: Int] = [:]
        for entry in RuntimeRecords.previewEntries().sorted(by: { ($0.fileID, $0.line) < ($1.fileID, $1.line) }) {
            let file = entry.fileID.split(separator: "/").last.map(String.init) ?? entry.fileID
            let title: String
            if let name = entry.name {
                title = name
            } else {
                let index = unnamed[file, default: 0] + 1
                unnamed[file] = index
                title = file.replacingOccurrences(of: ".swift", with: "") + (index > 1 ? " \(index)" : "")
            }
            items.append(
                Item(
                    id: "\(entry.fileID):\(entry.line)", title: title, location: "\(entry.fileID):\(entry.line)",
                    traits: entry.traits, body: entry.body))
        }
        let providers = RuntimeRecords.types(conformingTo: "PreviewProvider", inModule: "SwiftUIWeb")
            .compactMap { $0 as? any PreviewProvider.Type }
            .sorted { String(reflecting: $0) < String(reflecting: $1) }
        for provider in providers {
            let name = String(describing: provider)
            let title = name.hasSuffix("_Previews") ? String(name.dropLast("_Previews".count)) : name
            items.append(
                Item(
                    id: String(reflecting: provider), title: title, location: String(reflecting: provider),
                    traits: { [] }, body: previews(of: provider)))
        }
        return items
    }()

    /// A provider's previews, made when shown.
    private static func previews<P: PreviewProvider>(of provider: P.Type) -> @MainActor () -> any View {
        { P.previews }
    }
}
