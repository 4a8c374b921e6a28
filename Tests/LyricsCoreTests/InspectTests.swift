import Foundation
import Testing
@testable import LyricsCore

/// The `inspect` JSON contract and the human table.
@Suite struct InspectTests {
    static let sample = """
        [ti:Tin "Roof" Weather]
        [ar:Nobody\\Else]
        [offset:-200]
        [00:05.00]<00:05.00>Kettle <00:05.40>on<00:06.00>
        [00:05.00]水壶开着
        [00:08.00]
        [00:09.00]Tab\there
        """

    @Test func prettyJSONExactly() throws {
        let json = try lrc(Self.sample).inspectJSON()
        #expect(json == """
            {
              "encoding": "utf-8",
              "format": "lrc",
              "tags": {
                "ar": "Nobody\\\\Else",
                "offset": "-200",
                "ti": "Tin \\"Roof\\" Weather"
              },
              "offset_ms": -200,
              "agents": [],
              "lines": [
                {"start_ms": 5200, "end_ms": 6200, "text": "Kettle on", "translation": "水壶开着", "words": [{"start_ms": 5200, "end_ms": 5600, "text": "Kettle "}, {"start_ms": 5600, "end_ms": 6200, "text": "on"}], "role": "lyric", "romanisation": null, "background": null, "agent": null},
                {"start_ms": 8200, "end_ms": 9200, "text": "", "translation": null, "words": [], "role": "lyric", "romanisation": null, "background": null, "agent": null},
                {"start_ms": 9200, "end_ms": 14200, "text": "Tab\\there", "translation": null, "words": [], "role": "lyric", "romanisation": null, "background": null, "agent": null}
              ]
            }
            """)
    }

    @Test func compactJSONExactly() throws {
        let json = try lrc("[00:01.00]a\n[00:01.00]b").inspectJSON(pretty: false)
        #expect(json == #"{"encoding":"utf-8","format":"lrc","tags":{},"offset_ms":0,"agents":[],"lines":[{"start_ms":1000,"end_ms":6000,"text":"a","translation":"b","words":[],"role":"lyric","romanisation":null,"background":null,"agent":null}]}"#)
    }

    @Test func jsonParsesWithTheRightShape() throws {
        for pretty in [true, false] {
            let json = try lrc(Self.sample).inspectJSON(pretty: pretty)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            #expect(Set(object.keys) == ["encoding", "format", "tags", "offset_ms", "agents", "lines"])
            #expect(object["format"] as? String == "lrc")
            #expect(object["encoding"] as? String == "utf-8")
            #expect(object["offset_ms"] as? Int == -200)
            #expect((object["tags"] as? [String: String])?["ti"] == #"Tin "Roof" Weather"#)
            let lines = try #require(object["lines"] as? [[String: Any]])
            #expect(lines.count == 3)
            #expect(lines[0]["translation"] as? String == "水壶开着")
            #expect(lines[1]["translation"] is NSNull)
            #expect(lines[2]["text"] as? String == "Tab\there")
            let words = try #require(lines[0]["words"] as? [[String: Any]])
            #expect(words.map { $0["text"] as? String } == ["Kettle ", "on"])
            #expect(words.map { $0["start_ms"] as? Int } == [5200, 5600])
        }
    }

    @Test func keyOrderAndDeterminism() throws {
        let lyrics = try lrc("[zz:1]\n[aa:2]\n[mm:3]\n[00:01.00]x")
        let json = lyrics.inspectJSON(pretty: false)
        #expect(json == lyrics.inspectJSON(pretty: false))
        let order = ["\"encoding\"", "\"format\"", "\"tags\"", "\"aa\"", "\"mm\"", "\"zz\"", "\"offset_ms\"", "\"agents\"",
                     "\"lines\"", "\"start_ms\"", "\"end_ms\"", "\"text\"", "\"translation\"", "\"words\"", "\"role\"",
                     "\"romanisation\"", "\"background\"", "\"agent\""]
        let positions = order.map { json.range(of: $0)?.lowerBound }
        #expect(positions.allSatisfy { $0 != nil })
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())
    }

    @Test(arguments: [
        ("plain", "plain"), ("quote \"", "quote \\\""), ("back\\slash", "back\\\\slash"), ("new\nline", "new\\nline"),
        ("cr\r", "cr\\r"), ("\u{01}\u{1F}", "\\u0001\\u001f"), ("\u{08}\u{0C}", "\\b\\f"), ("slash /", "slash /"),
        ("雨 é 😀 \u{3000}", "雨 é 😀 \u{3000}"), ("\u{7F}", "\u{7F}"),
    ])
    func escaping(raw: String, escaped: String) throws {
        #expect(JSONText.quoted(raw) == "\"" + escaped + "\"")
        let back = try JSONSerialization.jsonObject(with: Data(JSONText.quoted(raw).utf8), options: .fragmentsAllowed)
        #expect(back as? String == raw)
    }

    @Test func table() throws {
        let table = try lrc(Self.sample).inspectTable()
        #expect(table == """
            format    lrc
            encoding  utf-8
            offset    -200 ms
            tags      ar: Nobody\\Else
                      offset: -200
                      ti: Tin "Roof" Weather
            lines     3 (2 with text, 1 gap)

            #  start      end        text
            1  00:05.200  00:06.200  Kettle on
                                     ↳ 水壶开着
                                       2 words timed
               00:08.200  00:09.200  ·
            2  00:09.200  00:14.200  Tab\there

            """)
    }
}
