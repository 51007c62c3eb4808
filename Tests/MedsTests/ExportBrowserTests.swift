import Foundation
import MedsKit
import SwiftUIWebDriver
import Testing

/// Export for a doctor in headless Chromium: the dose history as CSV and the FHIR bundle download from the page
/// (`fileExporter`), each file served once.
@Suite(.serialized, .enabled(if: BrowserEnvironment.shouldRun), .timeLimit(.minutes(2)))
struct ExportBrowserTests {
    @MainActor @Test func theDoseHistoryAndTheFHIRBundleDownload() async throws {
        let server = try ExampleServer("Meds")
        let seeded = try MedsModel(
            dataDirectory: URL(fileURLWithPath: server.dataDirectory).appendingPathComponent("meds"))
        #expect(
            await seeded.addMedication(
                MedsModel.NewMedication(rxcui: MedsModelTests.acetaminophen, nickname: "Tylenol", weekdays: nil)))
        await seeded.logAsNeeded("rxnorm:\(MedsModelTests.acetaminophen)")
        try await server.start()
        defer { server.stop() }
        let driver = try await ChromeDriver()
        defer { driver.stop() }
        let browser = try await driver.session()
        try await browser.open(server.signInURL)
        try await waitUntil("the window") { try await browser.connected() }
        // Keep the links the page would click to download, to fetch them here.
        _ = try await browser.run(
            """
            window.__downloads=[];var c=HTMLAnchorElement.prototype.click;
            HTMLAnchorElement.prototype.click=function(){
              if(this.href.indexOf('/_swiftuiweb/export')>=0){window.__downloads.push(this.href);return;}
              return c.apply(this,arguments);};
            """)
        // The Export tab (clicked again until its content shows: a click in the page's first moments can land
        // before the page's script listens).
        try await waitUntil("the export buttons") {
            if try await browser.run("return document.body.textContent.indexOf('Dose History (CSV)')>=0") as? Bool
                == true
            {
                return true
            }
            try await browser.click(try await browser.find(xpath: "//*[@role='tab'][normalize-space(.)='Export']"))
            return false
        }
        let fetchDownload = { @Sendable (index: Int) async throws -> String in
            try await browser.runAsync(
                """
                var done=arguments[arguments.length-1];
                fetch(window.__downloads[arguments[0]]).then(function(r){return r.text().then(function(t){
                  done(r.status+'|'+(r.headers.get('content-disposition')||'')+'|'+t);});});
                """, [index]) as? String ?? ""
        }
        for (button, index, name, content) in [
            ("Dose History (CSV)", 0, "Me doses.csv", "Tylenol,313782,taken,1,count"),
            ("FHIR Bundle (JSON)", 1, "Me FHIR.json", "\"resourceType\""),
        ] {
            try await browser.click(try await browser.find(xpath: "//button[normalize-space(.)='\(button)']"))
            try await waitUntil("the \(button) download") {
                try await browser.run("return window.__downloads.length") as? Int == index + 1
            }
            let first = try await fetchDownload(index)
            #expect(first.hasPrefix("200|attachment; filename=\"\(name)\""), "\(first.prefix(200))")
            #expect(first.contains(content), "\(first.prefix(400))")
            // Served once: a second fetch of the same link finds nothing.
            #expect(try await fetchDownload(index).hasPrefix("404|"))
        }
        try await waitUntil("the result shown") {
            try await browser.run("return document.body.textContent.indexOf('Downloaded Me FHIR.json.')>=0") as? Bool
                == true
        }
    }

    /// The printable summary: its window lists the medication, and the browser prints it to a PDF of one page.
    @MainActor @Test func theSummaryPrintsToOnePage() async throws {
        let server = try ExampleServer("Meds")
        let seeded = try MedsModel(
            dataDirectory: URL(fileURLWithPath: server.dataDirectory).appendingPathComponent("meds"))
        #expect(
            await seeded.addMedication(
                MedsModel.NewMedication(rxcui: MedsModelTests.acetaminophen, nickname: "Tylenol", times: "08:00, 20:00")
            ))
        await seeded.setNote("with food", for: "rxnorm:\(MedsModelTests.acetaminophen)")
        try await server.start()
        defer { server.stop() }
        let driver = try await ChromeDriver()
        defer { driver.stop() }
        let browser = try await driver.session()
        try await browser.open(server.signInURL)
        try await waitUntil("the window") { try await browser.connected() }
        try await browser.open(server.url + "?g=summary")
        try await waitUntil("the summary") {
            try await browser.run("return document.body.textContent.indexOf('Note: with food')>=0") as? Bool == true
        }
        #expect(try await browser.text(".sw-content").contains("Every day at 08:00, 20:00 · RxNorm 313782"))
        let pdf = try await browser.printPDF()
        try pdf.write(to: artifactsDirectory.appendingPathComponent("meds-summary.pdf"))
        #expect(pdf.starts(with: Data("%PDF".utf8)))
        // One page: the PDF's page tree counts one.
        let text = String(decoding: pdf, as: UTF8.self)
        #expect(text.contains("/Count 1"), "the summary printed to more than one page")
    }
}
