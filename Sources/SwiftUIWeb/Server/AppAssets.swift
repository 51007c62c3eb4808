import Foundation
import UniformTypeIdentifiers

/// Finds the app's named images (`Image("name")`): in an asset catalog (`Assets.xcassets/<name>.imageset/`,
/// the file its `Contents.json` names) or as a plain image file `<name>.<ext>`, in the folders the app's
/// resources are in: `SWIFTUIWEB_ASSETS`, the SwiftPM resource bundles next to the executable
/// (`<Package>_<Target>.resources/`), and the current directory.
struct AppAssets: Sendable {
    let folders: [URL]

    init(folders: [URL]) { self.folders = folders }

    /// The usual folders for this process.
    static func standard() -> AppAssets {
        var folders: [URL] = []
        if let env = ProcessInfo.processInfo.environment["SWIFTUIWEB_ASSETS"] {
            folders.append(URL(fileURLWithPath: env))
        }
        let executableFolder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // A missing or unreadable folder has no resources to offer.
        let siblings = (try? FileManager.default.contentsOfDirectory(atPath: executableFolder.path)) ?? []
        for name in siblings.sorted() where name.hasSuffix(".resources") {
            folders.append(executableFolder.appendingPathComponent(name))
        }
        folders.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        return AppAssets(folders: folders)
    }

    /// The image file for a name, and its MIME type; `nil` when there is none (or the name is not a plain
    /// name: no folders, no dot files).
    func image(named name: String) -> (url: URL, mimeType: String)? {
        guard !name.isEmpty, !name.contains("/"), !name.hasPrefix("."), !name.contains("\0") else { return nil }
        for folder in folders {
            for catalog in [folder.appendingPathComponent("Assets.xcassets"), folder] {
                let imageSet = catalog.appendingPathComponent(name + ".imageset")
                if let file = AppAssets.fileInImageSet(imageSet), let found = AppAssets.typed(file) { return found }
            }
            if let files = try? FileManager.default.contentsOfDirectory(atPath: folder.path) {  // Unreadable: nothing here.
                for file in files.sorted() where (file as NSString).deletingPathExtension == name {
                    if let found = AppAssets.typed(folder.appendingPathComponent(file)) { return found }
                }
            }
        }
        return nil
    }

    private struct Contents: Decodable {
        struct Image: Decodable { let filename: String? }
        let images: [Image]
    }

    private static func fileInImageSet(_ imageSet: URL) -> URL? {
        let json = imageSet.appendingPathComponent("Contents.json")
        guard let data = FileManager.default.contents(atPath: json.path),
            let contents = try? JSONDecoder().decode(Contents.self, from: data)  // A malformed catalog entry has no image.
        else { return nil }
        for name in contents.images.compactMap(\.filename) where !name.contains("/") && !name.hasPrefix(".") {
            let url = imageSet.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: url.path) { return url }
        }
        return nil
    }

    private static func typed(_ url: URL) -> (URL, String)? {
        guard let type = UTType(filenameExtension: url.pathExtension), type.conforms(to: .image),
            let mime = type.preferredMIMEType
        else {
            return nil
        }
        return (url, mime)
    }
}
