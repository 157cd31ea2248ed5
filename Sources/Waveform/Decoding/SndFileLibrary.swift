import CSndFile

/// libsndfile's functions, found when a file is first decoded rather than when `knoblink` starts
/// (see `CSndFile/shim.h` for why).
///
/// ``shared`` opens the library once per process. A machine without it gets
/// ``AudioDecodingError/Reason/decoderUnavailable(detail:)`` for every file, and everything else
/// works as before.
enum SndFileLibrary {
    /// The soname that libsndfile1 installs (Debian: package `libsndfile1`).
    static let fileName = "libsndfile.so.1"

    /// The functions of this process's library, opened on first use; plain function pointers,
    /// safe to share.
    static let shared = load(fileName)

    /// Opens `fileName` and looks up every function; the error is dlerror's text.
    static func load(_ fileName: String) -> Result<KBSndFileAPI, SndFileLibraryError> {
        // The table's pointers are non-null, so Swift has no empty value of it: C fills raw memory,
        // which is read only when every function was found.
        withUnsafeTemporaryAllocation(of: KBSndFileAPI.self, capacity: 1) { table in
            let api = table.baseAddress!
            guard let failure = kb_sndfile_load(fileName, api) else { return .success(api.pointee) }
            return .failure(SndFileLibraryError(fileName: fileName, reason: String(cString: failure)))
        }
    }

    /// The functions of ``shared``, or the error that decoding `path` fails with without them.
    static func functions(decoding path: String) throws(AudioDecodingError) -> KBSndFileAPI {
        switch shared {
        case .success(let api): return api
        case .failure(let error):
            throw AudioDecodingError(path: path, reason: .decoderUnavailable(detail: error.description))
        }
    }
}

/// libsndfile could not be opened, or lacks a function the module calls.
struct SndFileLibraryError: Error, CustomStringConvertible {
    let fileName: String
    /// dlerror's text, which names the file or the symbol.
    let reason: String

    var description: String {
        "cannot load \(fileName): \(reason); install libsndfile (`apt-get install libsndfile1`)"
    }
}

extension KBSndFileAPI {
    /// libsndfile's words for the error of `handle` (the last open's when `nil`).
    func message(_ handle: OpaquePointer?) -> String {
        strerror(handle).map { String(cString: $0) } ?? "unknown error"
    }

    /// libsndfile's words for error `code`.
    func message(code: Int32) -> String {
        error_number(code).map { String(cString: $0) } ?? "error \(code)"
    }
}
