import Foundation

/// Builds objects for stored rows through the public required initializer (so app subclasses get the
/// right class) without the cost of an insert: the pending payload is handed to `NSManagedObject`'s
/// designated initializer through a thread-specific slot. The one place that handoff's pointers live.
enum ObjectConstruction {
    /// What the initializer takes: the payload and the object's index in it.
    struct Pending {
        // Safe because it is read only through `payload` below, while `make` holds the payload.
        private let reference: Unmanaged<ObjectPayload>
        let index: Int32

        fileprivate init(payload: ObjectPayload, index: Int32) {
            reference = .passUnretained(payload)
            self.index = index
        }

        /// The payload. Safe because `make` holds it (its `payload` argument) until the initializer that
        /// takes it returns, and the initializer stores it in the object (its own reference) at once.
        var payload: ObjectPayload { reference.takeUnretainedValue() }
    }

    // Safe because the key is made once (a static's initializer runs once) and never deleted.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()  // Safe because: a plain integer key.
        // Safe because `key` is a local the call fills in; a process has keys enough for this one.
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed (\(status))")
        return key
    }()

    /// The pending payload of this thread, taken (the slot is cleared), if `make` set one.
    static func take() -> Pending? {
        // Safe because reading and clearing this thread's own slot touches no other thread's.
        guard let raw = pthread_getspecific(key) else { return nil }
        pthread_setspecific(key, nil)  // Safe because: as above.
        // Safe because only `make` sets this key, to a `Pending` on its stack that outlives the initializer
        // call during which this runs; the slot is cleared before anything else can read it.
        return raw.assumingMemoryBound(to: Pending.self).pointee
    }

    /// Creates an object of `entity`'s class whose payload is `payload` (ObjectData, RowBlock or BatchGroup).
    /// The thread-specific slot points at `pending` on this stack frame until the initializer takes it.
    static func make(
        entity: NSEntityDescription, cls: NSManagedObject.Type, context: NSManagedObjectContext,
        payload: ObjectPayload, index: Int32 = 0
    ) -> NSManagedObject {
        var pending = Pending(payload: payload, index: index)
        // Safe because the pointer is used only inside the closure, while `pending` is alive.
        let object = withUnsafeMutablePointer(to: &pending) { pointer in
            // Safe because `pending` lives until this closure returns, and the initializer's first step,
            // NSManagedObject's designated initializer, takes it (clearing the slot: an object the initializer
            // makes after that is an ordinary new one).
            pthread_setspecific(key, pointer)
            return cls.init(entity: entity, insertInto: nil)
        }
        // The initializer must have taken it; a slot left set would hand this frame's payload to a later object.
        // Safe because reading this thread's own slot touches no other thread's.
        precondition(pthread_getspecific(key) == nil, "\(cls).init(entity:insertInto:) did not call super.init first")
        // A fresh ObjectData joins the context; a row block or batch group got its context when it was made.
        if payload.kind == .data { payload.context = context }
        withExtendedLifetime(payload) {}
        return object
    }
}
