@testable import SlomoPlayback
import Testing

/// The keys mpv users expect, as the player reads them from typed text.
@Suite struct PlayerCommandTests {
    @Test func typedKeysMapToCommands() {
        #expect(PlayerCommand.of(text: "[") == .multiplyRate(1 / 1.1))
        #expect(PlayerCommand.of(text: "]") == .multiplyRate(1.1))
        #expect(PlayerCommand.of(text: "{") == .multiplyRate(0.5))
        #expect(PlayerCommand.of(text: "}") == .multiplyRate(2))
        #expect(PlayerCommand.of(text: ",") == .step(-1))
        #expect(PlayerCommand.of(text: ".") == .step(1))
        #expect(PlayerCommand.of(text: "a") == .nextAlgorithm)
        #expect(PlayerCommand.of(text: "r") == .toggleDirection)
        #expect(PlayerCommand.of(text: "f") == .toggleFullscreen)
        #expect(PlayerCommand.of(text: "q") == .quit)
        #expect(PlayerCommand.of(text: "x") == nil)
    }
}
