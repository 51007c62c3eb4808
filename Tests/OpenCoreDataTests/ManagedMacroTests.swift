import Foundation
import OpenCoreData
import TestSupport
import Testing

/// Properties declared in an extension, as the seed declares its `@NSManaged` ones.
final class Runway: NSManagedObject {}

extension Runway {
    @Managed public var designator: String?
    @Managed var length: Int32
    @Managed var surface: [String: Any]?
}

/// `@Managed`, the macro that stands in for `@NSManaged`.
@Suite("The @Managed macro")
struct ManagedMacroTests {
    /// The compiler's errors for `body` (a class's members) with the package's macro plugin loaded.
    static func compilerErrors(_ body: String) async throws -> [String] {
        try await onOwnThread { try compilerErrorsBlocking(body) }
    }

    private static func compilerErrorsBlocking(_ body: String) throws -> [String] {
        let plugin = builtExecutable("OpenCoreDataMacros-tool")
        let source = FileManager.default.temporaryDirectory.appendingPathComponent("managed-\(UUID().uuidString).swift")
        try """
        @attached(accessor, names: named(get), named(set))
        @attached(peer, names: prefixed(_managed_))
        macro Managed() = #externalMacro(module: "OpenCoreDataMacros", type: "ManagedMacro")
        final class Thing {
        \(body)
        }
        """.write(to: source, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: source) }
        let compiler = Process()
        compiler.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        compiler.arguments = [
            "swiftc", "-typecheck", "-load-plugin-executable", "\(plugin.path)#OpenCoreDataMacros", source.path,
        ]
        let output = Pipe()
        compiler.standardError = output
        compiler.standardOutput = output
        try compiler.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        compiler.waitUntilExit()
        return text.split(separator: "\n").filter { $0.contains(": error: ") && $0.contains("(from macro") }.map(
            String.init)
    }

    @Test func misuseIsAnErrorThatSaysWhatIsWrong() async throws {
        let cases: [(String, String)] = [
            ("@Managed let name: String?", "@Managed applies to a 'var' property, like '@Managed var name: String?'"),
            (
                "@Managed var name = \"x\"",
                "@Managed property 'name' needs a type annotation, like '@Managed var name: String?'"
            ),
            (
                "@Managed var name: String? = nil",
                "@Managed property 'name' cannot have an initial value: set defaults in the entity's model or in awakeFromInsert()"
            ),
            ("@Managed static var name: String?", "@Managed property 'name' must be an instance property"),
        ]
        for (declaration, message) in cases {
            let errors = try await Self.compilerErrors(declaration)
            #expect(errors.count == 1 && errors[0].contains(message), "\(declaration): \(errors)")
        }
    }

    @Test func propertiesDeclaredInAnExtensionReadAndWriteTheObject() throws {
        let entity = NSEntityDescription(name: "Runway")
        entity.managedObjectClassName = NSStringFromClass(Runway.self)
        entity.properties = [
            NSAttributeDescription(name: "designator", type: .stringAttributeType),
            NSAttributeDescription(
                name: "length", type: .integer32AttributeType, optional: false, defaultValue: Int32(0)),
            NSCompositeAttributeDescription(
                name: "surface",
                elements: [
                    NSAttributeDescription(name: "material", type: .stringAttributeType),
                    NSAttributeDescription(name: "grooved", type: .booleanAttributeType),
                ]),
        ]
        let container = try Fixtures.container(model: Fixtures.model([entity]), inMemory: true)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let runway = Runway(context: context)
            #expect(runway.length == 0)
            runway.designator = "09L"
            runway.length = 3902
            runway.surface = ["material": "asphalt", "grooved": true]
            #expect(runway.value(forKey: "designator") as? String == "09L")
            #expect(runway.changedValues().count == 3)
            try context.save()
            context.reset()
            let fetched = try #require(try context.fetch(NSFetchRequest<Runway>(entityName: "Runway")).first)
            #expect(fetched.designator == "09L")
            #expect(fetched.length == 3902)
            #expect(fetched.surface?["material"] as? String == "asphalt")
            #expect(fetched.surface?["grooved"] as? Bool == true)
            fetched.designator = nil
            #expect(fetched.designator == nil)
            #expect(fetched.isUpdated)
        }
    }
}
