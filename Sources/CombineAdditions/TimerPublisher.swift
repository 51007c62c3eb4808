// Apple's `Timer.publish(every:tolerance:on:in:)` for code that imports Combine or SwiftUI on Linux. OpenCombine
// offers its timer as `Timer.ocombine.publish`, scheduled on a run loop; a SwiftUIWeb app's main thread serves the
// main dispatch queue and never runs `RunLoop.main`, so a run-loop timer would never fire. This one fires on a
// dispatch timer: on the main queue for `RunLoop.main`, on a queue of its own for any other run loop.
//
// Its type is `Timer.DispatchTimerPublisher`: OpenCombine already names its run-loop publisher
// `Timer.TimerPublisher` on Linux, so code that spells that type (`Publishers.Autoconnect<Timer.TimerPublisher>`)
// does not compile against `Timer.publish`; code that lets the type be inferred does.
import Dispatch
import Foundation
import OpenCombine

extension Timer {
    /// A publisher that sends the date every `interval` seconds once connected (`autoconnect()` connects it on
    /// its first subscriber), on the main queue for `RunLoop.main`.
    ///
    /// `tolerance` is the dispatch timer's leeway. `mode` has no meaning here: without a run loop, a timer fires in
    /// every mode (as in `.common`).
    public static func publish(
        every interval: TimeInterval, tolerance: TimeInterval? = nil, on runLoop: RunLoop, in mode: RunLoop.Mode
    ) -> DispatchTimerPublisher {
        DispatchTimerPublisher(interval: interval, tolerance: tolerance, runLoop: runLoop, mode: mode)
    }

    /// A connectable publisher of dates at a fixed interval.
    // Safe because: its one mutable property, `timer`, is read and written only under `lock`; the rest are `let`s
    // of Sendable values and OpenCombine's thread-safe subject.
    public final class DispatchTimerPublisher: ConnectablePublisher, @unchecked Sendable {
        /// The dates it sends.
        public typealias Output = Date
        /// It never fails.
        public typealias Failure = Never

        /// Seconds between dates.
        public let interval: TimeInterval
        /// The leeway the timer may fire with.
        public let tolerance: TimeInterval?
        /// The run loop it was asked for (`RunLoop.main` fires on the main queue).
        public let runLoop: RunLoop
        /// The run loop mode it was asked for.
        public let mode: RunLoop.Mode

        private let subject = PassthroughSubject<Date, Never>()
        private let lock = NSLock()
        /// Safe because: only read and written under `lock`.
        private var timer: DispatchSourceTimer?

        /// A publisher; it sends nothing until connected.
        public init(interval: TimeInterval, tolerance: TimeInterval? = nil, runLoop: RunLoop, mode: RunLoop.Mode) {
            precondition(interval > 0, "Timer.publish(every:): the interval must be positive, not \(interval)")
            self.interval = interval
            self.tolerance = tolerance
            self.runLoop = runLoop
            self.mode = mode
        }

        deinit { timer?.cancel() }

        /// Attaches a subscriber; it gets the dates sent after it subscribed.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Date, S.Failure == Never {
            subject.receive(subscriber: subscriber)
        }

        /// Starts the timer (once, however often it is called); cancelling the result stops it.
        public func connect() -> any Cancellable {
            lock.lock()
            defer { lock.unlock() }
            if timer == nil {
                let queue =
                    runLoop === RunLoop.main
                    ? DispatchQueue.main : DispatchQueue(label: "Timer.DispatchTimerPublisher", qos: .userInitiated)
                let source = DispatchSource.makeTimerSource(queue: queue)
                let leeway = DispatchTimeInterval.nanoseconds(Int(((tolerance ?? 0) * 1e9).rounded()))
                source.schedule(deadline: .now() + interval, repeating: interval, leeway: leeway)
                source.setEventHandler { [subject] in subject.send(Date()) }
                source.resume()
                timer = source
            }
            return AnyCancellable { [weak self] in self?.stop() }
        }

        private func stop() {
            lock.lock()
            defer { lock.unlock() }
            timer?.cancel()
            timer = nil
        }
    }
}
