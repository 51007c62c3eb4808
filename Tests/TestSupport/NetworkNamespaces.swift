import Foundation

/// Two hosts on one link, made of two network namespaces joined by a veth pair (10.N.0.1 and 10.N.0.2), so that
/// multicast DNS crosses a real link between independent network stacks and never touches the host's own network.
/// Needs root (CI runs as root) and iproute2; a run without them fails with a message saying so.
///
/// Shared by the namespace tests and the discovery benchmark.
public final class TwoHosts: Sendable {
    /// Host A's namespace.
    public let a: String
    /// Host B's namespace.
    public let b: String
    /// Host A's end of the veth pair.
    public let interfaceA: String
    /// Host B's end of the veth pair.
    public let interfaceB: String
    /// Host A's IPv4 address on the link.
    public let addressA: String
    /// Host B's IPv4 address on the link.
    public let addressB: String

    /// Makes the two namespaces and their link: with IPv4 addresses (and IPv6 link-local ones, as every link has),
    /// or with `ipv4` false IPv6 link-local addresses only. Duplicate address detection is off, so the IPv6
    /// addresses work at once.
    public init(ipv4: Bool = true) async throws {
        let tag = String(UInt32.random(in: 0...0xFFFFF), radix: 16)
        let subnet = Int.random(in: 16...250)
        a = "orchard-\(tag)-a"
        b = "orchard-\(tag)-b"
        interfaceA = "oa\(tag)"
        interfaceB = "ob\(tag)"
        addressA = "10.\(subnet).0.1"
        addressB = "10.\(subnet).0.2"
        guard getuid() == 0 else {
            throw HostError("network namespace tests need root (ip netns add); run the suite as root, as CI does")
        }
        let dadOff = ["sysctl", "-qw", "net.ipv6.conf.default.accept_dad=0", "net.ipv6.conf.all.accept_dad=0"]
        var commands: [[String]] = [
            ["netns", "add", a], ["netns", "add", b], ["netns", "exec", a] + dadOff, ["netns", "exec", b] + dadOff,
            ["link", "add", interfaceA, "type", "veth", "peer", "name", interfaceB],
            ["link", "set", interfaceA, "netns", a], ["link", "set", interfaceB, "netns", b],
        ]
        if ipv4 {
            commands += [
                ["-n", a, "addr", "add", addressA + "/24", "dev", interfaceA],
                ["-n", b, "addr", "add", addressB + "/24", "dev", interfaceB],
            ]
        }
        commands += [
            ["-n", a, "link", "set", interfaceA, "up"], ["-n", b, "link", "set", interfaceB, "up"],
            ["-n", a, "link", "set", "lo", "up"], ["-n", b, "link", "set", "lo", "up"],
        ]
        for command in commands {
            try await run("/usr/sbin/ip", command)
        }
    }

    /// Kills whatever still runs in the namespaces (a failed test's probes and daemons), then deletes them (and with
    /// them the veth pair).
    public func remove() async {
        // `try?`: the body does not throw.
        _ = try? await onOwnThread { self.removeNow() }
    }

    /// Gives programs started in `namespace` (with `ip netns exec`, which mounts it over /etc/resolv.conf) a
    /// resolv.conf of their own; ``remove()`` deletes it.
    public func setResolvConf(_ text: String, in namespace: String) throws {
        let folder = "/etc/netns/\(namespace)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try text.write(toFile: folder + "/resolv.conf", atomically: true, encoding: .utf8)
    }

    /// ``remove()``, blocking the calling thread (for a program's exit path).
    public func removeNow() {
        for ns in [a, b] {
            // `try?`: a namespace that cannot be listed has nothing left to kill.
            let pids = (try? runNow("/usr/sbin/ip", ["netns", "pids", ns])) ?? ""
            for pid in pids.split(separator: "\n").compactMap({ Int32($0) }) { kill(pid, SIGKILL) }
        }
        for ns in [a, b] {
            // `try?`: a namespace already gone is what removal wants.
            _ = try? runNow("/usr/sbin/ip", ["netns", "del", ns])
            // `try?`: most tests give a namespace no configuration of its own (see ``setResolvConf``).
            try? FileManager.default.removeItem(atPath: "/etc/netns/\(ns)")
        }
    }
}

/// A failure of a host helper, saying what happened.
public struct HostError: Error, CustomStringConvertible {
    /// What happened.
    public let description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}

/// Runs a command to its end; throws with its output when it fails.
@discardableResult
public func run(_ path: String, _ arguments: [String], environment: [String: String] = [:]) async throws -> String {
    try await onOwnThread { try runNow(path, arguments, environment: environment) }
}

/// ``run(_:_:environment:)``, blocking the calling thread.
@discardableResult
public func runNow(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let status = reapNow(process)
    guard status == 0 else {
        throw HostError("\(path) \(arguments.joined(separator: " ")) failed (\(status)): \(output)")
    }
    return output
}

/// A long-running program in a namespace whose output lines are read, each with the time it arrived. It ends when
/// ``stop()`` closes its standard input (the probe's signal to say goodbye and exit) or, for other programs, sends
/// SIGTERM.
public final class HostProcess: @unchecked Sendable {  // Unchecked: `output` is read and written under `lock`.
    /// The `ip netns exec` process that runs the program.
    public let process = Process()
    /// When the program was started.
    public let started = ContinuousClock.now
    private let input = Pipe()
    private let lock = NSLock()
    private var output: [(text: String, at: ContinuousClock.Instant)] = []
    /// The command line, for messages.
    public let name: String

    /// Starts `command` in `namespace`.
    public init(in namespace: String, _ command: [String], environment: [String: String] = [:]) throws {
        name = command.joined(separator: " ")
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
        process.arguments = ["netns", "exec", namespace] + command
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = input
        try process.run()
        Thread { [self] in
            var pending = Data()
            while true {
                let chunk = pipe.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 10) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending = Data(pending[(newline + 1)...])
                    let now = ContinuousClock.now
                    lock.withLock { output.append((line, now)) }
                }
            }
        }.start()
    }

    /// Every line printed so far.
    public var lines: [String] { lock.withLock { output.map(\.text) } }

    /// How many lines printed so far satisfy `matches`.
    public func count(_ matches: (String) -> Bool) -> Int { lock.withLock { output.filter { matches($0.text) }.count } }

    /// The first line (after the first `after` lines) that satisfies `matches`, waiting at most `timeout`; throws
    /// with everything printed so far.
    @discardableResult
    nonisolated(nonsending) public func line(
        _ what: String, after: Int = 0, timeout: Duration = .seconds(15), _ matches: (String) -> Bool
    ) async throws -> String {
        try await timedLine(what, after: after, timeout: timeout, matches).text
    }

    /// ``line(_:after:timeout:_:)`` with the moment the line arrived.
    nonisolated(nonsending) public func timedLine(
        _ what: String, after: Int = 0, timeout: Duration = .seconds(15), _ matches: (String) -> Bool
    ) async throws -> (text: String, at: ContinuousClock.Instant) {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let found = lock.withLock({ output.dropFirst(after).first { matches($0.text) } }) { return found }
            try await Task.sleep(for: .milliseconds(2))
        }
        throw HostError("\(name): no line with \(what) within \(timeout); it printed: \(lines)")
    }

    /// Closes standard input (a probe says goodbye and exits), then SIGTERM after a second, SIGKILL after two.
    public func stop() async {
        // `try?`: a program that already exited has closed its end; nothing is lost.
        try? input.fileHandleForWriting.close()
        await reap(process, timeout: .seconds(1))
    }

    /// Sends SIGTERM (for programs that do not read their standard input) and waits for the exit.
    public func terminate() async {
        kill(process.processIdentifier, SIGTERM)
        await stop()
    }
}

/// avahi-daemon on one of the hosts, with a D-Bus of its own (so avahi-browse and avahi-publish in that namespace
/// talk to it and to nothing on the machine), its pid file on a private tmpfs, IPv4 only, on the veth only.
public final class AvahiDaemon: Sendable {
    let folder: URL
    let bus: HostProcess
    let daemon: HostProcess
    let namespace: String
    /// What avahi's clients need to reach this daemon's bus.
    public var environment: [String: String] { ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(folder.path)/bus.sock"] }

    /// Starts the bus and the daemon in `namespace`, on `interface`, as `hostName`; returns once avahi says it is up.
    /// `ratelimitBurst` is avahi's packet rate limit (a benchmark that floods it raises it).
    public init(in namespace: String, interface: String, hostName: String, ratelimitBurst: Int = 1_000) async throws {
        self.namespace = namespace
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("orchard-avahi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
          "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>system</type>
          <listen>unix:path=\(folder.path)/bus.sock</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow user="*"/><allow own="*"/><allow send_destination="*"/><allow receive_sender="*"/>
          </policy>
        </busconfig>
        """.write(to: folder.appendingPathComponent("bus.conf"), atomically: true, encoding: .utf8)
        try """
        [server]
        host-name=\(hostName)
        use-ipv4=yes
        use-ipv6=no
        allow-interfaces=\(interface)
        enable-dbus=yes
        ratelimit-interval-usec=1000000
        ratelimit-burst=\(ratelimitBurst)
        [wide-area]
        enable-wide-area=no
        [publish]
        publish-hinfo=no
        publish-workstation=no
        """.write(to: folder.appendingPathComponent("avahi.conf"), atomically: true, encoding: .utf8)
        bus = try HostProcess(
            in: namespace, Self.supervised("dbus-daemon --config-file=\(folder.path)/bus.conf --nofork"))
        let socket = folder.appendingPathComponent("bus.sock").path
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: socket) {
            try await Task.sleep(for: .milliseconds(10))
        }
        let conf = folder.appendingPathComponent("avahi.conf").path
        daemon = try HostProcess(
            in: namespace,
            ["unshare", "-m"]
                + Self.supervised(
                    "avahi-daemon --no-drop-root --no-chroot --no-rlimits -f \(conf)",
                    after: "mkdir -p /run/avahi-daemon && mount -t tmpfs tmpfs /run/avahi-daemon"),
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(socket)"])
        try await daemon.line("avahi's startup") { $0.contains("Server startup complete") }
    }

    /// `command` (after `setup`) run by a shell that stays its parent and passes SIGTERM on. Daemons close every inherited file
    /// descriptor at startup, among them the one Foundation's Process watches to learn that its child exited;
    /// Foundation then blocks its reaper thread in waitpid on the running daemon and no other child is reaped.
    /// The shell keeps that descriptor open for as long as it lives.
    private static func supervised(_ command: String, after setup: String = "true") -> [String] {
        ["sh", "-c", "\(setup) && { \(command) & pid=$!; trap 'kill $pid' TERM; wait $pid; wait $pid; }"]
    }

    /// An avahi client (avahi-browse, avahi-publish) in the daemon's namespace, on its bus.
    public func client(_ command: [String]) throws -> HostProcess {
        try HostProcess(in: namespace, command, environment: environment)
    }

    /// Stops the daemon and its bus.
    public func stop() async {
        await daemon.terminate()
        await bus.terminate()
        // `try?`: a leftover temporary folder is harmless.
        try? FileManager.default.removeItem(at: folder)
    }
}
