import OpenCoreData

/// The specimens the probe writes, and a canonical text dump of a store's contents.
enum ProbeData {
    /// Writes specimens with extreme and ordinary values of every attribute type.
    static func write(into context: NSManagedObjectContext) throws {
        let reference = Date(timeIntervalSinceReferenceDate: 786_000_000.123456)
        let rows: [(String, Int16, Int32, Int64, String, Double, Float, Bool)] = [
            ("alpha", .min, .max, .min, "19.99", .pi, .greatestFiniteMagnitude, true),
            ("beta", .max, .min, .max, "-0.000123", -0.0, -1.5e-30, false),
            ("gamma ünïcödé 🛩", 0, 7, 1 << 53, "1000000", 1e308, 3.25, true),
        ]
        for (index, row) in rows.enumerated() {
            let specimen = Specimen(context: context)
            specimen.name = row.0
            specimen.int16 = row.1
            specimen.int32 = row.2
            specimen.int64 = row.3
            specimen.decimal = Decimal(string: row.4)
            specimen.double = row.5
            specimen.float = row.6
            specimen.flag = row.7
            specimen.date = reference.addingTimeInterval(Double(index) * 86_400.5)
            specimen.blob = Data((0..<(index * 700)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            specimen.uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5\(index)")
            specimen.uri = URL(string: "https://example.org/specimens/\(index)?q=a%20b#frag")
            specimen.tags = ["t\(index)", "shared", "ü"]
            specimen.placement = ["shelf": "S\(index)", "row": Int32(index * 10),
                                  "position": ["x": Double(index) + 0.25, "y": -Double(index), "checked": reference]]
            for label in ["first", "second", "third"].prefix(index + 1) {
                let part = Part(context: context)
                part.label = "\(row.0)-\(label)"
                specimen.mutableOrderedSetValue(forKey: "parts").add(part)
            }
        }
        // One object with every optional left nil.
        let empty = Specimen(context: context)
        empty.name = "zeta (nils)"
        try context.save()
    }

    /// A canonical dump: one line per specimen, sorted by name, every value exact (floating point as bits).
    static func dump(_ context: NSManagedObjectContext) throws -> [String] {
        let request = NSFetchRequest<Specimen>(entityName: "Specimen")
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        return try context.fetch(request).map { s in
            var fields: [String] = [
                "name=\(s.name ?? "nil")",
                "int16=\(s.int16)", "int32=\(s.int32)", "int64=\(s.int64)",
                "decimal=\(s.decimal.map { "\($0)" } ?? "nil")",
                "double=\(String(s.double.bitPattern, radix: 16))",
                "float=\(String(s.float.bitPattern, radix: 16))",
                "flag=\(s.flag)",
                "date=\(s.date.map { String($0.timeIntervalSinceReferenceDate.bitPattern, radix: 16) } ?? "nil")",
                "blob=\(s.blob.map { $0.base64EncodedString() } ?? "nil")",
                "uuid=\(s.uuid?.uuidString ?? "nil")",
                "uri=\(s.uri?.absoluteString ?? "nil")",
                "tags=\((s.tags as? [String]).map { $0.joined(separator: ",") } ?? "nil")",
                "placement=\(s.placement.map(canonical) ?? "nil")",
            ]
            let parts = (s.parts?.array as? [Part]) ?? []
            fields.append("parts=\(parts.map { "\($0.label ?? "nil")<\($0.owner?.name ?? "nil")" }.joined(separator: "|"))")
            return fields.joined(separator: " ")
        }
    }

    private static func canonical(_ value: Any) -> String {
        switch value {
        case let dictionary as [String: Any]:
            return "{" + dictionary.keys.sorted().map { "\($0):\(canonical(dictionary[$0]!))" }.joined(separator: ",") + "}"
        case let double as Double: return "d" + String(double.bitPattern, radix: 16)
        case let date as Date: return "t" + String(date.timeIntervalSinceReferenceDate.bitPattern, radix: 16)
        default: return "\(type(of: value)):\(value)"
        }
    }
}
