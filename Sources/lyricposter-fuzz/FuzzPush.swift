// libFuzzer target for `POST /api/now-playing` (`serve --source push`): the input is the request
// body, read and checked as a now-playing report, then taken by a push source and aged.
// FUZZ_TARGET=push; seeds in Tests/Fuzz/corpus/push.
import Foundation
import NowPlaying

func fuzzPush(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    let body = Data(bytes: data, count: size)
    guard let push = try? PushSource.parse(body, maxLyricsBytes: 1 << 16) else { return 0 }
    let source = PushSource(device: nil, staleAfter: 1)
    try? source.receive(push, at: 0)
    try? source.receive(push, at: 5_000_000_000)
    source.finish()
    return 0
}
