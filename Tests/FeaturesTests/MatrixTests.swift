import Features
import Testing

@Suite struct MatrixTests {
    @Test func gemmMatchesTheSchoolbookProduct() {
        let a = Matrix(rows: 2, columns: 3, values: [1, 2, 3, 4, 5, 6])
        let b = Matrix(rows: 3, columns: 2, values: [7, 8, 9, 10, 11, 12])
        #expect(a.multiplied(by: b) == Matrix(rows: 2, columns: 2, values: [58, 64, 139, 154]))
    }

    @Test func largerProductsAgreeWithANaiveLoop() {
        var generator = SystemRandomNumberGenerator()
        let a = Matrix(rows: 17, columns: 33, values: (0..<(17 * 33)).map { _ in Double.random(in: -1...1, using: &generator) })
        let b = Matrix(rows: 33, columns: 9, values: (0..<(33 * 9)).map { _ in Double.random(in: -1...1, using: &generator) })
        let product = a.multiplied(by: b)
        for row in 0..<17 {
            for column in 0..<9 {
                let expected = (0..<33).reduce(0.0) { $0 + a[row, $1] * b[$1, column] }
                #expect(abs(product[row, column] - expected) < 1e-12)
            }
        }
    }

    @Test func transposeSwapsIndices() {
        let a = Matrix(rows: 2, columns: 3, values: [1, 2, 3, 4, 5, 6])
        #expect(a.transposed == Matrix(rows: 3, columns: 2, values: [1, 4, 2, 5, 3, 6]))
        #expect(a.transposed.transposed == a)
    }

    @Test func emptyShapesGiveEmptyProducts() {
        let a = Matrix(rows: 0, columns: 3)
        #expect(a.multiplied(by: Matrix(rows: 3, columns: 2)).values.isEmpty)
    }
}
