import Foundation
import Testing
@testable import NowPlaying

/// Reading pushed now-playing reports and choosing the device followed. (The HTTP endpoint is in
/// CLITests/ServePushTests, with curl against a real server.)
@Suite struct PushSourceTests {
    func report(_ id: String, at ms: Int, playing: Bool = true, title: String = "Song") -> PushSource.Push {
        .playing(PushSource.Report(deviceID: id, title: title, artist: nil, album: nil, durationMs: nil, positionMs: ms, isPlaying: playing,
                                   coverURL: nil, lyrics: nil))
    }

    @Test func readsAReportAndAStop() throws {
        let body = Data(#"{"device_id":"phone-1","title":"A","artist":"B","album":null,"duration_ms":200000.4,"position_ms":1500,"is_playing":true,"cover_url":"https://art.lan/a.jpg","lyrics":"[00:01.00]x"}"#.utf8)
        #expect(try PushSource.parse(body, maxLyricsBytes: 1000) == .playing(PushSource.Report(
            deviceID: "phone-1", title: "A", artist: "B", album: nil, durationMs: 200000, positionMs: 1500, isPlaying: true,
            coverURL: "https://art.lan/a.jpg", lyrics: "[00:01.00]x")))
        #expect(try PushSource.parse(Data(#"{"device_id":"phone-1","stopped":true}"#.utf8), maxLyricsBytes: 1000) == .stopped(deviceID: "phone-1"))
        #expect(throws: PushSource.Refusal.invalid(field: "lyrics", reason: "longer than 5 bytes")) {
            try PushSource.parse(Data(#"{"device_id":"p","position_ms":0,"is_playing":true,"lyrics":"123456"}"#.utf8), maxLyricsBytes: 5)
        }
        #expect(throws: PushSource.Refusal.unknownField("positionMs")) {
            try PushSource.parse(Data(#"{"device_id":"p","positionMs":0,"is_playing":true}"#.utf8), maxLyricsBytes: 5)
        }
    }

    @Test func theLatestPlayingDeviceWinsAndASilentOneCountsAsPaused() throws {
        let second: Int64 = 1_000_000_000
        var devices: [String: (report: PushSource.Report, at: Int64)] = [:]
        func add(_ push: PushSource.Push, at: Int64) { if case .playing(let r) = push { devices[r.deviceID] = (r, at) } }
        add(report("phone", at: 10_000), at: 0)
        add(report("tv", at: 50_000, playing: false), at: 5 * second)
        // The paused TV pushed last, but the playing phone wins.
        var state = PushSource.current(devices, wanted: nil, now: 6 * second, staleAfter: 30)
        #expect(state?.owner == "phone")
        #expect(state?.status == .playing)
        #expect(state?.clock.position(at: 6 * second) == 16_000_000)  // extrapolated from the push
        // --device picks the TV whatever plays.
        #expect(PushSource.current(devices, wanted: "tv", now: 6 * second, staleAfter: 30)?.owner == "tv")
        #expect(PushSource.current(devices, wanted: "radio", now: 6 * second, staleAfter: 30) == nil)
        // 30 s without a push: the phone stands where it was at 30 s, paused; the TV, pushed later, is shown.
        state = PushSource.current(devices, wanted: "phone", now: 40 * second, staleAfter: 30)
        #expect(state?.status == .paused)
        #expect(state?.clock.position(at: 40 * second) == 40_000_000)
        #expect(PushSource.current(devices, wanted: nil, now: 40 * second, staleAfter: 30)?.owner == "tv")
    }

    @Test func theSourceSendsEachChangeAndForgetsAStoppedDevice() async throws {
        let source = PushSource(device: nil)
        try source.receive(report("phone", at: 1000), at: 0)
        try source.receive(.stopped(deviceID: "phone"), at: 1)
        source.finish()
        var seen: [String?] = []
        for await state in source.updates { seen.append(state?.owner) }
        #expect(seen == ["phone", nil])
    }

    /// Many devices: at most 64 are kept, the longest silent making room.
    @Test func devicesAreBounded() throws {
        let source = PushSource(device: nil)
        for i in 0..<200 { try source.receive(report("d\(i)", at: 0), at: Int64(i)) }
        source.finish()
        #expect(PushSource.maxDevices == 64)
    }
}
