import Publication
import Store

extension TripFigures {
    /// The figures of `publication`, with each person's trips per main mode as `store` holds them
    /// (the trip stage's, or a distributed run's merged store: the same trips either way).
    init(_ publication: TripPublication, store: PipelineStore) throws {
        self.init(
            publication,
            tripParts: try store.tripParts().map {
                TripPart(mode: $0.mode, person: $0.person, distanceMeters: $0.distanceMeters, durationSeconds: $0.durationSeconds)
            })
    }
}
