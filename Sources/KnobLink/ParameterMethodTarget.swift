/// What the facet handlers of one parameter reach: the server and the parameter's index.
///
/// A closure that captures a single class reference uses it as its context, where one that
/// captures the reference and an index needs a context object of its own: sharing one target
/// per parameter saves all but one such object on a tree of thousands of addresses.
final class ParameterMethodTarget {
    let core: CoreReference
    let index: Int

    init(core: CoreReference, index: Int) {
        self.core = core
        self.index = index
    }
}
