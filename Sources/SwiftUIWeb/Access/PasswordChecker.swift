import Dispatch

/// Checks passwords typed on the sign-in page one at a time, on a queue of its own: scrypt holds its thread for
/// a good fraction of a second and 128 MiB, so tries must neither take one of Swift's few cooperative threads
/// nor run side by side (which also keeps guessing to a few tries a second).
final class PasswordChecker: Sendable {
    let hash: PasswordHash
    private let queue = DispatchQueue(label: "SwiftUIWeb.password-check")

    init(hash: PasswordHash) { self.hash = hash }

    /// Whether `typed` is the password; throws when it could not be checked.
    func check(_ typed: String) async throws -> Bool {
        let hash = self.hash
        return try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try hash.matches(typed) }) }
        }
    }
}
