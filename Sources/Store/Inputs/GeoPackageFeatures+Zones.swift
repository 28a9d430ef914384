import MobilityCore

extension GeoPackageFeatures {
    /// A GeoPackage's polygons as a zone layer's fences (`--zones`): each feature's `idColumn`
    /// as its id and `nameColumn` as its name (the id where missing; the column itself may be
    /// missing when `nameColumnIsOptional`). Features whose geometry is no polygon are returned
    /// as dropped, with their row. The layer must be in EPSG:4326 (longitude, latitude): any other
    /// reference is refused with the `ogr2ogr` command that reprojects it.
    public static func zoneFences(path: String, idColumn: String, nameColumn: String, nameColumnIsOptional: Bool) throws -> (
        fences: [(feature: Int, fence: Geofence)], dropped: [(feature: Int, reason: String)]
    ) {
        let package = try GeoPackageFeatures(
            path: path, columns: nameColumnIsOptional || idColumn == nameColumn ? [idColumn] : [idColumn, nameColumn],
            optionalColumns: nameColumnIsOptional ? [nameColumn] : [])
        if let reference = package.spatialReference, !(reference.organization.uppercased() == "EPSG" && reference.id == 4326) {
            throw PipelineError(
                .invalidZoneLayer, path: path,
                reason:
                    "the layer \(package.table) is in \(reference.organization):\(reference.id), not EPSG:4326 (longitude, latitude); reproject it, e.g. `ogr2ogr -t_srs EPSG:4326 zones-4326.gpkg \(path)`"
            )
        }
        var fences: [(Int, Geofence)] = []
        var dropped: [(Int, String)] = []
        for feature in package.features {
            guard let id = feature.values[idColumn] else {
                throw PipelineError(.invalidZoneLayer, path: path, reason: "row \(feature.row) of \(package.table) has no \(idColumn)")
            }
            guard let blob = feature.geometry, let (_, shape) = GeoPackageGeometry.polygons(blob) else {
                dropped.append((feature.row, "not a Polygon or MultiPolygon"))
                continue
            }
            fences.append((feature.row, Geofence(id: id, name: feature.values[nameColumn] ?? id, kind: "zone", shape: shape)))
        }
        return (fences, dropped)
    }
}
