// SwiftUIWeb benchmark (run in release mode: `swift run -c release SwiftUIWebBenchmark`), all on loopback:
//  1. event round trip: a click in headless Chromium until the DOM is patched (p50, p99);
//  2. the patch sent when one row of a 1,000-row List changes (bytes);
//  3. memory per scene with 1,000 idle scenes in one process.
// Baselines, measured in the same run: a ping over the same socket (no rendering) for 1, the whole
// window's HTML for 2, and 1,000 scenes of an empty window for 3; each line prints the ratio.
import Foundation
import SwiftUIWeb
import SwiftUIWebDriver

final class Rows: ObservableObject {
    @Published var titles = (0..<1000).map { "Row \($0)" }
}

struct CounterWindow: View {
    @State private var count = 0
    @State private var name = ""
    var body: some View {
        NavigationStack {
            Form {
                Section("Counter") {
                    Text("Count \(count)")
                    Button("Increment") { count += 1 }
                    TextField("Name", text: $name)
                    Toggle("Enabled", isOn: .constant(true))
                }
            }
            .navigationTitle("Counter \(count)")
        }
    }
}

struct ListWindow: View {
    @EnvironmentObject var rows: Rows
    @State private var count = 0
    var body: some View {
        VStack {
            Button("Increment") { count += 1 }
            Text("Count \(count)")
            List(rows.titles.indices, id: \.self) { i in Text(rows.titles[i]) }
        }
    }
}

/// A typical idle window: a split view with a 20-row sidebar and a small form.
struct TypicalWindow: View {
    @State private var selection: Int?
    @State private var note = ""
    @State private var flag = false
    @SceneStorage("selected") private var stored: Int?
    var body: some View {
        NavigationSplitView {
            List(0..<20, id: \.self, selection: $selection) { i in Label("Item \(i)", systemImage: "doc") }
                .navigationTitle("Library")
        } detail: {
            Form {
                TextField("Note", text: $note)
                Toggle("Flag", isOn: $flag)
                Text(selection.map { "Item \($0)" } ?? "Nothing selected")
            }
        }
    }
}

/// The memory baseline: a window with one text.
struct EmptyWindow: View {
    var body: some View { Text("") }
}

struct BenchApp: App {
    @StateObject private var rows = Rows()
    var body: some Scene {
        WindowGroup { CounterWindow() }
        WindowGroup(id: "list") { ListWindow().environmentObject(rows) }
        WindowGroup(id: "typical") { TypicalWindow() }
        WindowGroup(id: "empty") { EmptyWindow() }
    }
}

/// Pings the server `iterations` times over the page's socket, timing each until the pong arrives.
func browserPings(_ browser: WebSession, iterations: Int) async throws -> [Double] {
    let script = """
    var n=arguments[0],done=arguments[arguments.length-1],sw=window.__swiftuiweb,times=[];
    function one(i){if(i===n){sw.onpong=null;done(times);return;}
     var t0;sw.onpong=function(){times.push(performance.now()-t0);setTimeout(function(){one(i+1);},0);};
     t0=performance.now();sw.ping();}
    one(0);
    """
    let value = try await browser.runAsync(script, [iterations])
    return (value as? [Any])?.compactMap { ($0 as? NSNumber)?.doubleValue } ?? []
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

func residentBytes() -> Int {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = statm.split(separator: " ")
    return (Int(fields.dropFirst().first ?? "0") ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
}

func fmt(_ d: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", d) }

/// Clicks `Increment` in the page `iterations` times, timing each click until the patch is applied.
func browserRoundTrips(_ browser: WebSession, iterations: Int) async throws -> [Double] {
    let script = """
    var n=arguments[0],done=arguments[arguments.length-1],sw=window.__swiftuiweb,times=[];
    var btn=Array.from(document.querySelectorAll('button')).find(function(b){return b.textContent==='Increment';});
    function one(i){if(i===n){sw.onpatch=null;done(times);return;}
     var t0;sw.onpatch=function(){times.push(performance.now()-t0);sw.onpatch=null;setTimeout(function(){one(i+1);},0);};
     t0=performance.now();btn.click();}
    one(0);
    """
    let value = try await browser.runAsync(script, [iterations])
    return (value as? [Any])?.compactMap { ($0 as? NSNumber)?.doubleValue } ?? []
}

@MainActor
func run() async throws {
    #if DEBUG
    print("note: debug build; run with -c release for meaningful figures")
    #endif
    let stateDir = NSTemporaryDirectory() + "swiftuiweb-bench-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: stateDir) }
    let host = AppHost(app: BenchApp(), storageDirectory: stateDir)

    // 2. One row of a 1,000-row List.
    do {
        let scene = host.newScene(group: "list")
        _ = scene.document()
        let rows = (host.appObject(Rows.self))!
        var sizes: [Int] = []
        var times: [Double] = []
        for i in 0..<50 {
            rows.titles[(i * 37) % 1000] = "Changed \(i)"
            let t0 = DispatchTime.now().uptimeNanoseconds
            let patches = scene.flush()
            times.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
            sizes.append(("[" + patches.map(\.json).joined(separator: ",") + "]").utf8.count)
        }
        times.sort()
        // Baseline: re-sending the whole window (the page's <main> element, without the stylesheet).
        let page = scene.document()
        let full = page.range(of: "<main").flatMap { a in page.range(of: "</main>").map { page[a.lowerBound..<$0.upperBound].utf8.count } } ?? page.utf8.count
        print("1,000-row List, one row changed: patch \(sizes.max()!) bytes (goal < 1,024) vs whole window \(full) bytes: ratio \(fmt(Double(sizes.max()!) / Double(full), 4)); re-render + diff p50 \(fmt(percentile(times, 0.5))) ms")
        host.remove(scene)
    }

    // 3. 1,000 idle scenes.
    do {
        var warm: [SceneInstance] = []
        for _ in 0..<20 { let s = host.newScene(group: "typical"); _ = s.document(); warm.append(s) }
        let before = residentBytes()
        var scenes: [SceneInstance] = []
        for _ in 0..<1000 { let s = host.newScene(group: "typical"); _ = s.document(); scenes.append(s) }
        let after = residentBytes()
        let per = Double(after - before) / 1000
        for _ in 0..<20 { let s = host.newScene(group: "empty"); _ = s.document(); warm.append(s) }
        let beforeEmpty = residentBytes()
        for _ in 0..<1000 { let s = host.newScene(group: "empty"); _ = s.document(); scenes.append(s) }
        let perEmpty = Double(residentBytes() - beforeEmpty) / 1000
        print("1,000 idle scenes (split view, 20-row list, form): \(fmt(per / 1024, 1)) KB per scene (goal < 200 KB; resident growth); "
              + "empty window \(fmt(perEmpty / 1024, 1)) KB: ratio \(fmt(per / max(perEmpty, 1))); vs Blazor Server's ~250 KB per circuit: ratio \(fmt(per / (250 * 1024)))")
        for s in scenes + warm { host.remove(s) }
    }

    // 1. Browser round trip.
    guard BrowserEnvironment.available else {
        print("event round trip: skipped (chromium and chromium-driver not installed; scripts/install-test-deps installs them)")
        return
    }
    let portBox = PortBox()
    let server = Task { try await AppServer(host: host).run(host: "127.0.0.1", port: 0) { await portBox.set($0) } }
    defer { server.cancel() }
    let port = try await portBox.wait()
    let driver = try await ChromeDriver()
    defer { driver.stop() }
    let browser = try await driver.session()
    for (label, path) in [("small window", "/"), ("window with a 1,000-row List", "/?g=list")] {
        try await browser.open("http://127.0.0.1:\(port)\(path)")
        try await waitUntil("the socket") { try await browser.connected() }
        _ = try await browserRoundTrips(browser, iterations: 50)   // warm up
        _ = try await browserPings(browser, iterations: 50)
        var times = try await browserRoundTrips(browser, iterations: 500)
        var pings = try await browserPings(browser, iterations: 500)
        times.sort(); pings.sort()
        guard !times.isEmpty, !pings.isEmpty else { print("event round trip (\(label)): no samples"); continue }
        let p50 = percentile(times, 0.5), p99 = percentile(times, 0.99)
        let b50 = percentile(pings, 0.5), b99 = percentile(pings, 0.99)
        print("event round trip, click to DOM patched (\(label), \(times.count) clicks): p50 \(fmt(p50)) ms, p99 \(fmt(p99)) ms (goal p50 < 5, p99 < 20); "
              + "baseline socket ping p50 \(fmt(b50)) ms, p99 \(fmt(b99)) ms: ratio p50 \(fmt(p50 / b50)), p99 \(fmt(p99 / b99))")
    }
    await browser.quit()
}

actor PortBox {
    var port: Int?
    func set(_ p: Int) { port = p }
    func wait() async throws -> Int {
        for _ in 0..<200 { if let port { return port }; try await Task.sleep(for: .milliseconds(25)) }
        throw BrowserError(description: "server did not start")
    }
}

try await run()
