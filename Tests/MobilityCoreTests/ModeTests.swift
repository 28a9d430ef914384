import MobilityCore
import Testing

@Suite struct ModeTests {
    @Test func mapsDataSetNamesThroughTheTable() {
        let expected: [String: Mode] = [
            "Walking": .walk, "Still": .still, "Car": .car, "Train": .train, "Bus": .bus,
            "SEATED": .still, "STANDING_UP": .still, "SITTING_DOWN": .still, "TURNING": .walk, "WALKING": .walk,
            "taxi": .car, "subway": .train, "run": .walk, "bike": .bike, "airplane": .airplane, "boat": .boat
        ]
        for (name, mode) in expected { #expect(Mode(labelName: name) == mode, "\(name)") }
    }

    @Test func unknownNamesAreNotGuessed() {
        #expect(Mode(labelName: "skateboard") == nil)
        #expect(Mode(labelName: "") == nil)
    }
}
