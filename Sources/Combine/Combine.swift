// `import Combine` on Linux: Apple's Combine API from OpenCombine, with its Dispatch and Foundation schedulers and
// publishers. SwiftUIWeb re-exports the same OpenCombine module, so `ObservableObject`, `@Published`,
// `ObservableObjectPublisher` and `AnyCancellable` are one type each whichever of the two a file imports.
//
// What differs from Apple's Combine, and why: OpenCombine puts Foundation's and Dispatch's publishers and
// schedulers under an `ocombine` namespace (`Timer.ocombine.publish(every:on:in:)`,
// `DispatchQueue.main.ocombine`, `NotificationCenter.default.ocombine.publisher(for:)`), because on Apple's
// platforms those names belong to Combine. Apple's `Timer.publish(every:on:in:)` comes from CombineAdditions (a
// dispatch timer: a SwiftUIWeb app never runs `RunLoop.main`).
@_exported import CombineAdditions
@_exported import OpenCombine
@_exported import OpenCombineDispatch
@_exported import OpenCombineFoundation
