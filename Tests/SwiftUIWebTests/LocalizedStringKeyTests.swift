import Foundation
import Testing

@testable import SwiftUIWeb

/// `Text("…\(value)…")` as SwiftUI builds it: a `LocalizedStringKey` with Apple's key, looked up in the app's
/// strings, with interpolations formatted as SwiftUI formats them.
@MainActor
@Suite("Localized string keys")
struct LocalizedStringKeyTests {
    @Test func keysAreApplesAndInterpolationsAreFormatted() {
        let count = 3
        let ratio = 0.5
        let name = "Ada"
        let key: LocalizedStringKey = "\(name) took \(count) of 4 doses (\(ratio, specifier: "%.0f")%)"
        #expect(key.key == "%@ took %lld of 4 doses (%.0f%%)")
        #expect(Text(key).plainText == "Ada took 3 of 4 doses (0%)")
        #expect(Text("\(ratio)").plainText == "0.500000")  // six decimals, as SwiftUI
        #expect(Text("\(0.25, format: .percent)").plainText == "25%")
        #expect(Text("100% sure").plainText == "100% sure")
        #expect(LocalizedStringKey("100% sure, 5%% off, é%").key == "100%% sure, 5%%%% off, é%%")
        #expect(LocalizedStringKey("no percent sign").key == "no percent sign")
        let name2: String = "plain %@ string"
        #expect(Text(name2).plainText == "plain %@ string")  // a String is shown as it is, never a format
    }

    @Test func styledTextAndSymbolsKeepTheirRuns() throws {
        let scene = window {
            Text("\(Image(systemName: "star")) Rated \(Text("five").bold()) stars")
        }
        let text = try #require(scene.tree.first { $0.cssClass == "sw-text" })
        #expect(text.children.count == 4)
        #expect(text.children[0].attr("aria-label") == "star" && text.children[0].raw?.contains("<svg") == true)
        #expect(text.children[2].attr("style") == "font-weight:700" && text.children[2].textContent == "five")
        #expect(text.textContent == " Rated five stars")
    }

    @Test func translationsComeFromTheBundlesStringsAndMayReorder() throws {
        let folder = URL(fileURLWithPath: tempDir()).appendingPathComponent("App.bundle")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let strings = """
            "%@ took %lld of 4 doses" = "%2$lld von 4 Dosen genommen von %1$@";
            "Settings" = "Einstellungen";
            """
        try strings.write(to: folder.appendingPathComponent("Localizable.strings"), atomically: true, encoding: .utf8)
        let bundle = try #require(Bundle(path: folder.path))
        let name = "Ada"
        let count = 2
        #expect(Text("Settings", bundle: bundle).plainText == "Einstellungen")
        #expect(Text("\(name) took \(count) of 4 doses", bundle: bundle).plainText == "2 von 4 Dosen genommen von Ada")
        // No translation: the literal; another table: none there.
        #expect(Text("Untranslated \(count)", bundle: bundle).plainText == "Untranslated 2")
        #expect(Text("Settings", tableName: "Other", bundle: bundle).plainText == "Settings")
    }

    @Test func controlsTakeLocalizedTitles() {
        let count = 2
        let price = 4.5
        let scene = window {
            Form {
                Section("Doses left: \(count)") {
                    Button("Refill for \(price, format: .number.precision(.fractionLength(2)))") {}
                    Toggle("Remind me \(count) times", isOn: .constant(true))
                    Label("Take \(count)", systemImage: "pills")
                    TextField("Note \(count)", text: .constant(""))
                }
            }
            .navigationTitle("Plan \(count)")
        }
        for shown in ["Doses left: 2", "Refill for 4.50", "Remind me 2 times", "Take 2"] {
            #expect(scene.text(shown), "\(shown)")
        }
        #expect(scene.tree.first { $0.tag == "input" && $0.attr("placeholder") == "Note 2" } != nil)
        #expect(scene.title == "Plan 2")
    }

    @Test func aSpecifierThatIsNotOneNumbersIsNotUsedToFormat() {
        let dose = 2.5
        #expect(Text("\(dose, specifier: "%.1f mg")").plainText == "2.5 mg")
        #expect(Text("\(dose, specifier: "%@")").plainText == "2.5")
        #expect(Text("\(dose, specifier: "%f %f")").plainText == "2.5")
        #expect(Text("\(dose, specifier: "no conversion")").plainText == "2.5")
        #expect(Text("\(7, specifier: "%03lld%%")").plainText == "007%")
    }

    @Test func malformedTranslationsNeverReadMissingArguments() {
        let runs = LocalizedStringKey.substitute("%@ and %@ and %3$@ and %", [[Text.Run(string: "one", style: "")]])
        #expect(runs.map(\.string).joined() == "one and %@ and %3$@ and %")
    }
}
