import PosterGraphics

/// Posters of one song at instants in order — a player's frames, a video's, a live screen's —
/// each drawn from what the one before left (the song's time-independent base, the rows that did
/// not change), and told what changed, so that a sink that keeps the last picture can skip an
/// unchanged one or update only some rows. Every poster has the same pixels as
/// ``PreparedSong/render(at:)`` gives for the same instant.
///
/// Not `Sendable`: a sequence keeps the frame before, so it belongs to one task at a time. Make
/// as many as needed from one ``PreparedSong``; they share its base layers and its renderer's bound.
public final class PosterSequence {
    /// The song and style the posters are of.
    public let prepared: PreparedSong
    private let renderer: SequenceRenderer

    /// A sequence of posters of one prepared song.
    ///
    /// - Parameter prepared: The song and style; the sequence draws within its renderer's bound.
    public init(_ prepared: PreparedSong) throws(PosterError) {
        self.prepared = prepared
        renderer = try prepared.session.makeRenderer()
    }

    /// The poster at `time`, drawn on the calling thread, and what differs from the poster this
    /// sequence made before it.
    ///
    /// - Parameter time: The instant in the song (any order; in order reuses the most).
    public func poster(at time: Timestamp) throws(PosterError) -> (poster: Poster, change: PosterChange) {
        let scene = prepared.session.scenes.scene(at: time)
        let renderer = self.renderer
        return try prepared.limiter.blocking { () throws(PosterError) in
            let (pixels, report, change) = try renderer.renderPixelBufferAndChange(scene)
            return (Poster(pixels, report: report), PosterChange(change))
        }
    }
}

/// What a poster changed against the one its ``PosterSequence`` made before it (as libass's
/// `detect_change` tells a player whether to upload a new picture).
public enum PosterChange: Hashable, Sendable {
    /// The same pixels as the poster before.
    case none
    /// Only these pixel rows (sorted, apart) may differ from the poster before.
    case rows([Range<Int>])
    /// Anything may differ: the first poster, or one drawn whole.
    case whole

    init(_ change: FrameChange) {
        switch change {
        case .none: self = .none
        case .rows(let rows): self = .rows(rows)
        case .whole: self = .whole
        }
    }
}
