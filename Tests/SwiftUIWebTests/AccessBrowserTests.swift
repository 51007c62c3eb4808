import Foundation
import Hummingbird
import SwiftUIWebDriver
import Testing

@testable import SwiftUIWeb

extension InBrowser {
    /// Access control in headless Chromium: the person follows the printed link; a browser without it, a page of
    /// another site rebound to 127.0.0.1, and a hostile page on another local port get nothing.
    @Suite(.serialized, .enabled(if: BrowserEnvironment.available), .timeLimit(.minutes(3)))
    struct AccessBrowserTests {
        @Test func thePrintedLinkSignsInAndLeavesNoTokenBehind() async throws {
            let server = try ExampleServer("BookClub")
            try await server.start()
            defer { server.stop() }
            #expect(server.output.contains("BookClub is running"))
            #expect(server.output.contains("only you can read that file"))
            #expect(server.signInURL.hasSuffix("?token=\(server.token)"))
            let driver = try await ChromeDriver()
            defer { driver.stop() }
            let browser = try await driver.session()
            try await browser.open(server.signInURL)
            try await waitUntil("the app's socket") { try await browser.connected() }
            let landed = try await browser.url()
            #expect(landed.hasPrefix(server.url + "?w="))
            #expect(!landed.contains("token"))
            #expect(try await browser.title() == "Currently Reading")
            // The cookie is HttpOnly: the page's scripts cannot read it.
            #expect(try await browser.run("return document.cookie") as? String == "")
            await browser.quit()

            // Another browser (another profile: no cookie) gets the sign-in page and no socket, until the person
            // pastes the link into it.
            let other = try await driver.session()
            try await other.open(server.url)
            #expect(try await other.title() == "Sign in to BookClub")
            #expect(try await other.run("return typeof window.__swiftuiweb") as? String == "undefined")
            try await other.type(try await other.find(css: "input[name=token]"), "wrong")
            try await other.click(try await other.find(css: "button[type=submit]"))
            try await waitUntil("the refusal") { try await other.text("main").contains("not this launch") }
            try await other.type(try await other.find(css: "input[name=token]"), server.signInURL)
            try await other.click(try await other.find(css: "button[type=submit]"))
            try await waitUntil("the app after signing in") { try await other.connected() }
            #expect(try await other.title() == "Currently Reading")
            await other.quit()
        }

        @Test func aWindowSignedOutByARestartShowsTheSignInPage() async throws {
            let server = try ExampleServer("BookClub")
            try await server.start()
            defer { server.stop() }
            let driver = try await ChromeDriver()
            defer { driver.stop() }
            let browser = try await driver.session()
            try await browser.open(server.signInURL)
            try await waitUntil("the app's socket") { try await browser.connected() }
            // The person deletes the session key while the app is stopped: every browser is signed out.
            server.stop()
            try FileManager.default.removeItem(atPath: server.stateDirectory + "/session-key.json")
            try await server.start()
            // The window does not retry in silence: it shows the sign-in page, and the new link opens the app.
            try await waitUntil("the sign-in page", timeout: 20) { try await browser.title() == "Sign in to BookClub" }
            try await browser.open(server.signInURL)
            try await waitUntil("the app again") { try await browser.connected() }
            #expect(try await browser.title() == "Currently Reading")
            await browser.quit()
        }

        @Test func aPageOfAnotherSiteReboundTo127001GetsNothing() async throws {
            let server = try ExampleServer("BookClub")
            try await server.start()
            defer { server.stop() }
            let driver = try await ChromeDriver()
            defer { driver.stop() }
            // Chromium resolves evil.example to 127.0.0.1, as a rebinding attacker's DNS would make it.
            let browser = try await driver.session(arguments: ["--host-resolver-rules=MAP evil.example 127.0.0.1"])
            let rebound = server.signInURL.replacingOccurrences(of: "127.0.0.1", with: "evil.example")
            try await browser.open(rebound)
            #expect(try await browser.text("body").contains("does not answer to that host name"))
            try await browser.open("http://evil.example:\(server.port)/")
            #expect(try await browser.text("body").contains("does not answer to that host name"))
            #expect(try await browser.run("return typeof window.__swiftuiweb") as? String == "undefined")
            await browser.quit()
        }

        @Test func aHostilePageOnAnotherLocalPortCannotReadOrDriveAWindow() async throws {
            let server = try ExampleServer("BookClub")
            try await server.start()
            defer { server.stop() }
            let hostile = HostilePage(target: server.port)
            let task = Task { try await hostile.run() }
            defer { task.cancel() }
            let hostilePort = try await hostile.port.wait()
            let driver = try await ChromeDriver()
            defer { driver.stop() }
            let browser = try await driver.session()
            // The person is signed in and has a window open; the attacker even knows its scene id.
            try await browser.open(server.signInURL)
            try await waitUntil("the app's socket") { try await browser.connected() }
            let id = String(try await browser.url().split(separator: "=").last ?? "")
            // Then visits a page of another server on the same host (a cookie for 127.0.0.1 goes to every port).
            try await browser.open("http://127.0.0.1:\(hostilePort)/?w=\(id)")
            let report = try await browser.runAsync(
                "var done=arguments[arguments.length-1];(function w(){if(window.report)done(window.report);else setTimeout(w,20);})();"
            )
            let results = report as? [String: Any] ?? [:]
            #expect(results["page"] as? String == "unreadable", "\(results)")
            #expect(results["socket"] as? String == "refused", "\(results)")
            #expect(results["upload"] as? String == "unreadable", "\(results)")
            #expect(!FileManager.default.fileExists(atPath: server.documentsDirectory + "/x.txt"))
            await browser.quit()
        }
    }
}

/// An attacker's page on another loopback port: it tries to read the app's page, open a window's socket, and
/// upload a file, and reports what it got in `window.report`.
struct HostilePage {
    let target: Int
    let port = PortBox()

    func run() async throws {
        let target = self.target
        let router = Router()
        router.get("/") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: HostilePage.html(target: target))))
        }
        let port = self.port
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { await port.set($0.localAddress?.port ?? 0) })
        try await app.runService()
    }

    static func html(target: Int) -> String {
        """
        <!doctype html><html><body><script>
        var base='http://127.0.0.1:\(target)', id=new URLSearchParams(location.search).get('w'), r={};
        function finish(){ if(r.page&&r.socket&&r.upload) window.report=r; }
        fetch(base+'/?w='+id,{credentials:'include'}).then(function(x){return x.text()})
          .then(function(t){r.page=t.indexOf('Book')>=0?'read':'empty';finish();},function(){r.page='unreadable';finish();});
        fetch(base+'/_swiftuiweb/upload?w='+id,{method:'POST',credentials:'include',body:'x',
          headers:{'X-SwiftUIWeb-Filename':'x.txt'}}).then(function(x){return x.text()})
          .then(function(t){r.upload='answered: '+t;finish();},function(){r.upload='unreadable';finish();});
        try { var ws=new WebSocket('ws://127.0.0.1:\(target)/_swiftuiweb/ws?w='+id);
          ws.onmessage=function(m){r.socket='read: '+m.data.slice(0,40);finish();ws.close();};
          ws.onerror=function(){if(!r.socket){r.socket='refused';finish();}};
        } catch(e) { r.socket='refused'; finish(); }
        </script></body></html>
        """
    }
}
