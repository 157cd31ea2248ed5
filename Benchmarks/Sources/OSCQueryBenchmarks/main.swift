// `GET /` of a 1,000-parameter tree (issue 11), answered by the OSCQuery namespace, against the
// same bytes served as a static file: the response built from a buffer held in memory, which is
// what the server's loop could do at best. Both contenders build an HTTP response and encode its
// head, as the server does before writing head and body (the body is never copied behind the
// head), so the ratio is the cost of the namespace's work (a copy of its template and 1,000
// values written) over answering with a buffer that exists already.
//
//   swift run -c release OSCQueryBenchmarks          (or `bash Scripts/bench.sh oscquery`)
import BenchHarness
import HTTPCore
import OSCQuery
import Parameters

func makeTree() -> ParameterTree {
    let groups: [ParameterNodeSpec] = (0..<10).map { group in
        ParameterTree.createGroup(
            withIdentifier: "g\(group)", name: "Group \(group)",
            children: (0..<100).map { index in
                ParameterTree.createParameter(
                    withIdentifier: "p\(index)", name: "Parameter \(index)",
                    address: ParameterAddress(group * 100 + index), min: -60, max: 12, unit: .decibels,
                    flags: [.readable, .writable], defaultValue: Float(index % 72) - 60)
            })
    }
    do {
        return try ParameterTree(children: groups)
    } catch {
        fatalError("benchmark tree refused: \(error)")
    }
}

let tree = makeTree()
let namespace = OSCQueryNamespace(tree: tree)
let hostInfo = OSCQueryHostInfo(name: "bench", oscPort: 8000, oscIP: "127.0.0.1")
let request = HTTPRequest(method: "GET", path: "/")
let staticBody = namespace.response(to: request, hostInfo: hostInfo).body

let report = Report(title: "OSCQuery GET / of \(tree.allParameters.count) parameters (\(staticBody.count) bytes)")
let contenders = [
    Contender.timing("namespace") {
        let response = namespace.response(to: request, hostInfo: hostInfo)
        blackHole(response.encodedHead())
        blackHole(response.body)
    },
    Contender.timing("static") {
        let response = HTTPResponse(status: .ok, body: staticBody).answering(request)
        blackHole(response.encodedHead())
        blackHole(response.body)
    },
]
let samples = Rounds().samples(contenders)
let namespaceRate = Statistics.median(samples[0])
let staticRate = Statistics.median(samples[1])
report.add(
    "GET / per second", knobLink: "\(Format.rate(namespaceRate)) (\(Format.micros(UInt64(1e9 / namespaceRate))))",
    peer: "static \(Format.rate(staticRate)) (\(Format.micros(UInt64(1e9 / staticRate))))",
    ratio: Rounds.pairedRatio(samples[0], samples[1]), target: nil)
report.printMarkdown()

// Where the time goes: reading the values (through the tree's lock and taper) and formatting them.
let parts = Rounds().samples([
    Contender.timing("read values") {
        var sum = 0.0
        for parameter in tree.allParameters { sum += parameter.normalizedValue }
        blackHole(sum)
    },
    Contender.timing("format values") {
        var writer = OSCQueryJSONWriter(capacity: 16_000)
        for index in 0..<tree.allParameters.count { writer.write(float: Float(index) / 1000 + 0.000_123) }
        blackHole(writer.bytes)
    },
])
print("  reading 1,000 normalised values: \(Format.micros(UInt64(1e9 / Statistics.median(parts[0]))))")
print("  formatting 1,000 floats: \(Format.micros(UInt64(1e9 / Statistics.median(parts[1]))))")
