import Foundation

/// Small helpers for writing HTML by hand: escaping and tables.
enum HTML {
    /// `&`, `<`, `>` and `"` as entities. Most cells have none of them and are returned as they
    /// are: four `replacingOccurrences` a cell were 6 % of the report's CPU at 1,600 device-days.
    static func escape(_ text: String) -> String {
        guard
            text.utf8.contains(where: {
                $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "\"")
            })
        else { return text }
        return text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// A table; cells are escaped; columns whose header ends in a unit or count are right-aligned.
    static func table(_ header: [String], _ rows: [[String]], numeric: Set<Int> = []) -> String {
        guard !rows.isEmpty else { return "<p class=\"none\">None.</p>" }
        let head = header.enumerated().map {
            "<th\($0.offset > 0 && numeric.contains($0.offset) ? " class=\"n\"" : "")>\(escape($0.element))</th>"
        }.joined()
        let body = rows.map { row in
            "<tr>" + row.enumerated().map { "<td\(numeric.contains($0.offset) ? " class=\"n\"" : "")>\(escape($0.element))</td>" }.joined()
                + "</tr>"
        }.joined(separator: "\n")
        return "<table><thead><tr>\(head)</tr></thead><tbody>\n\(body)\n</tbody></table>"
    }

    static func number(_ value: Double, _ decimals: Int = 0) -> String { String(format: "%.\(decimals)f", value) }

    static func duration(_ seconds: Double) -> String {
        seconds >= 3600 ? String(format: "%.1f h", seconds / 3600) : String(format: "%.0f min", seconds / 60)
    }
}

/// Inline SVG charts: stacked bars of mode shares, and a plain bar chart.
enum SVGChart {
    /// Fixed colours per mode, shared with the GeoJSON legs.
    static let modeColors: [String: String] = [
        "still": "#9e9e9e", "walk": "#2e7d32", "bike": "#f9a825", "car": "#c62828", "bus": "#6a1b9a",
        "train": "#1565c0", "vehicle": "#546e7a", "boat": "#00838f", "airplane": "#4e342e", "unknown": "#cfd8dc"
    ]

    /// One bar per category (label), each split into mode shares of its total; the legend lists the modes.
    static func stackedShares(categories: [String], modes: [String], values: [[Double]], title: String, unit: String) -> String {
        let width = 760.0, height = 260.0, left = 44.0, bottom = 40.0, top = 28.0
        let plotWidth = width - left - 130, plotHeight = height - top - bottom
        let barWidth = plotWidth / Double(max(1, categories.count))
        var svg = open(width: width, height: height, title: title, titleX: left)
        for tick in [0.0, 0.5, 1.0] {
            let y = top + plotHeight * (1 - tick)
            svg += "<line x1=\"\(Int(left))\" x2=\"\(Int(left + plotWidth))\" y1=\"\(y)\" y2=\"\(y)\" stroke=\"#ddd\"/>"
            svg += "<text x=\"\(Int(left) - 6)\" y=\"\(y + 4)\" text-anchor=\"end\" class=\"ax\">\(Int(tick * 100))%</text>"
        }
        for (i, category) in categories.enumerated() {
            let total = values[i].reduce(0, +)
            var y = top + plotHeight
            let x = left + Double(i) * barWidth
            for (m, mode) in modes.enumerated() where total > 0 && values[i][m] > 0 {
                let h = plotHeight * values[i][m] / total
                y -= h
                svg +=
                    "<rect x=\(q(x + 1)) y=\(q(y)) width=\(q(max(1, barWidth - 2))) height=\(q(h)) fill=\"\(modeColors[mode] ?? "#888")\">"
                    + "<title>\(HTML.escape(category)) \(mode): \(HTML.number(100 * values[i][m] / total))% (\(HTML.number(values[i][m], 1)) \(unit))</title></rect>"
            }
            if categories.count <= 12 || i % 3 == 0 {
                svg +=
                    "<text x=\(q(x + barWidth / 2)) y=\(q(top + plotHeight + 16)) text-anchor=\"middle\" class=\"ax\">\(HTML.escape(category))</text>"
            }
        }
        for (m, mode) in modes.enumerated() {
            let y = top + 8 + Double(m) * 20
            svg += "<rect x=\(q(width - 110)) y=\(q(y - 10)) width=\"12\" height=\"12\" fill=\"\(modeColors[mode] ?? "#888")\"/>"
            svg += "<text x=\(q(width - 92)) y=\(q(y)) class=\"ax\">\(HTML.escape(mode))</text>"
        }
        return svg + "</svg>"
    }

    /// Horizontal bars with their values.
    static func bars(_ items: [(label: String, value: Double, color: String)], title: String, unit: String) -> String {
        let width = 760.0, row = 22.0, left = 150.0, top = 28.0
        let height = top + row * Double(items.count) + 10
        let maximum = items.map(\.value).max() ?? 1
        var svg = open(width: width, height: height, title: title, titleX: 0)
        for (i, item) in items.enumerated() {
            let y = top + Double(i) * row
            let w = maximum > 0 ? (width - left - 110) * item.value / maximum : 0
            svg += "<text x=\(q(left - 8)) y=\(q(y + 14)) text-anchor=\"end\" class=\"ax\">\(HTML.escape(item.label))</text>"
            svg += "<rect x=\(q(left)) y=\(q(y + 3)) width=\(q(max(1, w))) height=\"15\" fill=\"\(item.color)\"/>"
            svg += "<text x=\(q(left + w + 6)) y=\(q(y + 14)) class=\"ax\">\(HTML.number(item.value, 1)) \(HTML.escape(unit))</text>"
        }
        return svg + "</svg>"
    }

    /// A time series as a line, minutes on the x axis.
    static func line(_ values: [Double], stepSeconds: Double, title: String, unit: String) -> String {
        let width = 760.0, height = 220.0, left = 52.0, bottom = 34.0, top = 28.0, plotWidth = width - left - 20,
            plotHeight = height - top - bottom
        let maximum = max(values.max() ?? 1, 1e-9) * 1.1
        let points = values.enumerated().map { index, value in
            String(
                format: "%.1f,%.1f", left + plotWidth * Double(index) / Double(values.count - 1), top + plotHeight * (1 - value / maximum))
        }.joined(separator: " ")
        var svg = open(width: width, height: height, title: title, titleX: 0)
        for tick in [0.0, 0.5, 1.0] {
            let y = top + plotHeight * (1 - tick)
            svg += "<line x1=\(q(left)) x2=\(q(left + plotWidth)) y1=\(q(y)) y2=\(q(y)) stroke=\"#ddd\"/>"
            svg += "<text x=\(q(left - 6)) y=\(q(y + 4)) text-anchor=\"end\" class=\"ax\">\(HTML.number(tick * maximum, 2))</text>"
        }
        let minutes = Double(values.count - 1) * stepSeconds / 60
        for tick in [0.0, 0.5, 1.0] {
            svg +=
                "<text x=\(q(left + plotWidth * tick)) y=\(q(height - 12)) text-anchor=\"middle\" class=\"ax\">\(HTML.number(tick * minutes, 1)) min</text>"
        }
        svg += "<text x=\(q(left + 4)) y=\(q(top - 4)) class=\"ax\">\(HTML.escape(unit))</text>"
        return svg + "<polyline fill=\"none\" stroke=\"#1565c0\" stroke-width=\"1.5\" points=\"\(points)\"/></svg>"
    }

    /// The `<svg>` start tag and the chart's title.
    static func open(width: Double, height: Double, title: String, titleX: Double) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" width=\"\(Int(width))\" height=\"\(Int(height))\" role=\"img\">"
            + "<text x=\"\(Int(titleX))\" y=\"16\" class=\"ct\">\(HTML.escape(title))</text>"
    }

    static func q(_ value: Double) -> String { "\"" + String(format: "%.1f", value) + "\"" }
}
