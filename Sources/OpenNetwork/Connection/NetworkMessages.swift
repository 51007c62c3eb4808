/// An async sequence of received messages: `for try await (content, metadata) in connection.messages`.
/// It ends when the peer closes the connection at a message boundary and throws on any error.
///
/// The loop runs on its caller's executor: an actor (the main actor, say) that iterates takes each message that is
/// already buffered without leaving the actor (`next(isolation:)`), as the receives it is made of do.
public struct NetworkMessages<Content: Sendable, Metadata: Sendable>: AsyncSequence, Sendable {
    /// One message: its content and metadata.
    public typealias Element = (content: Content, metadata: Metadata)
    /// What the iteration throws.
    public typealias Failure = any Error
    let next: @Sendable (isolated (any Actor)?) async throws -> Element?

    /// `next` is given the caller's actor (nil outside any) and runs isolated to it.
    init(_ next: @escaping @Sendable (isolated (any Actor)?) async throws -> Element?) { self.next = next }

    /// The iterator.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let next: @Sendable (isolated (any Actor)?) async throws -> Element?
        var finished = false

        /// The next message, or nil at the end, on the caller's executor (what `for try await` calls).
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> Element? {
            guard !finished else { return nil }
            do {
                guard let e = try await next(actor) else {
                    finished = true
                    return nil
                }
                return e
            } catch {
                finished = true
                throw error
            }
        }

        /// The next message, or nil at the end.
        public mutating func next() async throws -> Element? {
            try await next(isolation: nil)
        }
    }

    /// Makes an iterator.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(next: next) }
}

/// A weak reference that can cross concurrency domains (used by state handlers to avoid cycles).
struct WeakReference<T: AnyObject & Sendable>: Sendable {
    weak var value: T?
}
