import ArgumentParser
struct InspectCommand: ParsableCommand { static let configuration = CommandConfiguration(commandName: "inspect"); func run() throws {} }
