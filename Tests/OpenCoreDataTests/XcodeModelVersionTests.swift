import Foundation
import OpenCoreData
import Testing

@Suite("Xcode model versions")
struct XcodeModelVersionTests {
    private func contents(_ entityBody: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22130" systemVersion="23A5257q" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Aircraft" representedClassName="Aircraft" syncable="YES" codeGenerationType="class">
                <attribute name="tailNumber" attributeType="String" defaultValueString="N0"/>
                \(entityBody)
            </entity>
            <composite name="ColorScheme">
                <attribute name="primary" optional="YES" attributeType="String"/>
                <attribute name="secondary" optional="YES" attributeType="String"/>
            </composite>
        </model>
        """
    }

    /// Writes `Flights.xcdatamodeld` with two versions, the second current.
    private func makeBundle(current: String?) throws -> URL {
        let bundle = FileManager.default.temporaryDirectory
            .appendingPathComponent("orchard-xcmodel-\(UUID().uuidString)/Flights.xcdatamodeld")
        let versions = [
            "Flights.xcdatamodel": contents(#"<attribute name="flightData" optional="YES" attributeType="Binary"/>"#),
            "Flights 2.xcdatamodel": contents(#"<attribute name="colorScheme" optional="YES" attributeType="Composite" composite="ColorScheme"/><attribute name="hours" attributeType="Double" defaultValueString="1.5" usesScalarValueType="YES"/>"#),
        ]
        for (name, text) in versions {
            let folder = bundle.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: folder.appendingPathComponent("contents"))
        }
        if let current {
            let plist = try PropertyListSerialization.data(fromPropertyList: ["_XCCurrentVersionName": current], format: .xml, options: 0)
            try plist.write(to: bundle.appendingPathComponent(".xccurrentversion"))
        }
        return bundle
    }

    @Test func currentVersionIsLoaded() throws {
        let bundle = try makeBundle(current: "Flights 2.xcdatamodel")
        let model = try NSManagedObjectModel.load(contentsOf: bundle)
        let aircraft = try #require(model.entitiesByName["Aircraft"])
        #expect(aircraft.attributesByName["flightData"] == nil)
        let scheme = try #require(aircraft.attributesByName["colorScheme"] as? NSCompositeAttributeDescription)
        #expect(scheme.elements.map(\.name) == ["primary", "secondary"])
        #expect(aircraft.attributesByName["hours"]?.defaultValue as? Double == 1.5)
        #expect(aircraft.attributesByName["tailNumber"]?.isOptional == false)
        #expect(model.versionIdentifiers == ["Flights 2"])
    }

    @Test func eachVersionLoadsOnItsOwnWithItsOwnChecksum() throws {
        let bundle = try makeBundle(current: "Flights 2.xcdatamodel")
        let v1 = try NSManagedObjectModel.load(contentsOf: bundle.appendingPathComponent("Flights.xcdatamodel"))
        let v2 = try NSManagedObjectModel.load(contentsOf: bundle.appendingPathComponent("Flights 2.xcdatamodel"))
        #expect(v1.entitiesByName["Aircraft"]?.attributesByName["flightData"]?.attributeType == .binaryDataAttributeType)
        #expect(v1.versionChecksum != v2.versionChecksum)
        // A checksum is base64 of a 32-byte digest, and loading the same file twice gives the same one.
        #expect(Data(base64Encoded: v1.versionChecksum)?.count == 32)
        #expect(try NSManagedObjectModel.load(contentsOf: bundle.appendingPathComponent("Flights.xcdatamodel")).versionChecksum == v1.versionChecksum)
        // A model built in code with the same entities has the same checksum as the one from the file.
        let aircraft = NSEntityDescription(name: "Aircraft")
        aircraft.managedObjectClassName = "Aircraft"
        aircraft.properties = [
            NSAttributeDescription(name: "flightData", type: .binaryDataAttributeType),
            NSAttributeDescription(name: "tailNumber", type: .stringAttributeType, optional: false, defaultValue: "N0"),
        ]
        let coded = NSManagedObjectModel()
        coded.entities = [aircraft]
        #expect(coded.versionChecksum == v1.versionChecksum)
    }

    @Test func ambiguousOrBrokenBundlesAreClearErrors() throws {
        let bundle = try makeBundle(current: nil)
        #expect {
            _ = try NSManagedObjectModel.load(contentsOf: bundle)
        } throws: { error in
            "\(error)".contains("2 versions") && "\(error)".contains("no .xccurrentversion")
        }
        let broken = bundle.appendingPathComponent("Flights.xcdatamodel/contents")
        try Data("<model><entity name=".utf8).write(to: broken)
        #expect {
            _ = try NSManagedObjectModel.load(contentsOf: broken.deletingLastPathComponent())
        } throws: { error in
            // libxml2 may recover part of a broken file; either way the error names the file.
            (error as NSError).code == NSFileReadCorruptFileError && "\(error)".contains("Flights.xcdatamodel/contents")
        }
    }
}
