import Foundation

/// The navigation state as bytes, for state restoration: on a cold start
/// the app decodes it and rebuilds the same tabs, stacks and modals through
/// its coordinators. Only route ids and parameters are stored — never
/// screens — so an archive stays valid across builds that keep their routes.
public struct RestorationArchive: Hashable, Sendable, Codable {
    public static let currentVersion = 1

    public var version: Int
    public var state: NavigationState

    public init(state: NavigationState) {
        self.version = Self.currentVersion
        self.state = state
    }

    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }

    /// Decodes an archive; an archive from another version, or a corrupt
    /// one, is refused so the app starts clean instead of half-restored.
    public static func decode(_ data: Data) throws(RestorationError) -> RestorationArchive {
        let archive: RestorationArchive
        if let line = JSONNesting.lineTooDeep(in: data) { throw .corrupt(JSONNesting.tooDeep(line: line)) }
        do {
            archive = try JSONDecoder().decode(RestorationArchive.self, from: data)
        } catch {
            throw .corrupt(String(describing: error))
        }
        guard archive.version == currentVersion else { throw .unsupportedVersion(archive.version) }
        return archive
    }
}

public enum RestorationError: Error, Hashable, Sendable, CustomStringConvertible {
    case corrupt(String)
    case unsupportedVersion(Int)

    public var description: String {
        switch self {
        case .corrupt(let detail): return "restoration archive is corrupt: \(detail)"
        case .unsupportedVersion(let version):
            return "restoration archive version \(version) is not supported (expected \(RestorationArchive.currentVersion))"
        }
    }
}
