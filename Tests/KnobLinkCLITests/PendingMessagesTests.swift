import Testing

@testable import KnobLinkCLI

@Suite struct PendingMessagesTests {
    @Test func placesRunOutAtTheLimitAndComeBackWhenReleased() {
        let pending = PendingMessages(limit: 2)
        #expect(pending.reserve())
        #expect(pending.reserve())
        #expect(!pending.reserve())
        pending.release(1)
        #expect(pending.reserve())
        #expect(!pending.reserve())
    }
}
