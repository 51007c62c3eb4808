/// What a view's output depends on besides the view itself and its own state: the environment and the layout
/// context it is rendered in. An `EquatableView`'s content reuses its last output only where these are the same.
@MainActor
struct RecordedSurroundings {
    let environment: EnvironmentValues
    let axis: StackAxis
    let lazyRows: Bool
    let inList: Bool
    let shownTab: String?

    /// The surroundings of what `context` renders next, or nil where output also depends on a selection or an
    /// action the view does not hold (a selectable list, a picker, a navigation link's selection, an alert).
    init?(_ context: RenderContext) {
        guard context.listSelection == nil, !context.wantsTags, context.linkSelection == nil,
            context.alertDismiss == nil
        else { return nil }
        environment = context.environment
        axis = context.axis
        lazyRows = context.lazyRows
        inList = context.inList
        shownTab = context.shownTab
    }

    /// Whether `other` is the same.
    func matches(_ other: RecordedSurroundings) -> Bool {
        axis == other.axis && lazyRows == other.lazyRows && inList == other.inList && shownTab == other.shownTab
            && environment.isEquivalent(to: other.environment)
    }
}
