import Foundation
import Testing

@testable import SwiftUIWeb

/// Links, share links, images loaded by the page, badges, list styles and image scaling.
@MainActor
@Suite("Links and images")
struct LinkAndImageTests {
    @Test func linksOpenOnlySafeSchemesInANewTab() throws {
        let scene = window {
            VStack {
                Link("Docs", destination: URL(string: "https://example.org/docs")!)
                Link("Mail", destination: URL(string: "mailto:care@example.org")!)
                Link("Evil", destination: URL(string: "javascript:alert(1)")!)
                Link("Off", destination: URL(string: "https://example.org")!).disabled(true)
            }
        }
        let docs = try #require(scene.tree.first { $0.tag == "a" && $0.textContent == "Docs" })
        #expect(docs.attr("href") == "https://example.org/docs" && docs.attr("target") == "_blank")
        #expect(docs.attr("rel") == "noopener noreferrer")
        #expect(
            scene.tree.first { $0.tag == "a" && $0.textContent == "Mail" }?.attr("href") == "mailto:care@example.org")
        // A javascript: link is shown but never followed, and says why.
        let evil = try #require(scene.tree.first { $0.tag == "a" && $0.textContent == "Evil" })
        #expect(evil.attr("href") == nil && evil.attr("aria-disabled") == "true")
        #expect(evil.attr("title")?.contains("javascript") == true)
        #expect(!scene.document().contains("javascript:alert"))
        #expect(scene.tree.first { $0.tag == "a" && $0.textContent == "Off" }?.attr("href") == nil)
    }

    @Test func shareLinksShareOrCopy() throws {
        let scene = window {
            VStack {
                ShareLink(item: URL(string: "https://example.org/plan")!, subject: Text("My plan"))
                ShareLink("Send", item: URL(string: "https://example.org/x")!)
                ShareLink(item: "Aspirin 100 mg at 8:00") { Text("Share schedule") }
            }
        }
        let buttons = scene.tree.all { $0.attr("data-client") == "share" }
        #expect(buttons.count == 3)
        #expect(buttons[0].attr("data-arg") == #"{"title":"My plan","url":"https:\/\/example.org\/plan"}"#)
        #expect(buttons[0].textContent == "Share")
        #expect(buttons[1].textContent == "Send")
        #expect(buttons[2].attr("data-arg") == #"{"text":"Aspirin 100 mg at 8:00"}"#)
    }

    @Test func asyncImagesRenderEveryPhaseForThePage() throws {
        let url = URL(string: "https://example.org/pill.png")!
        let scene = window {
            VStack {
                AsyncImage(url: url)
                AsyncImage(url: url, scale: 2) { image in
                    image.resizable().scaledToFit()
                } placeholder: {
                    ProgressView()
                }
                AsyncImage(url: url, transaction: Transaction(animation: .easeIn)) { phase in
                    if let image = phase.image {
                        image
                    } else if let error = phase.error {
                        Text("Failed: \(error)")
                    } else {
                        Text("Loading…")
                    }
                }
                AsyncImage(url: URL(string: "file:///etc/passwd")) { phase in
                    Text(phase.error == nil ? "no error" : "refused")
                }
            }
        }
        let images = scene.tree.all { $0.attr("class") == "sw-async-image" }
        #expect(images.count == 4)
        #expect(images[0].attr("data-phase") == "loading")
        let img = try #require(images[0].first { $0.tag == "img" })
        #expect(img.attr("src") == "https://example.org/pill.png" && img.attr("referrerpolicy") == "no-referrer")
        #expect(images[0].first { $0.attr("class") == "sw-image-placeholder" } != nil)
        #expect(images[1].first { $0.tag == "progress" } != nil)
        #expect(images[1].first { $0.tag == "img" }?.attr("data-scale") == nil)  // Resizable: the frame decides.
        #expect(images[2].textContent.contains("Loading…") && images[2].textContent.contains("Failed: the browser"))
        #expect(
            images[2].first { $0.attr("class") == "sw-phase sw-phase-success" }?.attr("style")?.contains(
                "--sw-tr:0.35s") == true)
        // A file: URL is never given to the page: the failure phase shows at once.
        #expect(images[3].attr("data-phase") == "failed" && images[3].first { $0.tag == "img" } == nil)
        #expect(images[3].textContent.contains("refused"))
    }

    @Test func badgesListStylesAndImageScaling() {
        let scene = window {
            VStack {
                List {
                    Text("Inbox").badge(3)
                    Text("Archive").badge(0)
                    Text("Flagged").badge("New")
                }
                .listStyle(.plain)
                List { Text("Default") }
                Image("pill").resizable().aspectRatio(1.5, contentMode: .fill)
                Image("pill").resizable().scaledToFit()
            }
        }
        let badges = scene.tree.all { $0.attr("class") == "sw-badge" }.compactMap(\.text)
        #expect(badges == ["3", "New"])
        let lists = scene.tree.all { $0.attr("class")?.hasPrefix("sw-list ") == true }.compactMap { $0.attr("class") }
        #expect(lists == ["sw-list sw-list-plain", "sw-list sw-list-automatic"])
        let styles = scene.tree.all { $0.attr("style")?.contains("--sw-fit") == true }.compactMap { $0.attr("style") }
        #expect(styles == ["--sw-fit:cover;aspect-ratio:1.5", "--sw-fit:contain"])
    }
}
