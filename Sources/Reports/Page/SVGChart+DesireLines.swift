import Foundation

extension SVGChart {
    /// A map of desire lines: each place at its position (longitude and latitude drawn as a
    /// plane, longitudes shrunk by the cosine of the mean latitude, as at city scale), a line
    /// from origin to destination as wide as its trips, and trips within one place as a circle
    /// whose area follows them. Places are labelled; every line and circle says its trips.
    static func desireLines(
        places: [(name: String, longitude: Double, latitude: Double)], pairs: [(origin: Int, destination: Int, trips: Double)],
        title: String, unit: String
    ) -> String {
        let width = 760.0, height = 420.0, margin = 60.0, top = 28.0
        guard !places.isEmpty else { return "" }
        let meanLatitude = places.map(\.latitude).reduce(0, +) / Double(places.count)
        let shrink = cos(meanLatitude * .pi / 180)
        let xs = places.map { $0.longitude * shrink }, ys = places.map(\.latitude)
        let spanX = max((xs.max()! - xs.min()!), 1e-9), spanY = max((ys.max()! - ys.min()!), 1e-9)
        let scale = min((width - 2 * margin) / spanX, (height - top - 2 * margin) / spanY)
        func point(_ i: Int) -> (x: Double, y: Double) {
            (
                margin + (xs[i] - xs.min()!) * scale + (width - 2 * margin - spanX * scale) / 2,
                top + margin + (ys.max()! - ys[i]) * scale + (height - top - 2 * margin - spanY * scale) / 2
            )
        }
        let most = max(pairs.map(\.trips).max() ?? 1, 1e-9)
        var svg = open(width: width, height: height, title: title, titleX: 0)
        for pair in pairs.sorted(by: { $0.trips > $1.trips }) {
            let (a, b) = (point(pair.origin), point(pair.destination))
            let label =
                "\(HTML.escape(places[pair.origin].name)) → \(HTML.escape(places[pair.destination].name)): \(HTML.number(pair.trips, 1)) \(HTML.escape(unit))"
            if pair.origin == pair.destination {
                svg +=
                    "<circle cx=\(q(a.x)) cy=\(q(a.y)) r=\(q(4 + 20 * (pair.trips / most).squareRoot())) fill=\"#1565c0\" fill-opacity=\"0.25\">"
                    + "<title>\(label)</title></circle>"
            } else {
                svg +=
                    "<line x1=\(q(a.x)) y1=\(q(a.y)) x2=\(q(b.x)) y2=\(q(b.y)) stroke=\"#1565c0\" stroke-opacity=\"0.6\" "
                    + "stroke-width=\(q(1 + 11 * pair.trips / most)) stroke-linecap=\"round\"><title>\(label)</title></line>"
            }
        }
        for i in places.indices {
            let p = point(i)
            svg += "<circle cx=\(q(p.x)) cy=\(q(p.y)) r=\"3\" fill=\"#263238\"/>"
            svg += "<text x=\(q(p.x + 6)) y=\(q(p.y - 6)) class=\"ax\">\(HTML.escape(places[i].name))</text>"
        }
        return svg + "</svg>"
    }
}
