import Testing
@testable import OpenHealthKit

@Suite struct CatalogTests {
    @Test func bundledCatalogLoadsEveryRow() {
        let catalog = MedicationCatalog.bundled
        #expect(catalog.entries.count == 397)
        let cipro = catalog.entry(rxcui: "1665229")
        #expect(cipro?.displayName == "40 ML ciprofloxacin 10 MG/ML Injection")
        #expect(cipro?.generalForm == .injection)
        #expect(catalog.entry(rxcui: "198439") == nil) // not in the file: never invented
    }

    @Test func anEntryIsFoundByItsConceptsIdentifier() throws {
        let catalog = MedicationCatalog.bundled
        let cipro = try #require(catalog.entry(rxcui: "1665229"))
        #expect(catalog.entry(conceptIdentifier: cipro.concept.identifier.identifier) == cipro)
        #expect(catalog.entry(conceptIdentifier: "1665229") == nil)  // a bare code is not a concept identifier
        #expect(catalog.entry(conceptIdentifier: "snomed:1665229") == nil)
        #expect(catalog.entry(conceptIdentifier: "rxnorm:198439") == nil)  // not in the catalog
    }

    @Test func searchByPrefixIngredientAndCode() {
        let catalog = MedicationCatalog.bundled
        let acet = catalog.search("acet")
        #expect(!acet.isEmpty)
        #expect(acet.allSatisfy { $0.displayName.lowercased().contains("acet") || $0.ingredients.contains { $0.hasPrefix("acet") } })
        let narrowed = catalog.search("acetaminophen 325")
        #expect(narrowed.contains { $0.rxcui == "313782" })
        #expect(narrowed.allSatisfy { $0.displayName.contains("325") })
        #expect(catalog.search("1665229").map(\.rxcui) == ["1665229"])
        #expect(catalog.search("ACETAMINOPHEN").count == catalog.search("acetaminophen").count)
        #expect(catalog.search("zzzz").isEmpty)
        #expect(catalog.search("   ").isEmpty)
    }

    @Test func conceptsCarryRxNormCoding() throws {
        let entry = try #require(MedicationCatalog.bundled.entry(rxcui: "313782"))
        let concept = entry.concept
        #expect(concept.identifier.identifier == "rxnorm:313782")
        #expect(concept.relatedCodings == [HKClinicalCoding(system: "http://www.nlm.nih.gov/research/umls/rxnorm", version: nil, code: "313782")])
        #expect(concept.generalForm == .tablet)
    }

    @Test func rfc4180Parsing() throws {
        let rows = try CSVParser.parse("a,b,c\r\n\"x, y\",\"say \"\"hi\"\"\",\"two\nlines\"\n,,\n")
        #expect(rows == [["a", "b", "c"], ["x, y", "say \"hi\"", "two\nlines"], ["", "", ""]])
        #expect(throws: (any Error).self) { try CSVParser.parse("a,\"b\n") }
        #expect(throws: (any Error).self) { try CSVParser.parse("a,b\"c\n") }
        let quotedComma = try MedicationCatalog(csv: "rxcui,display,general_form,ingredient,strength,sources\n1,\"heparin sodium, porcine 100 UNT/ML Injectable Solution\",injection,\"heparin sodium, porcine\",100 UNT/ML,x\n")
        #expect(quotedComma.entries.first?.ingredients == ["heparin sodium, porcine"])
        #expect(quotedComma.search("porcine").count == 1)
    }

    @Test func badCatalogRowsAreNamed() {
        let header = "rxcui,display,general_form,ingredient,strength,sources\n"
        #expect(throws: HKError.self) { try MedicationCatalog(csv: header + "12a,X,tablet,x,1 MG,s\n") }
        #expect(throws: HKError.self) { try MedicationCatalog(csv: header + "12,X,pill,x,1 MG,s\n") }
        #expect(throws: HKError.self) { try MedicationCatalog(csv: header + "12,X,tablet\n") }
        #expect(throws: HKError.self) { try MedicationCatalog(csv: "rxcui,display\n1,X\n") }
    }
}
