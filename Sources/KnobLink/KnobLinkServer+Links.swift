import OSCTransport

extension KnobLinkServer {
    /// The links of this instance: those given in the configuration and those added by
    /// `/sys/link` or ``link(to:twoWay:)``.
    public var links: [LinkManager.Link] {
        onLoop { core.links?.manager.links ?? [] }
    }

    /// What the links did (also part of ``statistics()``).
    public var linkStatistics: LinkStatistics {
        onLoop { core.links?.manager.statistics ?? LinkStatistics() }
    }

    /// Links this instance to another one, as `/sys/link s url i mode` does.
    /// - Parameters:
    ///   - url: the other instance, `osc.udp://host:port/` (or `osc.tcp://` for a TCP connection)
    ///     with a numeric host or `localhost`.
    ///   - twoWay: whether to ask the other instance to link back.
    /// - Throws: ``KnobLinkServerError/invalidURL(_:reason:)``.
    public func link(to url: OSCURL, twoWay: Bool = true) throws(KnobLinkServerError) {
        let result: Result<Void, KnobLinkServerError> = onLoop {
            guard let links = core.links else { return .success(()) }
            do throws(KnobLinkServerError) {
                try links.add(url, twoWay: twoWay, from: nil)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    /// Removes the link to `url`.
    /// - Returns: whether there was one.
    @discardableResult
    public func unlink(_ url: OSCURL) -> Bool {
        onLoop {
            guard let links = core.links, let address = LinkManager.address(of: url, announcedFrom: nil) else {
                return false
            }
            return links.manager.remove(address: address)
        }
    }
}

extension ServerCore {
    /// The link counters, for `/sys/stats`.
    func linkStatisticsEntries() -> [(name: String, value: Int)] {
        [("links", links?.manager.links.count ?? 0)] + (links?.manager.statistics.entries ?? [])
    }
}
