import CLua
import CNavScriptLua

/// A block of memory in which one Lua state at a time is prepared into an
/// image or restored from one (see `LuaStateImage` and CNavScriptLua/region.c).
///
/// Why a type: every image is taken in, and can only be restored into, one
/// region — the process's ``shared`` one in production; a test makes a
/// region of its own to know which path its states take. Thread-safe: the
/// region is taken and handed back with an atomic flag.
package final class LuaStateRegion: @unchecked Sendable {
    /// The process's region, used by every image unless told otherwise.
    static let shared = LuaStateRegion(slot: clua_region_shared(), owned: false)

    private let slot: UnsafeMutablePointer<clua_RegionSlot>
    private let owned: Bool

    /// A region of its own, unmapped when the last image using it is gone.
    convenience init() {
        let slot = UnsafeMutablePointer<clua_RegionSlot>.allocate(capacity: 1)
        slot.initialize(to: clua_RegionSlot(busy: 0, base: nil))
        self.init(slot: slot, owned: true)
    }

    private init(slot: UnsafeMutablePointer<clua_RegionSlot>, owned: Bool) {
        self.slot = slot
        self.owned = owned
    }

    deinit {
        guard owned else { return }
        clua_region_unmap(slot)
        slot.deallocate()
    }

    /// The region, for one state; nil while another state holds it. The
    /// state hands it back when it closes.
    func acquire() -> UnsafeMutablePointer<clua_Region>? {
        clua_region_acquire(slot)
    }

    /// Whether a state holds the region now.
    var isHeld: Bool { slot.pointee.busy != 0 }
}
