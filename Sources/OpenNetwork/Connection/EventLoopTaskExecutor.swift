import NIOCore

/// Runs a task's jobs on one event loop, the thread its connection's channel lives on.
///
/// A listener runs each connection's handler with this executor as the task's preference. A receive that a read
/// wakes then continues on the thread that read the bytes, and the reply it sends is written in the same turn of
/// the loop: no thread handoff per message, as a SwiftNIO channel handler never leaves its loop. (From a task on
/// the global executor, each round trip pays two: the wake-up to the event loop for the write, and the resumption
/// back on the global executor after the read.)
///
/// Actors a handler calls still run on their own executors (default actors take the task's preference while the
/// task runs them; actors with custom executors keep theirs), and a child task or `Task {}` the handler starts
/// chooses its own.
final class EventLoopTaskExecutor: TaskExecutor {
    /// The loop every job runs on.
    let loop: any EventLoop

    init(_ loop: any EventLoop) { self.loop = loop }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        // Called on the loop itself (a continuation resumed by a read), `execute` queues the job for this turn
        // without waking the loop's selector.
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
