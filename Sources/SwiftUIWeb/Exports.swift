// Like SwiftUI, SwiftUIWeb makes Foundation, Observation and Combine's `ObservableObject` / `@Published` available
// to code that imports it. Combine is OpenCombine, the same module `import Combine` brings (Sources/Combine).
@_exported import Foundation
@_exported import Observation
@_exported import CombineAdditions
@_exported import OpenCombine
