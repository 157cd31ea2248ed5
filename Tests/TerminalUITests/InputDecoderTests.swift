import Testing

@testable import TerminalUI

@Suite struct InputDecoderTests {
    private func decode(_ text: String) -> [InputEvent] {
        var decoder = InputDecoder()
        return decoder.decode(Array(text.utf8))
    }

    @Test(arguments: [
        ("\u{1B}[A", Key.up(shift: false)), ("\u{1B}[B", .down(shift: false)), ("\u{1B}[C", .right(shift: false)),
        ("\u{1B}[D", .left(shift: false)), ("\u{1B}[1;2A", .up(shift: true)), ("\u{1B}[1;2D", .left(shift: true)),
        ("\u{1B}OA", .up(shift: false)), ("\u{1B}[H", .home), ("\u{1B}[F", .end), ("\u{1B}[1~", .home),
        ("\u{1B}[4~", .end), ("\u{1B}[5~", .pageUp), ("\u{1B}[6~", .pageDown), ("\u{1B}[3~", .delete),
        ("\u{1B}[Z", .backTab), ("\t", .tab), ("\r", .enter), ("\u{7F}", .backspace), ("\u{03}", .control("c")),
        ("q", .character("q")), ("H", .character("H")), ("é", .character("é")), ("\u{1B}", .escape),
    ])
    func keys(text: String, key: Key) {
        #expect(decode(text) == [.key(key)])
    }

    @Test func sgrMouseReportsArePressDragReleaseAndWheel() {
        let events = decode("\u{1B}[<0;10;5M\u{1B}[<32;15;6M\u{1B}[<0;20;8m\u{1B}[<64;3;4M\u{1B}[<69;3;4M")
        #expect(
            events == [
                .mouse(MouseEvent(kind: .press, x: 9, y: 4)), .mouse(MouseEvent(kind: .drag, x: 14, y: 5)),
                .mouse(MouseEvent(kind: .release, x: 19, y: 7)), .mouse(MouseEvent(kind: .wheelUp, x: 2, y: 3)),
                .mouse(MouseEvent(kind: .wheelDown, x: 2, y: 3, shift: true)),
            ])
    }

    @Test func aSequenceSplitAcrossReadsIsKept() {
        var decoder = InputDecoder()
        #expect(decoder.decode(Array("\u{1B}[<0;1".utf8)).isEmpty)
        #expect(
            decoder.decode(Array("0;5Mx".utf8)) == [
                .mouse(MouseEvent(kind: .press, x: 9, y: 4)), .key(.character("x")),
            ])
        #expect(decoder.decode(Array([0xC3])).isEmpty)
        #expect(decoder.decode(Array([0xA9])) == [.key(.character("é"))])
    }

    @Test func severalKeysInOneRead() {
        #expect(decode("jk\u{1B}[A") == [.key(.character("j")), .key(.character("k")), .key(.up(shift: false))])
    }

    @Test func unknownSequencesAreDropped() {
        #expect(decode("\u{1B}[99x" + "a") == [.key(.character("a"))])
    }
}
