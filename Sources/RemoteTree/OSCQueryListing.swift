import OSCQuery
import Parameters

/// What an OSCQuery server's namespace (`GET /`) says about its tree, turned into a
/// ``RemoteListing`` and into how each parameter's value is sent.
///
/// Pure data, so that a test (and the fuzz target of the namespace) can feed it JSON. It reads
/// what the OSCQuery proposal defines and what servers commonly send:
///
/// - a node with `TYPE` is a method, mirrored when its type is one number or a boolean (`f`,
///   `d`, `i`, `h`, `T`, `F`); its `CONTENTS`, if any, and methods of other types (strings,
///   several arguments) are skipped and counted (``skipped``);
/// - a node without `TYPE` is a container: a group named by its `DESCRIPTION`;
/// - the range is the first `RANGE`'s `MIN`/`MAX`; without one, 0…1 for floats and 0…127 for
///   integers, or, for a `VALUE` outside that, 0 (or minus the bound) to the power of ten above
///   twice the value (440 → 0…1000); the value is the first of `VALUE`;
/// - `ACCESS` 1 is read-only; 0 (or none) on a method means readable and writable;
/// - `EXTENDED_TYPE "boolean"` and `TYPE` `T`/`F` are toggles; `UNIT` gives the display unit
///   where KnobLink has one (`gain.db` is dB) unless ``init(namespace:maximumNodes:usesUnits:)``
///   is told not to (KnobLink's own values are normalised, its `UNIT` is the parameter's);
/// - path segments are made into identifiers the tree accepts (other bytes become `_`, at most
///   64, reserved names get a `_` in front, a repeat gets `_2`…); values are sent to the path as
///   the server wrote it.
///
/// Everything is bounded: at most `maximumNodes` groups and parameters, strings as
/// ``RemoteListing`` bounds them, and the JSON itself by the parser's size and depth.
struct OSCQueryListing {
    /// How a parameter's value travels in OSC.
    enum ValueType: Equatable {
        /// `,f v` (also for `d`: OSC 1.0 peers read floats).
        case float
        /// `,i round(v)` (also for `h`).
        case int
        /// `,T` or `,F`.
        case boolean
    }

    /// The listing in the form the tree is built from; its addresses are the sanitised paths.
    private(set) var listing: RemoteListing
    /// The server's path of each parameter, in the listing's order.
    private(set) var paths: [String] = []
    /// How each parameter's value is sent, in the listing's order.
    private(set) var types: [ValueType] = []
    /// Methods and nodes not mirrored (types other than one number or boolean, children of methods).
    private(set) var skipped = 0

    private let usesUnits: Bool
    private let defaults: [String: Float]
    private var usedPaths: Set<String> = []

    /// Reads a namespace.
    /// - Parameters:
    ///   - namespace: the JSON of `GET /`.
    ///   - maximumNodes: the most groups and parameters accepted.
    ///   - usesUnits: whether `UNIT` sets the display unit.
    ///   - defaults: the default value of a server path; OSCQuery has none, so the mirror takes
    ///     the value it first read, and a path not in here gets its current value.
    /// - Throws: ``RemoteListingError`` for a root that is not an object, and for too many nodes.
    init(namespace: OSCQueryJSON, maximumNodes: Int, usesUnits: Bool = true, defaults: [String: Float] = [:])
        throws(RemoteListingError)
    {
        listing = RemoteListing(maximumNodes: maximumNodes)
        self.usesUnits = usesUnits
        self.defaults = defaults
        guard case .object = namespace else { throw .malformed("/", "the namespace is not a JSON object") }
        try readContents(of: namespace, under: "", serverPath: "/", depth: 0)
    }

    /// Reads a container's children; `path` is its path in the tree, `serverPath` in the server's
    /// namespace (its `FULL_PATH` where it has one).
    private mutating func readContents(of node: OSCQueryJSON, under path: String, serverPath: String, depth: Int)
        throws(RemoteListingError)
    {
        guard case .object(let members)? = node["CONTENTS"] else { return }
        let parent = node["FULL_PATH"]?.stringValue ?? serverPath
        for (name, child) in members {
            guard case .object = child else {
                skipped += 1
                continue
            }
            let fullPath = child["FULL_PATH"]?.stringValue ?? (parent.hasSuffix("/") ? parent : parent + "/") + name
            let localPath = unique(path + "/" + Self.identifier(name, topLevel: path.isEmpty))
            if child["TYPE"] != nil {
                try addMethod(child, serverPath: fullPath, localPath: localPath)
                if child["CONTENTS"] != nil { skipped += 1 }
            } else {
                // The tree is at most ParameterTree.maximumDepth deep; deeper containers are skipped.
                guard depth + 1 < ParameterTree.maximumDepth else {
                    skipped += 1
                    continue
                }
                try listing.addGroupName(localPath, child["DESCRIPTION"]?.stringValue ?? name)
                try readContents(of: child, under: localPath, serverPath: fullPath, depth: depth + 1)
            }
        }
    }

    private mutating func addMethod(_ node: OSCQueryJSON, serverPath: String, localPath: String)
        throws(RemoteListingError)
    {
        guard let typeTag = node["TYPE"]?.stringValue, let type = Self.valueType(typeTag) else {
            skipped += 1
            return
        }
        let isBoolean = type == .boolean || node["EXTENDED_TYPE"]?.stringValue == "boolean"
        let value = Self.firstNumber(node["VALUE"])
        var minValue: Double
        var maxValue: Double
        if let range = Self.firstRange(node["RANGE"]) {
            (minValue, maxValue) = range
        } else {
            (minValue, maxValue) = (0, type == .int ? 127 : 1)
            // A value outside: the power of ten above twice its size, so that it can go both ways.
            if let value, value.isFinite, abs(value) > maxValue {
                let bound = Self.powerOfTen(above: 2 * abs(value))
                maxValue = bound
                if value < 0 { minValue = -bound }
            }
        }
        if isBoolean { (minValue, maxValue) = (0, 1) }
        guard minValue.isFinite, maxValue.isFinite, minValue < maxValue else {
            skipped += 1
            return
        }
        let access = node["ACCESS"]?.integerValue ?? 3
        var flags: ParameterFlags = access == 1 ? [.readable] : [.readable, .writable]
        flags.taper = .linear
        let unitText =
            isBoolean ? "boolean" : usesUnits ? Self.unitText(node["UNIT"]?.stringValue) : ""
        let current = Float(min(maxValue, max(minValue, value ?? minValue)))
        let defaultValue = defaults[serverPath].map { min(Float(maxValue), max(Float(minValue), $0)) } ?? current
        try listing.add(
            RemoteListing.Entry(
                address: localPath,
                displayName: node["DESCRIPTION"]?.stringValue ?? String(localPath.split(separator: "/").last ?? ""),
                unitText: unitText, minValue: Float(minValue), maxValue: Float(maxValue), defaultValue: defaultValue,
                value: current, taper: .linear, flags: flags))
        paths.append(serverPath)
        types.append(isBoolean && type == .float ? .float : type)
    }

    private mutating func unique(_ path: String) -> String {
        var candidate = path
        var suffix = 2
        while usedPaths.contains(candidate) {
            candidate = path + "_\(suffix)"
            suffix += 1
        }
        usedPaths.insert(candidate)
        return candidate
    }

    /// A path segment as a tree identifier: `[A-Za-z0-9_-]`, at most 64 bytes, not reserved.
    static func identifier(_ name: String, topLevel: Bool) -> String {
        var bytes = name.utf8.prefix(63).map { byte -> UInt8 in
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "_"), UInt8(ascii: "-"):
                byte
            default: UInt8(ascii: "_")
            }
        }
        if bytes.isEmpty { bytes = [UInt8(ascii: "_")] }
        let text = String(decoding: bytes, as: UTF8.self)
        if ParameterTree.reservedIdentifiers.contains(text)
            || (topLevel && ParameterTree.reservedTopLevelIdentifiers.contains(text))
        {
            return "_" + text
        }
        return text
    }

    /// The smallest power of ten at or above `value` (at most 10^30).
    private static func powerOfTen(above value: Double) -> Double {
        var bound = 1.0
        while bound < value && bound < 1e30 { bound *= 10 }
        return bound
    }

    private static func valueType(_ tag: String) -> ValueType? {
        switch tag {
        case "f", "d": .float
        case "i", "h": .int
        case "T", "F": .boolean
        default: nil
        }
    }

    /// OSCQuery's unit names (its `units.md`) as the unit text of `/sys/list`.
    private static func unitText(_ unit: String?) -> String {
        switch unit {
        case "gain.db": "dB"
        case "time.hz": "Hz"
        case "time.second": "s"
        case "time.ms": "ms"
        case "time.samples": "samples"
        case "time.bpm": "BPM"
        case "time.cents": "cents"
        case "angle.degree": "°"
        default: ""
        }
    }

    private static func number(_ json: OSCQueryJSON?) -> Double? {
        switch json {
        case .int(let value)?: Double(value)
        case .float(let value)?: Double(value)
        case .double(let value)?: value
        case .bool(let value)?: value ? 1 : 0
        default: nil
        }
    }

    /// `VALUE` is a list, one item per argument; some servers send a bare number.
    private static func firstNumber(_ json: OSCQueryJSON?) -> Double? {
        if case .array(let items)? = json { return number(items.first) }
        return number(json)
    }

    /// `RANGE` is a list of `{"MIN":…,"MAX":…}`, one per argument; some servers send one object.
    private static func firstRange(_ json: OSCQueryJSON?) -> (Double, Double)? {
        var range = json
        if case .array(let items)? = json { range = items.first }
        guard let minValue = number(range?["MIN"]), let maxValue = number(range?["MAX"]) else { return nil }
        return (minValue, maxValue)
    }
}
