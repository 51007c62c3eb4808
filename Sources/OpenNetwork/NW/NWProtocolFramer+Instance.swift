import Foundation
import NIOCore

extension NWProtocolFramer {
    /// One connection's framer: what an ``NWProtocolFramerImplementation``'s callbacks are given, to parse input,
    /// deliver messages, write output and report readiness.
    ///
    /// Call it from within the implementation's callbacks, or from a block given to ``async(execute:)``: those run
    /// one at a time, and the instance's state is theirs.
    public final class Instance: @unchecked Sendable {  // Unchecked: state is touched only inside callbacks (above).
        /// The framer's definition.
        public let definition: Definition
        /// The options the framer was put in the stack with.
        public let options: Options
        /// The connection's peer, as the connection was made with it.
        public let remote: NWEndpoint?
        /// The parameters the connection was made with.
        public let parameters: NWParameters?
        weak var session: FramerSession?

        /// The largest message a framer may deliver.
        static let maximumMessageLength = 16 << 20

        /// A delivery promised by `deliverInputNoCopy` before its bytes arrived.
        struct Pending {
            var remaining: Int
            var collected: Data
            let message: Message
            let isComplete: Bool
        }

        var input = FramerBytes(buffer: ByteBuffer())
        var inputEnded = false
        var pending: Pending?
        /// A message delivered in parts (`isComplete: false`), gathered until its last part.
        var partial: (data: Data, message: Message)?
        var delivered: [(data: Data, message: Message)] = []
        /// The bytes of `delivered`.
        var deliveredBytes = 0
        /// Bumped by every consumption or delivery, so a call to `handleInput` that did nothing is seen.
        var progress = 0
        var passingInput = false
        var passingOutput = false
        /// The content of the message `handleOutput` is framing, and the bytes written for it so far.
        var content = FramerBytes(buffer: ByteBuffer())
        var output = Data()
        /// The first misuse or protocol failure seen in a callback; it fails the connection.
        var failure: NWError?

        init(options: Options, remote: NWEndpoint?, parameters: NWParameters?) {
            self.definition = options.definition
            self.options = options
            self.remote = remote
            self.parameters = parameters
        }

        // MARK: Input

        /// Shows `parse` at least `minimumIncompleteLength` and at most `maximumLength` of the unconsumed input (less
        /// when the peer finished sending: then the flag is true), and consumes the number of bytes it returns.
        /// Returns false, without calling `parse`, when not enough input is buffered yet.
        public func parseInput(
            minimumIncompleteLength: Int, maximumLength: Int, parse: (UnsafeMutableRawBufferPointer?, Bool) -> Int
        ) -> Bool {
            let available = input.count
            guard available >= minimumIncompleteLength || inputEnded else { return false }
            let shown = min(available, max(0, maximumLength))
            let consumed = input.parse(count: shown, isComplete: inputEnded, parse)
            guard consumed >= 0, consumed <= shown else {
                fail("parseInput's block consumed \(consumed) bytes of the \(shown) it was shown")
                return true
            }
            if consumed > 0 {
                input.buffer.moveReaderIndex(forwardBy: consumed)
                progress += 1
            }
            return true
        }

        /// Delivers `data` to the app as (part of) a message.
        public func deliverInput(data: Data, message: Message, isComplete: Bool) {
            deliver(data, message, isComplete)
        }

        /// Delivers the next `length` bytes of input to the app as (part of) a message. Returns true when they were
        /// buffered and went at once; false when they will go once they arrive (return from `handleInput` then: it
        /// is called again after the delivery).
        public func deliverInputNoCopy(length: Int, message: Message, isComplete: Bool) -> Bool {
            guard length >= 0, length <= Self.maximumMessageLength else {
                failure = failure ?? .messageTooLarge(length: UInt64(max(0, length)), limit: Self.maximumMessageLength)
                return false
            }
            let taken = min(length, input.count)
            let data = input.take(taken)
            progress += 1
            if taken == length {
                deliver(data, message, isComplete)
                return true
            }
            pending = Pending(remaining: length - taken, collected: data, message: message, isComplete: isComplete)
            return false
        }

        /// From now on input goes to the app as it arrives, without `handleInput`.
        public func passThroughInput() { passingInput = true }

        func deliver(_ data: Data, _ message: Message, _ isComplete: Bool) {
            progress += 1
            var whole = data
            if let partial {
                whole = partial.data + data
                self.partial = nil
            }
            guard whole.count <= Self.maximumMessageLength else {
                failure = failure ?? .messageTooLarge(length: UInt64(whole.count), limit: Self.maximumMessageLength)
                return
            }
            if isComplete {
                delivered.append((whole, message))
                deliveredBytes += whole.count
            } else {
                partial = (whole, message)
            }
        }

        /// Moves arrived input into a promised delivery; true when none is left waiting.
        func satisfyPending() -> Bool {
            guard var waiting = pending else { return true }
            let taken = min(waiting.remaining, input.count)
            if taken > 0 {
                waiting.collected.append(input.take(taken))
                waiting.remaining -= taken
            }
            if waiting.remaining > 0 {
                pending = waiting
                return false
            }
            pending = nil
            deliver(waiting.collected, waiting.message, waiting.isComplete)
            return true
        }

        // MARK: Output

        /// Writes framing bytes (a header, say) to the connection.
        public func writeOutput(data: Data) { output.append(data) }

        /// Writes framing bytes to the connection.
        public func writeOutput<Output: DataProtocol>(data: Output) { output.append(contentsOf: data) }

        /// Writes the next `length` bytes of the message being sent (within `handleOutput`). Throws when the message
        /// has fewer bytes left.
        public func writeOutputNoCopy(length: Int) throws {
            guard length >= 0, length <= content.count else { throw NWError.posix(.EINVAL) }
            output.append(content.take(length))
        }

        /// Shows `parse` the next bytes of the message being sent (within `handleOutput`) and skips the number it
        /// returns. Returns false, without calling `parse`, when fewer than `minimumIncompleteLength` are left.
        public func parseOutput(
            minimumIncompleteLength: Int, maximumLength: Int, parse: (UnsafeMutableRawBufferPointer?, Bool) -> Int
        ) -> Bool {
            guard content.count >= minimumIncompleteLength else { return false }
            let shown = min(content.count, max(0, maximumLength))
            let consumed = content.parse(count: shown, isComplete: true, parse)
            guard consumed >= 0, consumed <= shown else {
                fail("parseOutput's block consumed \(consumed) bytes of the \(shown) it was shown")
                return true
            }
            content.buffer.moveReaderIndex(forwardBy: consumed)
            return true
        }

        /// From now on the app's content goes to the connection as it is, without `handleOutput`.
        public func passThroughOutput() { passingOutput = true }

        // MARK: Life

        /// Makes the connection ready (after `start` answered `.willMarkReady`).
        public func markReady() { session?.markReady() }

        /// Fails the connection with `error` (nil: a protocol error naming the framer).
        public func markFailed(error: NWError?) {
            session?.markFailed(error ?? .transport("the framer \(definition.name) failed the connection"))
        }

        /// Calls the implementation's `wakeup` after `wakeupTime` milliseconds (a later call replaces the earlier).
        public func scheduleWakeup(wakeupTime: UInt64) { session?.scheduleWakeup(milliseconds: wakeupTime) }

        /// Runs `execute` later, one at a time with the framer's callbacks (so it may use the instance).
        public func async(execute: @escaping () -> Void) { session?.run(execute) }

        func fail(_ why: String) {
            failure = failure ?? .transport("framer \(definition.name): \(why)")
        }
    }
}
