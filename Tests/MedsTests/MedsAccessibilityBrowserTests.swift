import Foundation
import MedsKit
import SwiftUIWebDriver
import Testing

/// Meds as someone on a phone-sized window, in dark mode, with only a keyboard uses it: nothing is wider than the
/// window, text keeps a readable contrast (WCAG AA, 4.5:1) in light and dark, every button and field has a name,
/// and a dose is taken with Tab and Enter alone. Screenshots go to the test artifacts.
@Suite(.serialized, .enabled(if: BrowserEnvironment.shouldRun), .timeLimit(.minutes(3)))
struct MedsAccessibilityBrowserTests {
    /// A medication with a dose due at midnight and one at 23:59, so one is always open, written before the app
    /// starts in the data folder it is given.
    @MainActor static func seed(_ folder: URL) async throws {
        let model = try MedsModel(dataDirectory: folder)
        let form = MedsModel.NewMedication(rxcui: "313782", nickname: "Tylenol", times: "00:00, 23:59")
        #expect(await model.addMedication(form), "\(String(describing: model.message))")
    }

    /// Meds started on a data folder that already has ``seed(_:)``'s medication.
    static func startSeededServer() async throws -> ExampleServer {
        let server = try ExampleServer("Meds")
        try await seed(URL(fileURLWithPath: server.dataDirectory).appendingPathComponent("meds"))
        try await server.start()
        return server
    }

    /// Signs in and waits for Today's two doses.
    static func signIn(_ browser: WebSession, _ server: ExampleServer) async throws {
        try await browser.open(server.signInURL)
        try await waitUntil("the socket") { try await browser.connected() }
        try await waitUntil("Today's doses") {
            try await browser.run("return document.querySelectorAll('[aria-label^=\"Mark Tylenol\"]').length") as? Int
                == 2
        }
    }

    /// The lowest contrast between text and the background behind it over the page's visible text, with the
    /// element it was found on.
    static let lowestContrast = """
        function lum(c){var m=c.match(/[\\d.]+/g).map(Number);var a=m.length>3?m[3]:1;
          return [m.slice(0,3).map(function(v){v/=255;return v<=0.03928?v/12.92:Math.pow((v+0.055)/1.055,2.4)}),a]}
        function bg(e){var layers=[];for(;e;e=e.parentElement){var b=getComputedStyle(e).backgroundColor;
          if(!b||/rgba\\(0, 0, 0, 0\\)|transparent/.test(b))continue;var m=b.match(/[\\d.]+/g).map(Number);
          layers.push(m);if(m.length<4||m[3]>=1)break}
          var c=[255,255,255];for(var i=layers.length-1;i>=0;i--){var l=layers[i],a=l.length>3?l[3]:1;
          c=[0,1,2].map(function(k){return l[k]*a+c[k]*(1-a)})}return 'rgb('+c.join(',')+')'}
        var worst=[99,''];
        document.querySelectorAll('body *').forEach(function(e){
          var own=Array.prototype.some.call(e.childNodes,function(n){return n.nodeType===3&&n.textContent.trim()});
          if(!own||!e.getClientRects().length)return;var s=getComputedStyle(e);
          if(s.visibility==='hidden'||parseFloat(s.opacity)===0)return;
          var f=lum(s.color),b=lum(bg(e));
          var L=function(v){return 0.2126*v[0]+0.7152*v[1]+0.0722*v[2]};
          var fl=L(f[0]),bl=L(b[0]);if(f[1]<1){fl=f[1]*fl+(1-f[1])*bl}
          var r=(Math.max(fl,bl)+0.05)/(Math.min(fl,bl)+0.05);
          if(r<worst[0])worst=[Math.round(r*100)/100,e.tagName+' "'+e.textContent.trim().slice(0,30)+'" '+s.color+' on '+bg(e)]});
        return worst;
        """

    @Test func aPhoneSizedDarkWindowWorksByKeyboardAlone() async throws {
        let server = try await Self.startSeededServer()
        defer { server.stop() }
        let driver = try await ChromeDriver()
        defer { driver.stop() }
        let browser = try await driver.session()
        // A phone's width: Chromium's windows are at least 500 px wide, so the page's viewport is set instead.
        _ = try await browser.command(
            "POST", "goog/cdp/execute",
            [
                "cmd": "Emulation.setDeviceMetricsOverride",
                "params": ["width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": false],
            ])
        try await Self.signIn(browser, server)
        let contrast = { @Sendable () async throws -> (Double, String) in
            let worst = try await browser.run(Self.lowestContrast) as? [Any] ?? []
            return ((worst.first as? NSNumber)?.doubleValue ?? 0, worst.last as? String ?? "")
        }
        let light = try await contrast()
        #expect(light.0 >= 4.5, "light: \(light.1) has a contrast of \(light.0)")

        // Dark, as the system's appearance (emulated through the DevTools protocol).
        _ = try await browser.command(
            "POST", "goog/cdp/execute",
            [
                "cmd": "Emulation.setEmulatedMedia",
                "params": ["features": [["name": "prefers-color-scheme", "value": "dark"]]],
            ])
        try await waitUntil("the dark stylesheet") {
            try await browser.run("return document.documentElement.classList.contains('sw-dark')") as? Bool == true
        }
        // The page switches its stylesheet at once and tells the server, whose views that read the color scheme
        // (the red of "Missed" and "Due now") arrive in a patch a moment later: their colours are waited for (a
        // server that never sends them fails here, after the wait).
        var dark = try await contrast()
        let deadline = ContinuousClock.now + .seconds(8)
        while dark.0 < 4.5, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            dark = try await contrast()
        }
        #expect(dark.0 >= 4.5, "dark: \(dark.1) has a contrast of \(dark.0)")

        // Every control has a name a screen reader reads.
        let unnamed =
            try await browser.run(
                """
                return Array.prototype.filter.call(document.querySelectorAll('button,input,select,textarea,[role=tab]'),
                  function(e){return e.getClientRects().length&&!(e.getAttribute('aria-label')||e.textContent.trim()
                    ||e.getAttribute('placeholder')||e.labels&&e.labels.length)}).map(function(e){return e.outerHTML.slice(0,80)})
                """) as? [String] ?? ["(no answer)"]
        #expect(unnamed.isEmpty, "controls without a name: \(unnamed)")
        try (try await browser.screenshot()).write(to: artifactsDirectory.appendingPathComponent("meds-phone-dark.png"))

        // Phone width: no tab scrolls sideways (Today is checked last, after the others).
        for tab in ["Medications", "Add", "Symptoms", "Charts", "Export", "Today"] {
            try await browser.click(
                try await browser.find(xpath: "//*[@role='tab'][normalize-space(.)='\(tab)']"))
            try await waitUntil("the \(tab) tab") {
                try await browser.run(
                    "var t=document.querySelector('[role=tab][aria-selected=true]');return t?t.textContent.trim():''")
                    as? String == tab
            }
            let tabWidth = try await browser.run("return document.documentElement.scrollWidth") as? Int ?? 0
            let wide =
                try await browser.run(
                    """
                    return Array.prototype.filter.call(document.querySelectorAll('body *'),function(e){
                      return e.getBoundingClientRect().right>391}).slice(-4).map(function(e){
                      return e.className+' '+Math.round(e.getBoundingClientRect().width)+' '+e.textContent.slice(0,30)})
                    """) as? [String] ?? []
            #expect(tabWidth <= 390, "\(tab) is \(tabWidth) px wide in a 390 px window: \(wide)")
        }

        // Keyboard alone: Tab to the midnight dose's Taken button, press Enter.
        let target = "Mark Tylenol at 00:00 taken"
        var presses = 0
        while presses < 60 {
            try await browser.press([WebSession.tabKey])
            presses += 1
            let focused =
                try await browser.run(
                    "var e=document.activeElement;return e?(e.getAttribute('aria-label')||''):''") as? String
            if focused == target { break }
        }
        #expect(presses < 60, "Tab never reached \(target)")
        try await browser.press([WebSession.enterKey])
        try await waitUntil("the dose taken by keyboard") {
            try await browser.run("return document.body.textContent.indexOf('Taken at')>=0") as? Bool == true
        }
    }

    @Test func everyControlOfEveryTabIsReachedByTheKeyboardAndShowsWhereFocusIs() async throws {
        let server = try await Self.startSeededServer()
        defer { server.stop() }
        let driver = try await ChromeDriver()
        defer { driver.stop() }
        let browser = try await driver.session()
        try await Self.signIn(browser, server)
        /// The focused element: its id, whether it is a tab of the tab bar (and which), and whether something shows
        /// that it has focus (an outline or a ring).
        let focused = { @Sendable () async throws -> (id: String, tab: String?, shown: Bool) in
            let answer =
                try await browser.run(
                    """
                    var e=document.activeElement;if(!e||e===document.body)return ['',null,true];var s=getComputedStyle(e);
                    return [e.id||e.outerHTML.slice(0,60),e.getAttribute('role')==='tab'?e.textContent.trim():null,
                      (s.outlineStyle!=='none'&&parseFloat(s.outlineWidth)>0)||s.boxShadow!=='none']
                    """) as? [Any] ?? []
            return (answer.first as? String ?? "", answer.dropFirst().first as? String, answer.last as? Bool ?? false)
        }
        for tab in ["Medications", "Add", "Symptoms", "Charts", "Export", "Today"] {
            // To the tab by Tab, then Enter.
            var presses = 0
            while try await focused().tab != tab, presses < 80 {
                try await browser.press([WebSession.tabKey])
                presses += 1
            }
            try #require(presses < 80, "Tab never reached the \(tab) tab")
            try await browser.press([WebSession.enterKey])
            try await waitUntil("the \(tab) tab, chosen by keyboard") {
                try await browser.run(
                    "var t=document.querySelector('[role=tab][aria-selected=true]');return t?t.textContent.trim():''")
                    as? String == tab
            }
            // Every control the tab shows is reached by Tab, and shows that it has focus.
            let controls =
                try await browser.run(
                    """
                    return Array.prototype.filter.call(document.querySelectorAll(
                      '.sw-tabpanel button,.sw-tabpanel input,.sw-tabpanel select,.sw-tabpanel textarea'),
                      function(e){return e.getClientRects().length&&!e.disabled}).map(function(e){return e.id})
                    """) as? [String] ?? []
            #expect(!controls.isEmpty, "the \(tab) tab has no controls")
            var reached: Set<String> = []
            var unmarked: Set<String> = []
            for _ in 0..<(controls.count * 2 + 40) where !Set(controls).isSubset(of: reached) {
                try await browser.press([WebSession.tabKey])
                let now = try await focused()
                reached.insert(now.id)
                if !now.shown { unmarked.insert(now.id) }
            }
            #expect(
                Set(controls).isSubset(of: reached), "\(tab): not reached by Tab: \(Set(controls).subtracting(reached))"
            )
            #expect(unmarked.isEmpty, "\(tab): focus not shown on \(unmarked.sorted())")
        }
    }
}
