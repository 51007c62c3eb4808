// Like SwiftUI, SwiftUIWeb makes Foundation and Observation available to code that imports it.
@_exported import Foundation
@_exported import Observation
