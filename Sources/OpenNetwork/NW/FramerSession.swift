import Foundation
import NIOConcurrencyHelpers

/// Runs one connection's framer: makes its implementation, calls its callbacks one at a time under `lock`, turns the
/// app's sends into framed bytes and arriving bytes into messages, and writes every byte the framer produces through
/// one ordered writer.
final class FramerSession: @unchecked Sendable {  // Unchecked: every field is read and written under `lock`.
    /// A message the framer delivered, or the end of input.
    enum Delivery {
        case message(Data, NWProtocolFramer.Message)
        case end
    }

    private let lock = NIOLock()
    let instance: NWProtocolFramer.Instance
    private var implementation: (any NWProtocolFramerImplementation)?
    private var started = false
    private var ready = false
    private var ended: NWError?
    private var inputHint = 0
    private var failureReported = false
    private var readyWaiters: [CheckedContinuation<Void, any Error>] = []
    private var wakeup: Task<Void, Never>?
    private let writes: AsyncStream<(Data, CheckedContinuation<Void, any Error>?)>.Continuation
    private let writer: Task<Void, Never>
    /// Tells the connection the framer is ready, or fails it (set by ``attach(onReady:onFailure:)``).
    private var onReady: @Sendable () -> Void = {}
    private var onFailure: @Sendable (NWError) -> Void = { _ in }

    /// Reads bytes from the transport: between `atLeast` and `atMost`, and whether the peer finished sending.
    private let read: @Sendable (_ atLeast: Int, _ atMost: Int) async throws -> (Data, isComplete: Bool)
    /// The receive worker waiting for a delivery, and the reader waiting for room (the app to take deliveries).
    private var deliveryWaiter: CheckedContinuation<Void, Never>?
    private var roomWaiter: CheckedContinuation<Void, Never>?
    /// Why the transport stopped giving input (its failure), if it did.
    private var readFailure: NWError?
    /// The reader pauses while the app has not taken this many delivered bytes.
    static let deliveredHighWater = 1 << 20

    init(
        instance: NWProtocolFramer.Instance, send: @escaping @Sendable (Data) async throws -> Void,
        read: @escaping @Sendable (_ atLeast: Int, _ atMost: Int) async throws -> (Data, isComplete: Bool)
    ) {
        self.instance = instance
        self.read = read
        let (stream, writes) = AsyncStream<(Data, CheckedContinuation<Void, any Error>?)>.makeStream()
        self.writes = writes
        writer = Task {
            // One writer, in the order bytes were produced: framed sends and what callbacks wrote on their own.
            var failure: (any Error)?
            for await (bytes, done) in stream {
                if let failure {
                    done?.resume(throwing: failure)
                    continue
                }
                do {
                    try await send(bytes)
                    done?.resume()
                } catch {
                    failure = error
                    done?.resume(throwing: error)
                }
            }
        }
        instance.session = self
        lock.withLock { implementation = instance.definition.implementation.init(framer: instance) }
    }

    // MARK: Life

    /// Sets what tells the connection the framer is ready, and what fails it.
    func attach(onReady: @escaping @Sendable () -> Void, onFailure: @escaping @Sendable (NWError) -> Void) {
        lock.withLock {
            self.onReady = onReady
            self.onFailure = onFailure
        }
    }

    /// Starts the framer once the transport below is ready, and the reader that feeds it input from then on (a
    /// framer reads whether or not the app is receiving: its handshake may need the peer's bytes).
    func start() {
        let (first, becameReady) = lock.withLock { () -> (Bool, Bool) in
            guard !started, ended == nil, let implementation else { return (false, false) }
            started = true
            let result = implementation.start(framer: instance)
            afterCallback()
            if result == .ready && !ready && instance.failure == nil {
                ready = true
                return (true, true)
            }
            return (true, false)
        }
        guard first else { return }
        if becameReady { readied() }
        runInput()
        Task { await self.feed() }
    }

    /// Reads the transport into the framer until the peer finishes, the transport fails or the framer ends, pausing
    /// while the app has a megabyte of delivered messages not yet taken.
    private func feed() async {
        while true {
            await withCheckedContinuation { (room: CheckedContinuation<Void, Never>) in
                let now = lock.withLock { () -> Bool in
                    if ended != nil || instance.deliveredBytes < Self.deliveredHighWater { return true }
                    roomWaiter = room
                    return false
                }
                if now { room.resume() }
            }
            if lock.withLock({ ended != nil || instance.inputEnded }) { return }
            do {
                let (data, complete) = try await read(1, 1 << 16)
                input(data, ended: complete)
                if complete { return }
            } catch NWError.connectionClosed {
                input(Data(), ended: true)
                return
            } catch {
                lock.withLock { readFailure = NWError.from(error) }
                wakeReceiver()
                return
            }
        }
    }

    /// Wakes the receive worker waiting for a delivery (something changed).
    private func wakeReceiver() {
        let waiter = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            defer { deliveryWaiter = nil }
            return deliveryWaiter
        }
        waiter?.resume()
    }

    func markReady() {
        // Called from a callback (the lock is held) or from a block run by `run` (held as well).
        guard started, !ready, ended == nil else { return }
        ready = true
        Task { self.readied() }
    }

    private func readied() {
        let waiters = lock.withLock { () -> [CheckedContinuation<Void, any Error>] in
            defer { readyWaiters = [] }
            return readyWaiters
        }
        for waiter in waiters { waiter.resume() }
        lock.withLock { onReady }()
    }

    func markFailed(_ error: NWError) {
        // Called with the lock held (see markReady): the failure is reported once the callback returns.
        instance.failure = instance.failure ?? error
    }

    /// Waits until the framer is ready (or throws the connection's end).
    func waitUntilReady() async throws {
        try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Void, any Error>) in
            let outcome: Result<Void, any Error>? = lock.withLock {
                if let ended { return .failure(ended) }
                if ready { return .success(()) }
                readyWaiters.append(waiter)
                return nil
            }
            if let outcome { waiter.resume(with: outcome) }
        }
    }

    /// Ends the framer with the connection: stop, then cleanup; waiters get `error`.
    func end(_ error: NWError) {
        let waiters = lock.withLock { () -> [CheckedContinuation<Void, any Error>] in
            guard ended == nil else { return [] }
            ended = error
            wakeup?.cancel()
            if let implementation {
                if started { _ = implementation.stop(framer: instance) }
                implementation.cleanup(framer: instance)
            }
            implementation = nil
            defer { readyWaiters = [] }
            return readyWaiters
        }
        writes.finish()
        for waiter in waiters { waiter.resume(throwing: error) }
        wakeReceiver()
        let room = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            defer { roomWaiter = nil }
            return roomWaiter
        }
        room?.resume()
    }

    func scheduleWakeup(milliseconds: UInt64) {
        // Called with the lock held.
        wakeup?.cancel()
        wakeup = Task {
            try? await Task.sleep(for: .milliseconds(Int64(clamping: milliseconds)))
            // `try?`: a cancelled sleep means a later wakeup replaced this one, or the framer ended; checked below.
            guard !Task.isCancelled else { return }
            self.callback { $0.wakeup(framer: self.instance) }
        }
    }

    func run(_ block: @escaping () -> Void) {
        let box = UncheckedBlock(block)
        Task { self.callback { _ in box.block() } }
    }

    /// Runs one callback of the implementation under the lock, then writes what it produced and reports a failure.
    private func callback(_ body: (any NWProtocolFramerImplementation) -> Void) {
        lock.withLock {
            guard ended == nil, let implementation else { return }
            body(implementation)
            afterCallback()
        }
        runInput()
    }

    /// With the lock held: sends what a callback wrote on its own, and fails the connection on a reported failure.
    private func afterCallback() {
        if !instance.output.isEmpty {
            writes.yield((instance.output, nil))
            instance.output = Data()
        }
        if let failure = instance.failure, ended == nil, !failureReported {
            failureReported = true
            let report = onFailure
            Task { report(failure) }
        }
    }

    // MARK: Output

    /// Frames one message of the app's and writes it; returns once it was written (or throws why not).
    func send(_ content: Data, context: NWConnection.ContentContext, isComplete: Bool) async throws {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            let refused: NWError? = lock.withLock {
                if let ended { return ended }
                guard let implementation else { return .cancelled }
                if instance.passingOutput {
                    writes.yield((content, done))
                    return nil
                }
                let message =
                    context.protocolMetadata(definition: instance.definition) as? NWProtocolFramer.Message
                    ?? NWProtocolFramer.Message(definition: instance.definition)
                instance.content = FramerBytes(buffer: .init(bytes: content))
                implementation.handleOutput(
                    framer: instance, message: message, messageLength: content.count, isComplete: isComplete)
                instance.content = FramerBytes(buffer: .init())
                let framed = instance.output
                instance.output = Data()
                afterCallback()
                if let failure = instance.failure { return failure }
                writes.yield((framed, done))
                return nil
            }
            if let refused { done.resume(throwing: refused) }
        }
    }

    // MARK: Input

    /// Takes bytes that arrived (`ended`: the peer finished sending) and lets the framer parse them.
    private func input(_ bytes: Data, ended peerEnded: Bool) {
        lock.withLock {
            instance.input.buffer.writeBytes(bytes)
            if peerEnded { instance.inputEnded = true }
        }
        runInput()
        wakeReceiver()
    }

    /// Calls `handleInput` while it makes progress on buffered input.
    private func runInput() {
        lock.withLock {
            while ended == nil, started, let implementation, instance.failure == nil {
                guard instance.satisfyPending() else { break }
                if instance.passingInput {
                    if instance.input.count > 0 {
                        let data = instance.input.take(instance.input.count)
                        instance.deliver(data, NWProtocolFramer.Message(definition: instance.definition), true)
                    }
                    break
                }
                let available = instance.input.count
                guard available > 0, available >= inputHint || instance.inputEnded else { break }
                let before = instance.progress
                inputHint = max(0, implementation.handleInput(framer: instance))
                afterCallback()
                if instance.progress == before { break }
            }
        }
    }

    /// The next message the framer delivers, or `.end` once the peer finished and nothing is left. Throws when the
    /// framer or the transport failed, or the peer ended in the middle of a message.
    func nextDelivery() async throws -> Delivery {
        while true {
            if let delivery = try takeDelivery() { return delivery }
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                let now = lock.withLock { () -> Bool in
                    let news =
                        !instance.delivered.isEmpty || instance.failure != nil || instance.inputEnded
                        || readFailure != nil || ended != nil
                    if !news { deliveryWaiter = waiter }
                    return news
                }
                if now { waiter.resume() }
            }
        }
    }

    /// A delivery if one is there (and room for the reader again), the end or a failure; nil to wait for input.
    private func takeDelivery() throws -> Delivery? {
        let (delivery, room) = try lock.withLock { () -> (Delivery?, CheckedContinuation<Void, Never>?) in
            if !instance.delivered.isEmpty {
                let (data, message) = instance.delivered.removeFirst()
                instance.deliveredBytes -= data.count
                guard instance.deliveredBytes < Self.deliveredHighWater, let room = roomWaiter else {
                    return (.message(data, message), nil)
                }
                roomWaiter = nil
                return (.message(data, message), room)
            }
            if let failure = instance.failure { throw failure }
            if let readFailure { throw readFailure }
            if let ended { throw ended }
            guard instance.inputEnded else { return (nil, nil) }
            let left =
                instance.input.count + (instance.pending.map { $0.collected.count } ?? 0)
                + (instance.partial?.data.count ?? 0)
            if left > 0 {
                throw NWError.malformedMessage(
                    "the peer finished sending in the middle of a \(instance.definition.name) message: \(left) bytes "
                        + "the framer did not deliver")
            }
            return (.end, nil)
        }
        room?.resume()
        return delivery
    }
}

/// A block an app gave `NWProtocolFramer.Instance.async(execute:)`, carried to the task that runs it.
private struct UncheckedBlock: @unchecked Sendable {  // Unchecked: it runs under the framer's lock, one at a time.
    let block: () -> Void
    init(_ block: @escaping () -> Void) { self.block = block }
}
