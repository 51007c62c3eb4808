import Foundation
import OpenHealthKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// orchard-healthd: the health daemon. It alone opens the health store and serves apps over a Unix domain socket.
let usage = """
    usage: orchard-healthd [--store-directory DIR] [--socket PATH] [--registry FILE] [--allow-user UID]...

      --store-directory DIR  where HealthStore.sqlite lives (created 0700)
                             default: $XDG_DATA_HOME/orchard-healthd (~/.local/share/orchard-healthd)
      --socket PATH          the socket apps connect to
                             default: $ORCHARD_HEALTHD_SOCKET, else $XDG_RUNTIME_DIR/orchard-healthd/socket
      --registry FILE        the programs that may connect, their bundle identifiers and the person's grants
                             default: $XDG_CONFIG_HOME/orchard-healthd/apps.json (~/.config/orchard-healthd/apps.json)
      --allow-user UID       a user whose processes may connect (repeatable; default: the daemon's own user)
      --trust-owner UID      a user who may own the registry and registered programs besides root and the
                             daemon's user (repeatable)

    Apps find the daemon through the same socket path (HKHealthStore() connects when the socket exists).
    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("orchard-healthd: \(message)\n".utf8))
    exit(1)
}

let environment = ProcessInfo.processInfo.environment
let home = FileManager.default.homeDirectoryForCurrentUser.path
var storeDirectory = (environment["XDG_DATA_HOME"] ?? home + "/.local/share") + "/orchard-healthd"
var socketPath = HKHealthStore.defaultDaemonSocketPath
var registry = (environment["XDG_CONFIG_HOME"] ?? home + "/.config") + "/orchard-healthd/apps.json"
var allowedUsers: Set<UInt32> = []
var trustedOwners: Set<UInt32> = [0, geteuid()]

var arguments = CommandLine.arguments.dropFirst()
@MainActor func value(_ flag: String) -> String {
    guard let next = arguments.popFirst(), !next.hasPrefix("--") else { fail("\(flag) needs a value\n\n\(usage)") }
    return next
}
while let argument = arguments.popFirst() {
    switch argument {
    case "--store-directory": storeDirectory = value(argument)
    case "--socket": socketPath = value(argument)
    case "--registry": registry = value(argument)
    case "--allow-user", "--trust-owner":
        let text = value(argument)
        guard let uid = UInt32(text) else { fail("\(argument) takes a numeric user ID, not \"\(text)\"") }
        if argument == "--allow-user" { allowedUsers.insert(uid) } else { trustedOwners.insert(uid) }
    case "--help", "-h":
        print(usage)
        exit(0)
    default: fail("unknown option \(argument)\n\n\(usage)")
    }
}
guard let socketPath else { fail("no socket path: give --socket, or set ORCHARD_HEALTHD_SOCKET or XDG_RUNTIME_DIR") }
guard socketPath.utf8.count < 108 else {
    fail("the socket path \(socketPath) is longer than a Unix socket allows (107 bytes)")
}

var configuration = HealthDaemon.Configuration(
    storeDirectory: URL(fileURLWithPath: storeDirectory), socketPath: socketPath,
    registryURL: URL(fileURLWithPath: registry))
if !allowedUsers.isEmpty { configuration.allowedUsers = allowedUsers }
configuration.trustedOwners = trustedOwners
let daemon = HealthDaemon(configuration: configuration)

// SIGTERM and SIGINT stop the daemon cleanly: the listener closes and the socket file goes away.
signal(SIGTERM, SIG_IGN)
signal(SIGINT, SIG_IGN)
let announcement = "orchard-healthd: serving \(storeDirectory) at \(socketPath)\n"
let serving = Task {
    try await daemon.run { FileHandle.standardOutput.write(Data(announcement.utf8)) }
}
let stops = [SIGTERM, SIGINT].map { signalNumber -> any DispatchSourceSignal in
    let source = DispatchSource.makeSignalSource(signal: signalNumber)
    source.setEventHandler { serving.cancel() }
    source.resume()
    return source
}
do {
    try await serving.value
    _ = stops
} catch is CancellationError {
    _ = stops
} catch {
    fail("\(error)")
}
