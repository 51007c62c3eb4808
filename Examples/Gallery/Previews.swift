// The gallery's previews, written as for Xcode's canvas. The app's preview gallery (`/?g=_previews`, printed at
// launch) lists them and shows each in the frame its traits ask for.
import SwiftUIWeb

#Preview("Shapes", traits: .sizeThatFitsLayout) {
    ShapesPage()
}

#Preview("Progress") {
    ProgressPage()
}

#Preview("A dose counter") {
    @Previewable @State var taken = 1
    VStack {
        Text("Taken \(taken) of 3")
        Button("Take one") { taken = min(3, taken + 1) }
    }
}

struct Triangle_Previews: PreviewProvider {
    static var previews: some View {
        Triangle().fill(.orange).frame(width: 120, height: 100)
            .previewLayout(.fixed(width: 160, height: 140))
            .previewDisplayName("A triangle")
    }
}
