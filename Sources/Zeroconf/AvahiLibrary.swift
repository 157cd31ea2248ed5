import CAvahi

/// libavahi-client's functions, found when a server first advertises rather than when `knoblink`
/// starts (see `CAvahi/shim.h` for why).
///
/// ``shared`` opens the library once per process. A machine without it gets one clear line from
/// ``ZeroconfAdvertiser/start()``, and everything else `knoblink` does works as before.
struct AvahiLibrary: @unchecked Sendable {
    /// The soname that libavahi-client3 installs (Debian: package `libavahi-client3`).
    static let fileName = "libavahi-client.so.3"

    /// The library of this process, opened on first use.
    static let shared = load(fileName)

    /// Every function the module calls; plain function pointers, safe to share.
    let api: KBAvahiAPI

    /// Opens `fileName` and looks up every function; the error is dlerror's text.
    static func load(_ fileName: String) -> Result<AvahiLibrary, AvahiLibraryError> {
        // The table's pointers are non-null, so Swift has no empty value of it: C fills raw memory,
        // which is read only when every function was found.
        withUnsafeTemporaryAllocation(of: KBAvahiAPI.self, capacity: 1) { table in
            let api = table.baseAddress!
            if let failure = kb_avahi_load(fileName, api) {
                return .failure(AvahiLibraryError(fileName: fileName, reason: String(cString: failure)))
            }
            return .success(AvahiLibrary(api: api.pointee))
        }
    }
}

/// libavahi-client could not be opened, or lacks a function the module calls.
struct AvahiLibraryError: Error, CustomStringConvertible {
    let fileName: String
    /// dlerror's text, which names the file or the symbol.
    let reason: String

    var description: String {
        "zeroconf off: cannot load \(fileName) (\(reason)); install Avahi's client library "
            + "(`apt-get install libavahi-client3`) or pass --no-zeroconf"
    }
}
