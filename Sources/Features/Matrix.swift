import CBLAS

/// A dense row-major matrix of `Double`, the shape windowed features are computed in:
/// one row per window, one column per sample or feature.
public struct Matrix: Hashable, Sendable {
    public let rows: Int
    public let columns: Int
    /// Elements in row-major order (`values[row * columns + column]`).
    public var values: [Double]

    public init(rows: Int, columns: Int, values: [Double]) {
        precondition(values.count == rows * columns, "a \(rows)×\(columns) matrix needs \(rows * columns) values, got \(values.count)")
        self.rows = rows
        self.columns = columns
        self.values = values
    }

    public init(rows: Int, columns: Int, repeating value: Double = 0) {
        self.init(rows: rows, columns: columns, values: Array(repeating: value, count: rows * columns))
    }

    public subscript(row: Int, column: Int) -> Double {
        get { values[row * columns + column] }
        set { values[row * columns + column] = newValue }
    }

    /// `self × other`, by OpenBLAS `dgemm`.
    ///
    /// - Complexity: O(rows × columns × other.columns), multithreaded and vectorised by OpenBLAS.
    public func multiplied(by other: Matrix) -> Matrix {
        precondition(columns == other.rows, "cannot multiply \(rows)×\(columns) by \(other.rows)×\(other.columns)")
        var result = Matrix(rows: rows, columns: other.columns)
        guard rows > 0, other.columns > 0, columns > 0 else { return result }
        values.withUnsafeBufferPointer { a in
            other.values.withUnsafeBufferPointer { b in
                result.values.withUnsafeMutableBufferPointer { c in
                    cblas_dgemm(
                        CblasRowMajor, CblasNoTrans, CblasNoTrans, Int32(rows), Int32(other.columns), Int32(columns),
                        1, a.baseAddress, Int32(columns), b.baseAddress, Int32(other.columns), 0, c.baseAddress,
                        Int32(other.columns))
                }
            }
        }
        return result
    }

    public var transposed: Matrix {
        var result = Matrix(rows: columns, columns: rows)
        for row in 0..<rows {
            for column in 0..<columns { result[column, row] = self[row, column] }
        }
        return result
    }
}
