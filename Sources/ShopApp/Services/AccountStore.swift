/// The signed-in customer's account facts that routes depend on.
final class AccountStore {
    var hasPaymentMethod: Bool
    var twoFactorEnabled: Bool
    /// Orders placed this session, newest last.
    private(set) var placedOrders: [Int] = []
    private var nextOrderID = 1001

    init(hasPaymentMethod: Bool, twoFactorEnabled: Bool) {
        self.hasPaymentMethod = hasPaymentMethod
        self.twoFactorEnabled = twoFactorEnabled
    }

    func placeOrder() -> Int {
        defer { nextOrderID += 1 }
        placedOrders.append(nextOrderID)
        return nextOrderID
    }
}
