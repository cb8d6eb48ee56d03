/// A long history kept in bounded memory: the first ``headLimit`` elements,
/// the last ``tailLimit``, and how many were left out between.
///
/// Why: a scenario may loop for a million steps, and keeping every step's
/// line (or every storyboard frame) made its memory grow by hundreds of
/// bytes a step — 630 MB for 10⁶ deep links. Reports never showed more than
/// the first and last few hundred anyway, and the `--json` stream still
/// sends every step as it happens.
package struct BoundedHistory<Element>: ExpressibleByArrayLiteral {
    package let headLimit: Int
    package let tailLimit: Int
    /// The first elements, up to ``headLimit``.
    package private(set) var head: [Element] = []
    /// The last elements after the head, as a ring once it is full.
    private var ring: [Element] = []
    /// Where the oldest element of a full ring is.
    private var ringStart = 0
    /// How many elements were ever appended.
    package private(set) var count = 0

    /// The limits a step timeline uses: what reports show.
    package static var defaultLimits: (head: Int, tail: Int) { (100, 400) }

    package init() { self.init(headLimit: Self.defaultLimits.head, tailLimit: Self.defaultLimits.tail) }

    package init(headLimit: Int, tailLimit: Int) {
        precondition(headLimit >= 0 && tailLimit >= 1, "a history keeps at least its last element")
        self.headLimit = headLimit
        self.tailLimit = tailLimit
    }

    /// A history of `elements`, appended in order (what it keeps of them).
    package init(_ elements: some Sequence<Element>) {
        self.init()
        for element in elements { append(element) }
    }

    /// A history that kept `kept` of `count` elements: the first
    /// ``headLimit`` of them as its head, the rest as its tail (how a
    /// history is read back from a report or a worker's message).
    package init(kept: [Element], count: Int) {
        let (headLimit, tailLimit) = Self.defaultLimits
        self.init(headLimit: headLimit, tailLimit: max(tailLimit, kept.count - min(headLimit, kept.count), 1))
        head = Array(kept.prefix(headLimit))
        ring = Array(kept.dropFirst(headLimit))
        self.count = max(count, kept.count)
    }

    /// Appends `element` (its number, counting from 1, is ``count`` then);
    /// returns the element it pushed out of the tail, if any.
    @discardableResult
    package mutating func append(_ element: Element) -> Element? {
        count += 1
        if head.count < headLimit {
            if head.capacity == 0 { head.reserveCapacity(16) }  // a typical scenario's steps, in one allocation
            head.append(element)
            return nil
        }
        if ring.count < tailLimit {
            ring.append(element)
            return nil
        }
        let evicted = ring[ringStart]
        ring[ringStart] = element
        ringStart = ringStart + 1 == tailLimit ? 0 : ringStart + 1
        return evicted
    }

    /// How many elements between the head and the tail are no longer kept.
    package var omitted: Int { count - head.count - ring.count }

    /// The last elements after the head, oldest first.
    package var tail: [Element] { Array(ring[ringStart...] + ring[..<ringStart]) }

    /// Every kept element with its number (from 1), oldest first.
    package var numbered: [(number: Int, element: Element)] {
        let tailStart = count - ring.count + 1
        return head.enumerated().map { ($0.offset + 1, $0.element) }
            + tail.enumerated().map { (tailStart + $0.offset, $0.element) }
    }

    /// Every kept element, oldest first (the head, then the tail).
    package var kept: [Element] { head + tail }

    /// The last element appended.
    package var last: Element? {
        guard !ring.isEmpty else { return head.last }
        return ring[(ringStart + ring.count - 1) % ring.count]
    }

    /// Changes the last element appended (a problem attached to the latest frame).
    package mutating func updateLast(_ change: (inout Element) -> Void) {
        if ring.isEmpty {
            guard !head.isEmpty else { return }
            change(&head[head.count - 1])
        } else {
            change(&ring[(ringStart + ring.count - 1) % ring.count])
        }
    }

    package var isEmpty: Bool { count == 0 }

    package init(arrayLiteral elements: Element...) { self.init(elements) }
}

/// A scenario's step timeline: each step's line as people read it.
package typealias Timeline = BoundedHistory<String>

extension BoundedHistory: Sendable where Element: Sendable {}

extension BoundedHistory: Equatable where Element: Equatable {
    /// Equal when they kept the same elements of the same count.
    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.count == rhs.count && lhs.head == rhs.head && lhs.tail == rhs.tail
    }
}

extension BoundedHistory: Hashable where Element: Hashable {
    package func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        hasher.combine(head)
        hasher.combine(tail)
    }
}
