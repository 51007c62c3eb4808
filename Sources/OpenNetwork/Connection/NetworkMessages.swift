/// An async sequence of received messages: `for try await (content, metadata) in connection.messages`.
/// It ends when the peer closes the connection at a message boundary and throws on any error.
public struct NetworkMessages<Content: Sendable, Metadata: Sendable>: AsyncSequence, Sendable {
    /// One message: its content and metadata.
    public typealias Element = (content: Content, metadata: Metadata)
    let next: @Sendable () async throws -> Element?

    init(_ next: @escaping @Sendable () async throws -> Element?) { self.next = next }

    /// The iterator.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let next: @Sendable () async throws -> Element?
        var finished = false
        /// The next message, or nil at the end.
        public mutating func next() async throws -> Element? {
            guard !finished else { return nil }
            do {
                guard let e = try await next() else {
                    finished = true
                    return nil
                }
                return e
            } catch {
                finished = true
                throw error
            }
        }
    }

    /// Makes an iterator.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(next: next) }
}

/// A weak reference that can cross concurrency domains (used by state handlers to avoid cycles).
struct WeakReference<T: AnyObject & Sendable>: Sendable {
    weak var value: T?
}
