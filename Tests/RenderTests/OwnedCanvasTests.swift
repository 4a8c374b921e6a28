import Foundation
import PosterGraphics
import XCTest

/// A canvas drawn into an array of its own (the backdrop's): the same pixels as a canvas Cairo
/// allocates, read without a copy, and handed over so that nothing drawn afterwards reaches them.
final class OwnedCanvasTests: XCTestCase {
    private func draw(on canvas: Canvas) {
        canvas.fill(Color(red: 0.2, green: 0.4, blue: 0.7, alpha: 0.9))
        canvas.fillVerticalGradient(Rect(x: 0, y: 0, width: 301, height: 203),
                                    stops: [(0, Color(red: 1, green: 0.5, blue: 0, alpha: 0.3)), (1, Color(red: 0, green: 0, blue: 0, alpha: 0.6))])
        canvas.fill(Rect(x: 17.5, y: 40.25, width: 120, height: 80), color: Color(red: 0.9, green: 0.1, blue: 0.3, alpha: 0.7), cornerRadius: 12)
        canvas.fillRows(color: .black, alphas: (0..<203).map { Double($0 % 7) / 10 })
    }

    func testOwnedPixelsAreTheSameAsCairos() throws {
        // An odd width: Cairo's stride for it is still whole pixels, and both canvases use it.
        let plain = try Canvas(width: 301, height: 203), owned = try Canvas(width: 301, height: 203, ownPixels: true)
        XCTAssertTrue(try owned.withPixels { $0 } == plain.snapshot(), "a new owned canvas is transparent")
        draw(on: plain)
        draw(on: owned)
        try plain.finish()
        let expected = plain.snapshot()
        XCTAssertTrue(try owned.withPixels { $0 } == expected, "read in place")
        XCTAssertTrue(try owned.takeBitmap() == expected, "taken")
    }

    func testATakenBitmapKeepsItsPixels() throws {
        let canvas = try Canvas(width: 64, height: 48, ownPixels: true)
        draw(on: canvas)
        let taken = try canvas.takeBitmap()
        // A copy of the bytes (`map`), not of the array's reference.
        let copy = Bitmap(width: taken.width, height: taken.height, stride: taken.stride, pixels: taken.pixels.map { $0 })
        // The canvas is done with: drawing again reaches neither the bitmap nor a later finish.
        canvas.fill(.white)
        XCTAssertThrowsError(try canvas.finish())
        XCTAssertTrue(taken == copy, "drawing after the bitmap was taken changed it")
    }

    func testAPlainCanvasGivesSnapshots() throws {
        let canvas = try Canvas(width: 40, height: 30)
        draw(on: canvas)
        try canvas.finish()
        let before = canvas.snapshot()
        XCTAssertTrue(try canvas.withPixels { $0 } == before, "read")
        XCTAssertTrue(try canvas.takeBitmap() == before, "taken")
    }
}
