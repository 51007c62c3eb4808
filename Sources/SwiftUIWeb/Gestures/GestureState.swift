import Foundation

/// A state that a gesture sets while it runs (`updating`) and that returns to its initial value when it ends.
@MainActor @propertyWrapper
public struct GestureState<Value>: DynamicProperty, SceneBindable {
    final class Box {
        var slot: StorageSlot?
        let initial: Value
        init(_ initial: Value) { self.initial = initial }
    }
    let box: Box
    /// A gesture state starting (and ending) at `wrappedValue`.
    public init(wrappedValue: Value) { box = Box(wrappedValue) }
    /// A gesture state starting (and ending) at `initialValue`.
    public init(initialValue: Value) { box = Box(initialValue) }
    /// The current value (set only by the gesture).
    public var wrappedValue: Value { (box.slot?.value as? Value) ?? box.initial }
    /// The state itself, for `updating`.
    public var projectedValue: GestureState<Value> { self }

    func set(_ value: Value, animation: Animation?) {
        guard let slot = box.slot else { return }
        slot.value = value
        if let animation {
            AnimationTransaction.$current.withValue(animation) { slot.scene?.changed(slot) }
        } else {
            slot.scene?.changed(slot)
        }
    }
    func reset() { set(box.initial, animation: nil) }

    func install(in scene: SceneInstance, key: String, context: RenderContext) {
        box.slot = scene.slot(for: key, context: context) { box.initial }
    }
}

extension GestureState where Value: ExpressibleByNilLiteral {
    /// A gesture state starting (and ending) at nil.
    public init() { self.init(wrappedValue: nil) }
}
