// OpenNetwork discovery benchmark: Bonjour between two hosts made of network namespaces joined by a veth pair
// (needs root, iproute2 and avahi; scripts/install-test-deps installs them). A service is advertised on host A by
// our listener (DiscoveryProbe, built with this benchmark); on host B, our browser and avahi (avahi-daemon started
// fresh for each run, so neither side starts with a warm cache) each look for it. Both sides are timed the same
// way: wall time from starting the browsing program until it prints the first endpoint, so each includes its own
// process start (ours also starts its responder; avahi-browse talks to an avahi-daemon already running).
//
//   scripts/bench discovery           # or: swift build -c release --product DiscoveryProbe &&
//                                     #     swift run -c release DiscoveryBenchmark [--quick] [--runs N]
import BenchmarkKit
import Foundation

let bench = Bench(module: "discovery", title: "OpenNetwork discovery benchmark")
let probe = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    .appendingPathComponent("DiscoveryProbe").path
guard FileManager.default.isExecutableFile(atPath: probe) else {
    bench.say("DiscoveryProbe is not built next to this benchmark: swift build -c release --product DiscoveryProbe")
    exit(1)
}
guard getuid() == 0 else {
    bench.say("the discovery benchmark creates network namespaces: run it as root")
    exit(1)
}
let services = bench.quick ? 100 : 1_000

/// A program in a namespace whose output lines are read with the time each arrived.
final class Spawned: @unchecked Sendable {  // Unchecked: `lines` is read and written under `lock`.
    let process = Process()
    let started = Date()
    private let input = Pipe()
    private let lock = NSLock()
    private var lines: [(text: String, at: Date)] = []

    init(_ namespace: String, _ command: [String], environment: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
        process.arguments = ["netns", "exec", namespace] + command
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = input
        try process.run()
        Thread { [self] in
            var pending = Data()
            while true {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 10) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending = Data(pending[(newline + 1)...])
                    let now = Date()
                    lock.withLock { lines.append((line, now)) }
                }
            }
        }.start()
    }

    /// The first line satisfying `matches` and when it arrived; fails after `timeout` seconds.
    func line(_ what: String, timeout: Double = 60, _ matches: (String) -> Bool) throws -> (String, Date) {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let found = lock.withLock({ lines.first { matches($0.text) } }) { return (found.text, found.at) }
            usleep(1_000)
        }
        throw BenchError(description: "\(process.arguments ?? []): no \(what) within \(timeout) s")
    }

    /// How many lines satisfy `matches` so far.
    func count(_ matches: (String) -> Bool) -> Int { lock.withLock { lines.filter { matches($0.text) }.count } }

    /// Closes standard input, sends SIGTERM after a second and SIGKILL after two, and reaps it.
    func stop() {
        try? input.fileHandleForWriting.close()  // `try?`: a program that exited has closed its end already
        let pid = process.processIdentifier
        for step in 0..<400 {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) != 0 { return }  // reaped, or already reaped by Foundation
            if step == 200 { kill(pid, SIGTERM) }
            if step == 300 { kill(pid, SIGKILL) }
            usleep(5_000)
        }
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
}

func ip(_ arguments: [String]) throws { _ = try runProcess(arguments, executable: "/usr/sbin/ip") }

// Two hosts.
let tag = String(getpid(), radix: 16)
let (hostA, hostB) = ("orchard-bench-\(tag)-a", "orchard-bench-\(tag)-b")
let (linkA, linkB) = ("ba\(tag)", "bb\(tag)")
for command in [
    ["netns", "add", hostA], ["netns", "add", hostB], ["link", "add", linkA, "type", "veth", "peer", "name", linkB],
    ["link", "set", linkA, "netns", hostA], ["link", "set", linkB, "netns", hostB],
    ["-n", hostA, "addr", "add", "10.79.0.1/24", "dev", linkA],
    ["-n", hostB, "addr", "add", "10.79.0.2/24", "dev", linkB],
    ["-n", hostA, "link", "set", linkA, "up"], ["-n", hostB, "link", "set", linkB, "up"],
    ["-n", hostA, "link", "set", "lo", "up"], ["-n", hostB, "link", "set", "lo", "up"],
] {
    try ip(command)
}
bench.onFinish {
    for ns in [hostA, hostB] {
        // Whatever still runs there goes with the namespace. (`try?`: a namespace already gone needs nothing.)
        let pids = (try? runProcess(["netns", "pids", ns], executable: "/usr/sbin/ip"))?.output ?? ""
        for pid in pids.split(separator: "\n").compactMap({ Int32($0) }) { kill(pid, SIGKILL) }
        _ = try? runProcess(["netns", "del", ns], executable: "/usr/sbin/ip")
    }
}

/// avahi-daemon on host B with a D-Bus of its own; `body` runs while it is up.
@MainActor func withAvahi<T>(_ body: ([String: String]) throws -> T) throws -> T {
    let folder = try bench.temporaryDirectory("discovery-avahi")
    let socket = folder.appendingPathComponent("bus.sock").path
    try """
    <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
      "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
    <busconfig><type>system</type><listen>unix:path=\(socket)</listen><auth>EXTERNAL</auth>
      <policy context="default"><allow user="*"/><allow own="*"/><allow send_destination="*"/>
      <allow receive_sender="*"/></policy></busconfig>
    """.write(to: folder.appendingPathComponent("bus.conf"), atomically: true, encoding: .utf8)
    try """
    [server]
    host-name=bench-b
    use-ipv4=yes
    use-ipv6=no
    allow-interfaces=\(linkB)
    enable-dbus=yes
    ratelimit-interval-usec=1000000
    ratelimit-burst=100000
    [wide-area]
    enable-wide-area=no
    [publish]
    publish-hinfo=no
    publish-workstation=no
    """.write(to: folder.appendingPathComponent("avahi.conf"), atomically: true, encoding: .utf8)
    // A shell stays each daemon's parent: daemons close inherited descriptors, which Foundation's Process uses
    // to see a child exit.
    func supervised(_ command: String, after setup: String = "true") -> [String] {
        ["sh", "-c", "\(setup) && { \(command) & pid=$!; trap 'kill $pid' TERM; wait $pid; wait $pid; }"]
    }
    let bus = try Spawned(hostB, supervised("dbus-daemon --config-file=\(folder.path)/bus.conf --nofork"))
    defer { bus.stop() }
    while !FileManager.default.fileExists(atPath: socket) { usleep(5_000) }
    let environment = ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(socket)"]
    let daemon = try Spawned(
        hostB,
        ["unshare", "-m"]
            + supervised(
                "avahi-daemon --no-drop-root --no-chroot --no-rlimits -f \(folder.path)/avahi.conf",
                after: "mkdir -p /run/avahi-daemon && mount -t tmpfs tmpfs /run/avahi-daemon"),
        environment: environment)
    defer { daemon.stop() }
    _ = try daemon.line("avahi's startup") { $0.contains("Server startup complete") }
    return try body(environment)
}

// The advertised services on host A.
let one = try Spawned(hostA, [probe, "advertise", "Bench", "_bench._tcp"])
bench.onFinish { one.stop() }
_ = try one.line("the registration") { $0.hasPrefix("added ") }

var connectTimes: [Double] = []
try await bench.compare(
    "Discovery on a veth link: browse start to first endpoint (cold cache, process start included)", unit: .time,
    target: "< 1 s",
    note: "avahi-browse's figure starts with avahi-daemon already up; ours starts our responder in the process",
    ours: Contender("OpenNetwork NetworkBrowser") {
        let browse = try Spawned(hostB, [probe, "discover", "_bench._tcp"])
        defer { browse.stop() }
        let (_, at) = try browse.line("an endpoint") { $0.hasPrefix("discovered ") }
        let (connected, _) = try browse.line("the connection") { $0.hasPrefix("connected ") }
        connectTimes.append(Double(connected.split(separator: " ")[1])! / 1000)
        return Measured(values: [at.timeIntervalSince(browse.started)], check: "found")
    },
    baselines: [
        Contender("avahi-browse (avahi-daemon 0.8)") {
            try withAvahi { environment in
                let browse = try Spawned(hostB, ["avahi-browse", "-p", "_bench._tcp"], environment: environment)
                defer { browse.stop() }
                let (_, at) = try browse.line("an endpoint") { $0.hasPrefix("+;") }
                return Measured(values: [at.timeIntervalSince(browse.started)], check: "found")
            }
        }
    ])
let connect = Summary(connectTimes)
bench.note(
    String(
        format:
            "Resolve (SRV, A) + TCP connect + one TLV echo after discovery: median %.2f ms (min %.2f, max %.2f, n=%d); target < 20 ms",
        connect.median * 1000, connect.min * 1000, connect.max * 1000, connectTimes.count))

let many = try Spawned(hostA, [probe, "advertise-many", String(services), "_many._tcp"])
bench.onFinish { many.stop() }
_ = try many.line("every registration", timeout: 120) { $0.hasPrefix("added-all ") }
try await bench.compare(
    "\(services) services in one browse: start to all seen", unit: .time, runs: bench.quick ? 1 : 3,
    ours: Contender("OpenNetwork NetworkBrowser") {
        let browse = try Spawned(hostB, [probe, "count", "_many._tcp", String(services)])
        defer { browse.stop() }
        let (line, at) = try browse.line("every service", timeout: 120) { $0.hasPrefix("counted ") }
        return Measured(values: [at.timeIntervalSince(browse.started)], check: String(line.split(separator: " ")[1]))
    },
    baselines: [
        Contender("avahi-browse (avahi-daemon 0.8)") {
            try withAvahi { environment in
                let browse = try Spawned(hostB, ["avahi-browse", "-p", "_many._tcp"], environment: environment)
                defer { browse.stop() }
                let deadline = Date().addingTimeInterval(120)
                while browse.count({ $0.hasPrefix("+;") }) < services && Date() < deadline { usleep(1_000) }
                let seen = browse.count { $0.hasPrefix("+;") }
                return Measured(values: [Date().timeIntervalSince(browse.started)], check: String(seen))
            }
        }
    ])
try bench.finish()
