import OpenCoreData

/// One medication of the catalog: an RxNorm clinical drug.
public struct MedicationCatalogEntry: Hashable, Sendable {
    /// The RxNorm concept id.
    public let rxcui: String
    /// The name as RxNorm spells it.
    public let displayName: String
    /// The physical form.
    public let generalForm: HKMedicationGeneralForm
    /// Active ingredients, lower-cased.
    public let ingredients: [String]
    /// Strengths, in ingredient order.
    public let strengths: [String]

    /// The prefix of a catalog concept's identifier, before its RxNorm code.
    static let identifierPrefix = "rxnorm:"

    /// The concept for this entry: identifier `rxnorm:<rxcui>`, coded with RxNorm's system URL.
    public var concept: HKMedicationConcept {
        HKMedicationConcept(identifier: HKHealthConceptIdentifier(domain: .medication, identifier: Self.identifierPrefix + rxcui),
                            displayText: displayName, generalForm: generalForm,
                            relatedCodings: [HKClinicalCoding(system: HKClinicalCoding.rxNormSystem, version: nil, code: rxcui)])
    }
}

/// The medication catalog the Health app's editor searches when a person adds a medication:
/// the bundled RxNorm list (Resources/rxnorm-catalog.csv), searched by name, ingredient or code as
/// the person types through a prefix index of tokens. Codes come only from the file.
public final class MedicationCatalog: Sendable {
    /// The entries, in file order.
    public let entries: [MedicationCatalogEntry]
    private let byCode: [String: Int]
    /// Sorted (token, entry index) pairs; a prefix search is a binary search plus a scan.
    private let tokens: [(String, Int)]
    /// Each entry's rank in name order (case- and diacritic-insensitive), computed once so that
    /// ordering a keystroke's matches compares integers, not localized strings.
    private let nameRank: [Int]
    /// Each entry's ingredient words, folded, for the "ingredient first" ordering.
    private let ingredientWords: [[String]]

    /// The catalog bundled with OpenHealthKit.
    public static let bundled: MedicationCatalog = {
        guard let url = Bundle.module.url(forResource: "rxnorm-catalog", withExtension: "csv") else {
            fatalError("OpenHealthKit: rxnorm-catalog.csv is missing from the package resources")
        }
        do { return try MedicationCatalog(contentsOf: url) } catch { fatalError("OpenHealthKit: bundled catalog: \(error)") }
    }()

    /// Loads a catalog file.
    public convenience init(contentsOf url: URL) throws {
        try self.init(csv: String(decoding: try Data(contentsOf: url), as: UTF8.self))
    }

    /// Parses catalog CSV text (header `rxcui,display,general_form,ingredient,strength,...`);
    /// throws `HKError.invalidArgument` naming the line and what was wrong.
    public init(csv: String) throws {
        let rows: [[String]]
        do { rows = try CSVParser.parse(csv) } catch { throw HKError(.errorInvalidArgument, "catalog CSV: \(error)") }
        guard let header = rows.first else { throw HKError(.errorInvalidArgument, "catalog CSV is empty") }
        func column(_ name: String) throws -> Int {
            guard let i = header.firstIndex(of: name) else { throw HKError(.errorInvalidArgument, "catalog CSV has no \(name) column") }
            return i
        }
        let (cCode, cName, cForm, cIngredient, cStrength) = (try column("rxcui"), try column("display"), try column("general_form"),
                                                              try column("ingredient"), try column("strength"))
        var entries: [MedicationCatalogEntry] = []
        var byCode: [String: Int] = [:]
        for (n, row) in rows.dropFirst().enumerated() where !(row.count == 1 && row[0].isEmpty) {
            let line = n + 2
            guard row.count == header.count else {
                throw HKError(.errorInvalidArgument, "catalog CSV line \(line): \(row.count) fields, expected \(header.count)")
            }
            let code = row[cCode]
            guard !code.isEmpty, code.allSatisfy(\.isASCII), code.allSatisfy(\.isNumber) else {
                throw HKError(.errorInvalidArgument, "catalog CSV line \(line): rxcui \"\(code)\" is not digits")
            }
            let form = HKMedicationGeneralForm(rawValue: row[cForm])
            guard form.isKnown else {
                throw HKError(.errorInvalidArgument, "catalog CSV line \(line): general_form \"\(row[cForm])\" is not an HKMedicationGeneralForm")
            }
            guard byCode[code] == nil else { throw HKError(.errorInvalidArgument, "catalog CSV line \(line): rxcui \(code) appears twice") }
            byCode[code] = entries.count
            entries.append(MedicationCatalogEntry(rxcui: code, displayName: row[cName], generalForm: form,
                                                  ingredients: row[cIngredient].components(separatedBy: " / "),
                                                  strengths: row[cStrength].components(separatedBy: " / ")))
        }
        var tokens: [(String, Int)] = []
        for (i, entry) in entries.enumerated() {
            var words = Set(Self.words(entry.displayName))
            for ingredient in entry.ingredients { words.formUnion(Self.words(ingredient)) }
            words.insert(entry.rxcui)
            tokens += words.map { ($0, i) }
        }
        tokens.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        self.entries = entries
        self.byCode = byCode
        self.tokens = tokens
        var rank = [Int](repeating: 0, count: entries.count)
        let order = entries.indices.sorted { entries[$0].displayName.localizedCaseInsensitiveCompare(entries[$1].displayName) == .orderedAscending }
        for (position, index) in order.enumerated() { rank[index] = position }
        self.nameRank = rank
        self.ingredientWords = entries.map { $0.ingredients.flatMap { Self.words($0) } }
    }

    static func words(_ text: String) -> [String] {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "." })
            .map(String.init)
    }

    /// The entry with an RxNorm code, if the catalog has it.
    public func entry(rxcui: String) -> MedicationCatalogEntry? { byCode[rxcui].map { entries[$0] } }

    /// The entry whose concept has this identifier (`rxnorm:<rxcui>`, as ``MedicationCatalogEntry/concept`` makes
    /// it), if the catalog has it; nil for a concept from elsewhere.
    public func entry(conceptIdentifier: String) -> MedicationCatalogEntry? {
        guard conceptIdentifier.hasPrefix(MedicationCatalogEntry.identifierPrefix) else { return nil }
        return entry(rxcui: String(conceptIdentifier.dropFirst(MedicationCatalogEntry.identifierPrefix.count)))
    }

    private func indices(withTokenPrefix prefix: String) -> Set<Int> {
        var low = 0, high = tokens.count
        while low < high {
            let mid = (low + high) / 2
            if tokens[mid].0 < prefix { low = mid + 1 } else { high = mid }
        }
        var found = Set<Int>()
        while low < tokens.count, tokens[low].0.hasPrefix(prefix) { found.insert(tokens[low].1); low += 1 }
        return found
    }

    /// Entries matching what was typed so far: every word of the query must start a word of the
    /// name or ingredients (or the code). Results list ingredient-first matches, then by name.
    public func search(_ query: String, limit: Int = 25) -> [MedicationCatalogEntry] {
        let words = Self.words(query)
        guard !words.isEmpty else { return [] }
        var result: Set<Int>? = nil
        for word in words {
            let matches = indices(withTokenPrefix: word)
            result = result.map { $0.intersection(matches) } ?? matches
            if result!.isEmpty { return [] }
        }
        let first = words[0]
        let matches = result!.map { index in (ingredient: ingredientWords[index].contains { $0.hasPrefix(first) }, rank: nameRank[index], index: index) }
        return matches.sorted { a, b in a.ingredient != b.ingredient ? a.ingredient : a.rank < b.rank }
            .prefix(limit).map { entries[$0.index] }
    }
}
