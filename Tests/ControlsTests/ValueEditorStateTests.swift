import Controls
import Foundation
import Testing

@Suite struct ValueEditorStateTests {
    private func editor(
        decimal: ValueEditorState.Permission = .allowed, sign: ValueEditorState.Permission = .allowed,
        separator: String = "."
    ) -> ValueEditorState {
        ValueEditorState(
            id: 1, displayName: "Release", value: "36", theme: Theme(), decimalAllowed: decimal, signAllowed: sign,
            decimalSeparator: separator)
    }

    @Test(arguments: ["", "+", "+10.0", "-3", "−3", "12", "0.5", ".5"])
    func valid(text: String) {
        #expect(editor().isValid(text))
    }

    @Test(arguments: ["+10-", "10.0.", "1e3", "abc", "++1", "1,5", " 1"])
    func invalid(text: String) {
        #expect(!editor().isValid(text))
    }

    @Test func permissions() {
        #expect(!editor(decimal: .none).isValid("10."))
        #expect(editor(decimal: .none).isValid("10"))
        #expect(!editor(sign: .none).isValid("+1"))
        #expect(editor(sign: .none).isValid("1"))
    }

    @Test func commaLocale() {
        let comma = editor(separator: ",")
        #expect(comma.isValid("1,5"))
        #expect(!comma.isValid("1,5,"))
        #expect(!comma.isValid("1.5"))
        #expect(comma.parse("1,5") == 1.5)
        #expect(comma.parse("1.5") == nil)
        #expect(comma.parse("−2,25") == -2.25)
        #expect(ValueEditorState.decimalSeparator(of: Locale(identifier: "de_DE")) == ",")
        #expect(ValueEditorState.decimalSeparator(of: Locale(identifier: "en_US")) == ".")
    }

    @Test func invalidEditsRevert() {
        let state = editor()
        #expect(state.accepting("37") == "37")
        #expect(state.accepting("3.7.") == "36")
    }

    @Test func parsing() {
        #expect(editor().parse("12.5") == 12.5)
        #expect(editor().parse("") == nil)
        #expect(editor().parse("+") == nil)
        #expect(editor().parse("inf") == nil)
    }

    @Test func noEditorIsOpenByDefault() throws {
        let state = KnobFeature.State(value: 1, displayName: "Knob", minimumValue: 0, maximumValue: 2, id: 1)
        #expect(state.editor == nil)
    }
}

@Suite struct ValueEditorSuffixTests {
    private func editor() -> ValueEditorState {
        ValueEditorState(
            id: 1, displayName: "Gain", value: "0", theme: Theme(), signAllowed: .allowed, suffixAllowed: .allowed)
    }

    @Test(arguments: ["-6 dB", "1.2kHz", "250ms", "6 d", "50%", "90°", "-6", ""])
    func aUnitMayFollowTheNumber(text: String) {
        #expect(editor().isValid(text))
    }

    @Test(arguments: ["dB", "6 d3", "1e3", "-6 dB-", " 6"])
    func theUnitComesAfterDigitsAndIsNotFollowedByMore(text: String) {
        #expect(!editor().isValid(text))
    }
}
