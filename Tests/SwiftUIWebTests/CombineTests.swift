import Combine
import Foundation
import Testing

@testable import SwiftUIWeb

/// `import Combine` works beside SwiftUIWeb, and the two give one `ObservableObject`, one `@Published`: code written
/// for Apple's systems observes its models through Combine and SwiftUI alike.
@MainActor
@Suite("Combine")
struct CombineTests {
    final class Counter: ObservableObject {
        @Published var count = 0
        @Published var name = "start"
    }

    @Test func theTypesAreCombines() {
        // One type each: a value of SwiftUIWeb's ObservableObjectPublisher is Combine's, and a Combine publisher's
        // output feeds a SwiftUIWeb view's object.
        let counter = Counter()
        let publisher: Combine.ObservableObjectPublisher = counter.objectWillChange
        #expect(ObjectIdentifier(type(of: publisher)) == ObjectIdentifier(SwiftUIWeb.ObservableObjectPublisher.self))
        #expect(ObjectIdentifier(Combine.AnyCancellable.self) == ObjectIdentifier(SwiftUIWeb.AnyCancellable.self))
    }

    @Test func publishedValuesAndWillChangeReachSinks() {
        let counter = Counter()
        var seen: [Int] = []
        var willChange = 0
        var subscriptions = Set<AnyCancellable>()
        counter.$count.sink { seen.append($0) }.store(in: &subscriptions)
        counter.objectWillChange.sink { willChange += 1 }.store(in: &subscriptions)
        counter.count = 1
        counter.count = 2
        counter.name = "x"
        #expect(seen == [0, 1, 2])
        #expect(willChange == 3)
        // A pipeline: map, filter, removeDuplicates, as Apple code writes them.
        var evens: [String] = []
        counter.$count.map { $0 * 2 }.filter { $0 > 2 }.removeDuplicates().map(String.init)
            .sink { evens.append($0) }.store(in: &subscriptions)
        counter.count = 2
        counter.count = 3
        counter.count = 3
        #expect(evens == ["4", "6"])
    }

    @Test func aViewRendersWhatASubjectFedItsModel() {
        let counter = Counter()
        let subject = PassthroughSubject<Int, Never>()
        var subscriptions = Set<AnyCancellable>()
        subject.assign(to: \.count, on: counter).store(in: &subscriptions)
        struct Show: View {
            @ObservedObject var counter: Counter
            var body: some View { Text("Count \(counter.count)") }
        }
        let scene = window { Show(counter: counter) }
        #expect(scene.text("Count 0"))
        subject.send(5)
        let patches = scene.flush()
        #expect(hasText(patches, "Count 5"))
    }

    @Test func aChangeFromAnotherThreadWakesTheWindow() async throws {
        let counter = Counter()
        struct Show: View {
            @ObservedObject var counter: Counter
            var body: some View { Text("Count \(counter.count)") }
        }
        let scene = window { Show(counter: counter) }
        let box = UncheckedCounter(counter)
        await Task.detached { box.counter.count = 7 }.value
        _ = scene.flush()
        #expect(scene.text("Count 7"))
    }

    @Test func onReceiveDeliversOnTheMainActorUntilTheViewLeaves() async throws {
        let subject = PassthroughSubject<String, Never>()
        struct Receiver: View {
            let subject: PassthroughSubject<String, Never>
            @State private var last = "none"
            var body: some View {
                Text("Last \(last)").onReceive(subject) { value in last = value }
            }
        }
        let scene = window { Receiver(subject: subject) }
        #expect(scene.text("Last none"))
        // The window's tasks start after its first pass; wait for the subscription, then send.
        for attempt in 0..<100 {
            subject.send("hello \(attempt)")
            try await Task.sleep(for: .milliseconds(20))
            _ = scene.flush()
            if scene.text("Last hello") { break }
        }
        #expect(scene.text("Last hello"))
        // From another thread too: the value arrives through the main queue.
        let sender = UncheckedSubject(subject)
        await Task.detached { sender.subject.send("from afar") }.value
        for _ in 0..<100 where !scene.text("Last from afar") {
            try await Task.sleep(for: .milliseconds(20))
            _ = scene.flush()
        }
        #expect(scene.text("Last from afar"))
    }

    @Test func timerPublishTicksAViewOnTheMainQueue() async throws {
        struct Clock: View {
            @State private var ticks = 0
            let timer = Timer.publish(every: 0.02, on: .main, in: .common).autoconnect()
            var body: some View {
                Text("Ticks \(ticks)").onReceive(timer) { _ in ticks += 1 }
            }
        }
        let scene = window { Clock() }
        // One tick proves the path (timer, main queue, onReceive, state, render); a full test run keeps the main
        // queue busy, so the wait is generous.
        for _ in 0..<1500 where scene.text("Ticks 0") {
            try await Task.sleep(for: .milliseconds(20))
            _ = scene.flush()
        }
        #expect(!scene.text("Ticks 0") && scene.text("Ticks"))
    }

    /// A timer on the calling thread's run loop (called off the main thread).
    nonisolated static func backgroundTimer() -> Timer.DispatchTimerPublisher {
        Timer.publish(every: 0.01, tolerance: 0.005, on: RunLoop.current, in: .default)
    }

    @Test func aTimerStopsWhenCancelledAndConnectsOnce() async throws {
        // Another thread's run loop: the timer fires on a queue of its own.
        let timer = await Task.detached { CombineTests.backgroundTimer() }.value
        #expect(timer.runLoop !== RunLoop.main)
        #expect(timer.interval == 0.01 && timer.tolerance == 0.005 && timer.mode == .default)
        let dates = DateBox()
        let subscription = timer.sink { dates.add($0) }
        let first = timer.connect()
        let second = timer.connect()
        for _ in 0..<200 where dates.count < 3 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(dates.count >= 3)
        first.cancel()
        second.cancel()
        let stopped = dates.count
        try await Task.sleep(for: .milliseconds(100))
        // Stopping is immediate, but an event already queued may still land: at most one more.
        #expect(dates.count <= stopped + 1)
        subscription.cancel()
    }

    /// Apple's pattern for a model without @Published: its own publisher, sent by hand.
    final class Manual: ObservableObject {
        let objectWillChange = ObservableObjectPublisher()
        var value = 0 {
            willSet { objectWillChange.send() }
        }
    }

    /// The same without a publisher of its own: OpenCombine hands out a new one on every read.
    final class Unobservable: ObservableObject {
        var value = 0 {
            willSet { objectWillChange.send() }
        }
    }

    @Test func aModelSendingByHandIsObservedAndOneThatCannotBeIsReported() {
        let manual = Manual()
        struct Show: View {
            @ObservedObject var model: Manual
            var body: some View { Text("Value \(model.value)") }
        }
        let scene = window { Show(model: manual) }
        manual.value = 3
        #expect(hasText(scene.flush(), "Value 3"))

        let lost = Unobservable()
        struct Lost: View {
            @ObservedObject var model: Unobservable
            var body: some View { Text("Value \(model.value)") }
        }
        let other = window { Lost(model: lost) }
        _ = other.flush()
        #expect(other.text("Unobservable has no @Published property"), "\(other.html)")
        #expect(other.text("let objectWillChange = ObservableObjectPublisher()"))
    }
}

/// Hands a model to another thread on purpose (the test is of a change made off the main actor).
private final class UncheckedCounter: @unchecked Sendable {
    let counter: CombineTests.Counter
    init(_ counter: CombineTests.Counter) { self.counter = counter }
}

/// Hands a subject to another thread on purpose.
private final class UncheckedSubject: @unchecked Sendable {
    let subject: PassthroughSubject<String, Never>
    init(_ subject: PassthroughSubject<String, Never>) { self.subject = subject }
}

/// Dates received from a timer on its own queue.
final class DateBox: @unchecked Sendable {
    private let lock = NSLock()
    private var dates: [Date] = []
    func add(_ date: Date) { lock.withLock { dates.append(date) } }
    var count: Int { lock.withLock { dates.count } }
}
