import NavigationCore

/// The outputs ShopApp's screens offer, spelled once: the coordinators wire
/// these values (`screen.setOutput(.product) { … }`) and the host lists them
/// per screen for the tools that cannot run the app (`navscript types`,
/// `lint`, `graph`, `routes check`). `opens` names the destination a tap
/// lands on when the tap alone decides it; taps whose destination takes an
/// id from the screen (`reviews`, `tracking`) or depends on a flow
/// (`continue`) leave it out and stay plain names.
extension ScreenOutput {
    static let product = ScreenOutput("product", parameters: ["id"], opens: "product")
    static let category = ScreenOutput("category", parameters: ["id"], opens: "category")
    static let promo = ScreenOutput("promo", parameters: ["code"], opens: "promo")
    static let cart = ScreenOutput("cart", opens: "cart")
    static let checkout = ScreenOutput("checkout", opens: "checkout_address")
    static let order = ScreenOutput("order", parameters: ["id"], opens: "order")
    static let settings = ScreenOutput("settings", opens: "settings")
    static let profileEdit = ScreenOutput("profile_edit", opens: "profile_edit")
    static let signIn = ScreenOutput("sign_in", opens: "login")
    static let settingsNotifications = ScreenOutput("settings_notifications", opens: "settings_notifications")
    static let settingsSecurity = ScreenOutput("settings_security", opens: "settings_security")
}

/// Which of those outputs each ShopApp screen may offer.
public enum ShopScreens {
    public static let declarations: [ScreenDeclaration] = [
        ScreenDeclaration("home", [.product, .category, .promo, .cart]),
        ScreenDeclaration("category", [.product, .cart]),
        ScreenDeclaration("promo", [.product, .cart]),
        ScreenDeclaration("product", ["reviews", .product, .cart]),
        ScreenDeclaration("reviews", [.product]),
        ScreenDeclaration("cart", [.checkout]),
        ScreenDeclaration("checkout_address", [.close, "continue"]),
        ScreenDeclaration("checkout_payment", [.close, "continue"]),
        ScreenDeclaration("checkout_confirm", [.close, "pay"]),
        ScreenDeclaration("add_payment", [.close, "done"]),
        ScreenDeclaration("orders", [.order]),
        ScreenDeclaration("order", ["tracking"]),
        ScreenDeclaration("tracking", []),
        ScreenDeclaration("profile", [.settings, .profileEdit, .signIn]),
        ScreenDeclaration("profile_edit", [.close, "done"]),
        ScreenDeclaration("settings", [.close, .settingsNotifications, .settingsSecurity]),
        ScreenDeclaration("settings_notifications", [.close]),
        ScreenDeclaration("settings_security", [.close]),
        ScreenDeclaration("login", [.close, "submit"]),
        ScreenDeclaration("two_factor", [.close, "submit"]),
        ScreenDeclaration("welcome", ["continue", .signIn]),
        ScreenDeclaration("value_prop_video", ["continue", "skip"]),
        ScreenDeclaration("sign_up", ["continue"]),
        ScreenDeclaration("profile_setup", ["continue"]),
        ScreenDeclaration("notifications_permission", ["done"])
    ]
}
