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
import TestSupport

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

// Two hosts, and the programs in them (TestSupport's, shared with the namespace tests).
let hosts = try await TwoHosts()
bench.onFinish { hosts.removeNow() }

/// Seconds from a program's start to `moment`.
func seconds(_ process: HostProcess, _ moment: ContinuousClock.Instant) -> Double {
    let elapsed = moment - process.started
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

/// avahi-daemon on host B, started fresh (a cold cache) for one run of `body`.
@MainActor func withAvahi<T>(_ body: (AvahiDaemon) async throws -> T) async throws -> T {
    let avahi = try await AvahiDaemon(
        in: hosts.b, interface: hosts.interfaceB, hostName: "bench-b", ratelimitBurst: 100_000)
    do {
        let result = try await body(avahi)
        await avahi.stop()
        return result
    } catch {
        await avahi.stop()
        throw error
    }
}

// The advertised services on host A.
let one = try HostProcess(in: hosts.a, [probe, "advertise", "Bench", "_bench._tcp"])
try await one.line("the registration") { $0.hasPrefix("added ") }

var connectTimes: [Double] = []
try await bench.compare(
    "Discovery on a veth link: browse start to first endpoint (cold cache, process start included)", unit: .time,
    target: "< 1 s",
    note: "avahi-browse's figure starts with avahi-daemon already up; ours starts our responder in the process",
    ours: Contender("OpenNetwork NetworkBrowser") {
        let browse = try HostProcess(in: hosts.b, [probe, "discover", "_bench._tcp"])
        let (_, at) = try await browse.timedLine("an endpoint", timeout: .seconds(60)) { $0.hasPrefix("discovered ") }
        let connected = try await browse.line("the connection", timeout: .seconds(60)) { $0.hasPrefix("connected ") }
        await browse.stop()
        connectTimes.append(Double(connected.split(separator: " ")[1])! / 1000)
        return Measured(values: [seconds(browse, at)], check: "found")
    },
    baselines: [
        Contender("avahi-browse (avahi-daemon 0.8)") {
            try await withAvahi { avahi in
                let browse = try avahi.client(["avahi-browse", "-p", "_bench._tcp"])
                let (_, at) = try await browse.timedLine("an endpoint", timeout: .seconds(60)) { $0.hasPrefix("+;") }
                await browse.terminate()
                return Measured(values: [seconds(browse, at)], check: "found")
            }
        }
    ])
let connect = Summary(connectTimes)
bench.note(
    String(
        format:
            "Resolve (SRV, A) + TCP connect + one TLV echo after discovery: median %.2f ms (min %.2f, max %.2f, n=%d); target < 20 ms",
        connect.median * 1000, connect.min * 1000, connect.max * 1000, connectTimes.count))

let many = try HostProcess(in: hosts.a, [probe, "advertise-many", String(services), "_many._tcp"])
try await many.line("every registration", timeout: .seconds(120)) { $0.hasPrefix("added-all ") }
try await bench.compare(
    "\(services) services in one browse: start to all seen", unit: .time, runs: bench.quick ? 1 : 3,
    ours: Contender("OpenNetwork NetworkBrowser") {
        let browse = try HostProcess(in: hosts.b, [probe, "count", "_many._tcp", String(services)])
        let (line, at) = try await browse.timedLine("every service", timeout: .seconds(120)) {
            $0.hasPrefix("counted ")
        }
        await browse.stop()
        return Measured(values: [seconds(browse, at)], check: String(line.split(separator: " ")[1]))
    },
    baselines: [
        Contender("avahi-browse (avahi-daemon 0.8)") {
            try await withAvahi { avahi in
                let browse = try avahi.client(["avahi-browse", "-p", "_many._tcp"])
                let deadline = ContinuousClock.now + .seconds(120)
                while browse.count({ $0.hasPrefix("+;") }) < services && ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(1))
                }
                let seen = browse.count { $0.hasPrefix("+;") }
                let finished = ContinuousClock.now
                await browse.terminate()
                return Measured(values: [seconds(browse, finished)], check: String(seen))
            }
        }
    ])
try bench.finish()
